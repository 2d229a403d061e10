"""Python ints in a graph: int32 tensors whose arithmetic raises instead of wrapping around; and Python floats,
float32 tensors whose division by zero (and power past the float's range) raises as Python's does.

A Python int has no dtype and never overflows. When a staged loop carries one that nothing in the loop gives
a dtype (`s = 1; while i < n: s = s * 3`), autograph carries it as int32, the dtype `runtime.constant` gives a
Python int (so it agrees with the program's other int32 tensors, in a `Cond` or a loop), and marks the loop's
placeholder for it as a *Python int* of the graph being built (`mark`). While a graph holds Python ints,
`Graph.add_op` asks this module about every op it records:

- `exact`: an op that can overflow (`CHECKED`) on int32 inputs that are all Python ints or constants, with at
  least one Python int, is recorded as `ExactInt32` instead: the same arithmetic, computed exactly, and a
  run-time error naming the variable if the result does not fit int32 (where eager Python gives the exact
  int, a graph would wrap around); `RealDiv` (`s / d`, a float64) is checked for a zero divisor, where Python
  raises ZeroDivisionError and the graph would give inf;
- `propagate`: the output of such an op is a Python int, as is the output of an op that cannot overflow and
  keeps the dtype (`KEPT`) on such inputs, a `Cond` output that both branches give as Python ints (or
  constants; an autograph variable that both give as Python `int`s is one: control_flow.py), and a `While`
  output whose initial value is one;
- `Graph.capture` marks the capture of a Python int into a nested graph (a branch, a loop body).

A Python float a staged statement carries (a float32, as `runtime.constant` gives it) is marked the same way
(`mark`); its division by zero (`s / 0.0`, `s // 0.0`, `s % 0.0`, `0.0 ** -1`), where Python raises
ZeroDivisionError and a float gives inf or nan, and a power past the float's range (`2.0 ** 1024`, OverflowError in
Python), are recorded as `PythonFloat`: the same arithmetic (but `//`, Python's: `1.0 // 0.1` is 9.0) and a
run-time error naming the variable.

Each mark also says which Python type the tensor holds (`kind_of`): "int", "float", "bool" (a Python bool a `Cond`
or `While` carries, a comparison of Python ints), or INT_OR_FLOAT, a variable that is an int on some paths and a
float on others, carried as a float. The text of a marked tensor (`str`, f-strings, `%`: runtime/backend.py
`_format_string`) is the Python value's, and autograph's `isinstance` and `type` ask for the Python type (the
backend's `python_type`); both refuse INT_OR_FLOAT where the int's answer is not the float's.

The executor writes the 0-d case inline (runtime/executor/codegen.py): the value stays a Python int in the
generated code, computed with `PYTHON_INT_FORMS` and range-checked on the next line, and becomes a NumPy int32
where something else reads it. Under `jit_compile=True` the op lowers to its int32 JAX arithmetic and a check
that finds the overflow without a wider type (runtime/lowering/jax_checks.py `_INT32_FAILS`); the check's error is
this kernel's, raised after the compiled call. ONNX export wraps at int32 (ONNX has no run-time error).
"""
from __future__ import annotations

import operator

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError, user_location
from runtime.ops.registry import Spec, defop

_EXACT = {   # op name -> the arithmetic on int64 NumPy arrays (exact for int32 operands, but Pow: Python ints)
    "AddV2": np.add, "Sub": np.subtract, "Mul": np.multiply, "Neg": np.negative, "Abs": np.abs,
    "Square": np.square, "FloorDiv": np.floor_divide,
    "Pow": lambda x, y: np.power(x.astype(object), y.astype(object)),
    "RealDiv": np.true_divide,   # a float64: never out of range, but a Python int divided by zero raises
}
_SCALAR = {  # the same on Python ints (to check) and on the NumPy int32 scalars (the result): the common case,
    "AddV2": (operator.add, operator.add), "Sub": (operator.sub, operator.sub),   # 0-d values are NumPy
    "Mul": (operator.mul, operator.mul), "Neg": (operator.neg, operator.neg),     # scalars in the executor
    "Abs": (abs, abs), "Square": (lambda x: x * x, np.square), "FloorDiv": (operator.floordiv, operator.floordiv),
    "Pow": (lambda x, y: _power(x, y), operator.pow), "RealDiv": (operator.truediv, np.true_divide),
}
CHECKED = frozenset(_EXACT)
KEPT = frozenset({"FloorMod", "Maximum", "Minimum", "Identity", "Sign", "BitwiseAnd", "BitwiseOr", "BitwiseXor",
                  "Invert"})
