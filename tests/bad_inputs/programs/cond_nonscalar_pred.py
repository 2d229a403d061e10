"""runtime.cond with a vector predicate."""
import runtime as tf
from runtime.control_flow import ControlFlowError

EXPECT = (ControlFlowError, TypeError, ValueError)
MATCH = r"scalar"


@tf.function
def f(x):
    return tf.cond(x > 0, lambda: x, lambda: -x)  # <- here


def trigger():
    return f(tf.constant([1, -1]))
