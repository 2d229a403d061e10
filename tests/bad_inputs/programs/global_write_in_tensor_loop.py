"""A `global` variable written inside a tensor `while` loop."""
import runtime as tf
from autograph.errors import ConversionError, StagingError

EXPECT = (ConversionError, StagingError)
MATCH = r"global|total"

total = 0


@tf.function
def f(x):
    global total
    while x > 0:
        total = total + x  # <- here
        x -= 1
    return x


def trigger():
    return f(tf.constant(3))
