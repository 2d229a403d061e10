"""Counting: `tf.unique_with_counts`, `tf.math.in_top_k`, `tf.math.confusion_matrix` and
`tf.histogram_fixed_width`, as compositions of the runtime's ops (so they run eagerly, traced and under
`jit_compile` alike), with TensorFlow's answers at the edges (ties, non-finite predictions, values outside the
range)."""
from __future__ import annotations

import collections

import numpy as np

from runtime import dtypes
from runtime.ops import array_ops, math_ops
from runtime.ops.composites import is_finite
from runtime.ops.nd_ops import gather_nd
from runtime.ops.registry import Spec, apply, defop
from runtime.ops.segment_ops import unsorted_segment_sum
from runtime.ops.sort_ops import unique
from runtime.shape import TensorShape
from runtime.tensor import convert_to_tensor

UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """`(y, idx, count)`: `tf.unique`'s values and positions, and how often each value occurs."""
    y, idx = unique(x, out_idx=out_idx)
    return UniqueWithCounts(y, idx, apply(COUNTS, idx, array_ops.size(y, out_type=idx.dtype), name=name))


def _counts(idx, size):
    return np.bincount(np.asarray(idx).reshape(-1), minlength=int(size)).astype(np.asarray(idx).dtype)


# (the number of distinct values is known only when the graph runs: unsorted_segment_sum needs it while tracing)
COUNTS = defop("UniqueCounts", _counts, lambda idx, size: Spec(idx.dtype, TensorShape([None])),
               doc="how often each position 0..size-1 occurs in idx (unique_with_counts's count)")


def in_top_k(targets, predictions, k, name=None):
    """Whether each row's prediction for its target is among its `k` largest: fewer than `k` predictions
    are larger (so ties at the boundary count as in). A row with a non-finite prediction, or a target out
    of range, is False, as in TensorFlow."""
    predictions = convert_to_tensor(predictions)
    targets = convert_to_tensor(targets)
    if predictions.shape.rank != 2 or targets.shape.rank != 1:
        raise ValueError(f"in_top_k: predictions must be a matrix and targets a vector, got shapes "
                         f"{predictions.shape} and {targets.shape}.")
    classes = array_ops.shape(predictions, out_type=targets.dtype)[1]
    valid = math_ops.logical_and(targets >= 0, targets < classes)
    rows = array_ops.range(array_ops.size(targets, out_type=targets.dtype), dtype=targets.dtype)
    safe = array_ops.where(valid, targets, array_ops.zeros_like(targets))
    chosen = gather_nd(predictions, array_ops.stack([rows, safe], axis=1))
    larger = math_ops.reduce_sum(math_ops.cast(predictions > array_ops.expand_dims(chosen, 1), dtypes.int32), axis=1)
    finite = math_ops.reduce_all(is_finite(predictions), axis=1)
    return math_ops.logical_and(math_ops.logical_and(valid, finite), larger < k, name=name)


def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32, name=None):
    """The `num_classes` x `num_classes` matrix whose entry (i, j) counts (or sums the `weights` of) the
    examples of label i predicted as j; `num_classes` is one more than the largest label or prediction when
    not given."""
    from runtime.debugging import assert_less, assert_non_negative   # import cycle: debugging imports the ops
    labels = math_ops.cast(array_ops.reshape(labels, [-1]), dtypes.int64)
    predictions = math_ops.cast(array_ops.reshape(predictions, [-1]), dtypes.int64)
    for values, what in ((labels, "labels"), (predictions, "predictions")):
        assert_non_negative(values, message=f"confusion_matrix: `{what}` contains negative values")
    if num_classes is None:
        num_classes = math_ops.maximum(math_ops.reduce_max(labels), math_ops.reduce_max(predictions)) + 1
    else:
        num_classes = math_ops.cast(num_classes, dtypes.int64)
        for values, what in ((labels, "labels"), (predictions, "predictions")):
            assert_less(values, num_classes, message=f"confusion_matrix: `{what}` out of bound")
    dtype = dtypes.as_dtype(dtype)
    counted = array_ops.ones_like(labels, dtype=dtype) if weights is None else \
        math_ops.cast(array_ops.reshape(weights, [-1]), dtype)
    return apply(CONFUSION, labels, predictions, counted, math_ops.cast(num_classes, dtypes.int64), name=name)


def _confusion(labels, predictions, counted, classes):
    out = np.zeros((int(classes), int(classes)), dtype=np.asarray(counted).dtype)
    np.add.at(out, (np.asarray(labels), np.asarray(predictions)), counted)
    return out


CONFUSION = defop("ConfusionMatrix", _confusion, lambda labels, predictions, counted, classes: Spec(
    counted.dtype, TensorShape([None, None])), doc="entry (i, j): the summed weights of label i predicted as j")


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """How many of `values` fall in each of `nbins` equal bins spanning `value_range`; values below the
    range count in the first bin, those above (and its upper end) in the last."""
    values = convert_to_tensor(values)
    value_range = convert_to_tensor(value_range, dtype_hint=values.dtype)
    low, high = value_range[0], value_range[1]
    bins = math_ops.cast(nbins, values.dtype)
    position = math_ops.floor(bins * (values - low) / (high - low))
    index = array_ops.reshape(math_ops.cast(math_ops.clip_by_value(position, 0, bins - 1), dtypes.int32), [-1])
    counts = unsorted_segment_sum(array_ops.ones_like(index, dtype=dtypes.as_dtype(dtype)), index, nbins)
    return array_ops.identity(counts, name=name)
