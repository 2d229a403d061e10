"""`tf.math.xlog1py`, `polyval`, `lbeta`, `zero_fraction`, `invert_permutation`, `is_non_decreasing` and
`is_strictly_increasing`: compositions of the runtime's ops (so they trace, lower and differentiate as their
parts do), with TensorFlow's answers."""
from __future__ import annotations

from runtime import dtypes
from runtime.ops import array_ops, math_ops
from runtime.ops.composites import _zero_where_x_is
from runtime.ops.extra_math import log1p
from runtime.ops.sort_ops import argsort, sort
from runtime.ops.special_math import lgamma
from runtime.tensor import convert_to_tensor


def xlog1py(x, y, name=None):
    """x * log1p(y), and 0 where x is 0 (even where y is -1; its gradients too, as TensorFlow's)."""
    return _zero_where_x_is(x, y, lambda x, y: math_ops.multiply(x, log1p(y)), "xlog1py", name)


def polyval(coeffs, x, name=None):
    """coeffs[0] * x**(n-1) + ... + coeffs[n-1], by Horner's rule (0 for no coefficients)."""
    x = convert_to_tensor(x)
    coeffs = list(coeffs)
    if not coeffs:
        return array_ops.zeros_like(x, name=name)
    out = convert_to_tensor(coeffs[0], dtype_hint=x.dtype)
    for c in coeffs[1:]:
        out = out * x + c
    return array_ops.identity(out * array_ops.ones_like(x), name=name)


def lbeta(x, name=None):
    """log |B(x)| along the last axis: the sum of lgamma of the entries less lgamma of their sum."""
    x = convert_to_tensor(x)
    return math_ops.subtract(math_ops.reduce_sum(lgamma(x), axis=-1), lgamma(math_ops.reduce_sum(x, axis=-1)),
                             name=name)


def zero_fraction(value, name=None):
    """The fraction of `value`'s entries that are zero, as a float32."""
    value = convert_to_tensor(value)
    zeros = math_ops.cast(math_ops.equal(value, math_ops.cast(0, value.dtype)), dtypes.float32)
    return math_ops.reduce_mean(zeros, name=name)


def invert_permutation(x, name=None):
    """The permutation `y` with y[x[i]] = i; an error (when the op runs) unless `x` is a permutation of 0..n-1."""
    from runtime.debugging import assert_equal   # import cycle: debugging imports the ops
    x = convert_to_tensor(x)
    if x.shape.rank != 1 or not x.dtype.is_integer:
        raise ValueError(f"invert_permutation: x must be a vector of integers, got {x.dtype.name} of shape {x.shape}.")
    assert_equal(sort(x), array_ops.range(array_ops.size(x, out_type=x.dtype), dtype=x.dtype),
                 message="invert_permutation: x is not a permutation of 0..n-1")
    return math_ops.cast(argsort(x), x.dtype, name=name)


def _in_order(x, strictly: bool, name):
    flat = array_ops.reshape(convert_to_tensor(x), [-1])
    later, earlier = flat[1:], flat[:-1]
    held = math_ops.greater(later, earlier) if strictly else math_ops.greater_equal(later, earlier)
    return math_ops.reduce_all(held, name=name)


def is_non_decreasing(x, name=None):
    """Whether each entry (in row-major order) is at least the one before it (True for fewer than two)."""
    return _in_order(x, False, name)


def is_strictly_increasing(x, name=None):
    """Whether each entry (in row-major order) is greater than the one before it (True for fewer than two)."""
    return _in_order(x, True, name)
