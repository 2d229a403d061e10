"""A loop variable whose shape grows across iterations of a tensor loop against the shape_invariants given.
(Without shape_invariants the shape is relaxed automatically: tests/runtime/test_backend.py.)"""
import autograph as ag
import runtime as tf
from autograph.errors import StagingError
from runtime.errors import InvalidArgumentError

EXPECT = (StagingError, InvalidArgumentError, ValueError)
MATCH = r"'x'|shape"


@tf.function
def f(x, n):
    i = tf.constant(0)
    while i < n:
        ag.set_loop_options(shape_invariants=[(x, [1])])
        x = tf.concat([x, x], 0)  # <- here
        i += 1
    return x


def trigger():
    return f(tf.constant([1.0]), tf.constant(3))
