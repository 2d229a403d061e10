"""TensorFlow functions composed of other ops: `squared_difference`, `is_nan`, `reduce_variance`,
`moments`, `roll`, `sequence_mask`, `tensordot`, ...

Each is written with ops the runtime already has, so it runs eagerly and in
graphs, differentiates through its parts, and lowers wherever they lower (JAX,
ONNX, `jit_compile`). Where TensorFlow's own kernel picks a subgradient at a
kink, the composition picks the same one, and tests/runtime/test_against_tensorflow.py
compares each with TensorFlow, values and gradients.
"""
from __future__ import annotations

import math

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops import array_ops, extra_math, linalg_ops, math_ops, nn_ops
from runtime.ops.convert import binary_operands
from runtime.ops.registry import apply
from runtime.shape import TensorShape
from runtime.tensor import convert_to_tensor


def _float(what: str, x):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise InvalidArgumentError(f"{what}: expects a floating-point tensor, got {x.dtype.name}; cast it first "
                                   "with runtime.cast(x, runtime.float32).", what)
    return x


def _zero(x):
    return math_ops.cast(0, x.dtype)


# --- tf.math ----------------------------------------------------------------------------------------

def squared_difference(x, y, name=None):
    """(x - y) ** 2."""
    return math_ops.square(math_ops.subtract(x, y), name=name)


def is_nan(x, name=None):
    x = _float("IsNan", x)
    return math_ops.not_equal(x, x, name=name)


def is_inf(x, name=None):
    x = _float("IsInf", x)
    return math_ops.equal(math_ops.abs(x), math_ops.cast(math.inf, x.dtype), name=name)


def is_finite(x, name=None):
    x = _float("IsFinite", x)
    return math_ops.logical_not(math_ops.logical_or(is_nan(x), is_inf(x)), name=name)


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """The mean of the squared deviations from the mean (floats only, as in TensorFlow)."""
    x = _float("reduce_variance", input_tensor)
    mean = math_ops.reduce_mean(x, axis=axis, keepdims=True)
    return math_ops.reduce_mean(math_ops.square(x - mean), axis=axis, keepdims=keepdims, name=name)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    return math_ops.sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims), name=name)


