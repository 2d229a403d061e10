"""A staged `while` whose condition stays a true constant: Python runs forever; it must not be pruned."""
import runtime as tf
from runtime.control_flow import ControlFlowError

EXPECT = ControlFlowError
MATCH = r"this loop never ends"


@tf.function
def spin():
    c = True
    while c:  # <- here
        c = tf.constant(True)
    return 1


def trigger():
    return spin()
