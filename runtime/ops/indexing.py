"""`tensor[key]`: integers, slices, `...`, `None` (newaxis) and scalar tensors; a bool mask.

The key is split into a static part (an attribute) and the tensors in it
(inputs), so indexing traces into one `StridedSlice` op. A key that is a bool
tensor (or a list or array of bools) of rank >= 1 is a mask, as in TensorFlow:
`x[mask]` is `boolean_mask(x, mask)` (in a graph its first dimension is unknown).
"""
from __future__ import annotations

import numpy as np

from runtime.errors import InvalidArgumentError
from runtime.ops.registry import Spec, apply, defop
from runtime.shape import TensorShape
from runtime.tensor import Tensor, convert_to_tensor


def _slot(n: int) -> tuple:
    """Marks where the n-th tensor input goes in a key."""
    return ("$", n)


def _is_slot(spec) -> bool:
    return isinstance(spec, tuple) and len(spec) == 2 and spec[0] == "$"


def _split(key, inputs: list):
    """The key with tensors replaced by slots; the tensors appended to inputs."""
    if isinstance(key, tuple):
        return tuple(_split(k, inputs) for k in key)
    if isinstance(key, slice):
        return ("slice", _split(key.start, inputs), _split(key.stop, inputs), _split(key.step, inputs))
    if key is Ellipsis:
        return "..."
    if isinstance(key, Tensor) or hasattr(key, "_as_tensor"):
        t = convert_to_tensor(key)
        if not t.dtype.is_integer or t.shape.rank not in (0, None):
            raise InvalidArgumentError(f"Only scalar integer tensors can be indices, got a {t.dtype.name} tensor "
                                       f"of shape {t.shape}; use runtime.gather for lists of indices.",
                                       "StridedSlice")
        inputs.append(t)
        return _slot(len(inputs) - 1)
    if isinstance(key, (bool, np.bool_)):
        raise InvalidArgumentError("Booleans can't be used as indices.", "StridedSlice")
    if key is None or isinstance(key, (int, np.integer)):
        return None if key is None else int(key)
    if isinstance(key, (list, np.ndarray)):
        raise InvalidArgumentError("Indexing with a list is not supported; use runtime.gather.", "StridedSlice")
    raise InvalidArgumentError(f"Unsupported index {key!r}: use ints, slices, ..., None or scalar int tensors.",
                               "StridedSlice")


def _build(spec, values):
    if _is_slot(spec):
        return int(values[spec[1]])
    if isinstance(spec, tuple) and spec and spec[0] == "slice":
        return slice(*(_build(s, values) for s in spec[1:]))
    if isinstance(spec, tuple):
        return tuple(_build(s, values) for s in spec)
    if spec == "...":
        return Ellipsis
    return spec


def _strided_slice(x, *index_values, spec):
    key = _build(spec, index_values)
    try:
        return x[key]
    except IndexError as e:
        raise InvalidArgumentError(f"StridedSlice: {e} (tensor shape {x.shape}).", "StridedSlice") from None


def _infer(x, *index_inputs, spec) -> Spec:
    key = spec if isinstance(spec, tuple) and not (spec and spec[0] in ("slice", "$")) else (spec,)
    if x.shape.rank is None:
        return Spec(x.dtype, TensorShape(None))
    dims = list(x.shape.dims)
    consumed = sum(1 for k in key if k is not None and k != "...")
    if consumed > len(dims):
        raise InvalidArgumentError(f"StridedSlice: too many indices ({consumed}) for a tensor of shape {x.shape}.")
    out, i = [], 0
    for k in key:
        if k == "...":
            n = len(dims) - consumed
            out += dims[i:i + n]
            i += n
        elif k is None:
            out.append(1)
        elif isinstance(k, tuple) and k[0] == "slice":
            out.append(_slice_len(k, dims[i]))
            i += 1
        else:
            if isinstance(k, int) and dims[i] is not None and not -dims[i] <= k < dims[i]:
                raise InvalidArgumentError(f"StridedSlice: index {k} is out of bounds for dimension {i} with "
                                           f"size {dims[i]}.")
            i += 1
    return Spec(x.dtype, TensorShape(out + dims[i:]))


def _slice_len(spec, dim):
    parts = spec[1:]
    if dim is None or any(_is_slot(p) for p in parts):
        return None
    return len(range(*slice(*parts).indices(dim)))


STRIDED_SLICE = defop("StridedSlice", _strided_slice, _infer)


def _bool_mask(key):
    """`key` as a bool tensor when it is a mask (a bool tensor, or a list or array of bools, of rank >= 1)."""
    if isinstance(key, Tensor) or hasattr(key, "_as_tensor"):
        t = convert_to_tensor(key)
    elif isinstance(key, (list, np.ndarray)) and np.asarray(key).dtype == np.bool_:
        t = convert_to_tensor(key)
    else:
        return None
    return t if t.dtype.is_bool and t.shape.rank != 0 else None


def getitem(tensor, key):
    tensor = convert_to_tensor(tensor)
    mask = _bool_mask(key)
    if mask is not None:
        from runtime.ops.extra_array_ops import boolean_mask  # import cycle: extra_array_ops imports the tensor ops
        return boolean_mask(tensor, mask)
    inputs: list = []
    spec = _split(key, inputs)
    return apply(STRIDED_SLICE, tensor, *inputs, spec=spec)


def slice_(input_, begin, size, name=None):  # noqa: ARG001 - name: TensorFlow's signature
    """TensorFlow's `tf.slice`: `size[i]` entries from `begin[i]` along each axis (-1: to the end), as indexing
    with Python slices (so it differentiates and lowers as they do). `begin` and `size` must be known while
    tracing; for bounds computed in the function index instead (`x[b:b + n]`)."""
    from runtime.ops.packing import static_ints   # import cycle: packing imports the tensor ops
    x = convert_to_tensor(input_)
    what = "slice's begin and size"
    begins, sizes = ([int(i) for i in np.atleast_1d(static_ints(v, what, "Slice"))] for v in (begin, size))
    dims = x.shape.dims
    if dims is None or not len(begins) == len(sizes) == len(dims):
        raise InvalidArgumentError(f"Slice: begin and size must have one entry per dimension of shape {x.shape}, "
                                   f"got {begins} and {sizes}.", "Slice")
    for b, n, d in zip(begins, sizes, dims):
        if b < 0 or n < -1 or d is not None and (b > d or n != -1 and b + n > d):
            raise InvalidArgumentError(f"Slice: begin {begins} and size {sizes} do not fit in shape "
                                       f"{x.shape}: each begin must be >= 0, each size >= -1 (to the end), and "
                                       "begin + size at most the dimension.", "Slice")
    key = tuple(slice(b, None if n == -1 else b + n) for b, n in zip(begins, sizes))
    return getitem(x, key)
