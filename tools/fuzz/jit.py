"""Mode j of both runners: the program inside `runtime.function(f, jit_compile=True)`, lowered to JAX and
compiled by XLA (runtime/lowering/), compared with the same program on the NumPy executor.

Mode j must agree with the original as the executor's mode does (d for the control generator, t for the python
generator), and with the executor as tests/jit_twin.py compares the two: the same values with the same dtypes
and shapes, or the same exception type *and* message (but for the addresses of objects it names: each mode
traces anew). So an error in both modes is agreement only when it is the same error; the documented
differences of jit_compile (docs/graph.md: an integer division by zero or a failing index that does not raise,
an op JAX refuses while tracing a branch not taken) are reported like any other difference, never matched
away. Not compared: a graph that can't be lowered (a `LoweringError` on the first call: an op with no JAX rule,
a loop variable whose shape changes), which is a clear, documented refusal, counted by the op or cause it
names. JAX is an optional extra: without it mode j is skipped, and the fuzzer says so in one line.
"""
from __future__ import annotations

import importlib.util
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

MODE = "j"
SKIPPED = "mode j skipped: JAX is not installed (pip install 'autograph-runtime[jax]' to compare jit_compile=True)"


def installed() -> bool:
    return importlib.util.find_spec("jax") is not None


def usable(modes: str) -> str:
    """`modes` without j where JAX is not installed."""
    return modes if installed() else modes.replace(MODE, "")


def function(f):
    import runtime as tf
    return tf.function(f, jit_compile=True)


def lowering_refusal(outcome) -> str | None:
    """What could not be lowered, if mode j's outcome is a LoweringError: the op and the cause it names."""
    from runtime.errors import LoweringError
    kind, value = outcome
    if kind != "error" or not isinstance(value, LoweringError):
        return None
    message = value.message
    for marker, cause in (("no lowering rule", "has no rule"), ("change shape", "changes shape"),
                          ("no static shape", "reports a value of no static shape")):
        if marker in message:
            return f"{value.op_name} {cause}"
    return message.split(";")[0].split(".")[0]


def difference(executor, jit) -> str | None:
    """How mode j's outcome differs from the executor's, as tests/jit_twin.py compares them, or None."""
    (kind_e, value_e), (kind_j, value_j) = executor, jit
    if kind_e == "error" or kind_j == "error":
        if kind_e == kind_j and type(value_e) is type(value_j) and _message(value_e) == _message(value_j):
            return None
        return f"jit_compile gave {_shown(kind_j, value_j)} where the executor gave {_shown(kind_e, value_e)}"
    return _value_difference(value_e, value_j)


def _message(error: BaseException) -> str:
    """The error's message, but the addresses of objects: the two modes trace separately, so an error raised while
    tracing names a different lambda (`<function f.<locals>.<lambda> at 0x7f...>`) in each."""
    return re.sub(r" at 0x[0-9a-f]+", " at 0x...", str(error))


def _shown(kind, value) -> str:
    return f"{type(value).__name__}: {value}" if kind == "error" else repr(value)


def _value_difference(expected, got, where: str = "the result"):
    if isinstance(expected, (tuple, list)) or isinstance(got, (tuple, list)):
        if type(expected) is not type(got) or len(expected) != len(got):
            return f"{where}: {got!r} where the executor gave {expected!r}"
        for i, (e, g) in enumerate(zip(expected, got)):
            found = _value_difference(e, g, f"{where}[{i}]")
            if found:
                return found
        return None
    e, g = _array(expected), _array(got)
    if e is None or g is None:
        return None if expected == got and type(expected) is type(got) else \
            f"{where}: {got!r} where the executor gave {expected!r}"
    if e.dtype != g.dtype or e.shape != g.shape:
        return f"{where}: {g.dtype}{list(g.shape)} where the executor gave {e.dtype}{list(e.shape)}"
    same = np.allclose(g, e, rtol=1e-5, atol=1e-6, equal_nan=True) if e.dtype.kind in "fc" else np.array_equal(g, e)
    return None if same else f"{where}: {g!r} where the executor gave {e!r}"


def _array(value):
    """A tensor's value as an array (None for a Python value, compared as it is)."""
    return np.asarray(value.numpy()) if hasattr(value, "numpy") else None


@dataclass
class Tally:
    """Mode j over a run: the runs (a program on one input) that gave the executor's values or raised its error,
    and the programs it could not lower (a LoweringError on the first call), by cause."""

    values: int = 0
    errors: int = 0
    unlowered: Counter = field(default_factory=Counter)

    def agreed(self, outcome) -> None:
        if outcome[0] == "error":
            self.errors += 1
        else:
            self.values += 1

    def add(self, other: "Tally") -> None:
        self.values, self.errors = self.values + other.values, self.errors + other.errors
        self.unlowered.update(other.unlowered)

    def summary(self) -> str:
        causes = ", ".join(f"{cause} {n}" for cause, n in self.unlowered.most_common())
        return (f"mode j: {self.values} runs gave the executor's values, {self.errors} raised its error (type and "
                f"message); {sum(self.unlowered.values())} programs could not be lowered"
                + (f" (LoweringError: {causes})" if causes else ""))