def count_nonzero(input, axis=None, keepdims=False, dtype=dtypes.int64, name=None):  # noqa: A002
    x = convert_to_tensor(input)
    nonzero = math_ops.not_equal(x, math_ops.cast(False if x.dtype is dtypes.bool else 0, x.dtype))
    return math_ops.reduce_sum(math_ops.cast(nonzero, dtype), axis=axis, keepdims=keepdims, name=name)


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """sqrt(sum(x ** 2)) over `axis`; of an integer tensor, truncated to its dtype, as TensorFlow's kernel does."""
    x = convert_to_tensor(input_tensor)
    if x.dtype.is_floating:
        return math_ops.sqrt(math_ops.reduce_sum(math_ops.square(x), axis=axis, keepdims=keepdims), name=name)
    wide = math_ops.cast(x, dtypes.float64)
    norm = math_ops.sqrt(math_ops.reduce_sum(math_ops.square(wide), axis=axis, keepdims=keepdims))
    return math_ops.cast(norm, x.dtype, name=name)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x ** 2, axis), epsilon))."""
    x = _float("l2_normalize", x)
    axis = dim if axis is None else axis
    squares = math_ops.reduce_sum(math_ops.square(x), axis=axis, keepdims=True)
    return math_ops.multiply(x, extra_math.rsqrt(math_ops.maximum(squares, math_ops.cast(epsilon, x.dtype))),
                             name=name)


def log_sigmoid(x, name=None):
    """log(1 / (1 + exp(-x))) = -softplus(-x): finite for any x."""
    return math_ops.negative(nn_ops.softplus(math_ops.negative(_float("log_sigmoid", x))), name=name)


def divide_no_nan(x, y, name=None):
    """x / y, and 0 where y is 0 (its gradients too)."""
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype_hint=x.dtype)
    return _zero_where(math_ops.equal(y, _zero(y)), x, y, math_ops.divide, name)


def reciprocal_no_nan(x, name=None):
    """1 / x, and 0 where x is 0 (its gradient too)."""
    x = convert_to_tensor(x)
    return divide_no_nan(math_ops.cast(1, x.dtype), x, name=name)


def scalar_mul(scalar, x, name=None):
    """`scalar * x`, `scalar` a 0-d value."""
    scalar = convert_to_tensor(scalar, dtype_hint=convert_to_tensor(x).dtype)
    if scalar.shape.rank not in (None, 0):
        raise ValueError(f"scalar_mul: the scalar must be 0-d, got shape {scalar.shape}.")
    return math_ops.multiply(scalar, x, name=name)


def xlogy(x, y, name=None):
    """x * log(y), and 0 where x is 0 (even where y is 0; its gradients too, as TensorFlow's)."""
    return _zero_where_x_is(x, y, lambda x, y: math_ops.multiply(x, math_ops.log(y)), "xlogy", name)


def xdivy(x, y, name=None):
    """x / y, and 0 where x is 0 (even where y is 0): an op of its own, as TensorFlow's, whose gradient rule is
    TensorFlow's (so are its second derivatives where x or y is 0 or infinite)."""
    x, y = binary_operands(x, y, extra_math.XDIVY.name)
    return apply(extra_math.XDIVY, _float("xdivy", x), y, name=name)


def _zero_where_x_is(x, y, fn, what: str, name):
    x = _float(what, x)
    y = convert_to_tensor(y, dtype_hint=x.dtype)
    return _zero_where(math_ops.equal(x, _zero(x)), x, y, fn, name)


def _zero_where(zero, x, y, fn, name):
    """fn(x, y), and 0 where `zero` holds; there fn sees y = 1, so the path not taken has no inf or NaN to send
    into the gradients (0 * log(0), x / 0)."""
    safe = array_ops.where(zero, array_ops.ones_like(y), y)
    return array_ops.where(zero, array_ops.zeros_like(x * y), fn(x, safe), name=name)


def rint(x, name=None):
    """The nearest integer, halves to even (as `round`)."""
    return math_ops.round(_float("rint", x), name=name)


def tan(x, name=None):
    x = _float("Tan", x)
    return math_ops.divide(math_ops.sin(x), math_ops.cos(x), name=name)


def sinh(x, name=None):
    x = _float("Sinh", x)
    return math_ops.multiply(math_ops.exp(x) - math_ops.exp(-x), math_ops.cast(0.5, x.dtype), name=name)


def cosh(x, name=None):
    x = _float("Cosh", x)
    return math_ops.multiply(math_ops.exp(x) + math_ops.exp(-x), math_ops.cast(0.5, x.dtype), name=name)


def add_n(inputs, name=None):
    """The sum of a list of tensors of one dtype and shape."""
    tensors = [convert_to_tensor(t) for t in inputs]
    if not tensors:
        raise ValueError("add_n: inputs must be a non-empty list of tensors.")
    for t in tensors[1:]:
        if t.dtype != tensors[0].dtype or not t.shape.is_compatible_with(tensors[0].shape):
            raise InvalidArgumentError(f"add_n: every input must have the dtype and shape of the first "
                                       f"({tensors[0].dtype.name} {tensors[0].shape}), got {t.dtype.name} {t.shape}.",
                                       "AddN")
    total = tensors[0]
    for t in tensors[1:]:
        total = total + t
    return array_ops.identity(total, name=name)


# --- tf.nn ------------------------------------------------------------------------------------------

def silu(features, beta=1.0, name=None):
    """x * sigmoid(beta * x) (also `swish`)."""
    x = _float("silu", features)
    return math_ops.multiply(x, math_ops.sigmoid(x * math_ops.cast(beta, x.dtype)), name=name)


swish = silu


def moments(x, axes, shift=None, keepdims=False, name=None):
    """(mean, variance) of `x` over `axes`, as TensorFlow computes them (the variance around the mean, taken
    as a constant)."""
    x = convert_to_tensor(x)
    mean = math_ops.reduce_mean(x, axis=axes, keepdims=True)
    variance = math_ops.reduce_mean(squared_difference(x, array_ops.stop_gradient(mean)), axis=axes, keepdims=True)
    if not keepdims:
        mean, variance = array_ops.squeeze(mean, axes), array_ops.squeeze(variance, axes)
    return mean, variance


def bias_add(value, bias, data_format=None, name=None):
    """value + bias along the channels: the last axis (NHWC), or axis 1 for "NC..." formats."""
    value, bias = convert_to_tensor(value), convert_to_tensor(bias)
    if bias.shape.rank != 1:
        raise InvalidArgumentError(f"bias_add: bias must be 1-D, got shape {bias.shape}.", "BiasAdd")
    if data_format is not None and data_format.startswith("NC") and value.shape.rank is not None:
        bias = array_ops.reshape(bias, [-1] + [1] * (value.shape.rank - 2))
    return math_ops.add(value, bias, name=name)


def embedding_lookup(params, ids, max_norm=None, name=None):
    if max_norm is not None:
        raise NotImplementedError("embedding_lookup(max_norm=...) is not supported; clip the rows with "
                                  "runtime.clip_by_norm after the lookup.")
    return array_ops.gather(params, ids, name=name)


# --- top level -------------------------------------------------------------------------------------

def is_tensor(x) -> bool:
    from runtime.tensor import Tensor
    from runtime.variables import Variable
    return isinstance(x, (Tensor, Variable))


def reverse(tensor, axis, name=None):
    """`tensor` with the order of its elements reversed along each axis in `axis` (a list of ints)."""
    x = convert_to_tensor(tensor)
    rank = x.shape.rank
    index = [slice(None)] * rank
    for a in _static_axes("reverse", axis, rank):
        index[a] = slice(None, None, -1)
    return array_ops.identity(x[tuple(index)], name=name)


def roll(input, shift, axis, name=None):  # noqa: A002
    """Elements shifted along `axis` by `shift` (Python ints, or lists of them), wrapping around."""
    x = convert_to_tensor(input)
    shifts = [int(s) for s in np.atleast_1d(_static_value("roll", shift))]
    axes = _static_axes("roll", axis, x.shape.rank, unique=False)
    if len(shifts) != len(axes):
        raise InvalidArgumentError(f"roll: shift and axis must have the same length, got {shifts} and {axes}.", "Roll")
    total: dict = {}
    for s, a in zip(shifts, axes):
        total[a] = total.get(a, 0) + s
    for a, s in total.items():
        n = x.shape.dims[a]
        if n is None:
            raise InvalidArgumentError("roll: the rolled axis must have a static length.", "Roll")
        if n and s % n:
            cut = n - s % n
            index = [slice(None)] * x.shape.rank
            head, tail = list(index), list(index)
            head[a], tail[a] = slice(cut, None), slice(None, cut)
            x = array_ops.concat([x[tuple(head)], x[tuple(tail)]], axis=a)
    return array_ops.identity(x, name=name)


def meshgrid(*args, **kwargs):
    """N-D coordinate arrays from 1-D ones; `indexing="xy"` (default) swaps the first two axes, as NumPy does."""
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"meshgrid got unexpected keyword arguments {sorted(kwargs)}.")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}.")
    xs = [array_ops.reshape(convert_to_tensor(a), [-1]) for a in args]
    n = len(xs)
    out = []
    for i, x in enumerate(xs):                  # "ij": out[i][k0, k1, ...] = xs[i][ki]
        grid = array_ops.reshape(x, [1] * i + [-1] + [1] * (n - i - 1))
        for j, other in enumerate(xs):
            if j != i:
                grid = grid * array_ops.ones_like(array_ops.reshape(other, [1] * j + [-1] + [1] * (n - j - 1)))
        out.append(grid)
    if indexing == "xy" and n > 1:
        out = [array_ops.transpose(g, [1, 0] + list(range(2, n))) for g in out]
    return out


