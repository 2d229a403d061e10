"""A runtime.while_loop body growing its loop variable's shape without shape_invariants."""
import runtime as tf
from runtime.control_flow import ControlFlowError

EXPECT = (ControlFlowError, ValueError)
MATCH = r"shape|shape_invariants"


def body(i, x):
    return i + 1, tf.concat([x, x], 0)  # <- here


@tf.function
def f(x):
    return tf.while_loop(lambda i, x: i < 3, body, (tf.constant(0), x))  # <- here


def trigger():
    return f(tf.ones([2]))
