"""A runtime.while_loop cond that returns an int tensor, not a bool."""
import runtime as tf
from runtime.control_flow import ControlFlowError

EXPECT = (ControlFlowError, TypeError, ValueError)
MATCH = r"bool"


@tf.function
def f(n):
    return tf.while_loop(lambda i: n - i, lambda i: i + 1, [tf.constant(0)])  # <- here


def trigger():
    return f(tf.constant(3))
