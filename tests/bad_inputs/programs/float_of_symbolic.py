"""`float(t)` on a symbolic tensor (autograph off)."""
import runtime as tf
from runtime.errors import OperatorNotAllowedInGraphError

EXPECT = OperatorNotAllowedInGraphError
MATCH = r"float"


@tf.function(autograph=False)
def f(x):
    return round(float(x), 2)  # <- here


def trigger():
    return f(tf.constant(3.14159))
