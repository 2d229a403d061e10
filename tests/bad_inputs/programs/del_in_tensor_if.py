"""`del` of a variable inside a tensor-dependent `if`, and the variable is read after the `if`."""
import runtime as tf
from autograph.errors import ConversionError, StagingError

EXPECT = (ConversionError, StagingError)
MATCH = r"'tmp'.*only one branch"


@tf.function
def f(x):
    tmp = x * 2
    if x > 0:
        del tmp  # <- here
    return tmp


def trigger():
    return f(tf.constant(1))
