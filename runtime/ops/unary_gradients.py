"""The gradients of `sqrt`, `rsqrt` and `reciprocal` as TensorFlow computes them: ops of their own (`SqrtGrad`,
`RsqrtGrad`, `ReciprocalGrad`) whose kernels give 0 where the upstream gradient is 0, which keeps the 0 * inf and
0 * NaN of an input at 0 or below out of the gradient (the branch that `tf.where(x > 0, tf.sqrt(x), 0.0)` does not
pick), and whose own gradients are TensorFlow's formulas.

The zero is the kernel's, not a `where` on the upstream gradient: a `where` is flat in the upstream gradient where
it is 0, so a second derivative through it lost the term of the upstream gradient's own derivative wherever that
gradient happened to be 0 (`l2_normalize`'s, at an x whose elements sum to 0, was wrong). gradients.py puts
`RULES` in its table.
"""
from __future__ import annotations

import numpy as np

from runtime.ops import math_ops as M
from runtime.ops.registry import Spec, apply, defop


def _where_upstream(dy, found):
    return np.where(dy == 0, np.zeros((), dy.dtype), found).astype(dy.dtype)


def _sqrt_grad(y, dy):
    with np.errstate(divide="ignore", invalid="ignore"):
        return _where_upstream(dy, dy * np.asarray(0.5, dy.dtype) / y)


def _rsqrt_grad(y, dy):
    with np.errstate(over="ignore", invalid="ignore"):
        return _where_upstream(dy, np.asarray(-0.5, dy.dtype) * dy * y * y * y)


def _reciprocal_grad(y, dy):
    with np.errstate(over="ignore", invalid="ignore"):
        return _where_upstream(dy, -dy * y * y)


def _same_as_upstream(y, dy):
    return Spec(dy.dtype, dy.shape)


SQRT_GRAD = defop("SqrtGrad", _sqrt_grad, _same_as_upstream, doc="dy * 0.5 / y, and 0 where dy is 0")
RSQRT_GRAD = defop("RsqrtGrad", _rsqrt_grad, _same_as_upstream, doc="-0.5 * dy * y**3, and 0 where dy is 0")
RECIPROCAL_GRAD = defop("ReciprocalGrad", _reciprocal_grad, _same_as_upstream, doc="-dy * y**2, and 0 where dy is 0")


def _sqrt_grad_grad(grad, inputs, output):
    y, _ = inputs
    scaled = grad / y
    return -scaled * output, M.cast(0.5, y.dtype) * scaled


def _rsqrt_grad_grad(grad, inputs, output):
    y, dy = inputs
    return M.cast(-1.5, y.dtype) * grad * dy * M.square(y), apply(RSQRT_GRAD, y, grad)


def _reciprocal_grad_grad(grad, inputs, output):
    y, dy = inputs
    return M.cast(-2.0, y.dtype) * grad * dy * y, apply(RECIPROCAL_GRAD, y, grad)


RULES = {
    "Sqrt": lambda grad, inputs, output: (apply(SQRT_GRAD, output, grad),),
    "Rsqrt": lambda grad, inputs, output: (apply(RSQRT_GRAD, output, grad),),
    "Reciprocal": lambda grad, inputs, output: (apply(RECIPROCAL_GRAD, output, grad),),
    "SqrtGrad": _sqrt_grad_grad,
    "RsqrtGrad": _rsqrt_grad_grad,
    "ReciprocalGrad": _reciprocal_grad_grad,
}
