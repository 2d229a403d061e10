"""A variable assigned in only one branch of a tensor `if` and used after it: unbound at run time on the other
path."""
import runtime as tf

EXPECT = UnboundLocalError
MATCH = r"'y'"


@tf.function
def f(x):
    if tf.reduce_sum(x) > 0:  # <- here
        y = x * 2  # <- here
    return y  # <- here


def trigger():
    return f(tf.constant([-1.0, -2.0]))
