"""Retracing pitfall: a Python number that changes on every call makes a new trace each time."""
import runtime as tf

EXPECT = RuntimeWarning
MATCH = r"traced \d+ times"
WARNING = True


@tf.function
def scale(x, factor):
    return x * factor


def trigger():
    results = []
    for k in range(8):
        results.append(scale(tf.constant(1.0), float(k)))  # <- here
    return results
