"""Iterating a symbolic tensor of unknown length with a Python `for` (autograph off)."""
import runtime as tf
from runtime.errors import OperatorNotAllowedInGraphError

EXPECT = OperatorNotAllowedInGraphError
MATCH = r"iterat|range"


@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)], autograph=False)
def f(x):
    total = 0
    for v in x:  # <- here
        total += v
    return total


def trigger():
    return f(tf.constant([1, 2, 3]))
