"""String ops, public as `runtime.strings`: `length`, `join`, `reduce_join`, `format`, `as_string`,
`to_number`, `upper`, `lower`, and for a scalar string `split`, `bytes_split`, `unicode_split`,
`unicode_decode` (on a vector their results would be ragged tensors, which are out of scope).

String tensors hold NumPy bytes arrays (UTF-8; `numpy()` gives `bytes`, as
TensorFlow). Each op is one registry entry and a public wrapper; none is
differentiable (they are listed in gradients.py's NOT_DIFFERENTIABLE).
"""
from __future__ import annotations

import builtins
import string

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError, UnimplementedError, user_location
from runtime.ops.logging_ops import format_value
from runtime.ops.registry import Spec, apply, broadcast_shapes, defop, unary_same
from runtime.shape import TensorShape
from runtime.tensor import EagerTensor, Tensor, convert_to_tensor


def _strings(x, op_name: str) -> Tensor:
    x = convert_to_tensor(x, dtype_hint=dtypes.string)
    if x.dtype is not dtypes.string:
        raise InvalidArgumentError(f"{op_name}: expects a string tensor, got {x.dtype.name}.", op_name)
    return x


def _bytes(array) -> np.ndarray:
    """A kernel's result as bytes ('S'): NumPy gives '<U' or object arrays for some string functions."""
    array = np.asarray(array)
    if array.dtype.kind == "S":
        return array
    if not array.size:
        return np.zeros(array.shape, dtype="S1")
    items = [v if isinstance(v, bytes) else str(v).encode() for v in array.flat]
    return np.array(items, dtype=bytes).reshape(array.shape)


# --- length ---------------------------------------------------------------------------------------

def _length(x, unit):
    if unit == "BYTE":
        return np.char.str_len(x).astype(np.int32)
    return np.vectorize(lambda b: len(b.decode("utf-8")), otypes=[np.int32])(x).reshape(x.shape)


LENGTH = defop("StringLength", _length, lambda x, unit: Spec(dtypes.int32, x.shape))


def length(input, unit="BYTE", name=None):  # noqa: A002
    """The length of each string, in bytes (unit='BYTE') or in Unicode characters (unit='UTF8_CHAR')."""
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise InvalidArgumentError(f"StringLength: unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}.", "StringLength")
    return apply(LENGTH, _strings(input, "StringLength"), unit=unit, name=name)


# --- join, reduce_join ----------------------------------------------------------------------------

def _join(*inputs, separator):
    out = inputs[0]
    for x in inputs[1:]:
        out = np.char.add(np.char.add(out, separator), x)
    return _bytes(out)


def _join_infer(*inputs, separator) -> Spec:
    shape = inputs[0].shape
    for x in inputs[1:]:
        shape = broadcast_shapes(shape, x.shape, "StringJoin")
    return Spec(dtypes.string, shape)


JOIN = defop("StringJoin", _join, _join_infer, doc="elementwise concatenation, with `separator` between inputs")


def join(inputs, separator="", name=None):
    """Join a list of string tensors elementwise (they broadcast): `join(['a', 'b'], '-')` is b'a-b'."""
    tensors = [_strings(x, "StringJoin") for x in inputs]
    if not tensors:
        raise InvalidArgumentError("StringJoin: needs at least one input.", "StringJoin")
    return apply(JOIN, *tensors, separator=_as_bytes(separator), name=name)


def _reduce_join(x, axis, keepdims, separator):
    x = np.asarray(x)
    axis = tuple(range(x.ndim)) if axis is None else axis
    kept = x.ndim - len(axis)
    moved = np.moveaxis(x, axis, tuple(range(kept, x.ndim)))   # the joined axes last
    rows = moved.reshape(moved.shape[:kept] + (int(np.prod(moved.shape[kept:])),))
    out = np.zeros(rows.shape[:-1], dtype=object)
    for index in np.ndindex(out.shape):
        out[index] = separator.join(bytes(v) for v in rows[index])
    out = _bytes(out)
    return np.expand_dims(out, axis) if keepdims else out