def repeat(input, repeats, axis=None, name=None):  # noqa: A002
    """Each element repeated `repeats` times along `axis` (flattened first when axis is None); `repeats` a
    Python int, a list, or a constant tensor."""
    x = convert_to_tensor(input)
    if axis is None:
        x, axis = array_ops.reshape(x, [-1]), 0
    axis = axis % x.shape.rank
    n = x.shape.dims[axis]
    if n is None:
        raise InvalidArgumentError("repeat: the repeated axis must have a static length.", "Repeat")
    counts = np.broadcast_to(np.asarray(_static_value("repeat", repeats), np.int64), (n,))
    return array_ops.gather(x, np.repeat(np.arange(n), counts).astype(np.int32), axis=axis, name=name)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002
    """TensorFlow's norm: over all of `tensor` or one axis, the vector norm "euclidean" (2), 1, np.inf or any
    p > 0; over a pair of axes (rows, columns), the matrix norm "euclidean"/"fro", 1 (the largest column sum
    of magnitudes), 2 (the largest singular value) or np.inf (the largest row sum)."""
    x = _float("norm", tensor)
    axes = _norm_axes(ord, axis)
    if ord == 2 and axes is not None and len(axes) == 2:
        result = linalg_ops.matrix_2_norm(x, axes)
    elif ord in ("euclidean", "fro", 2, 2.0):
        result = math_ops.sqrt(math_ops.reduce_sum(math_ops.square(x), axis=axes, keepdims=True))
    elif ord == 1:
        result = math_ops.reduce_sum(math_ops.abs(x), axis=None if axes is None else axes[0], keepdims=True)
        if axes is not None and len(axes) == 2:
            result = math_ops.reduce_max(result, axis=axes[1], keepdims=True)
    elif ord == np.inf:
        result = math_ops.abs(x)
        if axes is not None and len(axes) == 2:
            result = math_ops.reduce_sum(result, axis=axes[1], keepdims=True)
        result = math_ops.reduce_max(result, axis=None if axes is None else axes[0], keepdims=True)
    else:                                           # a p-norm, p > 0, composed as TensorFlow composes it
        summed = math_ops.reduce_sum(math_ops.pow(math_ops.abs(x), math_ops.cast(ord, x.dtype)), axis=axes,
                                     keepdims=True)
        result = math_ops.pow(summed, math_ops.cast(1.0 / ord, x.dtype))
    return result if keepdims else array_ops.squeeze(result, axes, name=name)


