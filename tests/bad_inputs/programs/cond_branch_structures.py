"""runtime.cond branches returning different structures."""
import runtime as tf
from runtime.control_flow import ControlFlowError

EXPECT = (ControlFlowError, TypeError, ValueError)
MATCH = r"structure"


@tf.function
def f(x):
    return tf.cond(x > 0, lambda: (x, x), lambda: x)  # <- here


def trigger():
    return f(tf.constant(1))
