"""Segment reductions and `bincount`: `math.segment_sum/mean/max/min/prod`, `math.unsorted_segment_sum/mean/
max/min/prod/sqrt_n`, `math.bincount`.

Each is composed of ops the runtime has (so it runs eagerly and in graphs, differentiates through its parts,
and lowers wherever they lower): sums scatter rows with `scatter_nd`; max, min and prod reduce a
`[num_segments, rows, ...]` selection made with `where`, whose unpicked entries hold the value TensorFlow's
kernel starts from (the dtype's lowest for max, highest for min, 1 for prod), so empty segments and ties come
out as TensorFlow's, and the gradients are those of `reduce_max` (ties share a max's gradient); a floating
product has TensorFlow's own gradient rule (a `custom_gradient`), so its second derivative is TensorFlow's too.

The sorted `segment_*` take the number of segments from the last id, so their ids must be known while tracing
(a Python list, a constant); the unsorted ones need `num_segments` known while tracing, their ids may be
computed. TensorFlow's empty segments: 0 in `segment_*` (1 for prod), the reduction's identity in
`unsorted_segment_*`.
"""
from __future__ import annotations

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops import array_ops, math_ops, nd_ops
from runtime.ops.packing import static_int, static_value
from runtime.tensor import convert_to_tensor


def _check_shapes(what: str, data, ids):
    if ids.shape.rank is None or data.shape.rank is None or data.shape[:ids.shape.rank] != ids.shape:
        raise InvalidArgumentError(f"{what}: segment_ids' shape {ids.shape} must be the start of data's shape "
                                   f"{data.shape}.", what)
    if not ids.dtype.is_integer:
        raise InvalidArgumentError(f"{what}: segment_ids must be integers, got {ids.dtype.name}.", what)


def _below(what: str, ids, count: int):
    """`ids`, checked to be below `count` when the graph runs (TensorFlow's InvalidArgumentError)."""
    from runtime.debugging import assert_less   # import cycle: debugging imports the ops
    assert_less(ids, math_ops.cast(count, ids.dtype), message=f"{what}: a segment id is not below num_segments={count}")


def _sum(data, ids, count: int):
    """Rows summed by segment; a negative id drops its row."""
    dropped = math_ops.less(ids, math_ops.cast(0, ids.dtype))   # summed into one more segment, cut off
    ids = array_ops.where(dropped, array_ops.fill(array_ops.shape(ids), math_ops.cast(count, ids.dtype)), ids)
    summed = nd_ops.scatter_nd(array_ops.expand_dims(ids, -1), data, [count + 1, *data.shape.as_list()[ids.shape.rank:]])
    return summed[:count]


def _counts(data, ids, count: int):
    """How many rows each segment has, shaped to divide `_sum`'s result, at least 1."""
    n = _sum(array_ops.ones_like(ids, dtype=data.dtype), ids, count)
    n = array_ops.reshape(n, [count] + [1] * (data.shape.rank - ids.shape.rank))
    return math_ops.maximum(n, math_ops.cast(1, data.dtype))


def _selected(data, ids, count: int, fill):
    """`[count, *data.shape]`: row i of `data` in segment `ids[i]`, `fill` elsewhere; and its row axes."""
    rank, extra = ids.shape.rank, data.shape.rank - ids.shape.rank
    segments = array_ops.reshape(array_ops.range(count, dtype=ids.dtype), [count] + [1] * rank)
    hits = array_ops.reshape(math_ops.equal(segments, array_ops.expand_dims(ids, 0)),
                             [count, *ids.shape.as_list()] + [1] * extra)
    picked = array_ops.where(hits, array_ops.expand_dims(data, 0), array_ops.fill([], math_ops.cast(fill, data.dtype)))
    return picked, tuple(range(1, 1 + rank))


def _extreme_fill(dtype, kind: str):
    info = np.finfo(dtype.as_numpy_dtype) if dtype.is_floating else np.iinfo(dtype.as_numpy_dtype)
    return dtype.as_numpy_dtype({"max": info.min, "min": info.max, "prod": 1}[kind])   # uint64's max is no int64