def _norm_axes(ord, axis):  # noqa: A002
    """`axis` as None or a tuple of one or two ints, once `ord` is checked against it as TensorFlow checks."""
    if isinstance(axis, (tuple, list)) and len(axis) == 2:
        if not all(isinstance(a, (int, np.integer)) for a in axis) or axis[0] == axis[1]:
            raise ValueError(f"norm: 'axis' must be None, an int, or a pair of different ints, got {axis}.")
        if ord not in ("euclidean", "fro", 1, 2, np.inf):
            raise ValueError(f"norm: over two axes 'ord' must be 'euclidean', 'fro', 1, 2 or np.inf, got {ord!r}.")
        return tuple(int(a) for a in axis)
    if not (axis is None or isinstance(axis, (int, np.integer))):
        raise ValueError(f"norm: 'axis' must be None, an int, or a pair of different ints, got {axis!r}.")
    if ord not in ("euclidean", 1, 2, np.inf) and not (isinstance(ord, (int, float, np.number))
                                                        and not isinstance(ord, bool) and ord > 0):
        raise ValueError(f"norm: over one axis or all of a tensor 'ord' must be 'euclidean', 1, 2, np.inf or a "
                         f"number > 0, got {ord!r} ('fro' needs a pair of axes).")
    return None if axis is None else (int(axis),)


