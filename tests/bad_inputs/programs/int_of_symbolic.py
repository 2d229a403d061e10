"""`int(t)` on a symbolic tensor (autograph off)."""
import runtime as tf
from runtime.errors import OperatorNotAllowedInGraphError

EXPECT = OperatorNotAllowedInGraphError
MATCH = r"int"


@tf.function(autograph=False)
def f(x):
    return [0] * int(x)  # <- here


def trigger():
    return f(tf.constant(3))
