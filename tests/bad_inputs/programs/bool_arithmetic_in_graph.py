"""Adding two bool tensors inside runtime.function: TensorFlow rejects it; Python would count True as 1."""
import runtime as tf

EXPECT = TypeError
MATCH = r"AddV2 is not defined on bool tensors.*cast"


@tf.function
def count_positive(x):
    return (x > 0) + (x > 2)  # <- here


def trigger():
    return count_positive(tf.constant(3))
