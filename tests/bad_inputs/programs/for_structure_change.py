"""A loop variable that changes structure (tensor -> tuple) in a loop over a tensor range."""
import runtime as tf
from autograph.errors import StagingError

EXPECT = (StagingError, TypeError, ValueError)
MATCH = r"'acc'|structure"


@tf.function
def f(n):
    acc = tf.constant(0)
    for i in tf.range(n):
        acc = (acc, i)  # <- here
    return acc


def trigger():
    return f(tf.constant(3))
