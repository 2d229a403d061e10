"""Neural-network ops, public as `runtime.nn`: activations, softmax, losses, dropout.

Activations, softmax, `l2_loss` and the sparse softmax cross-entropy are
registry ops (gradient rules in gradients.py). The sigmoid and dense softmax
cross-entropies and dropout are compositions of ops, as in TensorFlow, and
differentiate through their parts (the labels too).
"""
from __future__ import annotations

import math

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops import array_ops, extra_math, math_ops, random_ops
from runtime.ops.math_ops import _float_only, sigmoid  # noqa: F401  (tf.nn.sigmoid)
from runtime.ops.registry import Spec, apply, defop, same_dtype, unary_same
from runtime.shape import TensorShape
from runtime.tensor import convert_to_tensor

SELU_ALPHA = 1.6732632423543772
SELU_SCALE = 1.0507009873554805
_GELU_C = math.sqrt(2.0 / math.pi)


def _elu(x):
    with np.errstate(over="ignore"):
        return np.where(x > 0, x, np.expm1(np.minimum(x, 0))).astype(x.dtype)


def _selu(x):
    return (SELU_SCALE * np.where(x > 0, x, SELU_ALPHA * np.expm1(np.minimum(x, 0)))).astype(x.dtype)


def _gelu(x, approximate):
    if approximate:
        return (0.5 * x * (1 + np.tanh(_GELU_C * (x + 0.044715 * x ** 3)))).astype(x.dtype)
    return (0.5 * x * (1 + extra_math._erf(x / math.sqrt(2.0)))).astype(x.dtype)


def _leaky_relu(x, alpha):
    return np.where(x > 0, x, x * np.asarray(alpha, x.dtype)).astype(x.dtype)


def _softplus(x):
    return (np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))).astype(x.dtype)


RELU = defop("Relu", lambda x: np.maximum(x, np.zeros((), x.dtype)), unary_same)
RELU6 = defop("Relu6", lambda x: np.clip(x, np.zeros((), x.dtype), np.asarray(6, x.dtype)), unary_same)
ELU = defop("Elu", _elu, unary_same)
SELU = defop("Selu", _selu, unary_same)
GELU = defop("Gelu", _gelu, unary_same)
SOFTPLUS = defop("Softplus", _softplus, unary_same)
SOFTSIGN = defop("Softsign", lambda x: (x / (1 + np.abs(x))).astype(x.dtype), unary_same, doc="x / (1 + |x|)")
LEAKY_RELU = defop("LeakyRelu", _leaky_relu, unary_same, doc="x where x > 0, else alpha * x")


def relu(features, name=None):
    x = convert_to_tensor(features)
    if x.dtype is dtypes.bool:
        raise InvalidArgumentError("Relu: expects a numeric tensor, got bool.", "Relu")
    return apply(RELU, x, name=name)


def relu6(features, name=None):
    return apply(RELU6, _float_only(RELU6, features), name=name)


def leaky_relu(features, alpha=0.2, name=None):
    """x where x > 0, else alpha * x; integers are cast to float32 first, as TensorFlow does. The slope at 0 is
    alpha, as TensorFlow's LeakyReluGrad's."""
    x = convert_to_tensor(features, dtype_hint=dtypes.float32)
    if x.dtype.is_integer:
        x = math_ops.cast(x, dtypes.float32)
    return apply(LEAKY_RELU, _float_only(LEAKY_RELU, x), alpha=float(np.asarray(alpha)), name=name)


def elu(features, name=None):
    return apply(ELU, _float_only(ELU, features), name=name)


def selu(features, name=None):
    return apply(SELU, _float_only(SELU, features), name=name)


def gelu(features, approximate=False, name=None):
    return apply(GELU, _float_only(GELU, features), approximate=bool(approximate), name=name)


def softplus(features, name=None):
    return apply(SOFTPLUS, _float_only(SOFTPLUS, features), name=name)


def softsign(features, name=None):
    """x / (1 + |x|): an op of its own, as TensorFlow's, whose gradient g / (1 + |x|)^2 is 0 at ±inf (the
    quotient's own rule gave NaN there)."""
    return apply(SOFTSIGN, _float_only(SOFTSIGN, features), name=name)


# --- softmax ---------------------------------------------------------------------------------------

def _softmax(logits, axis):
    shifted = logits - np.max(logits, axis=axis, keepdims=True) if logits.size else logits
    e = np.exp(shifted)
    return (e / np.sum(e, axis=axis, keepdims=True)).astype(logits.dtype)


def _log_softmax(logits, axis):
    shifted = logits - np.max(logits, axis=axis, keepdims=True) if logits.size else logits
    return (shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))).astype(logits.dtype)


SOFTMAX = defop("Softmax", _softmax, unary_same)
LOG_SOFTMAX = defop("LogSoftmax", _log_softmax, unary_same)


def _softmax_axis(op, logits, axis):
    x = _float_only(op, logits)
    rank = x.shape.rank
    if rank == 0:
        raise InvalidArgumentError(f"{op.name}: logits must have rank >= 1, got a scalar.", op.name)
    if rank is not None and not -rank <= axis < rank:
        raise InvalidArgumentError(f"{op.name}: axis {axis} is out of range for rank {rank}.", op.name)
    return x, axis if rank is None else axis % rank


def softmax(logits, axis=None, name=None):
    x, axis = _softmax_axis(SOFTMAX, logits, -1 if axis is None else int(axis))
    return apply(SOFTMAX, x, axis=axis, name=name)


