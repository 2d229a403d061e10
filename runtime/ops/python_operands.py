"""A Python bool or int that a staged statement carries (a tensor marked by ops/python_ints.py) as an operand, as
Python's value would be one; and `int()` of a float tensor, checked.

Python's bool is an int: `True + True` is 2, `~True` is -2, `b * 3`, `b < 2`, `-b` and `abs(b)` compute with 1
and 0. A carried bool meeting arithmetic (or an int) becomes the int32 0 or 1, a Python int, where TensorFlow's
bool tensors refuse arithmetic (and take `~` as logical not: `~True` would be False, not -2). `b & c`, `b | c`,
`b ^ c` and `b == c` of two bools stay bools, as in Python.

A Python int beyond int32 (`s + 2 ** 40`, `s < 2 ** 40`) beside a carried int: a comparison is made in int64,
exactly; `/` in float64 (Python's `s / 2 ** 40` is a float); other arithmetic is refused at the user's line,
naming the variable (its int32 result could not hold it either).

`s ** -1` of a carried int with a negative int exponent written in the program is Python's float: the power is
taken in float64 (a Python float, whose `0 ** -1` raises as Python's does: ops/python_ints.py `PythonFloat`).

`int(f)`, `round(f)` of a float tensor give int32 where Python's int is exact: a value outside int32, NaN or
infinity is an error naming the user's line when the graph runs (a `CheckDefined`, cheap, only at those calls),
where the cast would give a wrong number.
"""
from __future__ import annotations

import numbers
import operator

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError, user_location
from runtime.ops import python_ints, registry
from runtime.tensor import SymbolicTensor, Tensor

_DIVISIONS = {"RealDiv": operator.truediv, "FloorDiv": operator.floordiv, "FloorMod": operator.mod}
_PYTHON_SCALARS = frozenset({"pyint", "pyfloat", "pybool"})
_DIVIDENDS = {"int": 1, "bool": True, "float": 1.0, python_ints.INT_OR_FLOAT: 1.0}   # stand-ins of their kind
ARITHMETIC = frozenset({"AddV2", "Sub", "Mul", "RealDiv", "FloorDiv", "FloorMod", "Pow", "Maximum", "Minimum"})
ORDERING = frozenset({"Less", "LessEqual", "Greater", "GreaterEqual"})
EQUALITY = frozenset({"Equal", "NotEqual"})
_INT32 = python_ints.INT32_RANGE


def _kind(value) -> str:
    """python_ints' kind of a marked tensor ("" for another tensor); "py" and the type's name for a Python scalar."""
    if isinstance(value, SymbolicTensor):
        return python_ints.kind_of(value)
    if isinstance(value, Tensor):   # an eager tensor of the program's, captured
        return ""
    return f"py{type(value).__name__}" if value.__class__ in (bool, int, float) else "-"


def operands(x, y, op_name: str) -> tuple:
    """`x` and `y`, one of them a marked tensor, as the op `op_name` should see them (module docstring)."""
    values, kinds = [x, y], [_kind(x), _kind(y)]
    if op_name in _DIVISIONS and kinds[0] in _DIVIDENDS and kinds[1] in _PYTHON_SCALARS and y == 0 and _top_level():
        _DIVISIONS[op_name](_DIVIDENDS[kinds[0]], y)   # Python's ZeroDivisionError, whatever `x` holds
    if _bools_as_ints(values, kinds, op_name):
        values = [_as_int(v) if k == "bool" else int(v) if k == "pybool" else v for v, k in zip(values, kinds)]
        kinds = [_kind(v) for v in values]
    for i in (0, 1):
        if kinds[i] == "int" and kinds[1 - i] == "pyint" and not _INT32[0] <= values[1 - i] <= _INT32[1]:
            values[i] = _wide(values[i], values[1 - i], op_name)
            if op_name == "RealDiv":
                values[1 - i] = float(values[1 - i])
    if op_name == "Pow" and kinds == ["int", "pyint"] and values[1] < 0:   # `s ** -1`: Python's is a float
        values = [_as(values[0], dtypes.float64, "float"), float(values[1])]
    return tuple(values)


_NUMBERS = frozenset({"int", "float", python_ints.INT_OR_FLOAT})


