"""Elementwise arithmetic, comparisons, reductions and matrix products."""
from __future__ import annotations

import numpy as np

from runtime.errors import InvalidArgumentError
from runtime.ops.convert import binary_operands
from runtime.ops.registry import Spec, apply, broadcast_binary, defop
from runtime.shape import TensorShape
from runtime.tensor import convert_to_tensor

ADD = defop("AddV2", np.add, broadcast_binary)
SUB = defop("Sub", np.subtract, broadcast_binary)
MUL = defop("Mul", np.multiply, broadcast_binary)


def add(x, y, name=None):
    return apply(ADD, *binary_operands(x, y, "AddV2"), name=name)


def subtract(x, y, name=None):
    return apply(SUB, *binary_operands(x, y, "Sub"), name=name)


def multiply(x, y, name=None):
    return apply(MUL, *binary_operands(x, y, "Mul"), name=name)


def _matmul_infer(a, b, transpose_a=False, transpose_b=False) -> Spec:
    sa, sb = a.shape, b.shape
    if sa.rank is not None and sa.rank < 2 or sb.rank is not None and sb.rank < 2:
        raise InvalidArgumentError(
            f"MatMul: both inputs must have rank >= 2, got shapes {sa} and {sb}; "
            "use runtime.reshape or runtime.expand_dims to add a dimension.", "MatMul")
    if sa.rank is None or sb.rank is None:
        return Spec(a.dtype, TensorShape(None))
    m, ka = (sa[-1], sa[-2]) if transpose_a else (sa[-2], sa[-1])
    kb, n = (sb[-1], sb[-2]) if transpose_b else (sb[-2], sb[-1])
    if ka is not None and kb is not None and ka != kb:
        raise InvalidArgumentError(
            f"MatMul: inner dimensions differ: shapes {sa} and {sb} (a has {ka} columns, b has {kb} rows).",
            "MatMul")
    from runtime.ops.registry import broadcast_shapes
    batch = broadcast_shapes(sa[:-2], sb[:-2], "MatMul")
    return Spec(a.dtype, TensorShape((*batch.dims, m, n)) if batch.dims is not None else TensorShape(None))


def _matmul_kernel(a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    if a.ndim < 2 or b.ndim < 2:
        raise InvalidArgumentError(
            f"MatMul: both inputs must have rank >= 2, got shapes {a.shape} and {b.shape}.", "MatMul")
    return np.matmul(a, b)


MATMUL = defop("MatMul", _matmul_kernel, _matmul_infer)


def matmul(a, b, transpose_a=False, transpose_b=False, name=None):
    a, b = binary_operands(a, b, "MatMul")
    return apply(MATMUL, a, b, transpose_a=transpose_a, transpose_b=transpose_b, name=name)