def _reduce_join_infer(x, axis, keepdims, separator) -> Spec:
    if x.shape.rank is None:
        return Spec(dtypes.string, TensorShape(None))
    axis = range(x.shape.rank) if axis is None else axis
    dims = [1 if i in axis else d for i, d in enumerate(x.shape.dims) if keepdims or i not in axis]
    return Spec(dtypes.string, TensorShape(dims))


REDUCE_JOIN = defop("ReduceJoin", _reduce_join, _reduce_join_infer)


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    x = _strings(inputs, "ReduceJoin")
    if axis is not None:
        rank = x.shape.rank
        axes = (axis,) if np.ndim(axis) == 0 else tuple(axis)
        if rank is None:
            raise InvalidArgumentError("ReduceJoin: the rank of the input must be known.", "ReduceJoin")
        axis = tuple(sorted({int(a) % max(rank, 1) for a in axes}))
    return apply(REDUCE_JOIN, x, axis=axis, keepdims=bool(keepdims), separator=_as_bytes(separator), name=name)


# --- format, as_string, to_number -------------------------------------------------------------------

def _string_format(*values, template, placeholder, summarize):
    pieces = template.split(placeholder)
    out = [pieces[0]]
    for value, piece in zip(values, pieces[1:]):
        out += [format_value(value, summarize), piece]
    return np.array("".join(out).encode("utf-8"))


FORMAT = defop("StringFormat", _string_format, lambda *v, **a: Spec(dtypes.string, TensorShape(())))


def format(template, inputs, placeholder="{}", summarize=3, name=None):  # noqa: A001 - TensorFlow's name
    """A scalar string: `template` with each `placeholder` replaced by a tensor's value, printed as
    `runtime.print` prints it (`format("x={}", [tf.range(3)])` is b'x=[0 1 2]')."""
    values = [inputs] if isinstance(inputs, Tensor) or not isinstance(inputs, (list, tuple)) else list(inputs)
    if template.count(placeholder) != len(values):
        raise InvalidArgumentError(f"StringFormat: the template has {template.count(placeholder)} placeholders "
                                   f"but there are {len(values)} inputs.", "StringFormat")
    tensors = [convert_to_tensor(v) for v in values]
    return apply(FORMAT, *tensors, template=template, placeholder=placeholder,
                 summarize=3 if summarize is None else int(summarize), name=name)


_convert = string.Formatter().convert_field    # `!s`, `!r`, `!a` (None: no conversion), as Python does


_PYTHON_TYPES = {"int": int, "float": float, "bool": bool}


def _python_text(value, conversion: str, spec: str, python_type: str) -> str:
    """What Python's f-string gives for `value` (a NumPy value) as an eager tensor, or as the Python int, float
    or bool `python_type` names."""
    value = _PYTHON_TYPES[python_type](value) if python_type else EagerTensor(value)
    if conversion == "i":       # `%d`, `%x`, `%c` (autograph's `%`): the int of a number as Python's `%` takes it
        return builtins.format(int(value) if spec[-1] == "d" else _integer(value, spec[-1]), spec)
    return builtins.format(_convert(value, conversion or None), spec)


def _integer(value, kind: str) -> int:
    """The integer `%x` (`%o`, `%c`) formats; a TypeError for a float, as Python's."""
    if isinstance(value, float) or isinstance(value, EagerTensor) and not value.dtype.is_integer:
        what = "float" if isinstance(value, float) else f"a {value.dtype.name} tensor"
        raise TypeError(f"%{kind} format: an integer is required, not {what}")
    return int(value)


def _python_format(*values, literals, conversions, specs, python_types):
    out = [literals[0]]
    for field in zip(values, conversions, specs, python_types, literals[1:]):
        out += [_python_text(*field[:4]), field[4]]
    return np.array("".join(out).encode("utf-8"))


