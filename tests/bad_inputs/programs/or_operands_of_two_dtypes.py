"""`x or 2.5` on an int32 tensor: the result is one of the operands, and a tensor has one dtype."""
import runtime as tf
from autograph.errors import StagingError

EXPECT = StagingError
MATCH = r"`or` on an int32 tensor and a float32 value.*Make them one dtype"


@tf.function
def with_default(x):
    return x or 2.5  # <- here


def trigger():
    return with_default(tf.constant(0))
