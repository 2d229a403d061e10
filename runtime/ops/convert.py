"""Argument conversion shared by the op wrappers."""
from __future__ import annotations

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError, PythonValueDTypeError, user_location
from runtime.ops import python_ints, python_operands
from runtime.ops.registry import context, same_dtype
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor, convert_to_tensor, is_carried_python_float


def binary_operands(x, y, op_name: str) -> tuple[Tensor, Tensor]:
    """Two tensors of one dtype; a Python value takes the other operand's dtype."""
    if type(x) is EagerTensor and type(y) is EagerTensor and x._dtype is y._dtype:
        return x, y  # the common eager case, kept cheap
    if context.weak is not None:
        return _weak_operands(x, y, op_name)
    return _operands(x, y, op_name)


def _operands(x, y, op_name: str) -> tuple[Tensor, Tensor]:
    both_tensors = isinstance(x, Tensor) and isinstance(y, Tensor)
    x, y = _converted(x, y, op_name)
    try:
        same_dtype(op_name, x, y)
    except InvalidArgumentError as e:
        laid_x, laid_y = _holding_python_floats(x, y), _holding_python_floats(y, x)
        if laid_x is not x or laid_y is not y:
            same_dtype(op_name, laid_x, laid_y)
            return laid_x, laid_y
        if both_tensors:
            raise
        raise PythonValueDTypeError(e.message, op_name) from None
    return x, y


# Ops that lay out the values they are given without computing new ones: of Python floats (float64s) that a
# staged statement carries, where an op asked for no dtype, they give float64s that a Python float's float32 would
# have given as the same values.
_LAYOUT = frozenset({"Fill", "Reshape", "ExpandDims", "Squeeze", "Pack", "ConcatV2", "Identity", "Tile",
                     "BroadcastTo", "Transpose", "GatherV2", "StridedSlice", "Slice", "ZerosLike", "OnesLike"})


def _holding_python_floats(value, other):
    """`value` as `other`'s float dtype where it is a float64 that only lays out Python floats a staged statement
    carries (`tf.fill([2], s) * x`, `tf.reshape(s, [1]) * x` with `x` float32: as TensorFlow's float32 of a Python
    float would meet `x`); else `value`, whose dtype error stays."""
    if (value.__class__ is SymbolicTensor and value.dtype is dtypes.float64 and isinstance(other, Tensor)
            and other.dtype.is_floating and other.dtype is not dtypes.float64 and _laid_out(value) is True):
        return _cast(value, other.dtype)
    return value


def _laid_out(t, depth: int = 8):
    """True if `t` holds Python floats a staged statement carries (and constants), laid out by `_LAYOUT` ops;
    None if constants only; False otherwise."""
    if is_carried_python_float(t):
        return True
    if t.op.type == "Const":
        return None
    if depth == 0 or t.op.type not in _LAYOUT:
        return False
    found = [_laid_out(i, depth - 1) for i in t.op.inputs if i.dtype is dtypes.float64]
    return False if False in found or not found else True in found or None


def _converted(x, y, op_name: str = "") -> tuple[Tensor, Tensor]:
    """Both as tensors: a Python value takes the tensor's dtype where it converts to it."""
    if context.graph is not None:
        x, y = _python_numbers(x, y, op_name)
    x, y = _bool_as_number(x, y), _bool_as_number(y, x)
    if isinstance(x, Tensor) and type(y) in _SCALARS:
        cached = _scalar_in_graph(y, x.dtype)
        if cached is not None:
            return x, cached
        y = convert_to_tensor(y, dtype_hint=x.dtype)
    elif isinstance(x, Tensor):
        y = convert_to_tensor(numpy_as_python(y, x.dtype), dtype_hint=x.dtype)
    elif isinstance(y, Tensor):
        x = convert_to_tensor(numpy_as_python(x, y.dtype), dtype_hint=y.dtype)
    else:
        x = convert_to_tensor(x)
        y = convert_to_tensor(y, dtype_hint=x.dtype)
    return x, y


_SCALARS = (int, float)


def _python_numbers(x, y, op_name: str = "") -> tuple:
    """A Python number that a staged statement carries (an int32 or float tensor marked by ops/python_ints.py)
    meeting another operand, as Python's number would meet it: an int beside a Python float (or a carried float)
    is a float (`s * 1.5`, float64, which holds every int32 exactly, as `s / 2` and `float(s)` are); a float64
    one beside a carried float32 (a Python float a staged loop carries) is a float32; beside a float tensor of
    the program's, or an int64 one, it takes that tensor's dtype, as a Python number does (`x * (s / 2)` as
    `x * 1.5`). Beside a smaller int dtype it stays an error: its value might not fit; so does a carried float32
    beside a float64 tensor (it was rounded to float32)."""
    if not (_marked(x) or _marked(y)):
        return x, y                                     # the common case, kept cheap
    x, y = python_operands.operands(x, y, op_name)      # a bool as an int, an int beyond int32, `s ** -1`
    kinds = _python_kind(x), _python_kind(y)
    out = [x, y]
    for i, (value, kind, other, other_kind) in enumerate(((x, kinds[0], y, kinds[1]), (y, kinds[1], x, kinds[0]))):
        if kind not in ("int", "float") or not isinstance(value, SymbolicTensor):
            continue
        if kind == "int" and other_kind == "float" or (   # an int meets a Python float: a Python float; two
                kind == "float" and other_kind == "float" and isinstance(other, Tensor)   # floats: the float32
                and value.dtype is dtypes.float64 and other.dtype is dtypes.float32):  # a staged loop carries
            dtype = other.dtype if isinstance(other, Tensor) else dtypes.float64
            out[i] = _cast(value, dtype)
            python_ints.mark(context.graph, out[i], python_ints.name_of(value), "float")
        elif isinstance(other, Tensor) and not other_kind and other.dtype is not value.dtype and (
                other.dtype.is_floating and value.dtype in (dtypes.int32, dtypes.float64)
                or other.dtype is dtypes.int64 and value.dtype is dtypes.int32):
            out[i] = _cast(value, other.dtype)          # a program's tensor: the Python number takes its dtype,
            # rounded once from the number's exact value, as converting the Python number would (a float32 one,
            # already rounded, would round twice: it stays an error)
    return tuple(out)


