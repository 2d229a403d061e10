"""Python operators on tensors (`+`, `@`, `<`, `[]` ...), installed on `Tensor`.

Each operator is the matching public op, so eager execution and tracing both
go through the op registry.
"""
from __future__ import annotations

from runtime.ops import math_ops
from runtime.tensor import Tensor


def _swap(fn):
    return lambda x, y: fn(y, x)


OPERATORS = {
    "__add__": math_ops.add, "__radd__": _swap(math_ops.add),
    "__sub__": math_ops.subtract, "__rsub__": _swap(math_ops.subtract),
    "__mul__": math_ops.multiply, "__rmul__": _swap(math_ops.multiply),
    "__matmul__": math_ops.matmul, "__rmatmul__": _swap(math_ops.matmul),
}


def install(cls: type) -> None:
    """Define the Python operators on `cls` (Tensor, and Variable)."""
    for name, fn in OPERATORS.items():
        setattr(cls, name, fn)


install(Tensor)
