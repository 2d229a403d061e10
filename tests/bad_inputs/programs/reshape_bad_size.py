"""reshape to a shape with a different number of elements, inside runtime.function."""
import runtime as tf
from runtime.errors import InvalidArgumentError

EXPECT = InvalidArgumentError
MATCH = r"[Rr]eshape"


@tf.function
def f(x):
    return tf.reshape(x, [4, 4])  # <- here


def trigger():
    return f(tf.ones([10]))
