"""Branches of a tensor `if` giving a variable different dtypes."""
import runtime as tf
from autograph.errors import StagingError
from runtime.errors import InvalidArgumentError

EXPECT = (StagingError, InvalidArgumentError, TypeError)
MATCH = r"'y'|dtype"


@tf.function
def f(x):
    if tf.reduce_sum(x) > 0:
        y = tf.cast(x, tf.int32)  # <- here
    else:
        y = x  # <- here
    return y


def trigger():
    return f(tf.constant([1.0]))
