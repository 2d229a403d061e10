"""Sorting and contraction: `sort`, `argsort`, `math.top_k`, `unique`, `einsum`, `matmul`.

`Sort` and `TopKV2` give values and indices; both differentiate by scattering
the upstream gradient back to where each value came from (`TakeAlongAxisGrad`).
Ties keep their original order (TensorFlow's stable sort and top_k).
"""
from __future__ import annotations

import builtins
import re

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops.convert import binary_operands, tensors
from runtime.ops.math_ops import check_dtype
from runtime.ops.registry import Spec, apply, broadcast_shapes, defop
from runtime.shape import TensorShape
from runtime.tensor import convert_to_tensor


def _stable_order(x, axis, descending):
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    n = x.shape[axis]
    flipped = np.argsort(np.flip(x, axis), axis=axis, kind="stable")  # ties: later first ...
    return n - 1 - np.flip(flipped, axis)                              # ... reversed: earlier first


def _sort(x, axis, descending):
    order = _stable_order(x, axis, descending)
    return [np.take_along_axis(x, order, axis), order.astype(np.int32)]


SORT = defop("Sort", _sort, lambda x, axis, descending: [Spec(x.dtype, x.shape), Spec(dtypes.int32, x.shape)],
             multi_output=True, doc="values sorted along `axis`, and where each came from")


def _direction(direction) -> bool:
    if direction not in ("ASCENDING", "DESCENDING"):
        raise InvalidArgumentError(f"sort: direction must be 'ASCENDING' or 'DESCENDING', got {direction!r}.",
                                   "Sort")
    return direction == "DESCENDING"


def _sort_axis(x, axis) -> int:
    rank = x.shape.rank
    if rank == 0:
        raise InvalidArgumentError("sort: needs a tensor of rank >= 1, got a scalar.", "Sort")
    if rank is not None and not -rank <= axis < rank:
        raise InvalidArgumentError(f"sort: axis {axis} is out of range for rank {rank}.", "Sort")
    return axis if rank is None else axis % rank


def _ordered(x, op_name: str):
    """`x`, or the error TensorFlow gives for sorting bools, strings or complex numbers."""
    if x.dtype.is_string or x.dtype.is_complex or x.dtype is dtypes.bool:
        check_dtype(op_name, x.dtype)
    return x


def sort(values, axis=-1, direction="ASCENDING", name=None):
    x = _ordered(convert_to_tensor(values), "Sort")
    return apply(SORT, x, axis=_sort_axis(x, int(axis)), descending=_direction(direction), name=name)[0]


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    x = _ordered(convert_to_tensor(values), "Sort")
    return apply(SORT, x, axis=_sort_axis(x, int(axis)), descending=_direction(direction), name=name)[1]


def _top_k(x, k, sorted):  # noqa: A002 - TensorFlow's name
    if k > x.shape[-1]:
        raise InvalidArgumentError(f"TopKV2: input must have at least k={k} columns, got shape {x.shape}.",
                                   "TopKV2")
    order = _stable_order(x, -1, True)[..., :k]
    return [np.take_along_axis(x, order, -1), order.astype(np.int32)]


def _top_k_infer(x, k, sorted):  # noqa: A002
    if x.shape.rank is None:
        return [Spec(x.dtype, TensorShape(None)), Spec(dtypes.int32, TensorShape(None))]
    if x.shape.dims[-1] is not None and k > x.shape.dims[-1]:
        raise InvalidArgumentError(f"TopKV2: input must have at least k={k} columns, got shape {x.shape}.")
    shape = TensorShape((*x.shape.dims[:-1], k))
    return [Spec(x.dtype, shape), Spec(dtypes.int32, shape)]


TOP_K = defop("TopKV2", _top_k, _top_k_infer, multi_output=True)


def top_k(input, k=1, sorted=True, name=None):  # noqa: A002
    x = _ordered(convert_to_tensor(input), "TopKV2")
    if x.shape.rank == 0:
        raise InvalidArgumentError("TopKV2: needs a tensor of rank >= 1, got a scalar.", "TopKV2")
    if int(k) < 0:
        raise InvalidArgumentError(f"TopKV2: k must be >= 0, got {k}.", "TopKV2")
    values, indices = apply(TOP_K, x, k=int(k), sorted=builtins.bool(sorted), name=name)
    return TopKResult(values, indices)


def _unique(x, out_idx):
    values, first, inverse = np.unique(x, return_index=True, return_inverse=True, equal_nan=False)
    order = np.argsort(first, kind="stable")            # TensorFlow's order: each value's first occurrence
    position = np.empty_like(order)
    position[order] = np.arange(len(order))
    return [values[order], position[inverse.reshape(-1)].astype(out_idx.as_numpy_dtype)]


UNIQUE = defop("Unique", _unique, lambda x, out_idx: [Spec(x.dtype, TensorShape([None])), Spec(out_idx, x.shape)],
               multi_output=True)


