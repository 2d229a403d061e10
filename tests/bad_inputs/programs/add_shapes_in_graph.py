"""Adding tensors of shapes that do not broadcast, inside runtime.function (known while tracing)."""
import runtime as tf
from runtime.errors import InvalidArgumentError

EXPECT = InvalidArgumentError
MATCH = r"Add|shape|broadcast"


@tf.function
def f(a, b):
    return a + b  # <- here


def trigger():
    return f(tf.ones([2, 3]), tf.ones([4]))
