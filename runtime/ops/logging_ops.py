"""`runtime.print` and assertions: stateful ops that run on every call of a
function, in program order (Python's `print` runs only while tracing)."""
from __future__ import annotations

import sys

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops.registry import Spec, apply, defop
from runtime.shape import TensorShape
from runtime.tensor import Tensor, convert_to_tensor


def _format(value) -> str:
    if isinstance(value, np.ndarray) and value.ndim:
        return np.array2string(value, separator=" ", threshold=1000)
    return str(np.asarray(value)[()]) if not isinstance(value, str) else value


def _print(*values, template, sep, end, stream):
    parts = [_format(values[p[1]]) if isinstance(p, tuple) else p for p in template]
    target = sys.stdout if stream == "stdout" else sys.stderr if stream == "stderr" else stream
    target.write(sep.join(parts) + end)
    return np.int32(0)


PRINT = defop("PrintV2", _print, lambda *v, **a: Spec(dtypes.int32, TensorShape(())), stateful=True)


def print(*inputs, sep: str = " ", end: str = "\n", output_stream=None, summarize=None, name=None):  # noqa: A001
    """Print tensors and Python values when the op runs (on every call in a function)."""
    tensors, template = [], []
    for value in inputs:
        if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
            tensors.append(convert_to_tensor(value))
            template.append(("$", len(tensors) - 1))
        else:
            template.append(str(value))
    stream = "stderr" if output_stream is None or output_stream is sys.stderr else (
        "stdout" if output_stream is sys.stdout else output_stream)
    apply(PRINT, *tensors, template=tuple(template), sep=sep, end=end, stream=stream, name=name)


def _assert(condition, *data, message):
    if not np.all(condition):
        shown = " ".join(_format(d) for d in data)
        raise InvalidArgumentError(f"{message}{': ' if message and shown else ''}{shown}".strip() or
                                   "assertion failed", "Assert")
    return np.bool_(True)


ASSERT = defop("Assert", _assert, lambda *v, **a: Spec(dtypes.bool, TensorShape(())), stateful=True)


def Assert(condition, data, summarize=None, name=None):  # noqa: N802 - TensorFlow's name
    """Raise InvalidArgumentError (when the op runs) unless `condition` is true."""
    condition = convert_to_tensor(condition)
    if condition.dtype is not dtypes.bool:
        raise InvalidArgumentError(f"Assert: condition must be bool, got {condition.dtype.name}.", "Assert")
    texts = [str(d) for d in data if not isinstance(d, Tensor)]
    data = [convert_to_tensor(d) for d in data if isinstance(d, Tensor)]
    return apply(ASSERT, condition, *data, message=" ".join(texts) or "assertion failed", name=name)


def _comparison_assert(compare, what: str, x, y, message, name):
    from runtime.ops.math_ops import reduce_all
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype_hint=x.dtype)
    text = f"{message + ': ' if message else ''}Condition x {what} y did not hold element-wise: x ="
    return apply(ASSERT, reduce_all(compare(x, y)), x, y, message=text, name=name)


def assert_equal(x, y, message=None, summarize=None, name=None):
    from runtime.ops.math_ops import equal
    return _comparison_assert(equal, "==", x, y, message, name)


def assert_greater(x, y, message=None, summarize=None, name=None):
    from runtime.ops.math_ops import greater
    return _comparison_assert(greater, ">", x, y, message, name)


def assert_less(x, y, message=None, summarize=None, name=None):
    from runtime.ops.math_ops import less
    return _comparison_assert(less, "<", x, y, message, name)
