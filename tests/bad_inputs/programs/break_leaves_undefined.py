"""A `break` in a tensor loop skipping the only assignment of a variable used after the loop."""
import runtime as tf
from autograph.errors import StagingError

EXPECT = StagingError
MATCH = r"'found'"


@tf.function
def f(x):
    i = tf.constant(0)
    while i < 10:
        if i * i > x:
            break
        found = i  # <- here
        i += 1
    return found  # <- here


def trigger():
    return f(tf.constant(20))