_FLOATS = (dtypes.float32, dtypes.float64)
FLOAT_CHECKED = frozenset({"RealDiv", "FloorDiv", "FloorMod", "Pow"})   # Python raises ZeroDivisionError
FLOAT_KEPT = frozenset({"AddV2", "Sub", "Mul", "Neg", "Abs", "Square", "Maximum", "Minimum", "Identity", "Sign",
                        "Floor", "Ceil"})
BOOLS = frozenset({"Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual", "LogicalNot", "LogicalAnd",
                   "LogicalOr"})   # of Python numbers and bools: a Python bool
INT32_RANGE = (-2 ** 31, 2 ** 31 - 1)


def _exact_int32(x, y=None, *, arithmetic: str, variable: str, where: str):
    """`arithmetic` on the int32 `x` (and `y`), computed exactly: an error naming the variable if it doesn't fit int32."""
    if arithmetic == "RealDiv" and np.any(np.asarray(y) == 0):
        raise InvalidArgumentError(
            f"{where}: '{variable}' started as a Python int, which a staged `if` or loop on tensors carries as "
            "int32, and here it is divided by the int zero, where Python raises ZeroDivisionError (the graph's "
            "division would give inf or nan). Check the divisor before dividing.", "RealDiv")
    if arithmetic in _DOMAIN:
        _check_domain(arithmetic, y)
    if x.__class__ is _INT32 and (y is None or y.__class__ is _INT32):   # 0-d: Python int arithmetic, fast
        exact, fast = _SCALAR[arithmetic]
        if y is None:
            if -2147483648 <= exact(int(x)) <= 2147483647:
                return fast(x)
            raise overflow(exact(int(x)), variable, where)
        if -2147483648 <= exact(int(x), int(y)) <= 2147483647:
            return fast(x, y)
        raise overflow(exact(int(x), int(y)), variable, where)
    values = (x,) if y is None else (x, y)
    exact = np.asarray(_EXACT[arithmetic](*(np.asarray(v, np.int64) for v in values)))
    outside = (exact < INT32_RANGE[0]) | (exact > INT32_RANGE[1])
    if outside.any():
        raise overflow(exact.flat[int(np.argmax(outside))], variable, where)
    out = exact if exact.dtype.kind == "f" else exact.astype(np.int32)   # RealDiv's float64 is kept
    return out[()] if out.ndim == 0 else out


_INT32 = np.int32
_DOMAIN = frozenset({"FloorDiv", "Pow"})


def _check_domain(op: str, y) -> None:
    """The errors the int32 kernels raise: integer division by zero, negative integer powers."""
    if op == "FloorDiv" and np.any(np.asarray(y) == 0):
        raise InvalidArgumentError(_DIVISION_BY_ZERO, op)
    if op == "Pow" and np.any(np.asarray(y) < 0):
        raise InvalidArgumentError(_NEGATIVE_POWER, op)


_DIVISION_BY_ZERO = "FloorDiv: integer division by zero."
_NEGATIVE_POWER = "Pow: integers to negative integer powers are not allowed; cast to float."


def _power(x: int, y: int) -> int:
    """x ** y, or a value just past int32 on its side when that is all the check needs to know (no huge Python
    ints): |x| >= 2 and y >= 32 give at least 2 ** 32 in magnitude, negative if x is and y is odd."""
    if abs(x) < 2 or y < 32:
        return x ** y
    return INT32_RANGE[0] - 1 if x < 0 and y % 2 else INT32_RANGE[1] + 1


def _floordiv(x: int, y: int) -> int:
    if y == 0:
        raise InvalidArgumentError(_DIVISION_BY_ZERO, "FloorDiv")
    return x // y


def _pow(x: int, y: int) -> int:
    if y < 0:
        raise InvalidArgumentError(_NEGATIVE_POWER, "Pow")
    return _power(x, y)


PYTHON_INT_FORMS = {   # op -> the same arithmetic on 0-d Python ints, for the executor: an expression, or a function
    "AddV2": "{} + {}", "Sub": "{} - {}", "Mul": "{} * {}", "Neg": "-{}", "Abs": "abs({})", "Square": "{0} * {0}",
    "FloorDiv": _floordiv, "Pow": _pow,
}


def overflow(value, name: str, where: str) -> InvalidArgumentError:
    """The error for `value`, which the Python int variable `name` reached at `where` and int32 cannot hold."""
    return InvalidArgumentError(
        f"{where}: '{name}' started as a Python int, which a staged `if` or loop on tensors carries as int32 "
        f"(the dtype of a Python int in runtime); here it reaches {value}, which int32 cannot hold (Python "
        f"ints never overflow; the graph's int32 would wrap around). Start '{name}' as "
        f"runtime.constant(..., runtime.int64) to carry 64 bits.", "ExactInt32")


def _complex_power(x, y):
    """Where Python's `x ** y` of floats is a complex number (a negative number to a finite fractional power)."""
    return (x < 0) & (y % 1 != 0) & (abs(y) < float("inf"))


