"""A NameError inside converted code: the traceback names the user's line first."""
import runtime as tf

EXPECT = NameError
MATCH = r"undefined_helper"
LOCATION = "traceback"


@tf.function
def f(x):
    if x > 0:
        x = undefined_helper(x)  # <- here
    return x


def trigger():
    return f(tf.constant(1))
