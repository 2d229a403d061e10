"""A `break` in a tensor loop skipping the only assignment of a variable used after the loop: unbound at run time
on the path where the break comes first, as in Python."""
import runtime as tf

EXPECT = UnboundLocalError
MATCH = r"'found'"


@tf.function
def f(x):
    i = tf.constant(0)
    while i < 10:  # <- here
        if i * i > x:
            break
        found = i
        i += 1
    return found  # <- here


def trigger():
    return f(tf.constant(-1))