def unique(x, out_idx=dtypes.int32, name=None):
    """`(y, idx)`: the distinct values of the vector `x` in the order they first occur, and for each item of
    `x` the position of its value in `y` (TensorFlow's `Unique`; NaNs are all distinct, as there)."""
    x = convert_to_tensor(x)
    if x.shape.rank is not None and x.shape.rank != 1:
        raise InvalidArgumentError(f"Unique: x must be a vector, got shape {x.shape}.", "Unique")
    out_idx = dtypes.as_dtype(out_idx)
    if out_idx not in (dtypes.int32, dtypes.int64):
        raise InvalidArgumentError(f"Unique: out_idx must be int32 or int64, got {out_idx.name}.", "Unique")
    y, idx = apply(UNIQUE, x, out_idx=out_idx, name=name)
    return UniqueResult(y, idx)


class UniqueResult(tuple):
    """`(y, idx)`, also readable as `.y` and `.idx` (TensorFlow's Unique namedtuple)."""

    def __new__(cls, y, idx):
        return super().__new__(cls, (y, idx))

    y = property(lambda self: self[0])
    idx = property(lambda self: self[1])

    def __repr__(self) -> str:
        return f"Unique(y={self[0]!r}, idx={self[1]!r})"


class TopKResult(tuple):
    """`(values, indices)`, also readable as `.values` and `.indices` (TensorFlow's TopKV2 namedtuple)."""

    def __new__(cls, values, indices):
        return super().__new__(cls, (values, indices))

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self) -> str:
        return f"TopKV2(values={self[0]!r}, indices={self[1]!r})"


def _take_along_axis_grad(grad, like, indices, axis):
    out = np.zeros_like(like)
    np.put_along_axis(out, indices.astype(np.intp), grad, axis)
    return out


TAKE_ALONG_AXIS_GRAD = defop("TakeAlongAxisGrad", _take_along_axis_grad,
                             lambda grad, like, indices, axis: Spec(grad.dtype, like.shape),
                             doc="zeros shaped like the sorted input, with each upstream gradient where its "
                                 "value came from")


TAKE_ALONG_AXIS = defop("TakeAlongAxis", lambda x, indices, axis: np.take_along_axis(x, indices.astype(np.intp), axis),
                        lambda x, indices, axis: Spec(x.dtype, indices.shape),
                        doc="NumPy's take_along_axis (the gradient of TakeAlongAxisGrad)")


# --- einsum ----------------------------------------------------------------------------------

_EQUATION = re.compile(r"^[a-zA-Z.,]+(->[a-zA-Z.]*)?$")


def parse_equation(equation: str, n: int) -> tuple[list[str], str]:
    """The operands' subscripts and the output's, with the implicit output made explicit."""
    equation = equation.replace(" ", "")
    if not _EQUATION.match(equation):
        raise InvalidArgumentError(f"Einsum: invalid equation {equation!r}.", "Einsum")
    inputs, _, output = equation.partition("->")
    subscripts = inputs.split(",")
    if len(subscripts) != n:
        raise InvalidArgumentError(f"Einsum: the equation {equation!r} names {len(subscripts)} operands, "
                                   f"got {n}.", "Einsum")
    if "->" not in equation:
        letters = "".join(subscripts).replace(".", "")
        output = ("..." if "..." in inputs else "") + "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    return subscripts, output


def _einsum_infer(*operands, equation) -> Spec:
    subscripts, output = parse_equation(equation, len(operands))
    sizes: dict = {}
    ellipsis = TensorShape([])
    for sub, x in zip(subscripts, operands):
        if x.shape.rank is None:
            return Spec(operands[0].dtype, TensorShape(None))
        letters = sub.replace("...", "")
        if "..." not in sub and len(letters) != x.shape.rank or len(letters) > x.shape.rank:
            raise InvalidArgumentError(f"Einsum: subscripts {sub!r} do not match an operand of shape {x.shape}.")
        lead = sub.index("...") if "..." in sub else len(letters)
        extra = x.shape.rank - len(letters)
        dims = x.shape.dims
        for i, c in enumerate(letters):
            d = dims[i] if i < lead else dims[i + extra]
            if sizes.get(c) not in (None, d) and d is not None and d != 1 and sizes[c] != 1:
                raise InvalidArgumentError(f"Einsum: dimension {c!r} has sizes {sizes[c]} and {d}.")
            if sizes.get(c) in (None, 1):
                sizes[c] = d
        ellipsis = broadcast_shapes(ellipsis, TensorShape(dims[lead:lead + extra]), "Einsum")
    dims = []
    for part in re.split(r"(\.\.\.)", output):
        dims += list(ellipsis.dims) if part == "..." else [sizes.get(c) for c in part]
    return Spec(operands[0].dtype, TensorShape(dims))


def _einsum(*operands, equation):
    return np.asarray(np.einsum(equation, *operands, optimize=len(operands) > 2))


EINSUM = defop("Einsum", _einsum, _einsum_infer)


def einsum(equation, *inputs, **kwargs):
    name = kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f"einsum got unexpected keyword arguments {sorted(kwargs)}.")
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
        inputs = tuple(inputs[0])
    operands = tensors(inputs, "Einsum")
    equation = equation.replace(" ", "")
    parse_equation(equation, len(operands))
    return apply(EINSUM, *operands, equation=equation, name=name)


# --- matrix product ---------------------------------------------------------------------------

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
    check_dtype("MatMul", a.dtype)
    return apply(MATMUL, a, b, transpose_a=transpose_a, transpose_b=transpose_b, name=name)
