"""A set made in only one branch of a tensor `if`: a graph can't carry it beside "unassigned"."""
import runtime as tf
from autograph.errors import StagingError

EXPECT = StagingError
MATCH = r"'msg'.*can't be carried"


@tf.function
def f(x):
    if x > 0:  # <- here
        msg = {"positive"}  # <- here
    return x, msg  # <- here


def trigger():
    return f(tf.constant(1.0))
