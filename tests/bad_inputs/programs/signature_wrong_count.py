"""A call with more arguments than the input_signature has specs."""
import runtime as tf

EXPECT = TypeError
MATCH = r"input_signature|argument"


@tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
def f(x, y=1.0):
    return x * y


def trigger():
    return f(tf.constant(1.0), tf.constant(2.0))  # <- here
