"""A `return` inside a tensor loop on some paths, and a value that is undefined on the path without it."""
import runtime as tf
from autograph.errors import StagingError

EXPECT = (StagingError, TypeError, ValueError)
MATCH = r"'y'|return|None"


@tf.function
def f(x):
    i = tf.constant(0)
    while i < x:
        if i > 2:
            return i  # <- here
        y = i  # <- here
        i += 1
    return y  # <- here


def trigger():
    return f(tf.constant(5))
