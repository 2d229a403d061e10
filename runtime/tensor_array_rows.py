"""`TensorArray.scatter`, `split` and `concat`: many elements at once, as TensorFlow's.

They are compositions of the array's own `write` and `read` and of tensor ops,
so they run eagerly and traced and differentiate like those: unrolled when the
number of elements is known while tracing (always, eagerly), a `while_loop`
otherwise.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops import array_ops, math_ops
from runtime.shape import TensorShape
from runtime.tensor import EagerTensor, convert_to_tensor


def _count(t) -> Optional[int]:
    """The number of rows of `t` when tracing knows it."""
    dims = t.shape.dims
    return None if dims is None or not dims else dims[0]


def _loop(n, body, array):
    """`array = body(k, array)` for k in range(n), `n` a scalar tensor (a traced count)."""
    from runtime.control_flow import while_loop   # import cycle: control_flow imports tensor_array

    _, array = while_loop(lambda k, a: k < n, lambda k, a: (k + 1, body(k, a)), (0, array), relax_shapes=True)
    return array


def _checked(array, value, what: str):
    value = convert_to_tensor(value, dtype_hint=array.dtype)
    if value.dtype is not array.dtype:
        raise InvalidArgumentError(f"TensorArray.{what}: a TensorArray of {array.dtype.name} can't take a "
                                   f"{value.dtype.name} value; use runtime.cast first.", f"TensorList{what}")
    return value


def scatter(array, indices, value):
    """Row k of `value` written at element `indices[k]`."""
    value = _checked(array, value, "scatter")
    indices = convert_to_tensor(indices, dtype_hint=dtypes.int32)
    if indices.shape.rank != 1:
        raise ValueError(f"TensorArray.scatter: indices must be a vector, got shape {indices.shape}.")
    count = _count(indices)
    if count is None:
        return _loop(array_ops.shape(indices)[0],
                     lambda k, a: a.write(array_ops.gather(indices, k), array_ops.gather(value, k)), array)
    for k in range(count):
        array = array.write(indices[k], value[k])
    return array


def split(array, value, lengths):
    """The rows of `value` cut into consecutive elements of `lengths[k]` rows each: a new array of
    `len(lengths)` elements (TensorFlow refuses another size unless the array is dynamically sized)."""
    value = _checked(array, value, "split")
    lengths = convert_to_tensor(lengths, dtype_hint=dtypes.int32)
    count = _count(lengths)
    known = array._length
    if count is not None and known is not None and known != count and not array.dynamic_size:
        raise InvalidArgumentError(f"TensorArray.split: the TensorArray's size is not equal to the size of "
                                   f"lengths ({known} vs. {count}), and the TensorArray is not marked as "
                                   "dynamically resizeable.", "TensorListSplit")
    if isinstance(lengths, EagerTensor) and isinstance(value, EagerTensor):
        if int(np.sum(lengths.numpy())) != _count(value):
            raise InvalidArgumentError(f"TensorArray.split: the lengths {lengths.numpy().tolist()} do not add up "
                                       f"to the {_count(value)} rows of the value.", "TensorListSplit")
    ends = math_ops.cumsum(lengths)
    rows = TensorShape(None) if value.shape.rank is None else TensorShape([None, *value.shape.dims[1:]])
    fresh = _new_like(array, count, array_ops.size(lengths), rows)

    def piece(k, a):
        end = array_ops.gather(ends, k)
        return a.write(k, value[end - array_ops.gather(lengths, k):end])

    if count is None:
        return _loop(array_ops.size(lengths), piece, fresh)
    for k in range(count):
        fresh = piece(k, fresh)
    return fresh


def _new_like(array, count: Optional[int], size, rows: TensorShape):
    """An array like `array` of `count` (else `size`) elements of `rows`' shape (pieces of any length)."""
    from runtime.tensor_array import TensorArray   # import cycle: tensor_array imports this module

    shape = array._element_shape
    if shape is not None and not shape.is_compatible_with(rows):
        raise InvalidArgumentError(f"TensorArray.split: the elements have shape {shape}, the pieces {rows}.",
                                   "TensorListSplit")
    return TensorArray(array.dtype, size=count if count is not None else size, dynamic_size=array.dynamic_size,
                       element_shape=rows, infer_shape=array._infer_shape)


def concat(array):
    """The elements concatenated along their first axis. Elements of one known shape are the stacked
    tensor's rows merged; others are joined one by one."""
    if array._items is not None:
        if not array._items:
            return _empty(array)
        missing = [i for i, t in enumerate(array._items) if t is None]
        if missing:
            raise InvalidArgumentError(f"TensorArray concat: elements {missing} were never written.",
                                       "TensorListConcat")
        return array_ops.concat(array._items, 0)
    shape = array._element_shape
    if shape is not None and shape.rank is not None and shape.rank >= 1 and shape.is_fully_defined():
        rest = list(shape.dims[1:])
        return array_ops.reshape(array.stack(), [-1, *rest])
    if shape is not None and shape.rank == 0:
        raise InvalidArgumentError("TensorArray concat: the elements are scalars; stack them instead.",
                                   "TensorListConcat")
    first = array.read(0)
    return _loop(array.size() - 1, lambda k, joined: array_ops.concat([joined, array.read(k + 1)], 0), first)


def _empty(array):
    shape = array._element_shape
    if shape is None or shape.dims is None or not shape.dims or any(d is None for d in shape.dims[1:]):
        raise InvalidArgumentError("TensorArray concat: the array is empty and its element shape is not known "
                                   f"({TensorShape(None) if shape is None else shape}).", "TensorListConcat")
    return array_ops.zeros([0, *shape.dims[1:]], array.dtype)
