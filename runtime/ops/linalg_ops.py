"""The singular value decomposition, for `norm(x, ord=2, axis=[a, b])` (the matrix 2-norm, the largest
singular value), composed as TensorFlow composes it.

`Svd` gives the singular values `s`, and the singular vectors `u` and `v` (thin: `x = u @ diag(s) @ v^T`),
of each matrix on the last two axes. Its gradient rule covers a gradient that reaches `s` only (TensorFlow's
`u @ diag(grad_s) @ v^T`) and one that reaches `u` or `v` too (the second derivative of a matrix 2-norm), as
TensorFlow's rule for the thin decomposition of real matrices.
"""
from __future__ import annotations

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError, UnimplementedError
from runtime.ops import array_ops, extra_math, math_ops
from runtime.ops.registry import Spec, apply, defop
from runtime.ops.sort_ops import matmul
from runtime.shape import TensorShape


def _svd(x):
    """NaN for the whole decomposition of a matrix that holds a NaN or an inf (as TensorFlow's kernel gives;
    LAPACK would not converge)."""
    finite = np.isfinite(x).all(axis=(-2, -1), keepdims=True)
    u, s, vh = np.linalg.svd(np.where(finite, x, 0), full_matrices=False)
    nan = np.asarray(np.nan, x.dtype)
    return [np.where(finite[..., 0], s, nan).astype(x.dtype), np.where(finite, u, nan).astype(x.dtype),
            np.where(finite, np.swapaxes(vh, -1, -2), nan).astype(x.dtype)]


def _svd_infer(x):
    dims = x.shape.dims
    if dims is None:
        return [Spec(x.dtype, TensorShape(None))] * 3
    *batch, m, n = dims
    k = None if m is None or n is None else min(m, n)
    return [Spec(x.dtype, TensorShape((*batch, k))), Spec(x.dtype, TensorShape((*batch, m, k))),
            Spec(x.dtype, TensorShape((*batch, n, k)))]


SVD = defop("Svd", _svd, _svd_infer, multi_output=True,
            doc="singular values s and thin singular vectors u, v of the matrices on the last two axes")


def svd(x):
    """(s, u, v) of each matrix of `x` (rank >= 2, float32 or float64, as TensorFlow's Svd kernel)."""
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise InvalidArgumentError(f"Svd: expects a float32 or float64 tensor, got {x.dtype.name} (TensorFlow has no "
                                   "Svd kernel for it either); cast it first.", "Svd")
    if x.shape.rank is not None and x.shape.rank < 2:
        raise InvalidArgumentError(f"Svd: expects a tensor of rank >= 2 (matrices), got shape {x.shape}.", "Svd")
    return apply(SVD, x)


def matrix_2_norm(x, axes: tuple):
    """The largest singular value of the matrices on `axes` (rows, columns), kept as two axes of length 1:
    the axes moved last, `reduce_max(abs(singular values))`, moved back, as TensorFlow's `norm` does (the
    abs makes the gradient at a zero matrix zeros)."""
    rank = x.shape.rank
    if rank is None:
        raise InvalidArgumentError("norm: the matrix 2-norm needs a tensor of known rank.", "Svd")
    rows, columns = (a % rank for a in axes)
    perm = [a for a in range(rank) if a not in (rows, columns)] + [rows, columns]
    s = svd(array_ops.transpose(x, perm))[0]
    largest = array_ops.expand_dims(math_ops.reduce_max(math_ops.abs(s), axis=-1, keepdims=True), -1)
    return array_ops.transpose(largest, [int(i) for i in np.argsort(perm)])


def svd_gradient(grads, inputs, outputs):
    """TensorFlow's rule (linalg_grad.py, for the thin decomposition of real matrices): u @ diag(grad_s) @ v^T
    when only the singular values have a gradient; with gradients of `u` or `v` too, the rule with
    F[i, j] = 1 / (s[j]**2 - s[i]**2) (inf, in practice NaN or huge, where singular values repeat)."""
    grad_s, grad_u, grad_v = grads
    s, u, v = outputs
    if grad_u is None and grad_v is None:
        return (None,) if grad_s is None else (matmul(u * array_ops.expand_dims(grad_s, -2), v, transpose_b=True),)
    grad_s, grad_u, grad_v = (array_ops.zeros_like(o) if g is None else g for g, o in zip(grads, outputs))
    dims = inputs[0].shape.dims
    if dims is None or dims[-2] is None or dims[-1] is None:
        raise UnimplementedError("The gradient through the singular vectors of Svd needs the matrices' shape known "
                                 "while tracing (TensorFlow's needs it too).", "Svd")
    m, n = dims[-2:]
    if m > n:                                   # the rule for x^T = v s u^T, transposed at the end
        u, v, grad_u, grad_v = v, u, grad_v, grad_u
    k = min(m, n)
    s2 = math_ops.square(s)
    off_diagonal = 1.0 - array_ops.eye(k, dtype=s.dtype)
    f = off_diagonal * _safe_reciprocal(array_ops.expand_dims(s2, -2) - array_ops.expand_dims(s2, -1))
    f_u = f * matmul(u, grad_u, transpose_a=True)
    f_v = f * matmul(v, grad_v, transpose_a=True)
    inner = (array_ops.eye(k, dtype=s.dtype) * array_ops.expand_dims(grad_s, -1)
             + (f_u + _transposed(f_u)) * array_ops.expand_dims(s, -2)
             + array_ops.expand_dims(s, -1) * (f_v + _transposed(f_v)))
    grad = matmul(u, matmul(inner, v, transpose_b=True))
    if m != n:                                  # v's part outside the span of its k columns
        gv_t = _transposed(grad_v)
        outside = gv_t - matmul(matmul(gv_t, v), v, transpose_b=True)
        grad = grad + matmul(u * array_ops.expand_dims(_safe_reciprocal(s), -2), outside)
    return (_transposed(grad) if m > n else grad,)


svd_gradient.takes_missing_gradients = True


def _safe_reciprocal(x, epsilon=1e-20):
    """TensorFlow's: x / (x**2 + 1e-20), finite where x is 0."""
    return x * extra_math.reciprocal(x * x + epsilon)


def _transposed(x):
    rank = x.shape.rank
    return array_ops.transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2])
