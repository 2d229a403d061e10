"""A nested function appending to its enclosing function's list inside an `if` on a tensor."""
import runtime as tf
from autograph.errors import StagingError

EXPECT = StagingError
MATCH = r"`seen.append\(...\)` changes 'seen'"


def f(x):
    seen = []

    def visit(v):
        if v > 0:
            seen.append(v)  # <- here
        return v

    visit(x)
    return len(seen)


def trigger():
    return tf.function(f)(tf.constant(-3))
