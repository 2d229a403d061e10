"""Ops that make, reshape and select tensors."""
from __future__ import annotations

import builtins

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops.convert import tensors
from runtime.ops.packing import (holds_tensor, known_shape, shape_argument, shape_from, static_int, static_ints,
                                 static_value)
from runtime.ops.registry import Spec, apply, broadcast_shapes, defop, same_dtype, unary_same
from runtime.shape import TensorShape
from runtime.tensor import Tensor, constant, convert_to_tensor


def _const_infer(value: np.ndarray) -> Spec:
    return Spec(dtypes.from_numpy(value.dtype), TensorShape(np.shape(value)))


CONST = defop("Const", lambda value: value, _const_infer, doc="A constant; `value` is the attribute.")
IDENTITY = defop("Identity", lambda x: x, unary_same)


def identity(input, name=None):  # noqa: A002
    return apply(IDENTITY, convert_to_tensor(input), name=name)


STOP_GRADIENT = defop("StopGradient", lambda x: x, unary_same, doc="the input; gradients do not flow through it")


def stop_gradient(input, name=None):  # noqa: A002
    return apply(STOP_GRADIENT, convert_to_tensor(input), name=name)


def _static_ints(value, what: str) -> tuple:
    """A tuple of Python ints from a list, tuple or tensor whose value tracing knows."""
    ints = static_ints(value, what)
    return ints if isinstance(ints, tuple) else (ints,)


# --- shape queries ----------------------------------------------------------------------------

SHAPE = defop("Shape", lambda x, out_type: np.asarray(np.shape(x), out_type.as_numpy_dtype),
              lambda x, out_type: Spec(out_type, TensorShape([x.shape.rank])))
SIZE = defop("Size", lambda x, out_type: out_type.as_numpy_dtype(np.size(x)),
             lambda x, out_type: Spec(out_type, TensorShape(())))
RANK = defop("Rank", lambda x: np.int32(np.ndim(x)), lambda x: Spec(dtypes.int32, TensorShape(())))


def shape(input, out_type=dtypes.int32, name=None):  # noqa: A002
    return apply(SHAPE, convert_to_tensor(input), out_type=dtypes.as_dtype(out_type), name=name)


def size(input, out_type=dtypes.int32, name=None):  # noqa: A002
    return apply(SIZE, convert_to_tensor(input), out_type=dtypes.as_dtype(out_type), name=name)


def rank(input, name=None):  # noqa: A002
    return apply(RANK, convert_to_tensor(input), name=name)


# --- reshaping ---------------------------------------------------------------------------------

def _reshape_infer(x, *shape_input, shape) -> Spec:
    if shape is None:
        return Spec(x.dtype, TensorShape(None))
    dims = list(shape)
    if dims.count(-1) > 1 or any(d is not None and d < -1 for d in dims):
        raise InvalidArgumentError(f"Reshape: the shape's entries must be non-negative, or one of them -1, got "
                                   f"{list(shape)}.", "Reshape")
    if None in dims:
        return Spec(x.dtype, _partial_reshape(x, dims))
    if x.shape.is_fully_defined() and 0 in dims + list(x.shape.dims):
        return Spec(x.dtype, TensorShape(reshape_target(tuple(x.shape.dims), dims)))
    n = x.shape.num_elements()
    known = int(np.prod([d for d in dims if d != -1]))
    if -1 in dims:
        dims[dims.index(-1)] = None if n is None or known == 0 else n // known
        if n is not None and known and n % known:
            raise InvalidArgumentError(f"Reshape: can't reshape {n} elements into {shape}.")
    elif n is not None and n != known:
        raise InvalidArgumentError(f"Reshape: can't reshape a tensor of shape {x.shape} ({n} elements) into "
                                   f"{tuple(shape)} ({known} elements).")
    return Spec(x.dtype, TensorShape(dims))


def _partial_reshape(x, dims: list) -> TensorShape:
    """A shape with entries only known when the graph runs: a -1 is known when everything else is."""
    if -1 not in dims:
        return TensorShape(dims)
    n = x.shape.num_elements()
    others = [d for d in dims if d != -1]
    inferred = None if n is None or None in others or 0 in others else n // int(np.prod(others))
    return TensorShape([inferred if d == -1 else d for d in dims])


