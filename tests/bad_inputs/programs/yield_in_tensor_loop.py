"""A generator traced by runtime.function, with `yield` inside a tensor loop."""
import runtime as tf
from autograph.errors import ConversionError

EXPECT = ConversionError
MATCH = r"yield|generator"


@tf.function
def gen(x):
    while x > 0:
        yield x  # <- here
        x -= 1


def trigger():
    return gen(tf.constant(3))
