"""A call passing a tensor where the input_signature expects a pair of tensors."""
import runtime as tf

EXPECT = TypeError
MATCH = r"input_signature|structure|tuple"


@tf.function(input_signature=[(tf.TensorSpec([], tf.float32), tf.TensorSpec([], tf.float32))])
def f(pair):
    a, b = pair
    return a + b


def trigger():
    return f(tf.constant(1.0))  # <- here
