"""A Python-valued variable set in only one branch of a tensor `if` (no tensor involved in the value)."""
import runtime as tf
from autograph.errors import StagingError

EXPECT = StagingError
MATCH = r"'msg'"


@tf.function
def f(x):
    if x > 0:
        msg = "positive"  # <- here
    return x, msg  # <- here


def trigger():
    return f(tf.constant(1.0))
