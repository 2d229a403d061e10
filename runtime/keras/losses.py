"""Keras losses the seeds use: `MeanSquaredError` and `SparseCategoricalCrossentropy`, as objects
(`loss_object(y_true, y_pred)`, the mean over the batch) and as functions (per example)."""
from __future__ import annotations

from runtime import nn
from runtime.ops.math_ops import cast, clip_by_value, log, reduce_mean, reduce_sum, square
from runtime.tensor import convert_to_tensor

_EPSILON = 1e-7   # Keras's backend epsilon: probabilities are clipped to [eps, 1 - eps]


def mean_squared_error(y_true, y_pred):
    """The mean of the squared differences over the last axis."""
    y_pred = convert_to_tensor(y_pred)
    return reduce_mean(square(y_pred - cast(y_true, y_pred.dtype)), axis=-1)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits: bool = False):
    """Cross-entropy of integer labels `y_true` against `y_pred`, logits or probabilities."""
    y_pred = convert_to_tensor(y_pred)
    if not from_logits:
        probs = y_pred / reduce_sum(y_pred, axis=-1, keepdims=True)
        y_pred = log(clip_by_value(probs, _EPSILON, 1.0 - _EPSILON))
    labels = cast(y_true, "int64") if convert_to_tensor(y_true).dtype.is_floating else y_true
    return nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=y_pred)


MSE = mse = mean_squared_error


class Loss:
    """A loss object: `loss(y_true, y_pred, sample_weight=None)` is the weighted mean over the batch."""

    def __init__(self, fn, name: str, **options):
        self.fn, self.name, self.options = fn, name, options

    def __call__(self, y_true, y_pred, sample_weight=None):
        losses = self.fn(y_true, y_pred, **self.options)
        if sample_weight is not None:
            losses = losses * cast(sample_weight, losses.dtype)
        return reduce_mean(losses)


class MeanSquaredError(Loss):
    def __init__(self, name: str = "mean_squared_error"):
        super().__init__(mean_squared_error, name)


class SparseCategoricalCrossentropy(Loss):
    def __init__(self, from_logits: bool = False, name: str = "sparse_categorical_crossentropy"):
        super().__init__(sparse_categorical_crossentropy, name, from_logits=from_logits)
