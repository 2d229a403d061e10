"""Special functions: `tf.math.lgamma`, `digamma`, `erfc`, `erfinv` and `ndtri`, computed in float64 and
rounded to the input's dtype, with TensorFlow's values at the poles and outside the domains (lgamma of 0 or a
negative integer is inf, digamma there NaN, erfinv(±1) ±inf, ndtri(0) -inf, NaN outside [-1, 1] and [0, 1]).

Their gradients: lgamma's is digamma; digamma's is the trigamma function (an op of its own, whose own
gradient is not provided: a second derivative of digamma is a clear error); erfc's, erfinv's and ndtri's are
made of ops, so they differentiate to any order.
"""
from __future__ import annotations

import math
import statistics

import numpy as np

from runtime.errors import InvalidArgumentError
from runtime.ops import math_ops
from runtime.ops.math_ops import _float_only
from runtime.ops.nn_gradients import _unary
from runtime.ops.registry import apply, defop, unary_same

_lgamma = np.vectorize(lambda v: math.inf if v <= 0 and v == math.floor(v) else math.lgamma(v), otypes=[np.float64])
_erfc = np.vectorize(math.erfc, otypes=[np.float64])
_NORMAL = statistics.NormalDist()


def _inverse_cdf(p: float) -> float:
    if not 0.0 <= p <= 1.0:
        return math.nan
    if p in (0.0, 1.0):
        return math.inf if p else -math.inf
    return _NORMAL.inv_cdf(p)


_ndtri = np.vectorize(_inverse_cdf, otypes=[np.float64])


def _at_poles(x: np.ndarray) -> np.ndarray:
    return (x <= 0) & (x == np.floor(x))


def _raised(x: np.ndarray, term) -> tuple:
    """`x` (reflected to 1 - x where negative) raised past `_SHIFT` one step at a time, and the sum of `term` of
    each value passed on the way (the recurrence ψ(x) = ψ(x + 1) - 1/x, or ψ'(x) = ψ'(x + 1) + 1/x²)."""
    y = np.where(x < 0, 1.0 - x, x)
    passed = np.zeros_like(y)
    for _ in range(_SHIFT):
        low = y < _SHIFT
        passed += np.where(low, term(y), 0.0)
        y = np.where(low, y + 1.0, y)
    return y, passed


def _digamma64(x: np.ndarray) -> np.ndarray:
    """ψ(x): below 0 by reflection, ψ(x) = ψ(1 - x) - π / tan(πx); then raised past 12 by ψ(x) = ψ(x + 1) - 1/x
    and summed by its asymptotic series; NaN at the poles (0 and the negative integers)."""
    x = np.asarray(x, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        y, passed = _raised(x, lambda v: 1.0 / v)
        inv2 = 1.0 / (y * y)
        series = inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 * (1 / 132)))))
        out = np.log(y) - 0.5 / y - series - passed
        out = np.where(x < 0, out - np.pi / np.tan(np.pi * x), out)
    return np.where(_at_poles(x), np.nan, out)


_SHIFT = 12   # the series' first left-out term at 12 is below 3e-15 of the value


