"""Python numbers that a staged `if` or loop carries, as the operands of torch's ops: Python's arithmetic, or an
error where Python raises.

The torch backend registers the tensors that stand for Python numbers (torch_aliasing.py); its modes (the
`_AfterStaging` of the rest of a converted function, the `_Tracked` of a branch or loop body) give each op's
operands to `python_operands` first. Where every tensor among them stands for a number (beside a tensor of the
program's, torch's own rules hold, as they do for an eager Python number there):

- a bool computes as the int it is in Python (`True + True` is 2, `~True` -2, `-True` -1, `abs(True)` 1, where
  torch's bool tensors give True and False or refuse); two bools' `&`, `|`, `^` stay bools;
- an int compared with a float is compared in float64 (Python compares them exactly; torch would round the
  int64 to float32: `16777217 == 16777216.0` was True);
- a division by zero (`/`, `//`, `%`) and 0 to a negative power, where Python raises ZeroDivisionError, a
  negative float to a fractional power (a complex number in Python), a float power past the float's range
  (OverflowError in Python) and an int to a negative power of a tensor (a float in Python, 0 in torch) fail
  when the program runs, at the user's line (`torch._assert_async`); `n ** -1` with the exponent written in
  the program is Python's float.
"""
from __future__ import annotations

import torch

from autograph.backends import torch_aliasing as aliasing
from autograph.errors import at_user_line
from autograph.operators import side_effects

_INT_OPS = frozenset({   # ops (by name) in which Python computes with a bool as the int it is
    "add", "__add__", "__radd__", "sub", "__sub__", "__rsub__", "rsub", "mul", "__mul__", "__rmul__", "div",
    "true_divide", "__truediv__", "__rtruediv__", "__rdiv__", "floor_divide", "__floordiv__", "__rfloordiv__",
    "remainder", "__mod__", "__rmod__", "pow", "__pow__", "__rpow__", "neg", "negative", "__neg__", "abs", "__abs__",
    "absolute", "positive", "__pos__", "__invert__", "bitwise_not", "maximum", "minimum", "__lshift__", "__rlshift__",
    "__rshift__", "__rrshift__", "bitwise_left_shift", "bitwise_right_shift"})
_BITWISE = frozenset({"__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__", "bitwise_and",
                      "bitwise_or", "bitwise_xor"})   # two bools give a bool; a bool and an int an int
_COMPARISONS = frozenset({"eq", "__eq__", "ne", "__ne__", "lt", "__lt__", "le", "__le__", "gt", "__gt__", "ge",
                          "__ge__"})
_DIVISIONS = frozenset({"div", "true_divide", "__truediv__", "floor_divide", "__floordiv__", "remainder", "__mod__",
                        "__rtruediv__", "__rdiv__", "__rfloordiv__", "__rmod__"})
_POWERS = frozenset({"pow", "__pow__", "__rpow__"})


def python_operands(name: str, args: tuple, kwargs: dict) -> tuple:
    """`args` of the op called `name` as Python computes with them (the module's docstring)."""
    if name not in _INT_OPS and name not in _BITWISE and name not in _COMPARISONS:
        return args
    given = aliasing.tensors((args, kwargs))
    if not given or kwargs or len(args) > 2 or not all(aliasing.is_number(t) for t in given):
        return args
    if name in _COMPARISONS:
        return _exactly_compared(args)
    if any(t.dtype is torch.bool for t in given) and not (name in _BITWISE and all(_is_bool(v) for v in args)):
        args = tuple(_as(v, torch.int64) if _is_bool(v) and isinstance(v, torch.Tensor) else v for v in args)
    if name in _POWERS:
        return _power(name, args)
    if name in _DIVISIONS and len(args) == 2:
        x, y = _operands(name, args)
        # (a divisor written in the program: a condition on the data all the same, which export would otherwise
        # check in a branch that does not run)
        divisor = y if isinstance(y, torch.Tensor) else torch.where(x == x, y, y)
        _fail_where(divisor == 0, f"ZeroDivisionError: the divisor is zero: {_CARRIED} division would give inf, "
                    "nan or an arbitrary integer where Python raises ZeroDivisionError. Check the value before "
                    "dividing.")
    return args


