"""Shapes that only clash when the graph runs (unknown dimensions in the input_signature)."""
import runtime as tf
from runtime.errors import InvalidArgumentError

EXPECT = InvalidArgumentError
MATCH = r"shape|broadcast|Add"


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32)])
def f(a, b):
    return a + b  # <- here


def trigger():
    return f(tf.ones([3]), tf.ones([4]))
