"""`if tensor:` in a function traced without autograph: a symbolic tensor used as a Python bool."""
import runtime as tf
from runtime.errors import OperatorNotAllowedInGraphError

EXPECT = OperatorNotAllowedInGraphError
MATCH = r"cond|autograph"


@tf.function(autograph=False)
def f(x):
    if x > 0:  # <- here
        return x
    return -x


def trigger():
    return f(tf.constant(1))