def reshape_target(in_shape: tuple, shape) -> tuple:
    """The shape Reshape gives, TensorFlow's rule: a -1 takes the elements left once the other entries are
    placed, where a 0 entry leaves the input's zero dimensions out of the count (a (0, 3) tensor reshaped to
    (0, -1, 3) is (0, 1, 3); NumPy refuses)."""
    shape = tuple(int(d) for d in shape)
    if any(d < -1 for d in shape) or shape.count(-1) > 1:
        raise InvalidArgumentError(f"Reshape: the shape's entries must be non-negative, or one of them -1, got "
                                   f"{list(shape)}.", "Reshape")
    if -1 not in shape:
        return shape
    has_zero = 0 in shape
    placed = int(np.prod([d for d in shape if d > 0]))
    elements = int(np.prod([d for d in in_shape if d > 0 or not has_zero]))
    if not (has_zero and 0 in in_shape) and elements % placed:
        raise InvalidArgumentError(f"Reshape: can't reshape {elements} elements into {list(shape)}.", "Reshape")
    return tuple(elements // placed if d == -1 else d for d in shape)


def _reshape(x, *shape_input, shape):
    return np.reshape(x, reshape_target(x.shape, shape_from(shape_input, shape)))


RESHAPE = defop("Reshape", _reshape, _reshape_infer,
                doc="`shape` is static, or partial when the shape is the op's second input (a 1-D int tensor)")


def reshape(tensor, shape, name=None):
    shape_input, static = shape_argument(shape, "reshape's shape")
    return apply(RESHAPE, convert_to_tensor(tensor), *shape_input, shape=static, name=name)


def _transpose_infer(x, perm) -> Spec:
    if x.shape.rank is None:
        return Spec(x.dtype, TensorShape(None))
    if sorted(perm) != list(builtins.range(x.shape.rank)):
        raise InvalidArgumentError(f"Transpose: perm {list(perm)} is not a permutation of the {x.shape.rank} "
                                   "dimensions.")
    return Spec(x.dtype, TensorShape([x.shape.dims[p] for p in perm]))


TRANSPOSE = defop("Transpose", lambda x, perm: np.transpose(x, perm), _transpose_infer)


def transpose(a, perm=None, name=None):
    a = convert_to_tensor(a)
    if perm is None:
        if a.shape.rank is None:
            raise InvalidArgumentError("Transpose: the rank must be known when perm is not given.")
        perm = tuple(reversed(builtins.range(a.shape.rank)))
    return apply(TRANSPOSE, a, perm=_static_ints(perm, "transpose's perm"), name=name)


def _expand_infer(x, axis) -> Spec:
    if x.shape.rank is None:
        return Spec(x.dtype, TensorShape(None))
    r = x.shape.rank
    if not -r - 1 <= axis <= r:
        raise InvalidArgumentError(f"ExpandDims: axis {axis} is out of range for rank {r}.")
    dims = list(x.shape.dims)
    dims.insert(axis % (r + 1), 1)
    return Spec(x.dtype, TensorShape(dims))


EXPAND_DIMS = defop("ExpandDims", lambda x, axis: np.expand_dims(x, axis), _expand_infer)


def expand_dims(input, axis, name=None):  # noqa: A002
    return apply(EXPAND_DIMS, convert_to_tensor(input), axis=static_int(axis, "expand_dims's axis", "ExpandDims"), name=name)


def _squeeze_infer(x, axis) -> Spec:
    if x.shape.rank is None:
        return Spec(x.dtype, TensorShape(None))
    dims = x.shape.dims
    r = len(dims)
    if not axis and None in dims:   # an unknown dimension may be 1 and go: the rank is unknown (as TensorFlow)
        return Spec(x.dtype, TensorShape(None))
    axes = {a % r for a in axis} if axis else {i for i, d in enumerate(dims) if d == 1}
    for a in axes:
        if dims[a] not in (1, None):
            raise InvalidArgumentError(f"Squeeze: can't squeeze dimension {a} of size {dims[a]}.")
    return Spec(x.dtype, TensorShape([d for i, d in enumerate(dims) if i not in axes]))


SQUEEZE = defop("Squeeze", lambda x, axis: np.squeeze(x, axis=tuple(axis) if axis else None), _squeeze_infer)


def squeeze(input, axis=None, name=None):  # noqa: A002
    axis = () if axis is None else ((int(axis),) if isinstance(axis, int) else tuple(int(a) for a in axis))
    return apply(SQUEEZE, convert_to_tensor(input), axis=axis, name=name)


# --- joining and splitting -------------------------------------------------------------------

def _concat_infer(*values, axis) -> Spec:
    ranks = {v.shape.rank for v in values if v.shape.rank is not None}
    if not ranks:
        return Spec(values[0].dtype, TensorShape(None))
    if len(ranks) > 1:
        raise InvalidArgumentError(f"ConcatV2: all inputs must have the same rank, got shapes "
                                   f"{[str(v.shape) for v in values]}.")
    r = ranks.pop()
    if not -r <= axis < r:
        raise InvalidArgumentError(f"ConcatV2: axis {axis} is out of range for rank {r}.")
    axis %= r
    dims: list = []
    for i in builtins.range(r):
        column = [v.shape.dims[i] if v.shape.rank is not None else None for v in values]
        if i == axis:
            dims.append(None if None in column else sum(column))
        else:
            known = {d for d in column if d is not None}
            if len(known) > 1:
                raise InvalidArgumentError(f"ConcatV2: dimension {i} differs between inputs: "
                                           f"{[str(v.shape) for v in values]}.")
            dims.append(known.pop() if known else None)
    return Spec(values[0].dtype, TensorShape(dims))


CONCAT = defop("ConcatV2", lambda *values, axis: np.concatenate(values, axis=axis), _concat_infer)


def concat(values, axis, name=None):
    axis = static_int(axis, "concat's axis", "ConcatV2")
    if isinstance(values, Tensor):
        return _concat_rows(values, axis, name)
    values = tensors(values, "ConcatV2")
    return apply(CONCAT, *values, axis=axis, name=name)


# A tensor where a list of tensors is expected stands for the list of its rows, as iterating it eagerly gives:
# that is what a list appended in a staged loop is after the loop (its elements stacked). TensorFlow's
# `concat(t, axis)` is `t` itself; `stack(t)` is `t`, as here.

def _concat_rows(t: Tensor, axis: int, name=None):
    """`concat(list(t), axis)` without iterating `t`: its first axis moved next to `axis` and merged into it."""
    rank = t.shape.rank
    if rank is None or rank < 2:
        raise InvalidArgumentError(f"ConcatV2: a tensor given as the list of its rows must have rank >= 2 "
                                   f"(rows of rank >= 1), got shape {t.shape}.")
    axis %= rank - 1
    moved = transpose(t, [*builtins.range(1, axis + 1), 0, *builtins.range(axis + 1, rank)])
    dims = list(moved.shape.dims)
    if None not in dims:
        return reshape(moved, [*dims[:axis], dims[axis] * dims[axis + 1], *dims[axis + 2:]], name=name)
    size = shape(moved)
    merged = concat([size[:axis], (size[axis] * size[axis + 1])[None], size[axis + 2:]], 0)
    return reshape(moved, merged, name=name)


def _stack_rows(t: Tensor, axis: int, name=None):
    """`stack(list(t), axis)` without iterating `t`: its first axis moved to `axis`."""
    rank = t.shape.rank
    if rank is None or rank < 1:
        raise InvalidArgumentError(f"Pack: a tensor given as the list of its rows must have rank >= 1, got "
                                   f"shape {t.shape}.")
    axis %= rank
    if axis == 0:
        return t
    return transpose(t, [*builtins.range(1, axis + 1), 0, *builtins.range(axis + 1, rank)], name=name)


def _stack_infer(*values, axis) -> Spec:
    base = values[0].shape
    for v in values[1:]:
        if not base.is_compatible_with(v.shape):
            raise InvalidArgumentError(f"Pack: all inputs must have the same shape, got "
                                       f"{[str(v.shape) for v in values]}.")
        base = base.most_specific_compatible_shape(v.shape) if base != v.shape else base
    if base.rank is None:
        return Spec(values[0].dtype, TensorShape(None))
    dims = list(base.dims)
    if not -len(dims) - 1 <= axis <= len(dims):
        raise InvalidArgumentError(f"Pack: axis {axis} is out of range.")
    dims.insert(axis % (len(dims) + 1), len(values))
    return Spec(values[0].dtype, TensorShape(dims))


STACK = defop("Pack", lambda *values, axis: np.stack(values, axis=axis), _stack_infer)


def stack(values, axis=0, name=None):
    axis = static_int(axis, "stack's axis", "Pack")
    if isinstance(values, Tensor):   # the list of its rows (a list a staged loop stacked): along 0, itself
        if axis != 0:
            return _stack_rows(values, axis, name)
        # a plain tensor: the stacked list's operators keep a list's meaning (runtime/tensor_array.py)
        return identity(values, name=name) if getattr(values, "is_stacked_list", False) else values
    if axis == 0 and type(values) in (list, tuple) and values and not holds_tensor(values):
        return convert_to_tensor(values, name=name)   # as TensorFlow: one list (`[1, 2.5]` is float32)
    values = tensors(values, "Pack")
    return apply(STACK, *values, axis=axis, name=name)


def _unstack_infer(value, num, axis):
    if value.shape.rank is None:
        return [Spec(value.dtype, TensorShape(None))] * num
    dims = list(value.shape.dims)
    del dims[axis % len(dims)]
    return [Spec(value.dtype, TensorShape(dims))] * num


UNSTACK = defop("Unpack", lambda value, num, axis: list(np.moveaxis(value, axis, 0)), _unstack_infer,
                multi_output=True)


def unstack(value, num=None, axis=0, name=None):
    value = convert_to_tensor(value)
    if value.shape.rank is None or value.shape.rank == 0:
        raise InvalidArgumentError(f"Unpack: needs a tensor of known rank >= 1, got shape {value.shape}.")
    axis = static_int(axis, "unstack's axis", "Unpack")
    n = value.shape.dims[axis]
    if num is None:
        if n is None:
            raise InvalidArgumentError("Unpack: the size of the unstacked dimension is unknown; pass num=.")
        num = n
    elif n is not None and n != num:
        raise InvalidArgumentError(f"Unpack: num={num} but the dimension has size {n}.")
    return apply(UNSTACK, value, num=int(num), axis=axis, name=name)


# --- selection ------------------------------------------------------------------------------

def _gather(params, indices, axis):
    n = params.shape[axis]
    bad = (indices < 0) | (indices >= n)
    if np.any(bad):
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        where_text = ",".join(str(i) for i in where) if where else ""
        raise InvalidArgumentError(f"indices[{where_text}] = {int(indices[where] if where else indices)} is not "
                                   f"in [0, {n}) [Op:GatherV2]", "GatherV2")
    return np.take(params, indices, axis=axis)


def _gather_infer(params, indices, axis) -> Spec:
    if params.shape.rank is None or indices.shape.rank is None:
        return Spec(params.dtype, TensorShape(None))
    dims = params.shape.dims
    return Spec(params.dtype, TensorShape((*dims[:axis], *indices.shape.dims, *dims[axis + 1:])))


GATHER = defop("GatherV2", _gather, _gather_infer)


def gather(params, indices, axis=None, batch_dims=0, name=None):
    params, indices = convert_to_tensor(params), convert_to_tensor(indices)
    if not indices.dtype.is_integer:
        raise InvalidArgumentError(f"GatherV2: indices must be integers, got {indices.dtype.name}.", "GatherV2")
    if batch_dims:
        from runtime.ops.nd_ops import batched_gather   # (nd_ops imports this module)
        return batched_gather(params, indices, axis, static_int(batch_dims, "gather's batch_dims", "GatherV2"), name)
    axis = 0 if axis is None else static_int(axis, "gather's axis", "GatherV2")
    rank = params.shape.rank
    if rank is not None:
        if not -rank <= axis < rank:
            raise InvalidArgumentError(f"GatherV2: axis {axis} is out of range for params of rank {rank}.", "GatherV2")
        axis %= rank
    return apply(GATHER, params, indices, axis=axis, name=name)


def _where_infer(condition, x=None, y=None) -> Spec:
    if x is None:
        return Spec(dtypes.int64, TensorShape([None, condition.shape.rank]))
    return Spec(x.dtype, broadcast_shapes(broadcast_shapes(condition.shape, x.shape), y.shape))


WHERE = defop("SelectV2", lambda c, x, y: np.where(c, x, y), _where_infer)
WHERE_INDICES = defop("Where", lambda c: np.argwhere(c).astype(np.int64), _where_infer)


def where(condition, x=None, y=None, name=None):
    condition = convert_to_tensor(condition)
    if condition.dtype is not dtypes.bool:
        raise InvalidArgumentError(f"where: condition must be bool, got {condition.dtype.name}.", "SelectV2")
    if x is None and y is None:
        if condition.shape.rank == 0:
            raise InvalidArgumentError("where: the condition of where(condition) must have rank >= 1, got a "
                                       "scalar (TensorFlow: unhandled input dimensions: 0).", "Where")
        return apply(WHERE_INDICES, condition, name=name)
    if x is None or y is None:
        raise ValueError("where needs both x and y, or neither.")
    x = convert_to_tensor(x, dtype_hint=getattr(y, "dtype", None))
    y = convert_to_tensor(y, dtype_hint=x.dtype)
    same_dtype("SelectV2", x, y)
    return apply(WHERE, condition, x, y, name=name)


def _tile_infer(x, *multiples_input, multiples) -> Spec:
    if x.shape.rank is None or multiples is None:
        return Spec(x.dtype, TensorShape(None) if x.shape.rank is None else TensorShape([None] * x.shape.rank))
    if len(multiples) != x.shape.rank or any(m is not None and m < 0 for m in multiples):
        raise InvalidArgumentError(f"Tile: multiples {list(multiples)} must have one non-negative entry per "
                                   f"dimension of shape {x.shape}.", "Tile")
    return Spec(x.dtype, TensorShape([None if d is None or m is None else d * m
                                      for d, m in zip(x.shape.dims, multiples)]))


def _tile(x, *multiples_input, multiples):
    multiples = shape_from(multiples_input, multiples)
    if len(multiples) != np.ndim(x) or any(m < 0 for m in multiples):   # NumPy pads or raises its own error
        raise InvalidArgumentError(f"Tile: multiples {list(multiples)} must have one non-negative entry per "
                                   f"dimension of shape {np.shape(x)}.", "Tile")
    return np.tile(x, multiples)


TILE = defop("Tile", _tile, _tile_infer)


def tile(input, multiples, name=None):  # noqa: A002
    multiples_input, static = shape_argument(multiples, "tile's multiples")
    return apply(TILE, convert_to_tensor(input), *multiples_input, multiples=static, name=name)


def _one_hot(indices, depth, on_value, off_value, axis, dtype):
    hot = np.expand_dims(indices, axis) == np.expand_dims(np.arange(depth), tuple(
        i for i in builtins.range(np.ndim(indices) + 1) if i != axis % (np.ndim(indices) + 1)))
    return np.where(hot, on_value, off_value).astype(dtype.as_numpy_dtype)


def _one_hot_infer(indices, depth, on_value, off_value, axis, dtype) -> Spec:
    if indices.shape.rank is None:
        return Spec(dtype, TensorShape(None))
    dims = list(indices.shape.dims)
    dims.insert(axis % (len(dims) + 1), depth)
    return Spec(dtype, TensorShape(dims))


ONE_HOT = defop("OneHot", _one_hot, _one_hot_infer)


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    indices = convert_to_tensor(indices)
    if not indices.dtype.is_integer:
        raise InvalidArgumentError(
            f"one_hot: indices must be integers (uint8, int8, int32 or int64), got {indices.dtype.name}; cast "
            "them first.", "OneHot")
    depth = static_int(depth, "one_hot's depth", "OneHot")
    if depth < 0:
        raise InvalidArgumentError(f"one_hot: depth must be non-negative, got {depth}.", "OneHot")
    dtype = dtypes.as_dtype(dtype) if dtype is not None else _one_hot_dtype(on_value, off_value)
    on = 1 if on_value is None else np.asarray(getattr(on_value, "_value", on_value))
    off = 0 if off_value is None else np.asarray(getattr(off_value, "_value", off_value))
    axis = -1 if axis is None else static_int(axis, "one_hot's axis", "OneHot")
    return apply(ONE_HOT, indices, depth=depth, on_value=on, off_value=off, axis=axis, dtype=dtype, name=name)


def _one_hot_dtype(on_value, off_value) -> dtypes.DType:
    """TensorFlow's: the dtype of on_value, or else of off_value (a Python int is int32), or else float32; the
    two must agree."""
    given = [convert_to_tensor(v).dtype for v in (on_value, off_value) if v is not None]
    if len(given) == 2 and given[0] is not given[1]:
        raise TypeError(f"one_hot: on_value is {given[0].name} but off_value is {given[1].name}; give them one "
                        "dtype (or pass dtype=).")
    return given[0] if given else dtypes.float32


# --- creation ------------------------------------------------------------------------------

def _range_infer(start, limit, delta) -> Spec:
    """Its length where tracing knows the bounds (`range(6)`: 6, as TensorFlow's), else unknown."""
    return Spec(start.dtype, TensorShape([_range_length(*(static_value(v) for v in (start, limit, delta)))]))


def _range_length(start, limit, delta):
    """The kernel's length for these bounds, None if unknown or if the kernel raises: exact for integers; for
    floats (whose length depends on rounding in their dtype) the kernel's own, up to a million items."""
    if start is None or limit is None or delta is None or delta == 0 or (limit - start) * delta < 0:
        return None
    if start.dtype.kind in "iu":
        return builtins.int(-((builtins.int(start) - builtins.int(limit)) // builtins.int(delta)))
    if abs((float(limit) - float(start)) / float(delta)) > 1 << 20:
        return None
    return len(_range(start[()], limit[()], delta[()]))


def _range(start, limit, delta):
    if delta == 0:
        raise InvalidArgumentError("Range: delta must not be 0.", "Range")
    if (delta > 0 and start > limit) or (delta < 0 and start < limit):   # TensorFlow raises; NumPy gives []
        need = "<=" if delta > 0 else ">="
        raise InvalidArgumentError(f"Range: requires start {need} limit when delta {'>' if delta > 0 else '<'} 0, "
                                   f"got start={start}, limit={limit}, delta={delta}.", "Range")
    return np.arange(start, limit, delta, dtype=np.result_type(start))


RANGE = defop("Range", _range, _range_infer)


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    if limit is None:
        start, limit = 0, start
    values = [start, limit, delta]
    if dtype is None:
        floating = any(isinstance(v, float) or isinstance(v, Tensor) and v.dtype.is_floating for v in values)
        dtype = dtypes.float32 if floating else next((v.dtype for v in values if isinstance(v, Tensor)),
                                                      dtypes.int32)
    dtype = dtypes.as_dtype(dtype)
    start, limit, delta = (cast_like(v, dtype) for v in values)
    return apply(RANGE, start, limit, delta, name=name)


def cast_like(value, dtype):
    from runtime.ops.math_ops import cast
    t = convert_to_tensor(value, dtype_hint=dtype)
    return t if t.dtype is dtype else cast(t, dtype)


def _eye(num_rows, num_columns, batch_shape, dtype):
    m = np.eye(num_rows, num_columns, dtype=dtype.as_numpy_dtype)
    return np.broadcast_to(m, (*batch_shape, num_rows, num_columns)).copy() if batch_shape else m


EYE = defop("Eye", _eye, lambda num_rows, num_columns, batch_shape, dtype: Spec(
    dtype, TensorShape((*batch_shape, num_rows, num_columns))))


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    num_columns = num_rows if num_columns is None else num_columns
    batch = () if batch_shape is None else _static_ints(batch_shape, "eye's batch_shape")
    return apply(EYE, num_rows=int(num_rows), num_columns=int(num_columns), batch_shape=batch,
                 dtype=dtypes.as_dtype(dtype), name=name)


def _fill(value, *dims_input, dims):
    return np.full(shape_from(dims_input, dims), value, dtype=np.asarray(value).dtype)


FILL = defop("Fill", _fill, lambda value, *dims_input, dims: Spec(value.dtype, known_shape(dims)))


def fill(dims, value, name=None):
    value = convert_to_tensor(value)
    if value.shape.rank not in (0, None):
        raise InvalidArgumentError(f"Fill: value must be a scalar, got shape {value.shape}.", "Fill")
    dims_input, static = shape_argument(dims, "fill's dims")
    return apply(FILL, value, *dims_input, dims=static, name=name)


def zeros(shape, dtype=dtypes.float32, name=None):
    dtype = dtypes.as_dtype(dtype)
    zero = False if dtype.is_bool else b"" if dtype.is_string else 0
    return fill(shape, constant(zero, dtype=dtype), name=name)


def ones(shape, dtype=dtypes.float32, name=None):
    dtype = dtypes.as_dtype(dtype)
    return fill(shape, constant(1, dtype=dtype) if not dtype.is_bool else constant(True), name=name)


ZEROS_LIKE = defop("ZerosLike", np.zeros_like, unary_same)
ONES_LIKE = defop("OnesLike", np.ones_like, unary_same)


def zeros_like(input, dtype=None, name=None):  # noqa: A002
    t = apply(ZEROS_LIKE, convert_to_tensor(input), name=name)
    return t if dtype is None else cast_like(t, dtypes.as_dtype(dtype))


def ones_like(input, dtype=None, name=None):  # noqa: A002
    t = apply(ONES_LIKE, convert_to_tensor(input), name=name)
    return t if dtype is None else cast_like(t, dtypes.as_dtype(dtype))
