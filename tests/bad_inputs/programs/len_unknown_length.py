"""`len()` of a symbolic tensor whose first dimension is unknown."""
import runtime as tf
from runtime.errors import OperatorNotAllowedInGraphError
from autograph.errors import StagingError

EXPECT = (OperatorNotAllowedInGraphError, StagingError, TypeError, ValueError)
MATCH = r"len|unknown|shape"


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def f(x):
    return [0.0] * len(x)  # <- here


def trigger():
    return f(tf.constant([1.0, 2.0]))