PYTHON_FORMAT = defop("PythonFormat", _python_format, lambda *v, **a: Spec(dtypes.string, TensorShape(())))


def python_format(literals, values, conversions, specs, python_types=None, name=None):
    """A scalar string: Python's f-string `literals[0]{values[0]!conversions[0]:specs[0]}literals[1]...`, each
    value formatted when the graph runs as an eager tensor (or, where `python_types[i]` is "int", "float" or
    "bool", as the Python value of that type it holds): autograph's f-strings of traced tensors. A spec the
    value's type can't take fails here, while tracing, as Python's f-string would."""
    tensors = [convert_to_tensor(v) for v in values]
    python_types = tuple(python_types or ("",) * len(tensors))
    for tensor, conversion, spec, python_type in zip(tensors, conversions, specs, python_types):
        if tensor.shape.is_fully_defined() and tensor.shape.num_elements() <= 1024:   # a dry run checks the spec
            try:
                _python_text(np.zeros(tensor.shape.as_list(), tensor.dtype.as_numpy_dtype), conversion, spec,
                             python_type)
            except (ValueError, TypeError) as e:     # Python's error, at the user's line
                raise type(e)(f"{user_location()}: {e} (formatting {tensor.dtype.name} tensor {tensor.name} with "
                              f"the format spec {spec!r})") from None
    return apply(PYTHON_FORMAT, *tensors, literals=tuple(literals), conversions=tuple(conversions),
                 specs=tuple(specs), python_types=python_types, name=name)


def _as_string(x, precision, scientific, shortest, width, fill):
    if x.dtype.kind == "b":
        text = np.where(x, "true", "false")
        return _bytes(np.char.rjust(text, width, fill or " ") if width > 0 else text)
    spec = _number_spec(x.dtype.kind, precision, scientific, shortest, width, fill)
    if x.dtype.kind == "c":
        items = [f"({v.real:{spec}},{v.imag:{spec}})" for v in x.flat]
    else:
        items = [builtins.format(v.item(), spec) for v in x.flat]
    return _bytes(np.array(items, dtype=object).reshape(x.shape))


def _number_spec(kind: str, precision, scientific, shortest, width, fill) -> str:
    align = f"{fill}>{width}" if width > 0 and fill else (f">{width}" if width > 0 else "")
    if kind in "iu":
        return f"{align}d"
    if shortest:
        return f"{align}g"
    style = "e" if scientific else "f"
    return f"{align}.{precision if precision >= 0 else 6}{style}"


AS_STRING = defop("AsString", _as_string, lambda x, **a: Spec(dtypes.string, x.shape))


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):  # noqa: A002
    """Numbers as strings, formatted as TensorFlow does (`as_string(3.5)` is b'3.500000')."""
    x = convert_to_tensor(input)
    if x.dtype is dtypes.string:
        raise InvalidArgumentError("AsString: the input is already a string tensor.", "AsString")
    return apply(AS_STRING, x, precision=int(precision), scientific=bool(scientific), shortest=bool(shortest),
                 width=int(width), fill=str(fill), name=name)


def _to_number(x, out_type):
    try:
        values = [out_type.as_numpy_dtype(float(v) if out_type.is_floating else int(v)) for v in x.flat]
    except ValueError as e:
        raise InvalidArgumentError(f"StringToNumber: {e}", "StringToNumber") from None
    return np.array(values, dtype=out_type.as_numpy_dtype).reshape(x.shape)


TO_NUMBER = defop("StringToNumber", _to_number, lambda x, out_type: Spec(out_type, x.shape))


def to_number(string_tensor, out_type=dtypes.float32, name=None):
    out_type = dtypes.as_dtype(out_type)
    if not (out_type.is_floating or out_type.is_integer):
        raise InvalidArgumentError(f"StringToNumber: out_type must be a float or int dtype, got {out_type.name}.",
                                   "StringToNumber")
    return apply(TO_NUMBER, _strings(string_tensor, "StringToNumber"), out_type=out_type, name=name)


