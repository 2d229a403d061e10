"""`runtime.strings`: TensorFlow's `tf.strings` functions on string tensors (bytes, UTF-8)."""
from runtime.ops.string_ops import (as_string, format, join, length, lower, reduce_join, to_number,  # noqa: F401,A004
                                    upper)
