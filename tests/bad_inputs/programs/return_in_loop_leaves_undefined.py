"""A `return` inside a tensor loop on some paths, and a value that is unbound (at run time) on the path without
it."""
import runtime as tf

EXPECT = UnboundLocalError
MATCH = r"'y'.*no iteration of the loop assigned it"


@tf.function
def f(x):
    i = tf.constant(0)
    while i < x:  # <- here
        if i > 2:
            return i  # <- here
        y = i  # <- here
        i += 1
    return y  # <- here


def trigger():
    return f(tf.constant(0))
