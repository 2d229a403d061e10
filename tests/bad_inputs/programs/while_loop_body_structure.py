"""A runtime.while_loop body returning one value for two loop variables."""
import runtime as tf
from runtime.control_flow import ControlFlowError

EXPECT = (ControlFlowError, TypeError, ValueError)
MATCH = r"structure|loop_vars|body"


@tf.function
def f(n):
    return tf.while_loop(lambda i, s: i < n,
                         lambda i, s: i + 1,  # <- here
                         (tf.constant(0), tf.constant(0)))  # <- here


def trigger():
    return f(tf.constant(3))
