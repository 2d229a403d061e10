"""A symbolic tensor used as a Python list index inside runtime.function."""
import runtime as tf
from runtime.errors import OperatorNotAllowedInGraphError

EXPECT = (OperatorNotAllowedInGraphError, TypeError)
MATCH = r"index|gather|int"

TABLE = [10, 20, 30]


@tf.function
def f(i):
    return TABLE[i]  # <- here


def trigger():
    return f(tf.constant(1))
