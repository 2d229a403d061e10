"""`del` of a variable inside a tensor `while` loop, and the variable is read after the loop."""
import runtime as tf
from autograph.errors import ConversionError, StagingError

EXPECT = (ConversionError, StagingError)
MATCH = r"'total' is left undefined"


@tf.function
def f(x):
    total = x
    while x > 0:
        x -= 1
        del total  # <- here
    return total


def trigger():
    return f(tf.constant(3))
