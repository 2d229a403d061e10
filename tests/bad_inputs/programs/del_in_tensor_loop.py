"""`del` of a loop variable inside a tensor `while` loop."""
import runtime as tf
from autograph.errors import ConversionError, StagingError

EXPECT = (ConversionError, StagingError)
MATCH = r"del|'x'"


@tf.function
def f(x):
    while x > 0:
        y = x - 1
        del x  # <- here
        x = y
    return x


def trigger():
    return f(tf.constant(3))
