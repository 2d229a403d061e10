"""Python operators on tensors (`+`, `@`, `<`, `[]` ...), installed on `Tensor`
and `Variable`.

Each operator is the matching public op, so eager execution and tracing both
go through the op registry. `==` and `!=` compare elementwise, as in
TensorFlow 2 (shapes that can't broadcast are unequal), so tensors hash by
identity.
"""
from __future__ import annotations

import math

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError, user_location
from runtime.ops import bitwise_ops, indexing, math_ops, python_ints, sort_ops
from runtime.ops.python_operands import beside_containers, bitwise_operands, checked_int, unary
from runtime.ops.registry import broadcast_shapes
from runtime.shape import TensorShape
from runtime.tensor import SymbolicTensor, Tensor, constant


def _swap(fn):
    return lambda x, y: fn(y, x)


def _logical(logical_fn, bitwise_fn):
    """`&`, `|` or `^`: the logical op on bools, the bitwise op on integers (as TensorFlow's)."""
    def operator(x, y):
        if (ints := bitwise_operands(x, y)) is not None:   # a carried Python bool beside an int is an int
            return bitwise_fn(*ints)
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
        raise _not_defined("pow(x, y, modulo)", "(x ** y) % modulo computes it where `x ** y` fits the dtype", x)
    return math_ops.pow(x, y)


def _round(x, ndigits=None):
    """`round(x)`: an integer tensor is its own round to any number of digits >= 0, as a Python int is; a float
    that a staged statement carries as a Python float is rounded half to even to a Python int (int32, checked);
    another float is refused, for Python's gives an int (and rounds `ndigits` digits in decimal)."""
    if x.dtype.is_integer and (ndigits is None or ndigits >= 0):
        return x
    if ndigits is None and isinstance(x, SymbolicTensor) and python_ints.kind_of(x) == "float":
        out = checked_int(math_ops.round(x), "round()")
        python_ints.mark(out.op.graph, out, python_ints.name_of(x), "int")
        return out
    raise _not_defined("round()", "runtime.round(x) rounds half to even, as Python's round does, but keeps the "
                       "float dtype: runtime.cast(runtime.round(x), runtime.int32) for an int", x)


def _whole(name: str, rounding, python):
    """`math.floor(x)`, `math.ceil(x)`, `math.trunc(x)`: of a Python number a staged statement carries, the Python
    int (int32, checked where the float is outside it); of another tensor, Python's on its value (`float(x)`,
    which a symbolic tensor refuses at the user's line, as before)."""
    def method(x):
        if isinstance(x, SymbolicTensor) and python_ints.kind_of(x) in ("int", "float", "bool"):
            out = checked_int(rounding(x) if x.dtype.is_floating else x, f"math.{name}()")
            python_ints.mark(out.op.graph, out, python_ints.name_of(x), "int")
            return out
        return python(float(x))
    method.__name__ = f"__{name}__"
    return method


def _divmod(x, y):
    """`divmod(x, y)`: `(x // y, x % y)`, Python's definition."""
    return math_ops.floordiv(x, y), math_ops.floormod(x, y)


def _getitem(x, key):
    """`x[key]`; of a scalar that stands for a Python value a staged statement carries, Python's TypeError (`k[0]`
    of an int), or refused (`s[0]` of a str: its characters are known only when the graph runs)."""
    if isinstance(x, SymbolicTensor) and x.shape.rank == 0:
        x.python_type_error("'{kind}' object is not subscriptable")
        x.refuse_python("Indexing", "Python indexes the str's characters, which the graph knows only when it runs "
                        "(runtime.strings.substr takes them in the graph).")
    return indexing.getitem(x, key)


def _refused(symbol: str, instead: str):
    def method(x, *args):
        raise _not_defined(symbol, instead, x)
    method.__name__ = f"refused {symbol}"
    return method


def _not_defined(symbol: str, instead: str, tensor) -> TypeError:
    """The error of a Python operator or builtin a tensor does not define (nor does TensorFlow's): at the user's
    line, saying what to write instead. A Python int that a staged `if` or loop carried is a tensor too: of such
    a `tensor`, refused instead (Python answers; the program's `except TypeError:` must not take it)."""
    if isinstance(tensor, SymbolicTensor):
        tensor.refuse_python(f"Using `{symbol}` on", f"Python computes `{symbol}` of the value, which the graph "
                             f"knows only when it runs. {instead}.")

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
    "__floor__": _whole("floor", math_ops.floor, math.floor), "__ceil__": _whole("ceil", math_ops.ceil, math.ceil),
    "__trunc__": _whole("trunc", lambda x: x, math.trunc),   # (int32 truncates toward zero)
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
    "__neg__": unary(math_ops.negative), "__abs__": unary(math_ops.abs), "__invert__": unary(_invert),
    "__pos__": unary(lambda x: x),   # (a Python bool a staged statement carries is an int there: -True is -1)
    "__getitem__": _getitem,
}


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
OPERATORS.update({name: beside_containers(name, OPERATORS[name])
                  for name in (*_REFLECTED, *_REFLECTED.values(), "__eq__", "__ne__")})


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
