"""A call whose tensor shape does not match the input_signature."""
import runtime as tf

EXPECT = TypeError
MATCH = r"input_signature|shape"


@tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
def f(x):
    return x * 2.0


def trigger():
    return f(tf.constant([1.0, 2.0, 3.0]))  # <- here
