"""`x[key]` exported to ONNX (to_onnx.py's rule for `StridedSlice`): one entry of the key at a time."""
from __future__ import annotations

import numpy as np

from runtime import dtypes
from runtime.errors import LoweringError

INT64_MAX = np.iinfo(np.int64).max
INT64_MIN = np.iinfo(np.int64).min


def strided_slice(g, x, *index_values, spec):
    """`x[key]` one entry at a time: `Gather` for an index (it drops the axis), `Slice` for a slice,
    `Unsqueeze` for a newaxis; `...` stands for the axes no entry names (the rank must be known)."""
    key = spec if isinstance(spec, tuple) and not (spec and spec[0] in ("slice", "$")) else (spec,)
    if "..." in key:
        consumed = sum(1 for k in key if k is not None and k != "...")
        fill = g.static_rank(x, "Indexing with ...") - consumed
        at = key.index("...")
        key = key[:at] + (("slice", None, None, None),) * fill + key[at + 1:]
    out, axis = x.name, 0
    for entry in key:
        if entry is None:
            out = g.node("Unsqueeze", out, g.ints([axis]))
            axis += 1
        elif isinstance(entry, tuple) and entry[0] == "slice":
            out = _slice(g, out, axis, entry[1:], index_values)
            axis += 1
        else:
            out = g.node("Gather", out, _index(g, entry, index_values, scalar=True), axis=axis)
    return out


def _slice(g, x, axis: int, bounds: tuple, index_values):
    start, stop, step = bounds
    step_value = 1 if step is None else step
    if not isinstance(step_value, int):
        raise LoweringError("a slice step given as a tensor can't be exported to ONNX; use a Python int")
    default_start, default_stop = (0, INT64_MAX) if step_value > 0 else (-1, INT64_MIN)
    starts = _index(g, default_start if start is None else start, index_values)
    ends = _index(g, default_stop if stop is None else stop, index_values)
    return g.node("Slice", x, starts, ends, g.ints([axis]), g.ints([step_value]))


def _index(g, entry, index_values, scalar: bool = False):
    """An index of a key as an int64 tensor: a scalar, or of shape [1] for `Slice`."""
    if isinstance(entry, tuple) and entry[0] == "$":
        value = g.cast(index_values[entry[1]], dtypes.int64)
        return value if scalar else g.node("Reshape", value, g.ints([1]))
    return g.ints(int(entry), scalar=True) if scalar else g.ints([int(entry)])
