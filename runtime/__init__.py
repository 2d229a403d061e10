"""A small TensorFlow-2-like tensor runtime on NumPy: `import runtime as tf`.

Eager tensors and ops (`constant`, `add`, `matmul`, ...), `Variable`,
`function` for tracing Python into graphs, functional control flow (`cond`,
`while_loop`), and an executor that runs graphs as generated Python.
"""
import warnings

from runtime import dtypes, errors
from runtime.dtypes import (DType, as_dtype, bool, complex64, complex128, float16, float32, float64, int8,  # noqa: A004
                            int16, int32, int64, string, uint8, uint16, uint32, uint64)
from runtime.shape import TensorShape

# NumPy's floating-point warnings from the kernels (1 / 0, log(0), an overflow): TensorFlow's ops give inf and
# NaN without a word, and the warning would name a line of this package (or of a graph's generated code)
warnings.filterwarnings("ignore", r"(overflow|divide by zero|invalid value|underflow) encountered in",
                        RuntimeWarning, r"runtime(\.|$)|<runtime executor>$")
from runtime.tensor import Tensor, constant, convert_to_tensor
from runtime import ops
from runtime.ops.array_ops import (concat, expand_dims, eye, fill, gather, identity, one_hot, ones, ones_like,
                                   range, rank, reshape, shape, size, squeeze, stack, stop_gradient, tile, transpose,
                                   unstack, where, zeros, zeros_like)
from runtime.ops.logging_ops import print  # noqa: A004
from runtime.ops.extra_array_ops import boolean_mask, broadcast_to, linspace, pad, split
from runtime.ops.sort_ops import argsort, einsum, matmul, sort, unique
from runtime.ops.extra_math import (acos, acosh, asin, asinh, atan, atan2, atanh, clip_by_global_norm, clip_by_norm,
                                    reduce_logsumexp, saturate_cast)
from runtime.ops.nd_ops import (gather_nd, scatter_nd, tensor_scatter_nd_add, tensor_scatter_nd_sub,
                                tensor_scatter_nd_update)
from runtime.ops.indexing import slice_ as slice  # noqa: A004
from runtime.ops.composites import (add_n, ensure_shape, get_static_value, identity_n, is_tensor, meshgrid, norm,
                                    repeat, reverse, roll, searchsorted, sequence_mask, tensordot)
from runtime.ops.composites import cosh, sinh, tan
from runtime.ops.counting_ops import histogram_fixed_width, unique_with_counts

from runtime.ops.math_ops import (abs, add, argmax, argmin, cast, ceil, clip_by_value, cos, cumsum, divide,  # noqa: A004
                                  equal, exp, floor, floordiv, floormod, greater, greater_equal, less, less_equal,
                                  log, logical_and, logical_not, logical_or, logical_xor, maximum, minimum,
                                  mod, multiply, negative, not_equal, pow, reduce_all, reduce_any, reduce_max,
                                  reduce_mean, reduce_min, reduce_prod, reduce_sum, round, sigmoid, sign, sin, sqrt,
                                  square, subtract, tanh, truediv)
from runtime.ops.complex_ops import complex  # noqa: A004
from runtime.ops.script_ops import numpy_function, py_function
from runtime import bitwise, debugging, math, nn, random, strings
from runtime.variables import Variable
from runtime.autodiff import GradientTape
from runtime.custom_gradients import custom_gradient
from runtime.graph_gradients import gradients, hessians, recompute_grad
from runtime.ops import gradients as _gradients  # noqa: F401  (attaches the gradient table's rules to the ops)
from runtime.module import Module
from runtime import keras, optimizers, train
from runtime.compat import UnconnectedGradients, __version__  # noqa: F401
from runtime.scopes import device, init_scope, name_scope

# graph mode
from runtime import config
from runtime.functional_ops import (case, cond, foldl, foldr, map_fn, scan, switch_case, vectorized_map,
                                    while_loop)
from runtime.function import ConcreteFunction, Function, TensorSpec, function
from runtime.graph import Graph
from runtime.tensor_array import TensorArray
from runtime.serialization import load_function, save_function
from runtime import onnx  # noqa: E402  (runtime.onnx.export; imports the onnx package only when called)

newaxis = None
double, half = float64, float16   # TensorFlow's other names for them

from runtime.debugging import Assert, assert_equal, assert_greater, assert_less, assert_rank  # noqa: E402
from runtime.ordering import control_dependencies, group, no_op  # noqa: E402
from runtime.top_level import (broadcast_dynamic_shape, broadcast_static_shape, dynamic_partition,  # noqa: E402
                               get_logger, grad_pass_through, inside_function, is_symbolic_tensor, realdiv,
                               reverse_sequence, shape_n)
from runtime.math import invert_permutation, scalar_mul  # noqa: E402
from runtime.strings import as_string  # noqa: E402


def executing_eagerly() -> bool:
    """False while a function is being traced, True otherwise."""
    return ops.registry.context.graph is None


# TensorFlow modules runtime deliberately does not provide, and what to use instead (docs/tf-compat.md)
OUT_OF_SCOPE = {
    "data": "iterate over tensors or Python lists instead (a `for` over a tensor is a staged loop)",
    "estimator": "write the model as a tf.Module and train it with tf.GradientTape",
    "saved_model": "save traced functions with runtime.save_function / load_function, Variables with "
                   "tf.train.Checkpoint",
    "distribute": "runtime computes on one CPU", "tpu": "runtime computes on one CPU",
    "lite": "export a graph to ONNX instead (docs/graph.md)",
    "summary": "log values with tf.print or Python", "image": "use NumPy on the values",
    "io": "read files with Python or NumPy and convert with tf.constant", "audio": "use NumPy on the values",
    "signal": "use NumPy on the values", "sparse": "use dense tensors", "ragged": "pad to dense tensors",
    "linalg": "tf.matmul and tf.einsum are provided", "feature_column": "compute features with tensor ops",
    "lookup": "use Python dicts outside the graph, or tf.gather with integer ids", "queue": "use Python",
    "xla": "use tf.function(jit_compile=True)", "quantization": "use tf.cast",
    "SparseTensor": "use dense tensors", "RaggedTensor": "pad to dense tensors",
    "Session": "runtime is TensorFlow 2-like: call functions directly",
    "bfloat16": "NumPy has no bfloat16 type; use tf.float16 (as narrow, with more precision and less range) or "
                "tf.float32",
}


def __getattr__(name: str):
    """Only for TensorFlow names runtime deliberately lacks: a clear error instead of an AttributeError."""
    if name in OUT_OF_SCOPE:
        raise errors.OutOfScopeError(
            f"tf.{name} is out of scope for runtime, a small TensorFlow-2-like runtime on NumPy: "
            f"{OUT_OF_SCOPE[name]}. docs/tf-compat.md lists what exists, what differs and what is out of scope.")
    raise AttributeError(f"module 'runtime' has no attribute {name!r}")

# autograph: runtime registers itself as a backend, like any other framework would
from runtime import autograph, backend  # noqa: E402,F401
