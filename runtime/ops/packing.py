"""Nested lists of tensors as tensors, and shapes given as tensors.

`pack` is TensorFlow's auto-packing: a list or tuple holding tensors (at any
depth) becomes one `Pack` op of its elements, so `tf.concat((v, [i]), 0)`
and `tf.reshape(x, [tf.shape(x)[0], -1])` work while tracing.
`convert_to_tensor` calls it for every list or tuple that holds a tensor, so
every op that accepts a tensor accepts such a list.

`shape_argument` reads a shape argument (`reshape`'s shape, `fill`'s dims,
`tile`'s multiples, a random op's shape ...). When every entry is known while
tracing it is a static attribute, as before; otherwise the shape is an input
tensor of the op and the attribute keeps what is known of it — TensorFlow's
`constant_value_as_shape` — so `tf.zeros([1, n, 2])` has static shape
`(1, None, 2)` and later ops still see the known dimensions:

    inputs, static = shape_argument([tf.shape(x)[0], -1], "reshape's shape")
    # x: (None, 3, 4) -> inputs = (Pack(StridedSlice(Shape(x)), -1),), static = (None, -1)
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.shape import TensorShape
from runtime.tensor import Tensor, convert_to_tensor, is_carried_python_float


def holds_tensor(value) -> bool:
    """Whether a list or tuple holds a tensor or a Variable at any depth."""
    for v in value:
        if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):
            return True
        if type(v) in (list, tuple) and holds_tensor(v):
            return True
    return False


def pack(value, dtype_hint=None) -> Tensor:
    """One tensor from a nested list/tuple of tensors and Python values (a `Pack` per level)."""
    from runtime.ops.array_ops import stack

    if type(value) not in (list, tuple) or not holds_tensor(value):
        from runtime.ops.convert import numpy_as_python   # import cycle: convert imports the registry

        return convert_to_tensor(numpy_as_python(value, dtype_hint) if dtype_hint else value, dtype_hint=dtype_hint)
    hint = _first_dtype(value) or dtype_hint
    return stack([pack(v, hint) for v in value])


def _first_dtype(value) -> Optional[dtypes.DType]:
    for v in value:
        if is_carried_python_float(v):   # a Python float a staged statement carries: the hint's dtype, as a float's
            continue
        if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):   # (an f-string of traced tensors: a string)
            return getattr(v, "dtype", None) or convert_to_tensor(v).dtype
        if type(v) in (list, tuple):
            found = _first_dtype(v)
            if found is not None:
                return found
    return None


# --- what is known of a tensor while tracing ----------------------------------------------------

def static_value(t) -> Optional[np.ndarray]:
    """The value of `t` if it is known without running the graph (eager, constant, shape of a known shape)."""
    value = getattr(t, "_value", None)
    if value is not None:
        return np.asarray(value)
    op = getattr(t, "op", None)
    if op is None:
        return None
    if op.type == "Const":
        return np.asarray(op.attrs["value"])
    if op.type == "Shape" and op.inputs[0].shape.is_fully_defined():
        return np.asarray(op.inputs[0].shape.dims, op.attrs["out_type"].as_numpy_dtype)
    shape = op.inputs[0].shape if op.inputs else None
    if op.type == "Size" and shape.is_fully_defined():
        return np.asarray(int(np.prod(shape.dims, dtype=np.int64)), op.attrs["out_type"].as_numpy_dtype)
    if op.type == "Rank" and shape.rank is not None:
        return np.asarray(shape.rank, np.int32)
    if op.type in ("Pack", "ConcatV2", "Cast", "Identity", "StridedSlice"):
        values = [static_value(i) for i in op.inputs]
        if all(v is not None for v in values):
            return np.asarray(op.opdef.kernel(*values, **op.attrs))
    return None


def static_ints(value, what: str, op_name: Optional[str] = None):
    """`value` (an axis, `k`, a depth, a permutation) as a Python int, or a tuple of ints when it is a list or
    a tensor of rank >= 1 (flattened): also a tensor whose value tracing knows (eager, a constant made in the
    function, the shape of a tensor of known shape), as TensorFlow takes `axis=tf.constant(0)`. A tensor
    computed when the graph runs is an InvalidArgumentError naming `what`."""
    if isinstance(value, Tensor):
        known = static_value(value)
        if known is None:
            raise InvalidArgumentError(
                f"{what} given as a tensor must be known while tracing (a constant, or the shape of a tensor of "
                f"known shape), not computed when the graph runs ({value.name}); pass a Python int or list of "
                "ints.", op_name)
        value = known
    elif type(value) in (list, tuple) and holds_tensor(value):
        return static_ints(pack(value, dtypes.int32), what, op_name)
    array = np.asarray(value)
    if array.dtype.kind not in "iub" and not (array.size == 0 or array.dtype.kind == "f" and
                                              np.all(array == np.floor(array))):
        raise InvalidArgumentError(f"{what} must hold integers, got {value!r}.", op_name)
    return int(array) if array.ndim == 0 else tuple(int(v) for v in array.reshape(-1))


def static_int(value, what: str, op_name: Optional[str] = None) -> int:
    """`static_ints` of a scalar (an axis, `k`, a depth)."""
    found = static_ints(value, what, op_name)
    if isinstance(found, tuple):
        raise InvalidArgumentError(f"{what} must be a scalar, got {value!r}.", op_name)
    return found


def static_dims(t) -> Optional[list]:
    """What is known of the entries of a 1-D integer tensor: a list of ints and Nones, or None."""
    value = static_value(t)
    if value is not None:
        return [int(v) for v in value.reshape(-1)]
    op = t.op
    if op.type == "Shape":
        dims = op.inputs[0].shape.dims
        return None if dims is None else list(dims)
    if op.type == "Pack" and op.attrs["axis"] == 0 and all(i.shape.rank == 0 for i in op.inputs):
        return [_static_scalar(i) for i in op.inputs]
    if op.type == "ConcatV2":
        parts = [static_dims(i) for i in op.inputs]
        return None if None in parts else [d for part in parts for d in part]
    if op.type == "StridedSlice" and len(op.inputs) == 1 and _is_plain_slice(op.attrs["spec"]):
        dims = static_dims(op.inputs[0])
        return None if dims is None else dims[slice(*op.attrs["spec"][1:])]
    if op.type == "Cast":
        return static_dims(op.inputs[0])
    n = t.shape.dims[0] if t.shape.rank == 1 else None
    return None if n is None else [None] * n


def _static_scalar(t) -> Optional[int]:
    value = static_value(t)
    if value is not None:
        return int(value)
    op = t.op
    if op.type == "StridedSlice" and len(op.inputs) == 1 and isinstance(op.attrs["spec"], int):
        dims = static_dims(op.inputs[0])
        index = op.attrs["spec"]
        return dims[index] if dims is not None and -len(dims) <= index < len(dims) else None
    return None


def _is_plain_slice(spec) -> bool:
    return isinstance(spec, tuple) and len(spec) == 4 and spec[0] == "slice"


# --- shape arguments ---------------------------------------------------------------------------

def shape_argument(value, what: str) -> tuple[tuple, Optional[tuple]]:
    """`(inputs, static)` for a shape-like argument: `((), ints)` when it is known now, else
    `((int_tensor,), partial)` where `partial` has None for unknown entries (None if even its length is)."""
    if isinstance(value, TensorShape):
        if not value.is_fully_defined():
            raise InvalidArgumentError(f"{what} must be fully defined, got the shape {value}; use "
                                       "runtime.shape(x) to get a shape known only when the graph runs.")
        return (), tuple(value.dims)
    if not isinstance(value, Tensor) and not (type(value) in (list, tuple) and holds_tensor(value)):
        return (), _python_ints(value, what)
    t = pack(value, dtypes.int32) if type(value) in (list, tuple) else value
    if not t.dtype.is_integer or t.shape.rank not in (0, 1, None):
        raise InvalidArgumentError(f"{what} must be a 1-D integer tensor, got a {t.dtype.name} tensor of shape "
                                   f"{t.shape}.")
    known = static_value(t)
    if known is not None:
        return (), tuple(int(v) for v in known.reshape(-1))
    dims = static_dims(t) if t.shape.rank == 1 else None
    return (t,), None if dims is None else tuple(dims)


def _python_ints(value, what: str) -> tuple:
    array = np.asarray(value)
    if array.dtype.kind not in "iu" and not (array.size == 0 or array.dtype.kind == "f" and
                                             np.all(array == np.floor(array))):
        raise InvalidArgumentError(f"{what} must hold integers, got {value!r}.")
    return tuple(int(v) for v in array.reshape(-1))


def shape_from(shape_inputs: tuple, static):
    """The shape to give a kernel: the value of its shape input when it has one, else the static attribute."""
    return tuple(int(d) for d in np.reshape(shape_inputs[0], -1)) if shape_inputs else static


def known_shape(static) -> TensorShape:
    """The TensorShape an inference rule can promise for a (partial) shape attribute."""
    if static is None:
        return TensorShape(None)
    return TensorShape([None if d is None or d < 0 else d for d in static])
