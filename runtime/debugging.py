"""`runtime.debugging`: assertions that run with the graph (TensorFlow's names)."""
from runtime.ops.logging_ops import Assert, assert_equal, assert_greater, assert_less  # noqa: F401
