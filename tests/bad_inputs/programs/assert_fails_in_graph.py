"""An `assert` on a tensor inside runtime.function that fails when the graph runs."""
import runtime as tf
from runtime.errors import InvalidArgumentError

EXPECT = (InvalidArgumentError, AssertionError)
MATCH = r"x must be positive"


@tf.function
def f(x):
    assert x > 0, "x must be positive"  # <- here
    return x


def trigger():
    return f(tf.constant(-1))
