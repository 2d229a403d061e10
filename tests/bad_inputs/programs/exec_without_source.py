"""A function made by exec has no source: converting it warns once and runs it unconverted (right answer)."""
import runtime as tf

EXPECT = RuntimeWarning
MATCH = r"source|runs it as is"
WARNING = True
# The warning has no user line to name (the function has no file); the warning is attributed to the caller.
RESULT = 9

namespace = {}
exec("def triple(x):\n    return x * 3\n", namespace)
triple = namespace["triple"]


def trigger():
    f = tf.function(triple)
    return int(f(tf.constant(3)).numpy())  # <- here
