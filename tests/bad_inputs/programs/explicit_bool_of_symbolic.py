"""`bool(t)` called explicitly inside runtime.function (autograph converts control flow, not bool())."""
import runtime as tf
from runtime.errors import OperatorNotAllowedInGraphError

EXPECT = OperatorNotAllowedInGraphError
MATCH = r"bool"


@tf.function
def f(x):
    flag = bool(x > 0)  # <- here
    return flag


def trigger():
    return f(tf.constant(1))
