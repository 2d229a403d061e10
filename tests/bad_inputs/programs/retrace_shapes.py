"""Retracing pitfall: a tensor of a new shape on every call."""
import runtime as tf

EXPECT = RuntimeWarning
MATCH = r"traced \d+ times|shape"
WARNING = True


@tf.function
def total(x):
    return tf.reduce_sum(x)


def trigger():
    return [total(tf.zeros([n])) for n in range(1, 9)]  # <- here
