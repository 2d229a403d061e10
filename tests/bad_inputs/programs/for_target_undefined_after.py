"""The target of a `for` over a tensor range, used after the loop: unbound at run time when the range is empty."""
import runtime as tf

EXPECT = UnboundLocalError
MATCH = r"'i'"


@tf.function
def f(n):
    total = 0
    for i in tf.range(n):  # <- here
        total += i  # <- here
    return total + i  # <- here


def trigger():
    return f(tf.constant(0))
