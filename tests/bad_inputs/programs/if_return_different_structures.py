"""Branches of a tensor `if` returning different structures."""
import runtime as tf
from autograph.errors import StagingError

EXPECT = (StagingError, TypeError, ValueError)
MATCH = r"structure|return|retval"


@tf.function
def f(x):
    if tf.reduce_sum(x) > 0:
        return x, x  # <- here
    return x  # <- here


def trigger():
    return f(tf.constant([1.0]))
