"""`del` of a variable inside a tensor-dependent `if`."""
import runtime as tf
from autograph.errors import ConversionError, StagingError

EXPECT = (ConversionError, StagingError)
MATCH = r"del|'tmp'"


@tf.function
def f(x):
    tmp = x * 2
    if x > 0:
        del tmp  # <- here
    return x


def trigger():
    return f(tf.constant(1))
