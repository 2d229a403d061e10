"""A `nonlocal` variable written inside a tensor `while` loop of an inner function."""
import runtime as tf
from autograph.errors import ConversionError, StagingError

EXPECT = (ConversionError, StagingError)
MATCH = r"nonlocal|steps"


def make():
    steps = 0

    @tf.function
    def f(x):
        nonlocal steps
        while x > 0:
            steps = steps + 1  # <- here
            x -= 1
        return x

    return f


def trigger():
    return make()(tf.constant(3))