def _reduce(kind: str, data, ids, count: int, sorted_ids: bool = False):
    if kind == "prod":
        return _prod(data, ids, count, sorted_ids)
    if kind == "sum":
        return _sum(data, ids, count)
    if kind == "mean":
        return _sum(data, ids, count) / _counts(data, ids, count)
    if kind == "sqrt_n":
        return _sum(data, ids, count) / math_ops.sqrt(_counts(data, ids, count))
    fill = _extreme_fill(data.dtype, kind)
    picked, axes = _selected(data, ids, count, fill)
    reduce = {"max": math_ops.reduce_max, "min": math_ops.reduce_min}[kind]
    if not axes:
        return picked
    reduced = reduce(picked, axis=axes)
    if data.shape.num_elements() != 0:
        return reduced
    bound = {"max": math_ops.maximum, "min": math_ops.minimum}[kind]   # no rows: the fill, not max's -inf
    return bound(reduced, math_ops.cast(fill, data.dtype))


def _prod(data, ids, count: int, sorted_ids: bool):
    """The product by segment, differentiated by TensorFlow's rule (`_SegmentProdGrad`,
    `_UnsortedSegmentProdGrad`) rather than through `reduce_prod`: the same first derivative, but its
    derivative is TensorFlow's second derivative (reduce_prod's rule, through cumprod, gave 0 where a factor is 0)."""
    from runtime.custom_gradients import custom_gradient   # import cycle: custom_gradients imports the ops
    if not (data.dtype.is_floating or data.dtype.is_complex):
        return _product(data, ids, count)

    @custom_gradient
    def prod(x):
        return _product(x, ids, count), lambda dy: _prod_gradient(dy, x, ids, count, sorted_ids)
    return prod(data)


def _product(data, ids, count: int):
    picked, axes = _selected(data, ids, count, _extreme_fill(data.dtype, "prod"))
    return math_ops.reduce_prod(picked, axis=axes) if axes else picked


def _prod_gradient(dy, data, ids, count: int, sorted_ids: bool):
    """TensorFlow's: the product over the element where its segment has no 0, the product of the others for
    the one 0 of a segment, 0 in a segment of several 0s. The unsorted rule divides by the element itself (NaN
    in the second derivative at a 0, as TensorFlow's), the sorted one by the element with 0s made 1s. The
    product is computed again here, through `reduce_prod`, so that it has a derivative (TensorFlow's is the
    op's output: the two differ only in third derivatives at a 0)."""
    out = _product(data, ids, count)
    is_zero = math_ops.equal(data, array_ops.zeros_like(data))
    zeros = _sum(math_ops.cast(is_zero, dtypes.int32), ids, count)
    dy = array_ops.where(math_ops.greater(zeros, 1), array_ops.zeros_like(dy), dy)
    non_zero = array_ops.where(is_zero, array_ops.ones_like(data), data)
    at = math_ops.maximum(ids, array_ops.zeros_like(ids))     # a negative id's row is dropped below
    divided = array_ops.gather(out, at) / (non_zero if sorted_ids else data)
    partial = array_ops.where(is_zero, array_ops.gather(_product(non_zero, ids, count), at), divided)
    kept = array_ops.reshape(math_ops.greater_equal(ids, array_ops.zeros_like(ids)),
                             ids.shape.as_list() + [1] * (data.shape.rank - ids.shape.rank))
    return array_ops.where(kept, array_ops.gather(dy, at), array_ops.zeros_like(data)) * partial


def _unsorted(kind: str):
    op = f"UnsortedSegment{kind.capitalize() if kind != 'sqrt_n' else 'SqrtN'}"

    def unsorted_segment(data, segment_ids, num_segments, name=None):
        data, ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
        _check_shapes(op, data, ids)
        count = static_int(num_segments, f"unsorted_segment_{kind}'s num_segments", op)
        if kind in ("mean", "sqrt_n") and not data.dtype.is_floating:
            raise InvalidArgumentError(f"{op}: expects floating-point data, got {data.dtype.name}.", op)
        _below(f"unsorted_segment_{kind}", ids, count)
        return array_ops.identity(_reduce(kind, data, ids, count), name=name)
    unsorted_segment.__name__ = unsorted_segment.__qualname__ = f"unsorted_segment_{kind}"
    unsorted_segment.__doc__ = (f"TensorFlow's `math.unsorted_segment_{kind}`: data's rows reduced by segment "
                                "(row i into segment `segment_ids[i]`; a negative id drops it); `num_segments` must "
                                "be known while tracing.")
    return unsorted_segment


