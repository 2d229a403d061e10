"""A `return` in only one branch of a tensor `if`, and the caller uses the result on the path without it.

Python returns None there (the graph does too, at runtime.function's outputs); using that None in an
operation is a TypeError, raised when the graph runs on that path, naming the line that uses it."""
import runtime as tf


EXPECT = TypeError
MATCH = r"None"


def doubled_if_positive(x):
    if tf.reduce_sum(x) > 0:
        return x * 2


@tf.function
def f(x):
    return doubled_if_positive(x) + 1  # <- here


def trigger():
    return f(tf.constant([-1.0]))
