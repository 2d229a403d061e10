"""A module-level list appended to inside a loop over a tensor (a trace would append once; Python, n times)."""
import runtime as tf
from autograph.errors import StagingError

EXPECT = StagingError
MATCH = r"`OUT.append\(...\)` changes 'OUT', which is not a variable of this function"

OUT = []


@tf.function
def f(n):
    for i in tf.range(n):
        OUT.append(i)  # <- here
    return n


def trigger():
    return f(tf.constant(3))
