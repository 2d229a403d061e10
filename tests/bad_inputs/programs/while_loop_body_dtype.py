"""A runtime.while_loop body changing its loop variable's dtype."""
import runtime as tf
from runtime.control_flow import ControlFlowError

EXPECT = (ControlFlowError, TypeError, ValueError)
MATCH = r"dtype|float32|int32"


def body(i):
    return tf.cast(i, tf.float32) + 1.0  # <- here


@tf.function
def f(n):
    return tf.while_loop(lambda i: i < 3, body, [n])  # <- here


def trigger():
    return f(tf.constant(0))
