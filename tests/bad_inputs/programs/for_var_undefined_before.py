"""A loop variable undefined before a `for` over `tf.range(tensor)` and used after it."""
import runtime as tf
from autograph.errors import StagingError

EXPECT = StagingError
MATCH = r"'square'"


@tf.function
def f(n):
    for i in tf.range(n):
        square = i * i  # <- here
    return square  # <- here


def trigger():
    return f(tf.constant(4))