def _top_level() -> bool:
    """Whether the op is traced at the function's top level, where Python runs it whatever the input: in a staged
    branch or loop body (a graph inside the function's) it runs only on the paths the graph takes, where its
    kernel checks a zero divisor (ops/python_ints.py)."""
    graph = registry.context.graph
    return graph is None or graph.outer_graph is None


def bitwise_operands(x, y) -> tuple | None:
    """`x & y`, `x | y`, `x ^ y` where one is a carried bool and the other an int (a Python int, or a carried
    one): Python's bool is an int there (`True | 2` is 3), so the operands as ints; None otherwise (two bools
    stay bools, and a bool tensor of the program's keeps TensorFlow's logical op)."""
    kinds = [_kind(x), _kind(y)]
    if "bool" not in kinds or not {"int", "pyint"} & set(kinds):
        return None
    return tuple(_as_int(v) if k == "bool" else v for v, k in zip((x, y), kinds))


def _bools_as_ints(values: list, kinds: list, op_name: str) -> bool:
    """Whether a carried bool among the operands of `op_name` is an int there: in arithmetic and ordering, and
    in `==` with a number."""
    if "bool" not in kinds and not ("pybool" in kinds and _NUMBERS & set(kinds)):
        return False   # (a Python bool beside a carried number is the int it is, as in Python)
    if "" in kinds:   # beside a tensor of the program's: as an eager Python bool is (the int it is beside a number
        other = values[kinds.index("")]   # tensor, as in TensorFlow; a bool beside a bool tensor)
        return not other.dtype.is_bool and (op_name in ARITHMETIC or op_name in ORDERING or op_name in EQUALITY)
    if op_name in ARITHMETIC or op_name in ORDERING:
        return True
    booleans = [k in ("bool", "pybool") or k == "" and values[i].dtype is dtypes.bool for i, k in enumerate(kinds)]
    return op_name in EQUALITY and not all(booleans)


def _wide(value, number: int, op_name: str):
    """The carried int `value` beside the Python int `number`, which int32 can't hold."""
    if op_name in ORDERING or op_name in EQUALITY:
        return _cast(value, dtypes.int64)   # exact; a comparison's result is a bool
    if op_name == "RealDiv":
        return _as(value, dtypes.float64, "float")
    name = python_ints.name_of(value)
    raise InvalidArgumentError(
        f"{user_location()}: '{name}' started as a Python int, which a staged `if` or loop on tensors carries as "
        f"int32 (the dtype of a Python int in runtime), and here it meets the Python int {number}, which int32 "
        f"cannot hold (Python ints have no limit). Start '{name}' as runtime.constant(..., runtime.int64) to "
        "carry 64 bits.", op_name)


def _as_int(value):
    """The carried bool `value` as the Python int it is in arithmetic (0 or 1)."""
    return _as(value, dtypes.int32, "int")


def _as(value, dtype, kind: str):
    out = _cast(value, dtype)
    python_ints.mark(out.op.graph, out, python_ints.name_of(value), kind)
    return out


def _cast(value, dtype):
    from runtime.ops.math_ops import cast   # math_ops converts its operands through convert.py, which calls here

    return cast(value, dtype)


def unary(fn):
    """An operator of one operand (`-b`, `abs(b)`, `+b`, `~b`) that takes a carried bool as the int it is."""
    def method(x):
        if isinstance(x, SymbolicTensor) and python_ints.kind_of(x) == "bool":
            x = _as_int(x)
        return fn(x)
    method.__name__ = getattr(fn, "__name__", "unary")
    return method


def checked_int(value, what: str):
    """`value` (a float or int tensor) as int32, truncated toward zero; for a float in a graph, an error naming the
    user's line when the graph runs where the value is outside int32, NaN or infinite (`what`: 'int()' ...)."""
    from runtime.ops.logging_ops import check_defined
    from runtime.ops.math_ops import cast, logical_and

    out = cast(value, dtypes.int32)
    if not (isinstance(value, SymbolicTensor) and value.dtype.is_floating):
        return out
    wide = cast(value, dtypes.float64)
    fits = logical_and(wide > _INT32[0] - 1.0, wide < _INT32[1] + 1.0)   # False for NaN
    return check_defined(out, fits, InvalidArgumentError, (
        f"{user_location()}: {what} of a float tensor gives an int32 in the graph, and here the float is outside "
        "int32 (or NaN or infinite), where Python's int is exact (or raises ValueError, OverflowError). Check the "
        "value first, or keep it a float (runtime.floor, runtime.round)."))


