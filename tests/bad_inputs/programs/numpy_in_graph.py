"""`t.numpy()` inside runtime.function: an AttributeError, as TensorFlow's graph tensors have no `numpy`."""
import runtime as tf
from runtime.errors import NoValueInGraphError

EXPECT = NoValueInGraphError
MATCH = r"numpy"


@tf.function
def f(x):
    return x.numpy() + 1  # <- here


def trigger():
    return f(tf.constant([1, 2]))
