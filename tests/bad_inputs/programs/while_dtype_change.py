"""A loop variable that changes dtype (int32 -> float32) across iterations of a tensor loop."""
import runtime as tf
from autograph.errors import StagingError
from runtime.errors import InvalidArgumentError

EXPECT = (StagingError, InvalidArgumentError, TypeError)
MATCH = r"'s'|dtype|int32"


@tf.function
def f(n):
    s = tf.constant(0)
    i = tf.constant(0)
    while i < n:
        s = tf.cast(s, tf.float32) + 0.5  # <- here
        i += 1
    return s


def trigger():
    return f(tf.constant(3))
