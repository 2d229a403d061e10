"""A variable assigned in only one branch of a tensor `if` and used after it."""
import runtime as tf
from autograph.errors import StagingError

EXPECT = StagingError
MATCH = r"'y'"


@tf.function
def f(x):
    if tf.reduce_sum(x) > 0:
        y = x * 2  # <- here
    return y  # <- here


def trigger():
    return f(tf.constant([1.0, 2.0]))
