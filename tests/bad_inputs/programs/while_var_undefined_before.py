"""A loop variable undefined before a tensor `while` loop and used after it."""
import runtime as tf
from autograph.errors import StagingError

EXPECT = StagingError
MATCH = r"'last'"


@tf.function
def f(x):
    while x > 0:
        last = x  # <- here
        x = x - 1
    return last  # <- here


def trigger():
    return f(tf.constant(3))
