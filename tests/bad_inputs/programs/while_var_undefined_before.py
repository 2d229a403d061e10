"""A loop variable undefined before a tensor `while` loop and used after it: unbound at run time when the loop
runs zero times."""
import runtime as tf

EXPECT = UnboundLocalError
MATCH = r"'last'"


@tf.function
def f(x):
    while x > 0:  # <- here
        last = x  # <- here
        x = x - 1
    return last  # <- here


def trigger():
    return f(tf.constant(0))
