"""`t.numpy()` inside runtime.function."""
import runtime as tf
from runtime.errors import OperatorNotAllowedInGraphError

EXPECT = OperatorNotAllowedInGraphError
MATCH = r"numpy"


@tf.function
def f(x):
    return x.numpy() + 1  # <- here


def trigger():
    return f(tf.constant([1, 2]))