def _power_overflows(x, y, r):
    """Where Python's `x ** y` of finite floats raises OverflowError: its result is past the float's range."""
    return (abs(r) == float("inf")) & (abs(x) < float("inf")) & (abs(y) < float("inf"))


FLOAT_FAILS = {   # op -> where Python's float arithmetic is not a float (x, y, the result r: NumPy or JAX arrays)
    "RealDiv": lambda x, y, r: y == 0, "FloorDiv": lambda x, y, r: y == 0, "FloorMod": lambda x, y, r: y == 0,
    "Pow": lambda x, y, r: (x == 0) & (y < 0) | _complex_power(x, y) | _power_overflows(x, y, r),
}


# Python's float `//` is the quotient of divmod (`1.0 // 0.1` is 9.0), where TensorFlow's FloorDiv is floor(x / y)
# (10.0): NumPy's floor_divide is Python's.
PYTHON_FLOAT_KERNELS = {"FloorDiv": np.floor_divide}


def _python_float(x, y, *, arithmetic: str, variable: str, where: str):
    """`arithmetic` on the float `x` and `y`, one of them a Python float: an error where Python's raises."""
    from runtime.ops.registry import OPS

    with np.errstate(all="ignore"):
        result = PYTHON_FLOAT_KERNELS.get(arithmetic, OPS[arithmetic].kernel)(x, y)
    x, y = np.asarray(x), np.asarray(y)
    if np.any(FLOAT_FAILS[arithmetic](x, y, np.asarray(result))):
        if arithmetic == "Pow" and np.any(_complex_power(x, y)):
            raise InvalidArgumentError(
                f"{where}: '{variable}' started as a Python number, which a staged `if` or loop on tensors carries "
                "as a tensor, and here a negative number is raised to a fractional power, where Python gives a "
                "complex number (the graph's float power would give nan). Check the base first.", "PythonFloat")
        if arithmetic == "Pow" and not np.any((x == 0) & (y < 0)):
            raise _power_overflow(np.asarray(result).dtype, variable, where)
        raise float_by_zero(arithmetic, variable, where)
    return result


def _power_overflow(dtype, variable: str, where: str) -> InvalidArgumentError:
    if dtype == np.float64:
        what, instead = "a double's range, where Python raises OverflowError", ""
    else:   # a Python float carried as a float32: Python's double may hold the power
        what = (f"{dtype}'s range (the dtype of a Python float in runtime; Python's float, a double, holds powers up to "
                "1.8e308 and raises OverflowError past that)")
        instead = f", or start '{variable}' as runtime.constant(..., runtime.float64)"
    return InvalidArgumentError(
        f"{where}: '{variable}' started as a Python number, which a staged `if` or loop on tensors carries as a "
        f"tensor, and here a power is past {what}: the graph's power would give inf. Check the operands "
        f"first{instead}.", "PythonFloat")


def float_by_zero(arithmetic: str, variable: str, where: str) -> InvalidArgumentError:
    what = "0.0 is raised to a negative power" if arithmetic == "Pow" else "the divisor is zero"
    return InvalidArgumentError(
        f"{where}: '{variable}' started as a Python number, which a staged `if` or loop on tensors carries as a "
        f"tensor, and here {what}, where Python raises ZeroDivisionError (the graph's float division would give "
        "inf or nan). Check the value before dividing.", "PythonFloat")


def _infer(*values, arithmetic: str, **_) -> Spec:
    from runtime.ops.registry import OPS

    return OPS[arithmetic].infer(*values)


EXACT_INT32 = defop("ExactInt32", _exact_int32, _infer,
                    doc="The int32 arithmetic named by `arithmetic` computed exactly: an error instead of wrapping around.")
PYTHON_FLOAT = defop("PythonFloat", _python_float, _infer,
                     doc="The float division or power named by `arithmetic` of a Python float: an error where Python raises "
                         "ZeroDivisionError or OverflowError, instead of inf or nan.")


# What Python type a marked tensor holds, for its text (`str(s)`): the dtype's, or INT_OR_FLOAT for a variable
# that is an int on some paths and a float on others, which a staged statement carries as a float
# (`y = 1` / `y = 2.5`), whose text (`1` or `1.0`) the graph can't give.
_KINDS = {dtypes.int32: "int", dtypes.float32: "float", dtypes.float64: "float", dtypes.bool: "bool", dtypes.string: "str"}
INT_OR_FLOAT = "int or float"


def mark(graph, t, name: str, kind: str = "") -> None:
    """`t`, a tensor of `graph`, holds the Python int (an int32), float (a float32, or the float64 of a Python
    int's `/` or `float()`), bool or str variable `name`; `kind` INT_OR_FLOAT for a float that is an int on some
    paths."""
    if t.dtype in _KINDS:
        graph.python_ints[id(t)] = (t, name, kind or _KINDS[t.dtype])