def _trigamma64(x: np.ndarray) -> np.ndarray:
    """ψ'(x): below 0 by reflection, ψ'(x) = π² / sin²(πx) - ψ'(1 - x); then ψ'(x) = ψ'(x + 1) + 1/x² past 12 and
    its asymptotic series; inf at the poles (TensorFlow's polygamma(1, x))."""
    x = np.asarray(x, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        y, passed = _raised(x, lambda v: 1.0 / (v * v))
        inv, inv2 = 1.0 / y, 1.0 / (y * y)
        out = passed + inv + inv2 / 2 + inv * inv2 * (1 / 6 - inv2 * (1 / 30 - inv2 * (1 / 42 - inv2 * (
            1 / 30 - inv2 * 5 / 66))))
        out = np.where(x < 0, (np.pi / np.sin(np.pi * x)) ** 2 - out, out)
    return np.where(_at_poles(x), np.inf, out)


def _in_dtype(fn):
    return lambda x: np.asarray(fn(x)).astype(np.asarray(x).dtype)


LGAMMA = defop("Lgamma", _in_dtype(_lgamma), unary_same)
DIGAMMA = defop("Digamma", _in_dtype(_digamma64), unary_same)
TRIGAMMA = defop("Trigamma", _in_dtype(_trigamma64), unary_same,
                 doc="ψ'(x), digamma's derivative (TensorFlow's polygamma(1, x))")
ERFC = defop("Erfc", _in_dtype(_erfc), unary_same)
ERFINV = defop("Erfinv", _in_dtype(lambda x: _ndtri((np.asarray(x, np.float64) + 1.0) / 2.0) / math.sqrt(2.0)),
               unary_same)
NDTRI = defop("Ndtri", _in_dtype(_ndtri), unary_same)


def lgamma(x, name=None):
    """log |Γ(x)|."""
    return apply(LGAMMA, _float_only(LGAMMA, x), name=name)


def digamma(x, name=None):
    """ψ(x), the derivative of lgamma."""
    return apply(DIGAMMA, _float_only(DIGAMMA, x), name=name)


def erfc(x, name=None):
    """1 - erf(x), without losing its digits where erf(x) is near 1."""
    return apply(ERFC, _float_only(ERFC, x), name=name)


def erfinv(x, name=None):
    """The inverse of erf on [-1, 1]."""
    return apply(ERFINV, _float_only(ERFINV, x), name=name)


def ndtri(x, name=None):
    """The inverse of the standard normal distribution function on [0, 1]."""
    return apply(NDTRI, _float_only(NDTRI, x), name=name)


def _cumulative_logsumexp(x, axis, exclusive, reverse):
    x = np.asarray(x)
    if reverse:
        x = np.flip(x, axis)
    with np.errstate(invalid="ignore"):   # (-inf and -inf: -inf, which NumPy warns about)
        out = np.logaddexp.accumulate(x, axis=axis) if x.size else x.copy()
    if exclusive:   # each position the sum of those before it: -inf first
        head = np.full_like(np.take(out, [0], axis=axis), -np.inf)
        out = np.concatenate([head, np.take(out, range(out.shape[axis] - 1), axis=axis)], axis=axis)
    return np.flip(out, axis) if reverse else out


CUMULATIVE_LOGSUMEXP = defop("CumulativeLogsumexp", _cumulative_logsumexp, lambda x, **a: unary_same(x),
                             doc="log(cumsum(exp(x))) along an axis, without overflow")


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """log(cumsum(exp(x))) along `axis`, computed without overflow or underflow (`exclusive`: of the items
    before each; `reverse`: from the end)."""
    from runtime.ops.packing import static_int
    x = _float_only(CUMULATIVE_LOGSUMEXP, x)
    axis = static_int(axis, "cumulative_logsumexp's axis", "CumulativeLogsumexp")
    rank = x.shape.rank
    if rank is not None:
        if not -rank <= axis < rank:
            raise InvalidArgumentError(f"CumulativeLogsumexp: axis {axis} is out of range for rank {rank}.",
                                       "CumulativeLogsumexp")
        axis %= rank
    return apply(CUMULATIVE_LOGSUMEXP, x, axis=axis, exclusive=bool(exclusive), reverse=bool(reverse), name=name)


def _cumulative_logsumexp_gradient(grad, inputs, output, axis, exclusive, reverse):
    """dy_i/dx_j = exp(x_j - y_i) for the j that y_i sums: the gradient of x_j sums g_i * exp(x_j - y_i) over
    those i, the positive and negative parts of g each as a cumulative log-sum-exp the other way (so nothing
    overflows)."""
    from runtime.ops import array_ops
    x = inputs[0]
    low = array_ops.fill(array_ops.shape(grad), math_ops.cast(float("-inf"), grad.dtype))
    parts = []
    for sign in (1.0, -1.0):
        logs = array_ops.where(grad * sign > 0, math_ops.log(array_ops.where(grad * sign > 0, grad * sign,
                                                                             array_ops.ones_like(grad))), low)
        parts.append(math_ops.exp(cumulative_logsumexp(logs - output, axis, exclusive, not reverse) + x))
    return (parts[0] - parts[1],)


def _trigamma_gradient(grad, inputs, output, **attrs):
    raise NotImplementedError("the gradient of digamma's derivative (a second derivative of digamma, a third of "
                              "lgamma) is not provided.")


RULES = {
    "Lgamma": _unary(lambda g, x, out: g * apply(DIGAMMA, x)),
    "Digamma": _unary(lambda g, x, out: g * apply(TRIGAMMA, x)),
    "Trigamma": _trigamma_gradient,
    "Erfc": _unary(lambda g, x, out: g * (-2 / math.sqrt(math.pi)) * math_ops.exp(-x * x)),
    "Erfinv": _unary(lambda g, x, out: g * (math.sqrt(math.pi) / 2) * math_ops.exp(math_ops.square(out))),
    "Ndtri": _unary(lambda g, x, out: g * math.sqrt(2 * math.pi) * math_ops.exp(math_ops.square(out) / 2)),
    "CumulativeLogsumexp": _cumulative_logsumexp_gradient,
}
