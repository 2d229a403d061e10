"""More array ops: `broadcast_to`, `linspace`, `pad`, `split`, `boolean_mask`.

Each is one registry entry (kernel, shape/dtype rule) and a public wrapper;
gradient rules are in `runtime/ops/gradients.py`.
"""
from __future__ import annotations

import builtins

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops.packing import known_shape, shape_argument, shape_from, static_int, static_ints, static_value
from runtime.ops.registry import Spec, apply, broadcast_shapes, defop
from runtime.shape import TensorShape
from runtime.tensor import Tensor, convert_to_tensor


def _axis(axis, rank, op_name: str) -> int:
    if rank is None:
        return int(axis)
    if not -rank <= axis < builtins.max(rank, 1):
        raise InvalidArgumentError(f"{op_name}: axis {axis} is out of range for rank {rank}.", op_name)
    return int(axis) % builtins.max(rank, 1)


# --- broadcast_to, and its gradient's inverse --------------------------------------------------

def _broadcast_to(x, *shape_input, shape):
    return np.array(np.broadcast_to(x, shape_from(shape_input, shape)))


def _broadcast_to_infer(x, *shape_input, shape) -> Spec:
    target = known_shape(shape)
    if target.rank is not None and x.shape.rank is not None and x.shape.rank > target.rank:
        raise InvalidArgumentError(f"BroadcastTo: can't broadcast shape {x.shape} to the lower rank {target}.")
    out = broadcast_shapes(x.shape, target, "BroadcastTo")
    return Spec(x.dtype, out if out.dims is None else TensorShape(
        [t if t is not None else o for t, o in zip(target.dims, out.dims)]) if target.dims is not None else out)


BROADCAST_TO = defop("BroadcastTo", _broadcast_to, _broadcast_to_infer)


def broadcast_to(input, shape, name=None):  # noqa: A002
    shape_input, static = shape_argument(shape, "broadcast_to's shape")
    return apply(BROADCAST_TO, convert_to_tensor(input), *shape_input, shape=static, name=name)


# --- linspace ---------------------------------------------------------------------------------

def _linspace(start, stop, num, axis):
    return np.linspace(start, stop, num, axis=axis).astype(np.result_type(start))


def _linspace_infer(start, stop, num, axis) -> Spec:
    dims = broadcast_shapes(start.shape, stop.shape, "LinSpace").dims
    if dims is None:
        return Spec(start.dtype, TensorShape(None))
    dims = list(dims)
    dims.insert(axis % (len(dims) + 1), num)
    return Spec(start.dtype, TensorShape(dims))


LINSPACE = defop("LinSpace", _linspace, _linspace_infer)


def linspace(start, stop, num, name=None, axis=0):
    """As TensorFlow's: integer bounds (Python ints too) give float64 values."""
    start = convert_to_tensor(start)
    stop = convert_to_tensor(stop, dtype_hint=start.dtype)
    if start.dtype.is_integer and stop.dtype is start.dtype:
        from runtime.ops.math_ops import cast    # math_ops imports this module
        start, stop = (cast(v, dtypes.float64) for v in (start, stop))
    if not start.dtype.is_floating or stop.dtype is not start.dtype:
        raise InvalidArgumentError(f"LinSpace: start and stop must be numbers of one dtype, got {start.dtype.name} "
                                   f"and {stop.dtype.name}.", "LinSpace")
    num = int(shape_argument(num, "linspace's num")[1][0])
    if num < 0:
        raise InvalidArgumentError(f"LinSpace: num must be >= 0, got {num}.", "LinSpace")
    return apply(LINSPACE, start, stop, num=num, axis=int(axis), name=name)


# --- pad --------------------------------------------------------------------------------------

_PAD_MODES = {"CONSTANT": "constant", "REFLECT": "reflect", "SYMMETRIC": "symmetric"}


def _pad(x, constant_values, paddings, mode):
    if not paddings:
        return x
    if mode == "CONSTANT":
        return np.pad(x, paddings, mode="constant", constant_values=constant_values)
    for (before, after), n in zip(paddings, x.shape):
        limit = n - 1 if mode == "REFLECT" else n
        if before > limit or after > limit:
            raise InvalidArgumentError(f"Pad: paddings {list(paddings)} are too large for shape {x.shape} in "
                                       f"{mode} mode.", "Pad")
    return np.pad(x, paddings, mode=_PAD_MODES[mode])


def _pad_infer(x, constant_values, paddings, mode) -> Spec:
    dims = [None if d is None else d + a + b for d, (a, b) in zip(x.shape.dims or (), paddings)]
    return Spec(x.dtype, TensorShape(dims) if x.shape.rank is not None else TensorShape(None))


