"""Python operators on tensors (`+`, `@`, `<`, `[]` ...), installed on `Tensor`
and `Variable`.

Each operator is the matching public op, so eager execution and tracing both
go through the op registry. `==` and `!=` compare elementwise, as in
TensorFlow 2 (shapes that can't broadcast are unequal), so tensors hash by
identity.
"""
from __future__ import annotations

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError, user_location
from runtime.ops import bitwise_ops, indexing, math_ops, python_ints, sort_ops
from runtime.ops.registry import broadcast_shapes, context
from runtime.shape import TensorShape
from runtime.tensor import SymbolicTensor, Tensor, constant


def _swap(fn):
    return lambda x, y: fn(y, x)


def _logical(logical_fn, bitwise_fn):
    """`&`, `|` or `^`: the logical op on bools, the bitwise op on integers (as TensorFlow's)."""
    def operator(x, y):
        kinds = [getattr(v, "dtype", None) for v in (x, y)]
        if dtypes.bool in kinds:
            return logical_fn(x, y)
        if any(k is not None and k.is_integer for k in kinds):
            return bitwise_fn(x, y)
        raise InvalidArgumentError("&, | and ^ are defined on bool and integer tensors; compare first (x > 0).")
    return operator


def _invert(x):
    if x.dtype is dtypes.bool:
        return math_ops.logical_not(x)
    if x.dtype.is_integer:
        return bitwise_ops.invert(x)
    raise InvalidArgumentError("~ is defined on bool and integer tensors; use runtime.logical_not on a comparison.")


def _unless_none(compare, unequal: bool):
    """`==` (unequal=False) or `!=`: elementwise; but with None Python's answer (a tensor is not None), and of
    shapes that can't broadcast the scalar `unequal` (TensorFlow's `==` passes incompatible_shape_error=False;
    `runtime.equal` raises)."""
    def method(x, y):
        if y is None:
            return NotImplemented   # Python's answer then: a tensor is not None (TensorFlow's too)
        if not _broadcastable(x, y):
            return constant(unequal)
        return compare(x, y)
    method.__name__ = compare.__name__
    return method


def _broadcastable(x, y) -> bool:
    y_shape = y.shape if isinstance(y, (Tensor, np.ndarray)) else np.shape(y)
    try:
        broadcast_shapes(x.shape, TensorShape(y_shape), "Equal")
    except InvalidArgumentError:
        return False
    return True


def _pow(x, y, modulo=None):
    """`x ** y`; `pow(x, y, modulo)` is refused (math_ops.pow would take `modulo` for its name)."""
    if modulo is not None:
        raise _not_defined("pow(x, y, modulo)", "(x ** y) % modulo computes it where `x ** y` fits the dtype")
    return math_ops.pow(x, y)


def _round(x, ndigits=None):
    """`round(x)`: an integer tensor is its own round to any number of digits >= 0, as a Python int is; a float
    is refused, for Python's gives an int (and rounds `ndigits` digits in decimal)."""
    if x.dtype.is_integer and (ndigits is None or ndigits >= 0):
        return x
    raise _not_defined("round()", "runtime.round(x) rounds half to even, as Python's round does, but keeps the "
                       "float dtype: runtime.cast(runtime.round(x), runtime.int32) for an int")


def _divmod(x, y):
    """`divmod(x, y)`: `(x // y, x % y)`, Python's definition."""
    return math_ops.floordiv(x, y), math_ops.floormod(x, y)


def _refused(symbol: str, instead: str):
    def method(x, *args):
        raise _not_defined(symbol, instead)
    method.__name__ = f"refused {symbol}"
    return method


def _not_defined(symbol: str, instead: str) -> TypeError:
    """The error of a Python operator or builtin a tensor does not define (nor does TensorFlow's): at the user's
    line, saying what to write instead. A Python int that a staged `if` or loop carried is a tensor too."""

    return TypeError(f"{user_location()}: `{symbol}` is not defined on tensors (nor in TensorFlow); one operand "
                     f"is a tensor (a Python number a staged `if` or loop carries is one too). {instead}.")


