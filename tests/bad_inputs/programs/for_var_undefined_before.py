"""A loop variable undefined before a `for` over `tf.range(tensor)` and used after it: unbound at run time when
the loop runs zero times."""
import runtime as tf

EXPECT = UnboundLocalError
MATCH = r"'square'"


@tf.function
def f(n):
    for i in tf.range(n):  # <- here
        square = i * i  # <- here
    return square  # <- here


def trigger():
    return f(tf.constant(0))
