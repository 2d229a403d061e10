"""runtime.cond branches returning different dtypes."""
import runtime as tf
from runtime.control_flow import ControlFlowError

EXPECT = (ControlFlowError, TypeError, ValueError)
MATCH = r"dtype|int32|float32"


@tf.function
def f(x):
    return tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.float32))  # <- here


def trigger():
    return f(tf.constant(1))
