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
from runtime.ops.packing import static_int
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
    params = convert_to_tensor(params)
    indices = _int_indices("GatherNd", indices)
    batch_dims = static_int(batch_dims, "gather_nd's batch_dims", "GatherNd")
    if batch_dims:
        return _batched_gather_nd(params, indices, batch_dims, name)
    return apply(GATHER_ND, params, indices, name=name)


def _shape_of(t):
    """`t`'s shape: a list of ints when tracing knows it all (so the reshapes below keep static shapes, which
    gradients of gradients need), else its shape tensor."""
    return list(t.shape.dims) if t.shape.is_fully_defined() else array_ops.shape(t)


def _product(dims):
    return int(np.prod(dims, dtype=np.int64)) if isinstance(dims, list) else math_ops.reduce_prod(dims)


def _joined(*parts):
    """A shape made of `parts` (lists of ints, ints, or int tensors): a list when all are known."""
    if all(isinstance(p, (list, int, np.integer)) for p in parts):
        return [int(d) for p in parts for d in (p if isinstance(p, list) else [p])]
    return array_ops.concat([array_ops.reshape(math_ops.cast(p, dtypes.int32), [-1]) for p in parts], 0)


def _batched_gather_nd(params, indices, batch_dims: int, name):
    """`gather_nd` with `batch_dims`: each batch's index rows read its own batch of `params` (the batch axes
    flattened into one, whose position is put in front of each index row)."""
    from runtime.ops.extra_array_ops import broadcast_to   # (it imports this module)
    rank, index_rank = params.shape.rank, indices.shape.rank
    depth = indices.shape.dims[-1] if index_rank else None
    if rank is None or index_rank is None or depth is None or not 0 < batch_dims < min(rank, index_rank):
        raise InvalidArgumentError(f"GatherNd: batch_dims {batch_dims} must be less than the ranks of params and "
                                   f"indices ({rank} and {index_rank}), which must be known, as must the length "
                                   "of an index row.", "GatherNd")
    p_shape, i_shape = _shape_of(params), _shape_of(indices)
    batch = _product(p_shape[:batch_dims])
    flat_params = array_ops.reshape(params, _joined(batch, p_shape[batch_dims:]))
    flat_indices = array_ops.reshape(indices, _joined(batch, i_shape[batch_dims:]))
    position = array_ops.reshape(math_ops.cast(array_ops.range(batch), indices.dtype),
                                 [-1] + [1] * (index_rank - batch_dims))
    position = broadcast_to(position, _joined(batch, i_shape[batch_dims:-1], 1))
    got = apply(GATHER_ND, flat_params, array_ops.concat([position, flat_indices], -1))
    out_shape = _joined(p_shape[:batch_dims], i_shape[batch_dims:-1], p_shape[batch_dims + depth:])
    return array_ops.reshape(got, out_shape, name=name)


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


def batched_gather(params, indices, axis, batch_dims: int, name=None):
    """`tf.gather` with `batch_dims`: for each index of the first `batch_dims` axes (which `params` and
    `indices` share), the slices of that batch's `params` along `axis` at that batch's `indices`. Made of a
    plain gather on the batches laid side by side along `axis` (each batch's indices offset by its place), so
    it runs traced and differentiates as `gather` does."""
    rank, index_rank = params.shape.rank, indices.shape.rank
    if rank is None or index_rank is None:
        raise InvalidArgumentError("GatherV2: batch_dims needs params and indices of known rank.", "GatherV2")
    batch_dims = batch_dims + index_rank if batch_dims < 0 else batch_dims
    axis = batch_dims if axis is None else static_int(axis, "gather's axis", "GatherV2")
    axis = axis + rank if axis < 0 else axis
    if not 0 <= batch_dims <= index_rank or batch_dims >= rank or not batch_dims <= axis < rank:
        raise InvalidArgumentError(f"GatherV2: batch_dims {batch_dims} and axis {axis} don't fit params of rank "
                                   f"{rank} and indices of rank {index_rank} (batch_dims <= axis < rank, batch_dims "
                                   "<= the rank of indices).", "GatherV2")
    if batch_dims == 0:
        return array_ops.gather(params, indices, axis=axis, name=name)
    p_shape, i_shape = _shape_of(params), _shape_of(indices)
    batch = _product(p_shape[:batch_dims])
    middle = rank - batch_dims - 1 - (rank - axis - 1)          # the axes between the batch axes and `axis`
    # params as [batch, *middle, n, *rest] -> [*middle, batch, n, *rest] -> [*middle, batch * n, *rest]
    flat = array_ops.reshape(params, _joined(batch, p_shape[batch_dims:]))
    moved = array_ops.transpose(flat, [*range(1, middle + 1), 0, *range(middle + 1, rank - batch_dims + 1)])
    n = p_shape[axis]
    sided = array_ops.reshape(moved, _joined(p_shape[batch_dims:axis], batch * n, p_shape[axis + 1:]))
    # each batch's indices offset by its place: [batch, *m] + batch_index * n
    flat_indices = array_ops.reshape(indices, _joined(batch, i_shape[batch_dims:]))
    offsets = math_ops.cast(array_ops.range(batch) * n, indices.dtype)
    offsets = array_ops.reshape(offsets, [-1] + [1] * (index_rank - batch_dims))
    got = array_ops.gather(sided, flat_indices + offsets, axis=middle)   # [*middle, batch, *m, *rest]
    got_rank = middle + 1 + (index_rank - batch_dims) + (rank - axis - 1)
    back = array_ops.transpose(got, [middle, *range(middle), *range(middle + 1, got_rank)])
    out_shape = _joined(p_shape[:axis], i_shape[batch_dims:], p_shape[axis + 1:])
    return array_ops.reshape(back, out_shape, name=name)
