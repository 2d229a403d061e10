"""A `for` loop over a scalar tensor inside runtime.function."""
import runtime as tf
from autograph.errors import StagingError
from runtime.errors import OperatorNotAllowedInGraphError

EXPECT = (StagingError, OperatorNotAllowedInGraphError)
MATCH = r"scalar|iterat"


@tf.function
def f(x):
    total = tf.constant(0)
    for v in x:  # <- here
        total += v
    return total


def trigger():
    return f(tf.constant(3))
