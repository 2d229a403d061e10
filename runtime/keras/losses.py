"""Keras losses: `MeanSquaredError`, `MeanAbsoluteError`, `Huber`, `BinaryCrossentropy`,
`CategoricalCrossentropy` and `SparseCategoricalCrossentropy`, as objects (`loss_object(y_true, y_pred)`,
the mean over the batch) and as functions (per example), with Keras 3's formulas (compared with Keras in
tests/runtime/test_against_tensorflow.py)."""
from __future__ import annotations

from runtime import nn
from runtime.ops.array_ops import expand_dims, shape, squeeze, where
from runtime.ops.math_ops import abs as abs_
from runtime.ops.math_ops import cast, clip_by_value, log, reduce_mean, reduce_sum, square
from runtime.tensor import convert_to_tensor

_EPSILON = 1e-7   # Keras's backend epsilon: probabilities are clipped to [eps, 1 - eps]


def _logits_of(y_pred, from_logits: bool, op_type: str):
    """Keras 3's TensorFlow backend (`_get_logits`): probabilities that a `Softmax` (for the categorical
    cross-entropies) or `Sigmoid` (for the binary one) op made while a function is traced are replaced by that
    op's input, taken as logits (so the loss of saturated probabilities is not clipped at -log(1e-7)); an eager
    tensor is taken as it is. TensorFlow's eager and traced losses differ there, and so do ours, alike."""
    op = getattr(y_pred, "op", None)
    if op is not None and op.type == op_type:
        return op.inputs[0], True
    return y_pred, from_logits


def same_rank(y_true, y_pred) -> tuple:
    """Keras's match of ranks that differ by one trailing axis of size 1: labels of shape (n,) against
    predictions of shape (n, 1) become (n, 1) (not broadcast to (n, n)); (n, k, 1) against (n, k) lose the 1."""
    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    true_rank, pred_rank = y_true.shape.rank, y_pred.shape.rank
    if true_rank is None or pred_rank is None:
        return y_true, y_pred
    if true_rank == pred_rank + 1 and y_true.shape.dims[-1] == 1:
        return (y_true, expand_dims(y_pred, -1)) if pred_rank == 1 else (squeeze(y_true, [-1]), y_pred)
    if pred_rank == true_rank + 1 and y_pred.shape.dims[-1] == 1:
        return (expand_dims(y_true, -1), y_pred) if true_rank == 1 else (y_true, squeeze(y_pred, [-1]))
    return y_true, y_pred


def mean_squared_error(y_true, y_pred):
    """The mean of the squared differences over the last axis."""
    y_true, y_pred = same_rank(y_true, y_pred)
    return reduce_mean(square(y_pred - cast(y_true, y_pred.dtype)), axis=-1)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits: bool = False):
    """Cross-entropy of integer labels `y_true` against `y_pred`, logits or probabilities."""
    y_pred, y_true = convert_to_tensor(y_pred), convert_to_tensor(y_true)
    y_pred, from_logits = _logits_of(y_pred, from_logits, "Softmax")
    if not from_logits:   # clipped, not divided by their sum first (Keras 3's; the categorical one divides)
        y_pred = log(clip_by_value(y_pred, _EPSILON, 1.0 - _EPSILON))
    if y_true.shape.rank is not None and y_true.shape.rank == y_pred.shape.rank and y_true.shape.dims[-1] == 1:
        y_true = squeeze(y_true, [-1])   # labels of shape (n, 1), as Keras takes them
    labels = cast(y_true, "int64") if y_true.dtype.is_floating else y_true
    return nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=y_pred)


def mean_absolute_error(y_true, y_pred):
    """The mean of the absolute differences over the last axis."""
    y_true, y_pred = same_rank(y_true, y_pred)
    return reduce_mean(abs_(y_pred - cast(y_true, y_pred.dtype)), axis=-1)


def huber(y_true, y_pred, delta=1.0):
    """The mean over the last axis of 0.5 * e**2 where |e| <= delta, else delta * |e| - 0.5 * delta**2."""
    y_true, y_pred = same_rank(y_true, y_pred)
    error = y_pred - cast(y_true, y_pred.dtype)
    delta = cast(delta, y_pred.dtype)
    small = abs_(error) <= delta
    return reduce_mean(where(small, 0.5 * square(error), delta * abs_(error) - 0.5 * square(delta)), axis=-1)


def binary_crossentropy(y_true, y_pred, from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1):
    """The mean over `axis` of the cross-entropy of each probability (or logit) against its 0/1 label."""
    y_pred = convert_to_tensor(y_pred)
    y_true = cast(y_true, y_pred.dtype)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    y_pred, from_logits = _logits_of(y_pred, from_logits, "Sigmoid")
    if from_logits:
        losses = nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        p = clip_by_value(y_pred, _EPSILON, 1.0 - _EPSILON)
        losses = -(y_true * log(p) + (1 - y_true) * log(1 - p))
    return reduce_mean(losses, axis=axis)


def categorical_crossentropy(y_true, y_pred, from_logits: bool = False, label_smoothing: float = 0.0,
                             axis: int = -1):
    """Cross-entropy of the one-hot (or soft) labels `y_true` against `y_pred`, probabilities or logits."""
    y_pred = convert_to_tensor(y_pred)
    y_true = cast(y_true, y_pred.dtype)
    if label_smoothing:
        classes = cast(shape(y_true)[-1], y_pred.dtype)
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / classes
    y_pred, from_logits = _logits_of(y_pred, from_logits, "Softmax")
    if from_logits:
        return nn.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    p = clip_by_value(y_pred / reduce_sum(y_pred, axis=axis, keepdims=True), _EPSILON, 1.0 - _EPSILON)
    return -reduce_sum(y_true * log(p), axis=axis)


MSE = mse = mean_squared_error
MAE = mae = mean_absolute_error


class Loss:
    """A loss object: `loss(y_true, y_pred, sample_weight=None)` is the weighted mean over the batch."""

    def __init__(self, fn, name: str, **options):
        self.fn, self.name, self.options = fn, name, options

    def __call__(self, y_true, y_pred, sample_weight=None):
        losses = self.fn(*same_rank(y_true, y_pred), **self.options)
        if sample_weight is not None:   # (its rank matched to the losses' as the labels' to the predictions')
            sample_weight, losses = same_rank(cast(sample_weight, losses.dtype), losses)
            losses = losses * sample_weight
        return reduce_mean(losses)


class MeanSquaredError(Loss):
    def __init__(self, name: str = "mean_squared_error"):
        super().__init__(mean_squared_error, name)


class SparseCategoricalCrossentropy(Loss):
    def __init__(self, from_logits: bool = False, name: str = "sparse_categorical_crossentropy"):
        super().__init__(sparse_categorical_crossentropy, name, from_logits=from_logits)


class MeanAbsoluteError(Loss):
    def __init__(self, name: str = "mean_absolute_error"):
        super().__init__(mean_absolute_error, name)


class Huber(Loss):
    def __init__(self, delta: float = 1.0, name: str = "huber_loss"):
        super().__init__(huber, name, delta=delta)


class BinaryCrossentropy(Loss):
    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1,
                 name: str = "binary_crossentropy"):
        super().__init__(binary_crossentropy, name, from_logits=from_logits, label_smoothing=label_smoothing,
                         axis=axis)


class CategoricalCrossentropy(Loss):
    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1,
                 name: str = "categorical_crossentropy"):
        super().__init__(categorical_crossentropy, name, from_logits=from_logits, label_smoothing=label_smoothing,
                         axis=axis)