def log_softmax(logits, axis=None, name=None):
    x, axis = _softmax_axis(LOG_SOFTMAX, logits, -1 if axis is None else int(axis))
    return apply(LOG_SOFTMAX, x, axis=axis, name=name)


# --- losses ----------------------------------------------------------------------------------------

L2_LOSS = defop("L2Loss", lambda t: (np.sum(np.square(t)) / 2).astype(t.dtype),
                lambda t: Spec(t.dtype, TensorShape(())))


def l2_loss(t, name=None):
    """sum(t ** 2) / 2."""
    return apply(L2_LOSS, _float_only(L2_LOSS, t), name=name)


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """max(x, 0) - x * z + log(1 + exp(-|x|)) for logits x and labels z: stable for any x."""
    if labels is None or logits is None:
        raise ValueError("sigmoid_cross_entropy_with_logits needs both labels= and logits=.")
    logits = _float_only(RELU, logits)
    labels = convert_to_tensor(labels, dtype_hint=logits.dtype)
    same_dtype("SigmoidCrossEntropyWithLogits", logits, labels)
    _same_shape("sigmoid_cross_entropy_with_logits", labels, logits)
    # TensorFlow's composition: both kinks take the x >= 0 side, so the gradient at x = 0 is sigmoid(0) - z,
    # as everywhere else (relu and abs have subgradient 0 there, which gave -z)
    positive = logits >= math_ops.cast(0, logits.dtype)
    zeros = array_ops.zeros_like(logits)
    loss = (array_ops.where(positive, logits, zeros) - logits * labels
            + extra_math.log1p(math_ops.exp(array_ops.where(positive, -logits, logits))))
    return array_ops.identity(loss, name=name)


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """-sum(labels * log_softmax(logits), axis): one loss per example."""
    logits = _float_only(LOG_SOFTMAX, logits)
    labels = convert_to_tensor(labels, dtype_hint=logits.dtype)
    same_dtype("SoftmaxCrossEntropyWithLogits", logits, labels)
    _same_shape("softmax_cross_entropy_with_logits", labels, logits)
    return math_ops.negative(math_ops.reduce_sum(labels * log_softmax(logits, axis=axis), axis=axis), name=name)


def _same_shape(what: str, labels, logits) -> None:
    if not labels.shape.is_compatible_with(logits.shape):
        raise InvalidArgumentError(f"{what}: labels and logits must have the same shape, got {labels.shape} and "
                                   f"{logits.shape}.")


def _sparse_xent(labels, logits):
    n = logits.shape[-1]
    if labels.size and (labels.min() < 0 or labels.max() >= n):
        bad = labels[(labels < 0) | (labels >= n)].flat[0]
        raise InvalidArgumentError(f"Received a label value of {bad} which is outside the valid range of "
                                   f"[0, {n}).", "SparseSoftmaxCrossEntropyWithLogits")
    log_p = _log_softmax(logits, -1)
    loss = -np.take_along_axis(log_p, labels[..., None].astype(np.intp), -1)[..., 0]
    backprop = np.exp(log_p)
    np.put_along_axis(backprop, labels[..., None].astype(np.intp), np.take_along_axis(
        backprop, labels[..., None].astype(np.intp), -1) - 1, -1)
    return [loss.astype(logits.dtype), backprop.astype(logits.dtype)]


def _sparse_xent_infer(labels, logits):
    return [Spec(logits.dtype, labels.shape), Spec(logits.dtype, logits.shape)]


SPARSE_XENT = defop("SparseSoftmaxCrossEntropyWithLogits", _sparse_xent, _sparse_xent_infer, multi_output=True,
                    doc="the loss per example, and its gradient with respect to the logits (softmax - one_hot)")


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """-log(softmax(logits)[label]) per example; labels are class indices."""
    if labels is None or logits is None:
        raise ValueError("sparse_softmax_cross_entropy_with_logits needs both labels= and logits=.")
    logits, labels = _float_only(SPARSE_XENT, logits), convert_to_tensor(labels)
    if not labels.dtype.is_integer:
        raise InvalidArgumentError(f"SparseSoftmaxCrossEntropyWithLogits: labels must be integers, got "
                                   f"{labels.dtype.name}.", "SparseSoftmaxCrossEntropyWithLogits")
    if labels.shape.rank is not None and logits.shape.rank is not None and (
            labels.shape.rank + 1 != logits.shape.rank or
            not labels.shape.is_compatible_with(logits.shape[:-1])):
        raise InvalidArgumentError(f"SparseSoftmaxCrossEntropyWithLogits: labels of shape {labels.shape} must "
                                   f"have the shape of logits {logits.shape} without its last dimension.",
                                   "SparseSoftmaxCrossEntropyWithLogits")
    return apply(SPARSE_XENT, labels, logits, name=name)[0]


# --- dropout ---------------------------------------------------------------------------------------

def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zero each element with probability `rate`; scale the rest by 1 / (1 - rate)."""
    x = _float_only(RELU, x)
    rate_value = float(rate)
    if not 0 <= rate_value < 1:
        raise ValueError(f"dropout: rate must be in [0, 1), got {rate_value}.")
    shape = array_ops.shape(x) if noise_shape is None else noise_shape
    keep = random_ops.uniform(shape, dtype=x.dtype, seed=seed) >= math_ops.cast(rate_value, x.dtype)
    scale = math_ops.cast(1.0 / (1.0 - rate_value), x.dtype)
    return math_ops.multiply(x * scale, math_ops.cast(keep, x.dtype), name=name)