def name_of(t):
    """The variable whose Python int (or float, a float32 `t`, or bool) `t` holds, or None."""
    found = t.op.graph.python_ints.get(id(t))
    return found[1] if found is not None else None


def kind_of(t) -> str:
    """The Python type `t` holds ("int", "float", "bool", or INT_OR_FLOAT), or "" for a tensor of the program's."""
    found = t.op.graph.python_ints.get(id(t))
    return found[2] if found is not None else ""


def copy_mark(graph, source, t) -> None:
    """Mark `t`, a tensor of `graph`, as `source` (of its own graph) is marked."""
    op = getattr(source, "op", None)    # an eager tensor has no graph
    found = op.graph.python_ints.get(id(source)) if op is not None else None
    if found is not None:
        mark(graph, t, found[1], found[2])


def exact(graph, op, inputs: tuple, attrs: dict):
    """(op, attrs) to record for `op` on `inputs` in `graph`: ExactInt32 for arithmetic on Python ints,
    PythonFloat for a division of Python floats."""
    if inputs and inputs[0].dtype in _FLOATS and op.name in FLOAT_CHECKED:
        checked = PYTHON_FLOAT
    elif op.name in CHECKED and inputs[0].dtype is dtypes.int32:
        checked = EXACT_INT32
    else:
        return op, attrs
    name = _python_int_inputs(graph, inputs)
    if name is None:
        return op, attrs

    return checked, dict(arithmetic=op.name, variable=name, where=user_location())


def _python_int_inputs(graph, inputs: tuple):
    """The variable name if `inputs` are Python ints or constants, at least one a Python int; else None."""
    name = None
    for t in inputs:
        found = graph.python_ints.get(id(t))
        if found is not None:
            name = name or found[1]
        elif t.op.type != "Const":
            return None
    return name


def propagate(graph, op, inputs: tuple, outputs: list, attrs: dict) -> None:
    """Mark the outputs of an op just recorded that hold Python ints."""
    if op is EXACT_INT32 or op is PYTHON_FLOAT:
        mark(graph, outputs[0], attrs["variable"], _mixed(graph, inputs, attrs["arithmetic"]))
    elif (op.name in KEPT or op.name in FLOAT_KEPT and inputs[0].dtype in _FLOATS) and (
            name := _python_int_inputs(graph, inputs)) is not None:
        mark(graph, outputs[0], name, _mixed(graph, inputs, op.name))
    elif op.name == "AddV2" and inputs[0].dtype is dtypes.string and (name := _python_int_inputs(graph, inputs)):
        mark(graph, outputs[0], name, "str")   # `s + "x"` of a Python str is a Python str
    elif op.name in BOOLS and (name := _python_int_inputs(graph, inputs)) is not None:
        mark(graph, outputs[0], name, "bool")   # `i > 2` of a Python int is a Python bool
    elif op.name == "Cond":
        _mark_cond(graph, outputs, attrs)
    elif op.name == "While":
        body = attrs["body_graph"]
        for t, out, after in zip(inputs, outputs[:attrs["num_loop_vars"]], body.outputs):
            # a bool, where the body keeps it one (not `found = x > 3`); a number, where autograph's probe said so
            if (found := graph.python_ints.get(id(t))) is not None and (
                    found[2] not in ("bool", "str") or _output_name(body, after) is not None):
                mark(graph, out, found[1], found[2])


def _mixed(graph, inputs: tuple, arithmetic: str) -> str:
    """INT_OR_FLOAT if an input is (an int or a float: the result is too, but of `/`, a float), else ""."""
    if arithmetic == "RealDiv":
        return ""
    found = [graph.python_ints.get(id(t)) for t in inputs]
    return INT_OR_FLOAT if any(f is not None and f[2] == INT_OR_FLOAT for f in found) else ""


def _mark_cond(graph, outputs: list, attrs: dict) -> None:
    branches = attrs["then_graph"], attrs["else_graph"]
    for i, out in enumerate(outputs):
        names = [_output_name(g, g.outputs[i]) for g in branches]
        if None not in names and any(n != "" for n in names):
            kinds = {g.python_ints[id(g.outputs[i])][2] for g, n in zip(branches, names) if n}
            mark(graph, out, next(n for n in names if n), INT_OR_FLOAT if INT_OR_FLOAT in kinds else "")


def _output_name(graph, t):
    """The variable name if `t` (an output of `graph`) is a Python int, "" if it is a constant, else None."""
    found = graph.python_ints.get(id(t))
    if found is not None:
        return found[1]
    return "" if t.op.type == "Const" else None
