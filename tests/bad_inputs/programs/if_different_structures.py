"""Branches of a tensor `if` giving a variable different structures (a tuple vs a tensor)."""
import runtime as tf
from autograph.errors import StagingError

EXPECT = (StagingError, TypeError, ValueError)
MATCH = r"'r'|structure"


@tf.function
def f(x):
    if tf.reduce_sum(x) > 0:
        r = (x, x)  # <- here
    else:
        r = x  # <- here
    return r


def trigger():
    return f(tf.constant([1.0]))