# --- beside a Python container: Python's answer, or refused ------------------------------------------------------

_CONTAINERS = (list, tuple, str, bytes, bytearray, range, dict, set, frozenset)
_STAND_INS = {"int": (0,), "bool": (False,), "float": (0.0,), "str": ("",), python_ints.INT_OR_FLOAT: (0, 0.0)}
_SYMBOLS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**",
            "matmul": "@", "divmod": "divmod", "and": "&", "or": "|", "xor": "^", "lt": "<", "le": "<=", "gt": ">",
            "ge": ">=", "eq": "==", "ne": "!="}


def beside_containers(name: str, fn):
    """The binary operator `name` (`__mul__`, `__radd__`, ...): where the tensor stands for a Python number or
    bool a staged statement carries and the other operand is a Python container (a list, tuple, str, ...),
    Python's answer, which the container's type decides (`k + [1]` raises Python's TypeError, `k == [1]` is
    False), or refused at the user's line where it depends on the number (`[0] * k` repeats the list `k`
    times). Converted to a tensor, the container would meet the number elementwise (`[0] * k` gave `[0]`)."""
    reflected = name.startswith("__r") and name[3:-2] in _SYMBOLS
    base = name[3:-2] if reflected else name[2:-2]
    python = divmod if base == "divmod" else getattr(operator, base if base not in ("and", "or") else base + "_")

    def method(x, y, *args):
        if base not in _JOINS:
            _refuse_str(x, base)
            _refuse_str(y, base)
        kind = python_ints.kind_of(x) if isinstance(x, SymbolicTensor) else ""
        if kind and base in ("eq", "ne") and _foreign(y):
            return NotImplemented   # as Python's number: the object's own `==` answers, else identity (False)
        if not kind or not isinstance(y, _CONTAINERS) or kind == "str" and isinstance(y, (str, bytes)):
            return fn(x, y, *args)
        answers = []
        for number in _STAND_INS[kind]:
            try:
                answers.append(python(y, number) if reflected else python(number, y))
            except TypeError as error:
                if len(_STAND_INS[kind]) == 1:
                    raise TypeError(str(error)) from None   # Python's own, whatever the number
                answers.append(TypeError)
        if base in ("eq", "ne") and len(set(answers)) == 1:
            return answers[0]
        shown = f"{type(y).__name__} {_SYMBOLS[base]} {python_ints.name_of(x)}" if reflected else \
            f"{python_ints.name_of(x)} {_SYMBOLS[base]} {type(y).__name__}"
        x._not_allowed(f"Using `{_SYMBOLS[base]}` between a Python {type(y).__name__} and", (
            f"It holds '{python_ints.name_of(x)}', a Python {kind} that a staged `if` or loop carries, and Python's "
            f"answer for `{shown}` depends on its value (a sequence times an int repeats it), which the graph "
            "knows only when it runs. Make the container a tensor (runtime.fill, runtime.tile), or compute it "
            "before the staged statement."))
    method.__name__ = getattr(fn, "__name__", name)
    return method


def _foreign(value) -> bool:
    """An object of the program's (not a number, a container, an array or a framework's value), which a Python
    number's `==` leaves to the object (`int.__eq__` gives NotImplemented)."""
    return value is not None and not isinstance(value, (Tensor, np.ndarray, np.generic, numbers.Number,
                                                        _CONTAINERS)) and not type(value).__module__.startswith("runtime")


_JOINS = frozenset({"add", "eq", "ne"})   # what a string tensor does as Python's str does


def _refuse_str(value, base: str) -> None:
    """A scalar string tensor (a Python str a staged `if` or loop carries becomes one) as an operand of `base`
    (`*`, `<`, `%`, ...), which Python computes on the str (`s * 2` repeats it, `s < "b"` compares it): refused
    at the user's line, where the graph would raise a dtype error that the program's `except` could take."""
    if isinstance(value, SymbolicTensor) and value.dtype is dtypes.string:
        value.refuse_python(f"Using `{_SYMBOLS[base]}` on", f"Python computes `{_SYMBOLS[base]}` of the str, which "
                            "the graph knows only when it runs. Use the runtime.strings functions, or compute it "
                            "before the staged statement.")
