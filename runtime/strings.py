"""`runtime.strings`: TensorFlow's `tf.strings` functions on string tensors (bytes, UTF-8)."""
from runtime.ops.string_ops import (as_string, bytes_split, format, join, length, lower, reduce_join,  # noqa: F401,A004
                                    split, to_number, unicode_decode, unicode_split, upper)
from runtime.ops.string_edits import regex_full_match, regex_replace, strip, substr  # noqa: F401,E402
