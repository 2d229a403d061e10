"""`runtime.bitwise` (TensorFlow's `tf.bitwise`): bitwise ops on integer tensors."""
from runtime.ops.bitwise_ops import bitwise_and, bitwise_or, bitwise_xor, invert, left_shift, right_shift  # noqa: F401