def _is_bool(v) -> bool:
    return v.dtype is torch.bool if isinstance(v, torch.Tensor) else v.__class__ is bool


def _is_float(v) -> bool:
    return v.dtype.is_floating_point if isinstance(v, torch.Tensor) else v.__class__ is float


def _is_int(v) -> bool:
    return (not v.dtype.is_floating_point and not v.dtype.is_complex and v.dtype is not torch.bool
            if isinstance(v, torch.Tensor) else v.__class__ is int)


def _as(t: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """`t` as `dtype`, standing for a number as `t` does."""
    out = t.to(dtype)
    aliasing.register_number(out)
    return out


def _operands(name: str, args: tuple) -> tuple:
    """(left, right) of the binary op `name` as Python's expression has them (`__rtruediv__(s, 10)` is `10 / s`)."""
    return (args[1], args[0]) if name.startswith("__r") else (args[0], args[1])


def _exactly_compared(args: tuple) -> tuple:
    """An int beside a float, compared in float64 (torch would round an int64 to float32)."""
    if len(args) == 2 and (_is_int(args[0]) and _is_float(args[1]) or _is_float(args[0]) and _is_int(args[1])):
        return tuple(_as(v, torch.float64) if isinstance(v, torch.Tensor) else v for v in args)
    return args


def _power(name: str, args: tuple) -> tuple:
    """`x ** y` among numbers: Python's float for an int to a negative int written in the program; an error
    where Python raises or gives a complex number or a float where torch gives an int."""
    if len(args) != 2:
        return args
    x, y = _operands(name, args)
    if _is_int(x) and y.__class__ is int and y < 0:      # `n ** -1`: a float in Python, 0 (or an error) in torch
        x = _as(x, torch.get_default_dtype()) if isinstance(x, torch.Tensor) else float(x)
        args = (y, x) if name.startswith("__r") else (x, y)
    base, exponent = torch.as_tensor(x), torch.as_tensor(y)
    _fail_where((base == 0) & (exponent < 0), f"ZeroDivisionError: 0 is raised to a negative power: {_CARRIED} "
                "power would give inf where Python raises ZeroDivisionError. Check the value first.")
    if _is_int(x) and _is_int(y):
        _fail_where(exponent < 0, f"an int is raised to a negative power: {_CARRIED} power would give an int (0) "
                    "where Python's is a float. Make the base a float (`2.0 ** -n`).")
    elif base.dtype.is_floating_point or exponent.dtype.is_floating_point:
        _fail_where((base < 0) & (exponent != torch.floor(exponent)) & torch.isfinite(exponent),
                    f"a negative number is raised to a fractional power: {_CARRIED} power would give nan where "
                    "Python gives a complex number. Check the base first.")
        _fail_where(torch.isinf(torch.pow(base, exponent)) & torch.isfinite(base) & torch.isfinite(exponent)
                    & (base != 0), f"OverflowError: the power is past the float's range: {_CARRIED} power would "
                    "give inf where Python raises OverflowError (a float32 holds less than Python's float: start "
                    "the number as a torch.float64 tensor).")
    return args


_CARRIED = "a Python number that a staged `if` or loop carries is a 0-d tensor, whose"


def _fail_where(fails, message: str) -> None:
    """A run-time error at the user's line, `message`, where the 0-d bool `fails` holds. Where tracing knows it
    holds (a divisor that is the constant 0), the check fails now: outside staged statements, as Python's
    division would; inside a branch or loop body, which may not run, the value is torch's (inf, nan)."""
    if not isinstance(fails, torch.Tensor) or fails.dim() != 0:
        return
    try:
        torch._assert_async(torch.logical_not(fails), at_user_line(message))
    except RuntimeError:
        if not side_effects.inside_staged():
            raise