OPERATORS = {
    "__add__": math_ops.add, "__radd__": _swap(math_ops.add),
    "__sub__": math_ops.subtract, "__rsub__": _swap(math_ops.subtract),
    "__mul__": math_ops.multiply, "__rmul__": _swap(math_ops.multiply),
    "__truediv__": math_ops.truediv, "__rtruediv__": _swap(math_ops.truediv),
    "__floordiv__": math_ops.floordiv, "__rfloordiv__": _swap(math_ops.floordiv),
    "__mod__": math_ops.floormod, "__rmod__": _swap(math_ops.floormod),
    "__pow__": _pow, "__rpow__": _swap(math_ops.pow),
    "__divmod__": _divmod, "__rdivmod__": _swap(_divmod), "__round__": _round,
    "__lshift__": _refused("<<", "Use runtime.bitwise.left_shift(x, n)"),
    "__rlshift__": _refused("<<", "Use runtime.bitwise.left_shift(x, n)"),
    "__rshift__": _refused(">>", "Use runtime.bitwise.right_shift(x, n)"),
    "__rrshift__": _refused(">>", "Use runtime.bitwise.right_shift(x, n)"),
    "__matmul__": sort_ops.matmul, "__rmatmul__": _swap(sort_ops.matmul),
    "__lt__": math_ops.less, "__le__": math_ops.less_equal,
    "__gt__": math_ops.greater, "__ge__": math_ops.greater_equal,
    "__eq__": _unless_none(math_ops.equal, False), "__ne__": _unless_none(math_ops.not_equal, True),
    "__and__": _logical(math_ops.logical_and, bitwise_ops.bitwise_and),
    "__rand__": _swap(_logical(math_ops.logical_and, bitwise_ops.bitwise_and)),
    "__or__": _logical(math_ops.logical_or, bitwise_ops.bitwise_or),
    "__ror__": _swap(_logical(math_ops.logical_or, bitwise_ops.bitwise_or)),
    "__xor__": _logical(math_ops.logical_xor, bitwise_ops.bitwise_xor),
    "__rxor__": _swap(_logical(math_ops.logical_xor, bitwise_ops.bitwise_xor)),
    "__neg__": math_ops.negative, "__abs__": math_ops.abs, "__invert__": _invert,
    "__pos__": lambda x: x,
    "__getitem__": indexing.getitem,
}


def _carried_bool(value) -> bool:
    """A Python bool that a staged `if` or loop carries: a bool tensor marked by ops/python_ints.py."""
    return value.__class__ is SymbolicTensor and value.dtype is dtypes.bool and python_ints.kind_of(value) == "bool"


def _as_int(value):
    """A carried Python bool as the int Python counts it as (True is 1), a Python int of the graph; else `value`."""
    if not _carried_bool(value):
        return value
    out = math_ops.cast(value, dtypes.int32)
    python_ints.mark(context.graph, out, python_ints.name_of(value), "int")
    return out


def _is_bool(value) -> bool:
    return value.__class__ is bool or getattr(value, "dtype", None) is dtypes.bool


def _counts_alone(x, y, logical: bool) -> bool:
    """Whether the bool operand of `x` and `y` stays a bool: beside another bool in a `logical` operator (Python's
    answer is a bool), and beside a tensor of the program's (as a Python bool, which the op refuses beside a
    number tensor, as TensorFlow does)."""
    return logical and _is_bool(x) and _is_bool(y) or any(
        isinstance(v, Tensor) and not (v.__class__ is SymbolicTensor and python_ints.kind_of(v)) for v in (x, y))


def _counting_bools(fn, logical: bool = False):
    """`fn`, where a Python bool a staged statement carries (`b = True` in a branch) meets it as Python's bool
    does: as the int it counts as (`b * 1.5` is 1.5, `-b` is -1, `b < 0.5`), where the bool tensor's op would
    refuse bools."""
    def method(x, *rest):
        if (_carried_bool(x) or rest and _carried_bool(rest[0])) and not (rest and _counts_alone(x, rest[0], logical)):
            x, rest = _as_int(x), (_as_int(rest[0]), *rest[1:]) if rest else ()
        return fn(x, *rest)
    method.__name__ = getattr(fn, "__name__", "operator")
    return method


_LOGICAL = ("__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__", "__eq__", "__ne__")
OPERATORS.update({name: _counting_bools(fn, name in _LOGICAL) for name, fn in OPERATORS.items()
                  if name != "__getitem__"})


_REFLECTED = {"__add__": "__radd__", "__sub__": "__rsub__", "__mul__": "__rmul__", "__truediv__": "__rtruediv__",
              "__floordiv__": "__rfloordiv__", "__mod__": "__rmod__", "__pow__": "__rpow__",
              "__matmul__": "__rmatmul__", "__divmod__": "__rdivmod__", "__and__": "__rand__", "__or__": "__ror__",
              "__xor__": "__rxor__", "__lt__": "__gt__", "__le__": "__ge__", "__gt__": "__lt__", "__ge__": "__le__"}


def _or_reflected(fn, reflected: str):
    """A binary operator that gives NotImplemented where the other operand is an object of the user's that can't
    become a tensor and has the reflected method, so that Python asks it (`x + v` runs `v.__radd__(x)`), as
    TensorFlow's operators do and as Python's ints do."""
    def method(x, y, *args):
        try:
            return fn(x, y, *args)
        except TypeError:
            if isinstance(y, (Tensor, np.ndarray, np.generic)) or type(y).__module__ == "builtins" or not hasattr(
                    type(y), reflected):
                raise
            return NotImplemented
    method.__name__ = getattr(fn, "__name__", "operator")
    return method


OPERATORS.update({name: _or_reflected(OPERATORS[name], reflected) for name, reflected in _REFLECTED.items()})


def install(cls: type, convert=None) -> None:
    """Define the Python operators on `cls`; `convert(self)` gives the tensor to use."""
    for name, fn in OPERATORS.items():
        if convert is None:
            setattr(cls, name, fn)
        else:
            setattr(cls, name, _converting(fn, convert))


def _converting(fn, convert):
    def method(self, *args):
        return fn(convert(self), *args)
    method.__name__ = getattr(fn, "__name__", "operator")
    return method


install(Tensor)
