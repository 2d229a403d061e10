"""`keras.metrics.Mean`: the running mean of the values it is given, kept in two Variables; `Sum`; and the
accuracies (`Accuracy`, `BinaryAccuracy`, `CategoricalAccuracy`, `SparseCategoricalAccuracy`), the mean of a
per-example match as Keras 3 computes it."""
from __future__ import annotations

from runtime import dtypes
from runtime.keras.losses import same_rank
from runtime.module import Module
from runtime.ops.array_ops import size, squeeze, where
from runtime.ops.math_ops import argmax, cast, equal, greater, reduce_mean, reduce_sum
from runtime.tensor import convert_to_tensor
from runtime.variables import Variable


class Mean(Module):
    """`m(values)` (or `m.update_state(values)`) adds values; `m.result()` is their mean so far."""

    def __init__(self, name: str = "mean", dtype=dtypes.float32):
        super().__init__(name=name)
        self.total = Variable(0.0, dtype=dtype, name=f"{name}/total", trainable=False)
        self.count = Variable(0.0, dtype=dtype, name=f"{name}/count", trainable=False)

    def update_state(self, values, sample_weight=None):
        values = cast(convert_to_tensor(values), self.total.dtype)
        if sample_weight is None:
            self.total.assign_add(reduce_sum(values))
            self.count.assign_add(cast(size(values), self.total.dtype))
        else:
            weights = cast(convert_to_tensor(sample_weight), self.total.dtype) * (values * 0 + 1)
            self.total.assign_add(reduce_sum(values * weights))
            self.count.assign_add(reduce_sum(weights))

    def result(self):
        """total / count, or 0 before any value (TensorFlow's divide_no_nan)."""
        counted = greater(self.count, 0.0)
        return where(counted, self.total / where(counted, self.count, 1.0), 0.0)

    def reset_state(self) -> None:
        self.total.assign(0.0)
        self.count.assign(0.0)

    reset_states = reset_state

    def __call__(self, values, sample_weight=None):
        self.update_state(values, sample_weight)
        return self.result()


class Sum(Mean):
    """`m.result()` is the (weighted) sum of the values given so far."""

    def __init__(self, name: str = "sum", dtype=dtypes.float32):
        super().__init__(name=name, dtype=dtype)

    def result(self):
        return self.total.read_value()


class _MeanOf(Mean):
    """The running mean of `fn(y_true, y_pred)`: `update_state(y_true, y_pred, sample_weight=None)`."""

    def __init__(self, fn, name: str, dtype=dtypes.float32, **options):
        super().__init__(name=name, dtype=dtype)
        self._fn, self._options = fn, options

    def update_state(self, y_true, y_pred, sample_weight=None):
        super().update_state(self._fn(y_true, y_pred, **self._options), sample_weight)

    def __call__(self, y_true, y_pred, sample_weight=None):
        self.update_state(y_true, y_pred, sample_weight)
        return self.result()


def accuracy(y_true, y_pred):
    y_true, y_pred = same_rank(y_true, y_pred)   # labels (n,) against predictions (n, 1): row by row, as Keras
    return cast(equal(cast(y_true, y_pred.dtype), y_pred), dtypes.float32)


def binary_accuracy(y_true, y_pred, threshold: float = 0.5):
    y_true, y_pred = same_rank(y_true, y_pred)
    y_true = cast(y_true, y_pred.dtype)
    predicted = cast(greater(y_pred, cast(threshold, y_pred.dtype)), y_pred.dtype)
    return reduce_mean(cast(equal(y_true, predicted), dtypes.float32), axis=-1)


def categorical_accuracy(y_true, y_pred):
    return cast(equal(argmax(y_true, axis=-1), argmax(y_pred, axis=-1)), dtypes.float32)


def sparse_categorical_accuracy(y_true, y_pred):
    """Whether each integer label is the argmax of its row of predictions (labels of shape (n,) or (n, 1))."""
    y_pred = convert_to_tensor(y_pred)
    y_true = cast(y_true, y_pred.dtype)
    if y_true.shape.rank is not None and y_true.shape.rank == y_pred.shape.rank and y_true.shape.dims[-1] == 1:
        y_true = squeeze(y_true, [-1])
    return cast(equal(y_true, cast(argmax(y_pred, axis=-1), y_pred.dtype)), dtypes.float32)


class Accuracy(_MeanOf):
    def __init__(self, name: str = "accuracy", dtype=dtypes.float32):
        super().__init__(accuracy, name, dtype)


class BinaryAccuracy(_MeanOf):
    def __init__(self, name: str = "binary_accuracy", dtype=dtypes.float32, threshold: float = 0.5):
        super().__init__(binary_accuracy, name, dtype, threshold=threshold)


class CategoricalAccuracy(_MeanOf):
    def __init__(self, name: str = "categorical_accuracy", dtype=dtypes.float32):
        super().__init__(categorical_accuracy, name, dtype)


class SparseCategoricalAccuracy(_MeanOf):
    def __init__(self, name: str = "sparse_categorical_accuracy", dtype=dtypes.float32):
        super().__init__(sparse_categorical_accuracy, name, dtype)
