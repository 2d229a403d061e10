"""`while t > 0:` in a function traced without autograph."""
import runtime as tf
from runtime.errors import OperatorNotAllowedInGraphError

EXPECT = OperatorNotAllowedInGraphError
MATCH = r"while_loop|autograph"


@tf.function(autograph=False)
def f(x):
    while x > 0:  # <- here
        x -= 1
    return x


def trigger():
    return f(tf.constant(3))