def _marked(value) -> bool:
    return value.__class__ is SymbolicTensor and id(value) in value.op.graph.python_ints


def _python_kind(value) -> str:
    """"int", "float", "bool" for a Python number a staged statement carries; "float" for a Python float; else ""."""
    if isinstance(value, SymbolicTensor):
        kind = python_ints.kind_of(value)
        return "float" if kind == python_ints.INT_OR_FLOAT else kind
    return "float" if type(value) is float else ""


def _cast(value, dtype):
    from runtime.ops.math_ops import cast      # math_ops converts its operands here
    return cast(value, dtype)


def numpy_as_python(value, dtype: dtypes.DType):
    """A NumPy number or array beside a tensor of another dtype, as Python numbers: it takes the tensor's dtype
    when a Python number would (`float32_tensor * np.sqrt(2.0)` is float32, as in TensorFlow; `int32_tensor +
    np.float64(2.5)` is an error, where TensorFlow truncates it to 2)."""
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind in "iuf" and not dtype.is_string and \
            value.dtype != dtype.as_numpy_dtype:
        return value.tolist()
    return value


def _weak_operands(x, y, op_name: str) -> tuple[Tensor, Tensor]:
    """`binary_operands` while a loop's Python numbers are probed (runtime/ops/weak.py): Python scalars are
    weak, and a weak operand takes a strong one's dtype."""

    weak = context.weak
    if _marked(x) or _marked(y):   # (`s ** -1` of a loop's Python int makes it a float in the probe too)
        x, y = python_operands.operands(x, y, op_name)
    tx, ty = _convert_pair(x, y)
    weak.python(x, tx)
    weak.python(y, ty)
    tx, ty = weak.meet(tx, ty, user_location())
    same_dtype(op_name, tx, ty)
    return tx, ty


def _bool_as_number(value, other):
    """A Python bool beside a number tensor as the int it is in Python (`x * True` is `x * 1`, as in TensorFlow);
    else `value`."""
    if value.__class__ is bool and isinstance(other, Tensor) and (other.dtype.is_integer or other.dtype.is_floating
                                                                   or other.dtype.is_complex):
        return int(value)
    return value


def _convert_pair(x, y) -> tuple[Tensor, Tensor]:
    x, y = _bool_as_number(x, y), _bool_as_number(y, x)
    if isinstance(x, Tensor):
        return x, convert_to_tensor(y, dtype_hint=x.dtype)
    if isinstance(y, Tensor):
        return convert_to_tensor(x, dtype_hint=y.dtype), y
    x = convert_to_tensor(x)
    return x, convert_to_tensor(y, dtype_hint=x.dtype)


def _scalar_in_graph(value, dtype):
    """While tracing, the graph's Const for a Python scalar that converts exactly to `dtype`."""
    graph = context.graph
    if graph is None or (type(value) is float and not dtype.is_floating) or dtype.is_bool:
        return None
    key = ("python", dtype.name, type(value), value, repr(value))  # repr: -0.0 and 0.0 stay apart
    found = graph.scalar_constants.get(key)
    if found is None:
        found = convert_to_tensor(value, dtype_hint=dtype)
        if found.dtype is not dtype:
            return None
        graph.scalar_constants[key] = found
    return found


def tensors(values, op_name: str) -> list[Tensor]:
    """A list of tensors of one dtype (for concat, stack, add_n ...); Python values take the tensors' dtype."""
    values = list(values)
    if not values:
        raise ValueError(f"{op_name}: needs at least one tensor.")
    given = [v for v in values if isinstance(v, Tensor) or hasattr(v, "_as_tensor")]
    if context.graph is not None and len(given) > 1:   # a Python float a staged statement carries (only while
        given.sort(key=is_carried_python_float)        # tracing) takes the others' dtype
    # (an f-string of traced tensors has no dtype of its own: a string tensor's)
    hint = (getattr(given[0], "dtype", None) or convert_to_tensor(given[0]).dtype) if given else None
    if hint is None:  # no tensor: the first value's own dtype decides, as TensorFlow does
        hint = convert_to_tensor(values[0]).dtype
    converted = [convert_to_tensor(numpy_as_python(v, hint), dtype_hint=hint) for v in values]
    if context.weak is not None:
        converted = _weak_tensors(converted)
    try:
        same_dtype(op_name, *converted)
    except InvalidArgumentError:
        strong = next((t for t in converted if t.dtype.is_floating and t.dtype is not dtypes.float64), None)
        if strong is None:
            raise
        converted = [_holding_python_floats(t, strong) for t in converted]
        same_dtype(op_name, *converted)
    return converted


def _weak_tensors(converted: list) -> list:
    """`tensors` while a loop's Python numbers are probed: the weak ones take the first strong one's dtype."""

    weak = context.weak
    strong = next((t for t in converted if weak.info(t) is None), converted[0])
    where = user_location()
    return [weak.meet(strong, t, where)[1] for t in converted]


def as_dtype_or_none(dtype):
    return None if dtype is None else dtypes.as_dtype(dtype)
