"""A `match` statement on a tensor inside runtime.function."""
import runtime as tf
from autograph.errors import ConversionError, StagingError
from runtime.errors import OperatorNotAllowedInGraphError

EXPECT = (ConversionError, StagingError, OperatorNotAllowedInGraphError)
MATCH = r"match|bool|tensor"


@tf.function
def f(x):
    match x > 0:  # <- here
        case True:  # <- here
            return x
        case _:
            return -x


def trigger():
    return f(tf.constant(1))
