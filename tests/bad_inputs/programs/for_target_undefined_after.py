"""The target of a `for` over a tensor range, used after the loop (undefined if the range is empty)."""
import runtime as tf
from autograph.errors import StagingError

EXPECT = StagingError
MATCH = r"'i'"


@tf.function
def f(n):
    total = 0
    for i in tf.range(n):  # <- here
        total += i  # <- here
    return total + i  # <- here


def trigger():
    return f(tf.constant(4))
