"""The ops that raise the program's error, lowered to JAX for `function(jit_compile=True)` (`to_jax.py` lowers
the rest).

XLA has no run-time error, so a check is functional state (`Checks`): the number of the first check that
failed on the path taken, and the values it reports. After it no effect happens and loops stop
(`Lowering.running`), and the call raises the check's error after the fact: its op's kernel, run on the
reported values (`Checks.fail`), so the message is the executor's.

Each kind of checked op is one `Check` in `CHECKS`: what it reports, how it lowers, and the kernel inputs that
raise its error:
- `CheckDefined` (a variable a staged statement may have left unassigned), `Raise` (a staged `raise`),
  `Assert`, `ExactInt32` (a Python int's arithmetic leaving int32, runtime/ops/python_ints.py), an integer
  `Pow` (a negative exponent), an integer `FloorDiv` or `FloorMod` (a zero divisor) and a `Range` with traced
  bounds (the wrong way for its step);
- a TensorArray's read, write, pop and stack (jax_lists.py): out of range, an element never written, or a
  write past the rows the lowering gave the list;
- index checks: a tensor index of `StridedSlice`, `GatherV2`, `GatherNd`, `ScatterNd` indices and a sparse
  cross-entropy's labels. XLA clamps an index out of range to the nearest item, where the executor raises.
  The shape they index is static, recorded while lowering (`Checks.shapes`), and inside a loop they report
  no value (`Checks.of`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import jax.numpy as jnp
import numpy as np
from jax import lax

from runtime.errors import InvalidArgumentError, LoweringError, OpError
from runtime.executor.codegen import kernel_error_made_at
from runtime.graph import made_at
from runtime.lowering import walk
from runtime.ops import python_ints
from runtime.lowering import jax_lists, jax_texts
from runtime.lowering.jax_check_base import Check, Length, Slot, failing
from runtime.lowering.jax_effects import Lowering
from runtime.lowering.jax_index_checks import GatherNd, GatherV2, ScatterNd, SparseCrossEntropy, StridedSlice
from runtime.lowering.to_jax import LOWERINGS, materialised


@dataclass
class Checks:
    """The graph's checks, numbered from 1 in `ops`; `code` holds the number of the first that failed, and
    `values[id(op)]` the values it reports."""

    ops: list
    code: Slot
    values: dict
    shapes: dict = field(default_factory=dict)   # id(op) -> the static shape an index check indexes (lowering)

    @classmethod
    def of(cls, graph) -> "Checks | None":
        ops = [op for op in walk(graph) if covers(op)]
        if not ops:
            return None
        looped = _loop_graphs(graph)
        values = {id(op): [] if op.graph in looped and CHECKS[op.type].index else
                  [_value_slot(op, t) for t in CHECKS[op.type].reported(op)] for op in ops}
        return cls(ops, Slot(np.int32, (), "failed check"), values)

    def slots(self) -> list:
        return [self.code, *[slot for op in self.ops for slot in self.values[id(op)]]]

    def lower(self, lowering: Lowering, op, inputs: list):
        return CHECKS[op.type].lower(lowering, op, *inputs)

    def fail(self, code: int, values: list):
        """Raise the error of check number `code` as the executor does: its op's kernel, on the values it reported
        (`values`: every check's value slots, in `slots()` order)."""
        op = self.ops[code - 1]
        check = CHECKS[op.type]
        if check.index and not self.values[id(op)]:
            raise _index_error_in_loop(op, self.shapes.get(id(op)))
        reported = iter(values[sum(len(self.values[id(other)]) for other in self.ops[:code - 1]):])
        args = [_as_executor_value(next(reported), t) for t in check.reported(op)]
        try:
            op.opdef.kernel(*check.kernel_inputs(op, args, self.shapes.get(id(op))), **op.attrs)
        except OpError as error:   # as the executor shows an assertion: where the op was made
            raise kernel_error_made_at(error, op) or error from None
        raise AssertionError(f"the kernel of {op.type} did not raise")   # pragma: no cover - kernels raise


def covers(op) -> bool:
    """Whether `op` is lowered as a check (a StridedSlice only with a tensor index that may be out of range)."""
    check = CHECKS.get(op.type)
    return check is not None and check.needed(op)


def _loop_graphs(graph) -> set:
    """The graphs that run once per iteration of a `While` (its condition and body, and what they nest)."""
    found: set = set()
    for op in walk(graph):
        if op.type == "While":
            for _, sub in op.subgraphs():
                found.add(sub)
                found.update(o.graph for o in walk(sub))
    return found


def _index_error_in_loop(op, shape) -> InvalidArgumentError:
    what = {"SparseSoftmaxCrossEntropyWithLogits": "a label"}.get(op.type, "an index")
    error = InvalidArgumentError(
        f"{op.type}: {what} is out of range{f' for shape {list(shape)}' if shape is not None else ''} (inside a loop "
        f"under jit_compile=True, which does not report its value; jit_compile=None names it)", op.type)
    return kernel_error_made_at(error, op) or error


def _value_slot(op, tensor) -> Slot:
    if not tensor.shape.is_fully_defined():
        raise LoweringError(
            f"jit_compile=True can't lower {op.type} '{op.name}': the value it reports ({tensor.dtype.name}, shape "
            f"{tensor.shape}) has no static shape.{made_at(op)}\nUse jit_compile=None for this function.", op.type)
    return Slot(tensor.dtype.as_numpy_dtype, tuple(tensor.shape.as_list()), f"{op.name} value")


def _as_executor_value(value, tensor):
    array = np.asarray(value).astype(tensor.dtype.as_numpy_dtype)
    return array[()] if array.ndim == 0 else array


# --- the checks ---------------------------------------------------------------------------------------

class _CheckDefined(Check):
    def reported(self, op) -> list:
        return []

    def lower(self, lowering: Lowering, op, value, defined):
        failing(lowering, op, jnp.logical_not(jnp.reshape(defined, ())), [])
        return value

    def kernel_inputs(self, op, args: list, shape) -> list:
        return [None, False]


class _Raise(Check):   # formatted text (also an `Assert`'s) is reported as the values it formats: jax_texts.py
    def reported(self, op) -> list:
        return jax_texts.reported(op.inputs)

    def lower(self, lowering: Lowering, op, *values):
        failing(lowering, op, jnp.asarray(True), jax_texts.flat(values))   # reached: its branch is the path taken
        return jnp.asarray(True)

    def kernel_inputs(self, op, args: list, shape) -> list:
        return jax_texts.formatted(op.inputs, args)


class _Assert(Check):
    def reported(self, op) -> list:
        return jax_texts.reported(op.inputs[1:])

    def lower(self, lowering: Lowering, op, condition, *data):
        failing(lowering, op, jnp.logical_not(jnp.all(condition)), jax_texts.flat(data))
        return jnp.asarray(True)

    def kernel_inputs(self, op, args: list, shape) -> list:
        return [False, *jax_texts.formatted(op.inputs[1:], args)]


_INT32_MIN = np.int32(-2 ** 31)


def _mul_overflows(a, b):
    """Whether int32 `a * b` wraps (XLA has no wider int without jax_enable_x64): dividing back fails to give `b`."""
    wrapped = a * b
    divisor = jnp.where(a == 0, 1, a)
    return (a != 0) & ((lax.div(wrapped, divisor) != b) | ((a == -1) & (b == _INT32_MIN)))


def _pow_overflows(x, y):
    """Whether int32 `x ** y` (y >= 0) wraps: exponentiation by squaring, checking each product it needs."""
    x, y = jnp.broadcast_arrays(x, jnp.maximum(y, 0))

    def step(_, carry):
        result, base, exponent, over = carry
        bit = (exponent & 1) == 1
        over = over | (bit & _mul_overflows(result, base))
        result = jnp.where(bit, result * base, result)
        exponent = exponent >> 1
        over = over | ((exponent != 0) & _mul_overflows(base, base))
        return result, base * base, exponent, over

    start = (jnp.ones_like(x), x, y, jnp.zeros(x.shape, bool))
    return lax.fori_loop(0, 31, step, start)[3]


_INT32_FAILS = {   # op -> where the int32 result is not Python's (or the int32 kernel raises): ExactInt32's check
    "AddV2": lambda x, y, r: ((x ^ r) & (y ^ r)) < 0,
    "Sub": lambda x, y, r: ((x ^ y) & (x ^ r)) < 0,
    "Mul": lambda x, y, r: _mul_overflows(x, y),
    "Square": lambda x, y, r: _mul_overflows(x, x),
    "Neg": lambda x, y, r: x == _INT32_MIN,
    "Abs": lambda x, y, r: x == _INT32_MIN,
    "FloorDiv": lambda x, y, r: (y == 0) | ((x == _INT32_MIN) & (y == -1)),
    "Pow": lambda x, y, r: (y < 0) | _pow_overflows(x, y),
    "RealDiv": lambda x, y, r: y == 0,
}


class _ExactInt32(Check):
    """A Python int's arithmetic (runtime/ops/python_ints.py): the int32 result, and a failed check where it
    wrapped, which raises the executor's error (naming the variable) after the call."""

    def lower(self, lowering: Lowering, op, *values):
        x, y = (jnp.asarray(materialised(v), jnp.int32) for v in (*values, values[0])[:2])
        arithmetic = op.attrs["arithmetic"]
        operands = (x, jnp.maximum(y, 0)) if arithmetic == "Pow" else values   # a negative power fails the check
        result = LOWERINGS[arithmetic](*operands)
        failing(lowering, op, jnp.any(_INT32_FAILS[arithmetic](x, y, result)), values)
        return result


class _PythonFloat(Check):
    """A Python float's division or power (runtime/ops/python_ints.py): the float result, and a failed check where
    Python raises (a zero divisor, 0.0 to a negative power, a power past the float's range, a complex power),
    which raises the executor's error."""

    def lower(self, lowering: Lowering, op, x, y):
        arithmetic = op.attrs["arithmetic"]
        result = (jnp.floor_divide if arithmetic == "FloorDiv" else LOWERINGS[arithmetic])(x, y)   # Python's `//`
        fails = python_ints.FLOAT_FAILS[arithmetic](*(jnp.asarray(materialised(v)) for v in (x, y, result)))
        failing(lowering, op, jnp.any(fails), [x, y])
        return result


class _IntegerPow(Check):
    """An integer `x ** y`: XLA computes a negative power (as 0, or ±1), where the executor raises."""

    def needed(self, op) -> bool:
        return op.inputs[0].dtype.is_integer

    def reported(self, op) -> list:
        return []

    def lower(self, lowering: Lowering, op, x, y):
        failing(lowering, op, jnp.any(materialised(y) < 0), [])
        return LOWERINGS["Pow"](x, y)

    def kernel_inputs(self, op, args: list, shape) -> list:
        return [np.ones(1, op.inputs[0].dtype.as_numpy_dtype), -np.ones(1, op.inputs[1].dtype.as_numpy_dtype)]


class _IntegerDivision(Check):
    """An integer `x // y` or `x % y`: XLA computes a zero divisor (as -1, or x), where the executor raises
    TensorFlow's "integer division by zero". A divisor known when tracing and nonzero needs no check."""

    def needed(self, op) -> bool:
        from runtime.control_flow import static_value
        divisor = static_value(op.inputs[1]) if op.inputs[0].dtype.is_integer else None
        return op.inputs[0].dtype.is_integer and (divisor is None or bool(np.any(divisor == 0)))

    def reported(self, op) -> list:
        return []

    def lower(self, lowering: Lowering, op, x, y):
        failing(lowering, op, jnp.any(materialised(y) == 0), [])
        return LOWERINGS[op.type](x, y)

    def kernel_inputs(self, op, args: list, shape) -> list:
        dtype = op.inputs[0].dtype.as_numpy_dtype
        return [np.ones(1, dtype), np.zeros(1, dtype)]


class _Range(Check):
    """`Range` whose bounds run the wrong way for its step (TensorFlow's error; NumPy and XLA make it empty), or
    with a zero step. Bounds known when tracing need no check: lowering runs the kernel on them."""

    def needed(self, op) -> bool:
        from runtime.control_flow import static_value
        return any(static_value(t) is None for t in op.inputs)

    def lower(self, lowering: Lowering, op, start, limit, delta):
        start, limit, delta = (materialised(v) for v in (start, limit, delta))
        wrong_way = ((delta > 0) & (start > limit)) | ((delta < 0) & (start < limit)) | (delta == 0)
        failing(lowering, op, wrong_way, [start, limit, delta])
        return LOWERINGS["Range"](start, limit, delta)


class _ListCheck(Check):
    """A TensorArray op (jax_lists.py `rule`: its value and where it fails). It reports the index and the list's
    length, on which the op's kernel raises the executor's error on a list of that many unwritten elements."""

    rule = None

    def reported(self, op) -> list:
        return [Length(), Length()]

    def lower(self, lowering: Lowering, op, items, *inputs):
        value, fails = self.rule(items, *inputs, **op.attrs)
        failing(lowering, op, fails, [inputs[0], items.size])
        return list(value) if isinstance(value, tuple) else value

    def kernel_inputs(self, op, args: list, shape) -> list:
        index, size = (int(a) for a in args)
        return [_unwritten_list(size), index]


def _unwritten_list(size: int):
    from runtime.ops.list_ops import ListValue
    return ListValue((None,) * size)


class _ListRead(_ListCheck):
    rule = staticmethod(jax_lists.read)


class _ListPop(_ListCheck):
    rule = staticmethod(jax_lists.pop)


class _ListWrite(_ListCheck):
    """A write: out of range of a list of fixed size (the executor's error), or past the rows the lowering gave
    a `dynamic_size` list (jit_compile's own error: the loop appended more than once per row it was given)."""

    def lower(self, lowering: Lowering, op, items, index, value):
        out, fails = jax_lists.write(lowering, items, index, value, op.attrs["dynamic_size"])
        lowering.checks.shapes[id(op)] = out.capacity
        failing(lowering, op, fails, [index, items.size])
        return out

    def kernel_inputs(self, op, args: list, shape) -> list:
        index, size = (int(a) for a in args)
        if op.attrs["dynamic_size"] and index >= 0:
            raise LoweringError(
                f"jit_compile=True: the TensorArray write '{op.name}' at index {index} went past the {shape} rows "
                f"the lowering gave the list (it counts one row per write and iteration).{made_at(op)}\nUse "
                "jit_compile=None for this function, or write each element once, in order.", op.type)
        return [_unwritten_list(size), index, np.zeros(())]


class _ListStack(Check):
    """A stack: elements never written (the executor's error), or a `dynamic_size` list that did not fill the rows
    the lowering gave it (XLA needs the stacked length while lowering: jit_compile's own error)."""

    def reported(self, op) -> list:
        return [Length()]

    def lower(self, lowering: Lowering, op, items):
        value, fails = jax_lists.stack(items, **op.attrs)
        lowering.checks.shapes[id(op)] = (items.capacity, items.static_size)
        failing(lowering, op, fails, [items.size])
        return value

    def kernel_inputs(self, op, args: list, shape) -> list:
        size = int(args[0])
        capacity, static_size = shape
        if static_size is not None or size == capacity:   # elements never written; the executor names them
            error = InvalidArgumentError("TensorArray stack: some elements were never written (jit_compile=True "
                                         "does not say which; jit_compile=None names them).", op.type)
            raise kernel_error_made_at(error, op) or error
        if static_size is None and size != capacity:
            raise LoweringError(
                f"jit_compile=True: the TensorArray stacked by '{op.name}' has {size} elements where the lowering "
                f"gave it {capacity} rows (a list appended to in some iterations only, or a loop that ended early): "
                f"XLA needs the stacked length while lowering.{made_at(op)}\nUse jit_compile=None for this "
                "function.", op.type)
        return [_unwritten_list(size)]


CHECKS: dict[str, Check] = {
    "TensorListRead": _ListRead(),
    "TensorListWrite": _ListWrite(),
    "TensorListPop": _ListPop(),
    "TensorListStack": _ListStack(),
    "CheckDefined": _CheckDefined(),
    "Raise": _Raise(),
    "Assert": _Assert(),
    "ExactInt32": _ExactInt32(),
    "PythonFloat": _PythonFloat(),
    "Pow": _IntegerPow(),               # of integers: a negative exponent is the executor's error
    "FloorDiv": _IntegerDivision(),     # of integers: a zero divisor is the executor's error
    "FloorMod": _IntegerDivision(),
    "Range": _Range(),                  # bounds the wrong way for the step
    "StridedSlice": StridedSlice(),
    "GatherV2": GatherV2(),
    "GatherNd": GatherNd(),
    "ScatterNd": ScatterNd(),
    "SparseSoftmaxCrossEntropyWithLogits": SparseCrossEntropy(),
}
