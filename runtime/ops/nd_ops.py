"""`tf.gather_nd`, `tf.scatter_nd` and the `tf.tensor_scatter_nd_*` updates.

`GatherNd` and `ScatterNd` are registry ops (each the other's gradient). An
index out of range is an `InvalidArgumentError` naming it, as in TensorFlow's
CPU kernels (never a wrapped or clamped value, under `jit_compile` too). The
updates are compositions: `tensor_scatter_nd_add(t, i, u)` is
`t + scatter_nd(i, u, shape(t))`, and `tensor_scatter_nd_update` selects the
scattered values where an index points; an index given twice is an error there,
since TensorFlow leaves which update wins undefined.
"""
from __future__ import annotations

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops import array_ops, math_ops
from runtime.ops.registry import Spec, apply, defop
from runtime.shape import TensorShape
from runtime.tensor import convert_to_tensor


def check_indices(indices, shape, what: str) -> None:
    """InvalidArgumentError for the first index (a row of `indices`' last axis) outside `shape`'s leading dims."""
    k = indices.shape[-1]
    bad = np.any((indices < 0) | (indices >= np.asarray(shape[:k], dtype=np.int64)), axis=-1)
    if np.any(bad):
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise InvalidArgumentError(f"indices{list(where)} = {indices[where].tolist()} does not index into "
                                   f"{'param ' if what == 'GatherNd' else ''}shape {list(shape)}", what)


def _positions(indices) -> tuple:
    return tuple(np.moveaxis(indices.astype(np.intp), -1, 0))


def _gather_nd(params, indices):
    check_indices(indices, params.shape, "GatherNd")
    return np.asarray(params[_positions(indices)])


def _gather_nd_infer(params, indices) -> Spec:
    if indices.shape.rank is None or params.shape.rank is None or indices.shape.dims[-1] is None:
        return Spec(params.dtype, TensorShape(None))
    k = indices.shape.dims[-1]
    return Spec(params.dtype, TensorShape(list(indices.shape.dims[:-1]) + list(params.shape.dims[k:])))


def _scatter_nd(indices, updates, shape):
    check_indices(indices, shape, "ScatterNd")
    out = np.zeros(shape, updates.dtype)
    np.add.at(out, _positions(indices), updates)
    return out


GATHER_ND = defop("GatherNd", _gather_nd, _gather_nd_infer, doc="params at each index along indices' last axis")
SCATTER_ND = defop("ScatterNd", _scatter_nd, lambda indices, updates, shape: Spec(updates.dtype, TensorShape(shape)),
                   doc="zeros of `shape` with `updates` added at `indices` (duplicates summed)")


def _int_indices(what: str, indices):
    indices = convert_to_tensor(indices)
    if not indices.dtype.is_integer:
        raise InvalidArgumentError(f"{what}: indices must be integers, got {indices.dtype.name}.", what)
    if indices.shape.rank == 0 or indices.shape.rank is not None and indices.shape.dims[-1] is None:
        raise InvalidArgumentError(f"{what}: indices need a last axis of known length (the index depth), got "
                                   f"shape {indices.shape}.", what)
    return indices


def gather_nd(params, indices, batch_dims=0, name=None):
    """The slices of `params` at `indices` (each row of its last axis indexes params' leading dims)."""
    if batch_dims:
        raise NotImplementedError("gather_nd(batch_dims=...) is not supported; fold the batch axes into the "
                                  "indices (tf.concat([batch_index, index], -1)) instead.")
    params = convert_to_tensor(params)
    return apply(GATHER_ND, params, _int_indices("GatherNd", indices), name=name)


def _static_shape(what: str, shape) -> list:
    from runtime.ops.composites import _static_value
    return [int(d) for d in np.atleast_1d(_static_value(what, shape))]


def scatter_nd(indices, updates, shape, name=None):
    """Zeros of `shape` with `updates` added at `indices` (an index given twice gets the sum)."""
    indices = _int_indices("ScatterNd", indices)
    return apply(SCATTER_ND, indices, convert_to_tensor(updates), shape=_static_shape("ScatterNd", shape), name=name)


def _like(what: str, tensor, indices, updates):
    tensor = convert_to_tensor(tensor)
    if not tensor.shape.is_fully_defined():
        raise InvalidArgumentError(f"{what}: the tensor's shape must be known while tracing, got {tensor.shape}.",
                                   what)
    return tensor, _int_indices(what, indices), convert_to_tensor(updates, dtype_hint=tensor.dtype)


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    tensor, indices, updates = _like("TensorScatterAdd", tensor, indices, updates)
    return math_ops.add(tensor, scatter_nd(indices, updates, tensor.shape.as_list()), name=name)


def tensor_scatter_nd_sub(tensor, indices, updates, name=None):
    tensor, indices, updates = _like("TensorScatterSub", tensor, indices, updates)
    return math_ops.subtract(tensor, scatter_nd(indices, updates, tensor.shape.as_list()), name=name)


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    """`tensor` with `updates` in place of the slices at `indices`."""
    from runtime.ops.assertions import assert_op
    tensor, indices, updates = _like("TensorScatterUpdate", tensor, indices, updates)
    shape = tensor.shape.as_list()
    depth = indices.shape.dims[-1]
    counts = scatter_nd(indices, array_ops.ones(array_ops.shape(indices)[:-1], dtypes.int32), shape[:depth])
    assert_op(math_ops.reduce_all(counts <= 1), [], "tensor_scatter_nd_update: an index is given more than once, and "
              "TensorFlow leaves which update wins undefined; give each index once")
    hit = array_ops.reshape(counts > 0, shape[:depth] + [1] * (len(shape) - depth))
    hit = math_ops.logical_and(hit, array_ops.ones(shape, dtypes.bool))
    return array_ops.where(hit, scatter_nd(indices, updates, shape), tensor, name=name)
