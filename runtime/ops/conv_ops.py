"""`tf.nn.conv2d`, `conv1d`, `max_pool2d` and `avg_pool2d` (NHWC), made of the runtime's own ops.

Each output position reads a window of the padded input: the windows are gathered as `kh * kw` strided
slices stacked on a new axis (im2col made of ops), then a convolution is one matmul with the filter, a pool a
reduction over the window axis. Being compositions they run eagerly, traced, under `jit_compile` and in ONNX
export, and differentiate to any order. A max pool's gradient goes to the first largest element of each
window (row by row), as TensorFlow's does, not shared among ties. The input's height and width must be known
while tracing (its batch size need not be).
"""
from __future__ import annotations

import math

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops import array_ops, math_ops
from runtime.ops.extra_array_ops import pad
from runtime.ops.sort_ops import matmul
from runtime.tensor import constant, convert_to_tensor


def _pair(value, what: str, op: str, rank: int = 2) -> tuple:
    """An int, or a list of 1, `rank` or `rank + 2` ints (the batch and channel entries 1), as `rank` ints."""
    values = [value] if isinstance(value, int) else list(value)
    if len(values) == rank + 2:
        if values[0] != 1 or values[-1] != 1:
            raise InvalidArgumentError(f"{op}: {what} of the batch and channel dimensions must be 1, got {values}.",
                                       op)
        values = values[1:-1]
    if len(values) == 1:
        values = values * rank
    if len(values) != rank or not all(isinstance(v, (int, np.integer)) and v > 0 for v in values):
        raise InvalidArgumentError(f"{op}: {what} must be a positive int or a list of {rank} (or {rank + 2}) of them, "
                                   f"got {value!r}.", op)
    return tuple(int(v) for v in values)


def _padding(padding, size: int, window: int, stride: int, op: str, axis: int) -> tuple:
    """(output size, padding before, padding after) along one spatial axis of `size`, for a window spanning
    `window` positions: TensorFlow's SAME (the output ceil(size / stride), the padding split with the odd one
    after), VALID, or explicit pairs."""
    if isinstance(padding, str):
        kind = padding.upper()
        if kind == "VALID":
            if size < window:
                raise InvalidArgumentError(f"{op}: the window ({window}) is larger than the input ({size}) with "
                                           "VALID padding.", op)
            return (size - window) // stride + 1, 0, 0
        if kind == "SAME":
            out = math.ceil(size / stride)
            total = max((out - 1) * stride + window - size, 0)
            return out, total // 2, total - total // 2
        raise InvalidArgumentError(f"{op}: padding must be 'SAME', 'VALID' or explicit pairs, got {padding!r}.", op)
    pairs = [tuple(p) for p in padding]
    if len(pairs) != 4 or pairs[0] != (0, 0) or pairs[3] != (0, 0):
        raise InvalidArgumentError(f"{op}: explicit padding must be 4 pairs, with (0, 0) for the batch and channel "
                                   f"dimensions, got {padding!r}.", op)
    before, after = pairs[axis + 1]
    padded = size + before + after
    if padded < window:
        raise InvalidArgumentError(f"{op}: the window ({window}) is larger than the padded input ({padded}).", op)
    return (padded - window) // stride + 1, int(before), int(after)


def _windows(x, window: tuple, strides: tuple, dilations: tuple, padding, fill, op: str):
    """The windows of `x` ([n, h, w, c]) stacked on a new axis: [n, out_h, out_w, kh * kw, c], and the
    paddings used ((top, bottom), (left, right))."""
    dims = x.shape.dims
    if x.shape.rank != 4 or dims[1] is None or dims[2] is None:
        raise InvalidArgumentError(f"{op}: the input must have rank 4 (NHWC) with its height and width known while "
                                   f"tracing, got shape {x.shape}.", op)
    spans = [(k - 1) * d + 1 for k, d in zip(window, dilations)]
    plans = [_padding(padding, dims[1 + i], spans[i], strides[i], op, i) for i in range(2)]
    (out_h, top, bottom), (out_w, left, right) = plans
    padded = pad(x, [[0, 0], [top, bottom], [left, right], [0, 0]], constant_values=fill)
    slices = []
    for i in range(window[0]):
        for j in range(window[1]):
            row, col = i * dilations[0], j * dilations[1]
            slices.append(padded[:, row:row + (out_h - 1) * strides[0] + 1:strides[0],
                                 col:col + (out_w - 1) * strides[1] + 1:strides[1], :])
    return array_ops.stack(slices, axis=3), ((top, bottom), (left, right))