def _sorted(kind: str):
    op = f"Segment{kind.capitalize()}"

    def segment(data, segment_ids, name=None):
        data, ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
        _check_shapes(op, data, ids)
        if ids.shape.rank != 1:
            raise InvalidArgumentError(f"{op}: segment_ids must be a vector, got shape {ids.shape}.", op)
        known = static_value(ids)
        if known is None:
            raise InvalidArgumentError(
                f"{op}: segment_ids must be known while tracing (the number of segments is the last id + 1); for "
                "ids computed in the function use math.unsorted_segment_" + kind + " with num_segments.", op)
        if np.any(known < 0) or np.any(np.diff(known) < 0):
            raise InvalidArgumentError(f"{op}: segment ids must be non-negative and increasing, got "
                                       f"{known.tolist()}.", op)
        count = int(known[-1]) + 1 if known.size else 0
        out = _reduce(kind, data, ids, count, sorted_ids=True)
        if kind in ("max", "min"):   # an empty segment is 0 here, not the reduction's identity
            present = np.isin(np.arange(count), known).reshape([count] + [1] * (data.shape.rank - 1))
            out = array_ops.where(present, out, array_ops.zeros_like(out))
        return array_ops.identity(out, name=name)
    segment.__name__ = segment.__qualname__ = f"segment_{kind}"
    segment.__doc__ = (f"TensorFlow's `math.segment_{kind}`: data's rows reduced by sorted segment ids, which "
                       "must be known while tracing; an empty segment gives 0" + (" (1 for prod)." if kind == "prod"
                                                                                  else "."))
    return segment


segment_sum, segment_mean, segment_max, segment_min, segment_prod = (
    _sorted(k) for k in ("sum", "mean", "max", "min", "prod"))
(unsorted_segment_sum, unsorted_segment_mean, unsorted_segment_max, unsorted_segment_min, unsorted_segment_prod,
 unsorted_segment_sqrt_n) = (_unsorted(k) for k in ("sum", "mean", "max", "min", "prod", "sqrt_n"))


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None, axis=None,
             binary_output=False):
    """TensorFlow's `math.bincount` of a tensor's values (`axis=None`; `axis=-1` counts each row apart): how
    often each value in [0, length) occurs, or the sum of its `weights`. The length is max(arr) + 1, at least
    `minlength` and at most `maxlength`, computed when the graph runs; a negative value is an error."""
    from runtime.debugging import assert_non_negative   # import cycle: debugging imports the ops
    arr = convert_to_tensor(arr)
    if not arr.dtype.is_integer:
        raise InvalidArgumentError(f"Bincount: arr must hold integers, got {arr.dtype.name}.", "Bincount")
    if axis not in (None, 0, -1) or axis in (0, -1) and arr.shape.rank not in (1, 2):
        raise InvalidArgumentError("Bincount: axis must be None, 0 or -1 (-1 with a matrix).", "Bincount")
    if weights is not None:
        weights = convert_to_tensor(weights)
        dtype = weights.dtype
    rows = axis == -1 and arr.shape.rank == 2
    values = arr if rows else array_ops.reshape(arr, [-1])
    assert_non_negative(values, message="Bincount: arr must be non-negative")
    length = math_ops.cast(math_ops.maximum(math_ops.reduce_max(values), -1) + 1, dtypes.int32)
    if minlength is not None:
        length = math_ops.maximum(length, math_ops.cast(minlength, dtypes.int32))
    if maxlength is not None:
        length = math_ops.minimum(length, math_ops.cast(maxlength, dtypes.int32))
    length = math_ops.cast(length, values.dtype)
    counted = array_ops.ones_like(values, dtype=dtypes.as_dtype(dtype)) if weights is None else (
        weights if rows else array_ops.reshape(weights, [-1]))
    if binary_output:
        counted = array_ops.ones_like(values, dtype=dtypes.as_dtype(dtype))
    return array_ops.identity(_bins(values, counted, length, rows, binary_output), name=name)


def _bins(values, counted, length, rows: bool, binary: bool):
    """`counted` summed into `length` bins by `values` (each row apart with `rows`): a `[..., n, length]`
    comparison with the bins' numbers, so the length may be known only when the graph runs; values >= length
    match no bin."""
    bins = array_ops.range(length, dtype=values.dtype)
    hits = math_ops.equal(array_ops.expand_dims(values, -1), bins)
    summed = math_ops.reduce_sum(math_ops.cast(hits, counted.dtype) * array_ops.expand_dims(counted, -1),
                                 axis=-2)
    if binary:
        summed = math_ops.cast(math_ops.greater(summed, math_ops.cast(0, summed.dtype)), summed.dtype)
    return summed
