"""A call whose tensor dtype does not match the input_signature."""
import runtime as tf

EXPECT = TypeError
MATCH = r"input_signature|float32|int32"


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def f(x):
    return x * 2.0


def trigger():
    return f(tf.constant([1, 2]))  # <- here