# --- upper, lower ---------------------------------------------------------------------------------

UPPER = defop("StringUpper", lambda x: _bytes(np.char.upper(x)), unary_same)
LOWER = defop("StringLower", lambda x: _bytes(np.char.lower(x)), unary_same)


def upper(input, encoding="", name=None):  # noqa: A002
    return apply(UPPER, _strings(input, "StringUpper"), name=name)


def lower(input, encoding="", name=None):  # noqa: A002
    return apply(LOWER, _strings(input, "StringLower"), name=name)


def _as_bytes(text) -> bytes:
    return text.encode("utf-8") if isinstance(text, str) else bytes(text)


# --- split, bytes_split, unicode_split, unicode_decode: scalars only (a vector's pieces would be ragged) --------

def _scalar_string(x, op_name: str):
    x = _strings(x, op_name)
    if x.shape.rank != 0:
        raise UnimplementedError(
            f"{op_name}: only a scalar string can be split here; splitting a tensor of strings gives a "
            "RaggedTensor in TensorFlow, and ragged tensors are out of scope for runtime (docs/tf-compat.md). "
            "Split each element, or pad the pieces to a dense tensor.", op_name)
    return x


def _text(x) -> bytes:
    """A scalar string's value (the executor may pass a NumPy scalar rather than a 0-d array)."""
    return bytes(np.asarray(x)[()])


def _pieces(values, dtype=bytes) -> np.ndarray:
    return np.array(values, dtype=dtype) if values else np.zeros((0,), dtype="S1" if dtype is bytes else dtype)


def _split_kernel(x, sep, maxsplit):
    text = _text(x)
    return _pieces(text.split(sep, maxsplit) if sep is not None else text.split(None, maxsplit))


def _vector_of(dtype):
    return lambda x, **_: Spec(dtype, TensorShape([None]))


SPLIT = defop("StringSplitV2", _split_kernel, _vector_of(dtypes.string))
BYTES_SPLIT = defop("BytesSplit", lambda x: _pieces([bytes([b]) for b in _text(x)]), _vector_of(dtypes.string))
UNICODE_SPLIT = defop("UnicodeSplit", lambda x: _pieces([c.encode() for c in _text(x).decode()]),
                      _vector_of(dtypes.string))
UNICODE_DECODE = defop("UnicodeDecode", lambda x: _pieces([ord(c) for c in _text(x).decode()], np.int32),
                       _vector_of(dtypes.int32))


def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002
    """A scalar string's pieces, split at `sep` (at runs of whitespace when None), as a 1-D string tensor."""
    x = _scalar_string(input, "StringSplitV2")
    return apply(SPLIT, x, sep=None if sep is None else _as_bytes(sep), maxsplit=int(maxsplit), name=name)


def bytes_split(input, name=None):  # noqa: A002
    return apply(BYTES_SPLIT, _scalar_string(input, "BytesSplit"), name=name)


def unicode_split(input, input_encoding, errors="replace", name=None):  # noqa: A002
    _utf8_only(input_encoding, "UnicodeSplit")
    return apply(UNICODE_SPLIT, _scalar_string(input, "UnicodeSplit"), name=name)


def unicode_decode(input, input_encoding, errors="replace", name=None):  # noqa: A002
    """A scalar UTF-8 string's code points, as a 1-D int32 tensor."""
    _utf8_only(input_encoding, "UnicodeDecode")
    return apply(UNICODE_DECODE, _scalar_string(input, "UnicodeDecode"), name=name)


def _utf8_only(encoding: str, op_name: str) -> None:
    if str(encoding).upper().replace("-", "") != "UTF8":
        raise UnimplementedError(f"{op_name}: only UTF-8 is supported, got {encoding!r}.", op_name)
