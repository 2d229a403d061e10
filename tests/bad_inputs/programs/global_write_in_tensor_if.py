"""A `global` variable written inside a tensor-dependent `if`."""
import runtime as tf
from autograph.errors import ConversionError, StagingError

EXPECT = (ConversionError, StagingError)
MATCH = r"global|counter"

counter = 0


@tf.function
def f(x):
    global counter
    if x > 0:
        counter = counter + 1  # <- here
    return x


def trigger():
    return f(tf.constant(1))
