"""matmul of incompatible shapes, eagerly."""
import runtime as tf
from runtime.errors import InvalidArgumentError

EXPECT = InvalidArgumentError
MATCH = r"MatMul|matmul"


def trigger():
    a = tf.ones([2, 3])
    b = tf.ones([2, 3])
    return tf.matmul(a, b)  # <- here
