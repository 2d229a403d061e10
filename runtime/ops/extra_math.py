"""More math: `log1p`, `expm1`, `reciprocal`, `rsqrt`, `erf`, the inverse trigonometric and hyperbolic
functions (`asin`, `acos`, `atan`, `atan2`, `asinh`, `acosh`, `atanh`), `reduce_logsumexp`, the
norm clipping helpers `clip_by_norm` and `clip_by_global_norm`, and `saturate_cast`.

The elementwise functions and `reduce_logsumexp` are registry ops (their
gradient rules are in gradients.py); the clipping helpers and `saturate_cast` are
compositions of ops, as in TensorFlow, so they differentiate through their parts.
"""
from __future__ import annotations

import math

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops import array_ops, complex_ops, math_ops
from runtime.ops.convert import binary_operands
from runtime.ops.math_ops import _axes, _float_only, _reduce_infer, _static_axis
from runtime.ops.registry import apply, broadcast_binary, defop, unary_same
from runtime.tensor import convert_to_tensor

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _erf_kernel(x):
    return _erf(x).astype(x.dtype)


def _reciprocal(x):
    with np.errstate(divide="ignore"):
        return np.reciprocal(x)


def _rsqrt(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.reciprocal(np.sqrt(x))


LOG1P = defop("Log1p", np.log1p, unary_same)
EXPM1 = defop("Expm1", np.expm1, unary_same)
RECIPROCAL = defop("Reciprocal", _reciprocal, unary_same)
RSQRT = defop("Rsqrt", _rsqrt, unary_same)
ERF = defop("Erf", _erf_kernel, unary_same)


def log1p(x, name=None):
    return apply(LOG1P, _float_only(LOG1P, x), name=name)


def expm1(x, name=None):
    return apply(EXPM1, _float_only(EXPM1, x), name=name)


def reciprocal(x, name=None):
    return apply(RECIPROCAL, _float_only(RECIPROCAL, x), name=name)


def rsqrt(x, name=None):
    return apply(RSQRT, _float_only(RSQRT, x), name=name)


def erf(x, name=None):
    return apply(ERF, _float_only(ERF, x), name=name)


# the inverse functions: NaN outside their domains (asin(2.0), acosh(0.5)), as TensorFlow's
ASIN = defop("Asin", np.arcsin, unary_same)
ACOS = defop("Acos", np.arccos, unary_same)
ATAN = defop("Atan", np.arctan, unary_same)
ASINH = defop("Asinh", np.arcsinh, unary_same)
ACOSH = defop("Acosh", np.arccosh, unary_same)
ATANH = defop("Atanh", np.arctanh, unary_same)
ATAN2 = defop("Atan2", np.arctan2, broadcast_binary, doc="the angle of the point (x, y): atan2(y, x)")


def _xdivy(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(x == 0, np.zeros((), x.dtype), x / y).astype(x.dtype)


XDIVY = defop("Xdivy", _xdivy, broadcast_binary, doc="x / y, and 0 where x is 0 (where y is 0 or NaN too)")


def xdivy_gradient(g, x, y, out):
    """Xdivy's rule, TensorFlow's (`_XDivyGrad`): xdivy(x != 0, y) and xdivy(-x, y**2), y**2 through `pow` as
    there, so that the second derivatives are TensorFlow's too (NaN where its chain meets 0 * inf)."""
    not_zero = math_ops.cast(math_ops.not_equal(x, array_ops.zeros_like(x)), x.dtype)
    return apply(XDIVY, not_zero, y) * g, apply(XDIVY, -x, math_ops.pow(y, 2.0)) * g


def asin(x, name=None):
    return apply(ASIN, _float_only(ASIN, x), name=name)


def acos(x, name=None):
    return apply(ACOS, _float_only(ACOS, x), name=name)


def atan(x, name=None):
    return apply(ATAN, _float_only(ATAN, x), name=name)


def asinh(x, name=None):
    return apply(ASINH, _float_only(ASINH, x), name=name)


def acosh(x, name=None):
    return apply(ACOSH, _float_only(ACOSH, x), name=name)


def atanh(x, name=None):
    return apply(ATANH, _float_only(ATANH, x), name=name)


def atan2(y, x, name=None):
    y, x = binary_operands(y, x, ATAN2.name)
    _float_only(ATAN2, y)
    return apply(ATAN2, y, x, name=name)


def _logsumexp(x, axis=None, keepdims=False):
    axis = axis if axis is None or isinstance(axis, int) else tuple(axis)
    if x.size == 0:
        return np.full(np.sum(x, axis=axis, keepdims=keepdims).shape, -np.inf, x.dtype)
    top = np.max(x, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x - top), axis=axis, keepdims=True)) + top
    return (out if keepdims else np.squeeze(out, axis=axis)).astype(x.dtype)


