"""A `return` in only one branch of a tensor `if`, called on the path without it.

Python returns None there; a graph can't return None from one branch and a tensor from the other, so
that path is a run-time error (InvalidArgumentError, a ValueError), never a placeholder value."""
import runtime as tf
from autograph.errors import StagingError

EXPECT = (StagingError, TypeError, ValueError)
MATCH = r"return|None"


@tf.function
def f(x):  # <- here (the error names the function, which ends without a return)
    if tf.reduce_sum(x) > 0:
        return x * 2  # <- here


def trigger():
    return f(tf.constant([-1.0]))