PAD = defop("Pad", _pad, _pad_infer)


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    tensor = convert_to_tensor(tensor)
    mode = str(mode).upper()
    if mode not in _PAD_MODES:
        raise InvalidArgumentError(f"Pad: mode must be CONSTANT, REFLECT or SYMMETRIC, got {mode!r}.", "Pad")
    flat = static_ints(paddings, "pad's paddings", "Pad") if isinstance(paddings, Tensor) else \
        shape_argument(paddings, "pad's paddings")[1]
    if len(flat) % 2 or any(p < 0 for p in flat):
        raise InvalidArgumentError(f"Pad: paddings must be pairs of non-negative ints, got {paddings!r}.", "Pad")
    pairs = tuple(zip(flat[::2], flat[1::2]))
    if tensor.shape.rank is not None and tensor.shape.rank != len(pairs):
        raise InvalidArgumentError(f"Pad: paddings must have one row per dimension of shape {tensor.shape}, got "
                                   f"{len(pairs)} rows.", "Pad")
    value = convert_to_tensor(constant_values, dtype_hint=tensor.dtype)
    return apply(PAD, tensor, value, paddings=pairs, mode=mode, name=name)


# --- split ------------------------------------------------------------------------------------

def _split(x, sizes, axis):
    cuts = np.cumsum(sizes)[:-1]
    return np.split(x, cuts, axis=axis)


def _split_infer(x, sizes, axis):
    if x.shape.rank is None:
        return [Spec(x.dtype, TensorShape(None)) for _ in sizes]
    dims = list(x.shape.dims)
    return [Spec(x.dtype, TensorShape(dims[:axis] + [s] + dims[axis + 1:])) for s in sizes]


SPLIT = defop("SplitV", _split, _split_infer, multi_output=True)


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    value = convert_to_tensor(value)
    rank = value.shape.rank
    axis = _axis(static_int(axis, "split's axis", "SplitV"), rank, "SplitV")
    if isinstance(num_or_size_splits, int) or np.ndim(num_or_size_splits) == 0:
        parts = static_int(num_or_size_splits, "split's num_or_size_splits", "SplitV")
        n = value.shape.dims[axis] if rank is not None else None
        if n is None or parts <= 0 or n % parts:
            raise InvalidArgumentError(f"SplitV: can't split dimension {axis} of shape {value.shape} into {parts} "
                                       "equal parts.", "SplitV")
        sizes = (n // parts,) * parts
    else:
        sizes = list(shape_argument(num_or_size_splits, "split's sizes")[1])
        if sizes.count(-1) == 1 and rank is not None and value.shape.dims[axis] is not None:
            sizes[sizes.index(-1)] = value.shape.dims[axis] - (sum(sizes) + 1)
        if any(s < 0 for s in sizes):
            raise InvalidArgumentError(f"SplitV: sizes must be >= 0 (one may be -1), got {num_or_size_splits}.",
                                       "SplitV")
    n = value.shape.dims[axis] if rank is not None else None
    if n is not None and sum(sizes) != n:
        raise InvalidArgumentError(f"SplitV: sizes {list(sizes)} do not add up to dimension {axis} of shape "
                                   f"{value.shape}.", "SplitV")
    return apply(SPLIT, value, sizes=tuple(sizes), axis=axis, name=name)


# --- boolean_mask -----------------------------------------------------------------------------

def _mask_index(mask, axis):
    return (slice(None),) * axis + (mask,)


def _boolean_mask(x, mask, axis):
    if x.shape[axis:axis + mask.ndim] != mask.shape:
        raise InvalidArgumentError(f"BooleanMask: mask of shape {mask.shape} does not match dimensions "
                                   f"{axis}..{axis + mask.ndim - 1} of shape {x.shape}.", "BooleanMask")
    return x[_mask_index(mask, axis)]


def _boolean_mask_infer(x, mask, axis) -> Spec:
    """The masked axes become one, of the number of Trues where tracing knows the mask (a constant: as
    TensorFlow's shape inference), else unknown."""
    if x.shape.rank is None or mask.shape.rank is None:
        return Spec(x.dtype, TensorShape(None))
    dims = x.shape.dims
    known = static_value(mask)
    count = None if known is None else int(np.count_nonzero(known))
    return Spec(x.dtype, TensorShape((*dims[:axis], count, *dims[axis + mask.shape.rank:])))


BOOLEAN_MASK = defop("BooleanMask", _boolean_mask, _boolean_mask_infer)


def _boolean_mask_grad(grad, like, mask, axis):
    out = np.zeros_like(like)
    out[_mask_index(mask, axis)] = grad
    return out


BOOLEAN_MASK_GRAD = defop("BooleanMaskGrad", _boolean_mask_grad,
                          lambda grad, like, mask, axis: Spec(grad.dtype, like.shape),
                          doc="zeros shaped like the masked tensor, with the upstream gradient where mask is True")


def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    tensor, mask = convert_to_tensor(tensor), convert_to_tensor(mask)
    if mask.dtype is not dtypes.bool:
        raise InvalidArgumentError(f"BooleanMask: mask must be bool, got {mask.dtype.name}.", "BooleanMask")
    if mask.shape.rank == 0:
        raise InvalidArgumentError("BooleanMask: mask must have rank >= 1.", "BooleanMask")
    axis = 0 if axis is None else _axis(static_int(axis, "boolean_mask's axis", "BooleanMask"), tensor.shape.rank,
                                        "BooleanMask")
    return apply(BOOLEAN_MASK, tensor, mask, axis=axis, name=name)