def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """For each of `values` (its last axis), where it would go in the row of `sorted_sequence` with the same
    leading indices to keep it sorted: the count of the row's elements below it ("left") or not above it
    ("right"). Computed by comparing every pair, O(len(row) * len(values)) per row."""
    s = convert_to_tensor(sorted_sequence)
    v = convert_to_tensor(values, dtype_hint=s.dtype)
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}.")
    if s.shape.rank is not None and v.shape.rank is not None and (
            s.shape.rank == 0 or s.shape.rank != v.shape.rank or not s.shape[:-1].is_compatible_with(v.shape[:-1])):
        raise InvalidArgumentError(f"searchsorted: sorted_sequence {s.shape} and values {v.shape} must have the same "
                                   "leading dimensions (all but the last), and a last one.", "SearchSorted")
    compare = math_ops.less if side == "left" else math_ops.less_equal
    below = compare(array_ops.expand_dims(s, -2), array_ops.expand_dims(v, -1))     # [..., values, sequence]
    return math_ops.reduce_sum(math_ops.cast(below, out_type), axis=-1, name=name)


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """mask[..., j] = j < lengths[...]: `maxlen` columns (default: the largest length)."""
    lengths = convert_to_tensor(lengths)
    if maxlen is None:
        maxlen = math_ops.reduce_max(lengths) if lengths.shape.num_elements() != 0 else 0
    maxlen = math_ops.cast(maxlen, lengths.dtype)
    columns = array_ops.range(maxlen, dtype=lengths.dtype)
    mask = math_ops.less(columns, array_ops.expand_dims(lengths, -1))
    return mask if dtypes.as_dtype(dtype) is dtypes.bool else math_ops.cast(mask, dtype, name=name)


def tensordot(a, b, axes, name=None):
    """The sum of products over `axes` of `a` and `b`: an int n (the last n of a with the first n of b), or a
    pair of axis lists."""
    from runtime.ops.sort_ops import einsum
    a, b = convert_to_tensor(a), convert_to_tensor(b)
    ra, rb = a.shape.rank, b.shape.rank
    if isinstance(axes, (int, np.integer)):
        a_axes, b_axes = list(range(ra - int(axes), ra)), list(range(int(axes)))
    else:
        a_axes, b_axes = ([int(v) for v in np.atleast_1d(part)] for part in axes)
    a_axes, b_axes = [v % ra for v in a_axes], [v % rb for v in b_axes]
    if len(a_axes) != len(b_axes):
        raise InvalidArgumentError(f"tensordot: axes {a_axes} and {b_axes} differ in number.", "Tensordot")
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    a_sub = [next(letters) for _ in range(ra)]
    b_sub = [next(letters) for _ in range(rb)]
    for i, j in zip(a_axes, b_axes):
        b_sub[j] = a_sub[i]
    out = [c for k, c in enumerate(a_sub) if k not in a_axes] + [c for k, c in enumerate(b_sub) if k not in b_axes]
    return einsum(f"{''.join(a_sub)},{''.join(b_sub)}->{''.join(out)}", a, b, name=name)


def identity_n(input, name=None):  # noqa: A002
    return [array_ops.identity(t) for t in input]


def ensure_shape(x, shape, name=None):
    """`x`, after checking that its shape is compatible with `shape` (an error otherwise)."""
    x = convert_to_tensor(x)
    if not x.shape.is_compatible_with(TensorShape(shape)):
        raise InvalidArgumentError(f"Shape of tensor {x.shape} is not compatible with expected shape "
                                   f"{TensorShape(shape)}.", "EnsureShape")
    return array_ops.identity(x, name=name)


def get_static_value(tensor, partial=False):
    """The value of `tensor` as a NumPy array when it is known without running a graph (an eager tensor, a
    constant made in the function, the shape of a tensor of known shape, a Python value), else None."""
    from runtime.ops.packing import static_value
    from runtime.tensor import Tensor
    if isinstance(tensor, Tensor):
        return static_value(tensor)
    return np.asarray(tensor)


def _static_value(what: str, value):
    found = get_static_value(value) if is_tensor(value) else np.asarray(value)
    if found is None:
        raise InvalidArgumentError(f"{what}: this argument must be known while tracing (a Python value or a "
                                   "constant), not a value computed in the graph.", what)
    return found


def _static_axes(what: str, axis, rank, unique: bool = True) -> list:
    if rank is None:
        raise InvalidArgumentError(f"{what}: the tensor's rank must be known.", what)
    axes = [int(a) for a in np.atleast_1d(_static_value(what, axis))]
    for a in axes:
        if not -rank <= a < rank:
            raise InvalidArgumentError(f"{what}: axis {a} is out of range for a tensor of rank {rank}.", what)
    axes = [a % rank for a in axes]
    if unique and len(set(axes)) != len(axes):
        raise InvalidArgumentError(f"{what}: axis {axes} names an axis twice.", what)
    return axes
