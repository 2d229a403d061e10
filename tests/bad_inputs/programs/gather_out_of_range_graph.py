"""An out-of-range gather whose result is used, inside runtime.function (fails when the graph runs)."""
import runtime as tf
from runtime.errors import InvalidArgumentError

EXPECT = InvalidArgumentError
MATCH = r"[Gg]ather|range"


@tf.function
def f(x):
    return tf.gather(x, [5]) * 2  # <- here


def trigger():
    return f(tf.constant([1.0, 2.0]))
