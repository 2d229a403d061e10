"""int32 + float32 inside runtime.function: no implicit promotion."""
import runtime as tf
from runtime.errors import InvalidArgumentError

EXPECT = (InvalidArgumentError, TypeError)
MATCH = r"int32.*float32|float32.*int32"


@tf.function
def f(a, b):
    return a * b  # <- here


def trigger():
    return f(tf.constant([1, 2]), tf.constant([1.0, 2.0]))