def _nhwc(data_format, op: str) -> None:
    if data_format not in (None, "NHWC", "NWC"):
        raise InvalidArgumentError(f"{op}: only the NHWC data format is supported here, got {data_format!r}; "
                                   "transpose the input to channels last.", op)


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):  # noqa: A002
    """The 2-D convolution (cross-correlation, as TensorFlow's) of `input` [n, h, w, c] with `filters`
    [kh, kw, c, out]."""
    _nhwc(data_format, "Conv2D")
    x, w = convert_to_tensor(input), convert_to_tensor(filters)
    if w.shape.rank != 4 or not w.shape.is_fully_defined():
        raise InvalidArgumentError(f"Conv2D: filters must have a known shape [kh, kw, in, out], got {w.shape}.",
                                   "Conv2D")
    w = convert_to_tensor(w, dtype_hint=x.dtype)
    if w.dtype is not x.dtype:
        raise InvalidArgumentError(f"Conv2D: input and filters must have one dtype, got {x.dtype.name} and "
                                   f"{w.dtype.name}.", "Conv2D")
    kh, kw, c_in, c_out = w.shape.dims
    if x.shape.rank == 4 and x.shape.dims[3] is not None and x.shape.dims[3] != c_in:
        raise InvalidArgumentError(f"Conv2D: the input has {x.shape.dims[3]} channels and the filters expect "
                                   f"{c_in}.", "Conv2D")
    strides = _pair(strides, "strides", "Conv2D")
    dilations = (1, 1) if dilations is None else _pair(dilations, "dilations", "Conv2D")
    if max(strides) > 1 and max(dilations) > 1:
        raise InvalidArgumentError("Conv2D: strides and dilations can't both be above 1 (TensorFlow refuses it "
                                   "too).", "Conv2D")
    patches, _ = _windows(x, (kh, kw), strides, dilations, padding, 0, "Conv2D")
    n, out_h, out_w = array_ops.shape(patches)[0], patches.shape.dims[1], patches.shape.dims[2]
    rows = array_ops.reshape(patches, [-1, kh * kw * c_in])
    out = matmul(rows, array_ops.reshape(w, [kh * kw * c_in, c_out]))
    return array_ops.reshape(out, array_ops.stack([n, out_h, out_w, c_out]), name=name)


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):  # noqa: A002
    """The 1-D convolution of `input` [n, w, c] with `filters` [k, c, out]: `conv2d` on a height of 1."""
    _nhwc(data_format, "Conv1D")
    x, w = convert_to_tensor(input), convert_to_tensor(filters)
    stride = _pair(stride, "stride", "Conv1D", rank=1)[0]
    dilation = 1 if dilations is None else _pair(dilations, "dilations", "Conv1D", rank=1)[0]
    explicit = padding if isinstance(padding, str) else [[0, 0], [0, 0], *[list(p) for p in padding[1:2]], [0, 0]]
    out = conv2d(array_ops.expand_dims(x, 1), array_ops.expand_dims(w, 0), [1, stride], explicit,
                 dilations=[1, dilation])
    return array_ops.squeeze(out, [1], name=name)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """The largest value of each window; its gradient goes to the first largest element (row by row)."""
    _nhwc(data_format, "MaxPool")
    x = convert_to_tensor(input)
    lowest = -np.inf if x.dtype.is_floating else np.iinfo(x.dtype.as_numpy_dtype).min
    patches, _ = _windows(x, _pair(ksize, "ksize", "MaxPool"), _pair(strides, "strides", "MaxPool"), (1, 1),
                          padding, lowest, "MaxPool")
    first = math_ops.argmax(patches, axis=3, output_type=dtypes.int32)
    chosen = array_ops.one_hot(first, patches.shape.dims[3], on_value=True, off_value=False, axis=3)
    return math_ops.reduce_sum(array_ops.where(chosen, patches, array_ops.zeros_like(patches)), axis=3, name=name)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    """The mean of each window, of its elements inside the input (padding is not counted, as TensorFlow's)."""
    _nhwc(data_format, "AvgPool")
    x = convert_to_tensor(input)
    if not x.dtype.is_floating:
        raise InvalidArgumentError(f"AvgPool: needs a float input, got {x.dtype.name}.", "AvgPool")
    window, strides = _pair(ksize, "ksize", "AvgPool"), _pair(strides, "strides", "AvgPool")
    patches, ((top, bottom), (left, right)) = _windows(x, window, strides, (1, 1), padding, 0, "AvgPool")
    counts = _window_counts(x.shape.dims[1:3], window, strides, (top, bottom, left, right),
                            patches.shape.dims[1:3])
    return math_ops.divide(math_ops.reduce_sum(patches, axis=3), constant(counts, dtype=x.dtype)[:, :, None],
                           name=name)


def _window_counts(size: list, window: tuple, strides: tuple, pads: tuple, out: list) -> np.ndarray:
    """How many input elements each window of a pool covers (those in the padding left out): [out_h, out_w]."""
    inside = np.pad(np.ones(size), [(pads[0], pads[1]), (pads[2], pads[3])])
    counts = np.zeros(out)
    for i in range(window[0]):
        for j in range(window[1]):
            counts += inside[i:i + (out[0] - 1) * strides[0] + 1:strides[0], j:j + (out[1] - 1) * strides[1] + 1:strides[1]]
    return counts


def max_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """`tf.nn.max_pool` of a 4-D input (`max_pool2d`)."""
    return max_pool2d(input, ksize, strides, padding, data_format or "NHWC", name)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    """`tf.nn.avg_pool` of a 4-D input (`avg_pool2d`)."""
    return avg_pool2d(input, ksize, strides, padding, data_format or "NHWC", name)