LOGSUMEXP = defop("ReduceLogSumExp", _logsumexp, _reduce_infer,
                  doc="log(sum(exp(x))) over axes, computed without overflow")


def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    x = _float_only(LOGSUMEXP, input_tensor)
    axis = _static_axis(axis)
    if axis is not None:
        _axes(axis, x.shape.rank)
    return apply(LOGSUMEXP, x, axis=axis, keepdims=bool(keepdims), name=name)


# --- clipping by norm (compositions, as in TensorFlow) --------------------------------------------

def clip_by_norm(t, clip_norm, axes=None, name=None):
    """`t * clip_norm / max(l2norm(t), clip_norm)`: `t` unchanged when its L2 norm is at most `clip_norm`."""
    t = convert_to_tensor(t)
    if not t.dtype.is_floating:
        raise InvalidArgumentError(f"clip_by_norm: expects a floating-point tensor, got {t.dtype.name}.")
    squares = math_ops.reduce_sum(t * t, axis=axes, keepdims=True)
    positive = squares > 0
    safe = array_ops.where(positive, squares, array_ops.ones_like(squares))  # no NaN gradient at 0
    norm = array_ops.where(positive, math_ops.sqrt(safe), squares)
    clip_norm = convert_to_tensor(clip_norm, dtype_hint=t.dtype)
    return array_ops.identity(t * clip_norm / math_ops.maximum(norm, clip_norm), name=name)


def global_norm(t_list, name=None):
    """sqrt(sum of the squares of every element of every tensor in `t_list`); None entries are skipped."""
    present = [convert_to_tensor(t) for t in t_list if t is not None]
    if not present:
        raise ValueError("global_norm: t_list holds no tensors.")
    sums = [math_ops.reduce_sum(t * t) for t in present]
    total = sums[0]
    for s in sums[1:]:
        total = total + math_ops.cast(s, total.dtype)
    return math_ops.sqrt(total, name=name)


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scale every tensor by `clip_norm / max(global_norm, clip_norm)`; returns `(clipped_list, global_norm)`."""
    if isinstance(t_list, (str, bytes)) or not hasattr(t_list, "__iter__"):
        raise TypeError("clip_by_global_norm: t_list must be a list of tensors.")
    t_list = list(t_list)
    norm = global_norm(t_list) if use_norm is None else convert_to_tensor(use_norm)
    clip_norm = convert_to_tensor(clip_norm, dtype_hint=norm.dtype)
    one = math_ops.cast(1.0, norm.dtype)
    scale_for_finite = clip_norm * math_ops.minimum(one / norm, one / clip_norm)
    scale = scale_for_finite + (norm - norm)   # an inf or NaN norm makes every entry NaN, as TensorFlow's
    clipped = [None if t is None else convert_to_tensor(t) * math_ops.cast(scale, convert_to_tensor(t).dtype)
               for t in t_list]
    return clipped, norm


def saturate_cast(value, dtype, name=None):
    """`cast` that clamps to `dtype`'s range first (`saturate_cast(300.0, uint8)` is 255, where `cast` wraps),
    composed of `clip_by_value` and `cast` as in TensorFlow; a complex value to a real dtype keeps its real part."""
    x, dtype = convert_to_tensor(value), dtypes.as_dtype(dtype)
    if dtypes.bool in (x.dtype, dtype):
        raise TypeError(f"saturate_cast from {x.dtype.name} to {dtype.name}: a bool has no range to saturate to; "
                        "use runtime.cast.")
    if x.dtype.is_complex and not dtype.is_complex:
        x = complex_ops.real(x)
    bounds = _saturation_bounds(x.dtype.as_numpy_dtype, dtype.as_numpy_dtype)
    if bounds is not None:
        x = math_ops.clip_by_value(x, *bounds)
    return math_ops.cast(x, dtype, name=name)


def _saturation_bounds(source, target):
    """(lo, hi) in `source`'s type: the values of `source` closest to `target`'s range, or None if it holds them."""
    if np.issubdtype(target, np.complexfloating):
        return None
    limits = np.iinfo(target) if np.issubdtype(target, np.integer) else np.finfo(target)
    lo, hi = limits.min, limits.max
    if np.issubdtype(source, np.integer):
        own = np.iinfo(source)
        lo, hi = max(int(lo), int(own.min)), min(int(hi), int(own.max))   # ints: exact
        return None if (lo, hi) == (own.min, own.max) else (source(lo), source(hi))
    own = np.finfo(source)
    if np.issubdtype(target, np.floating) and limits.max >= own.max:
        return None
    lo, hi = source(lo), source(hi)
    if int(hi) > limits.max:                          # int32's max rounds up to 2**31 in float32: the float below
        hi = np.nextafter(hi, source(0))
    return lo, hi
