"""A small TensorFlow-2-like tensor runtime on NumPy: `import runtime as tf`."""
from runtime import dtypes
from runtime.dtypes import (DType, as_dtype, bool, float16, float32, float64, int8, int16, int32,  # noqa: A004
                            int64, uint8)
from runtime import errors
from runtime.shape import TensorShape
from runtime.tensor import Tensor, constant, convert_to_tensor
from runtime import ops
from runtime.ops.array_ops import identity
from runtime.ops.math_ops import add, matmul, multiply, subtract

newaxis = None

# graph mode
from runtime import config
from runtime.control_flow import cond, while_loop
from runtime.function import ConcreteFunction, Function, TensorSpec, function
from runtime.graph import Graph
from runtime.tensor_array import TensorArray
from runtime.serialization import load_function, save_function
