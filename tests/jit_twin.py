"""Graph-mode tests run both ways: the NumPy executor and `jit_compile=True` (issue 16).

A test module marked `pytestmark = pytest.mark.jit_twin` runs as it is, and every graph its tests run on the
executor also runs lowered to JAX (`runtime/lowering/to_jax.py`) on the same input values and Variable values:
the outputs (dtype, shape, values; floats to 1e-5), the error (type and message), the Variables' new values and
the printed text must be the executor's. The test itself sees the executor's results only, so its own
assertions are unchanged. A mismatch fails the test at teardown, naming the graph and the difference.

Random draws are compared too: the lowering calls the executor's kernels back, so both ways run from the same
generator state. Not compared: graphs with an op that has no JAX lowering (strings, boolean masks, ...) and graphs
that print to a stream other than stdout/stderr. The executable is compiled once per concrete function, so the
cost is one XLA compilation per graph the marked tests trace (tests/conftest.py lists which modules are marked
in its docstring; see docs/performance.md for the suite's time).
"""
from __future__ import annotations

import contextlib
import importlib.util
import io
import sys

import numpy as np

from runtime.errors import LoweringError
from runtime.executor.codegen import compile_graph
from runtime.function import ConcreteFunction

JAX_INSTALLED = importlib.util.find_spec("jax") is not None   # without the jax extra marked tests run once


class Twin:
    """The executor's executable, with the jit lowering of the same graph run beside it and compared."""

    active: "Comparisons | None" = None   # the running test's record; None outside marked tests

    def __init__(self, concrete: ConcreteFunction, executable):
        self.concrete, self.executor = concrete, executable
        self.source, self.explain = executable.source, executable.explain
        self.scalar_inputs = executable.scalar_inputs
        self.jit = _lowered(concrete)

    def run(self, *values):
        comparisons = Twin.active
        if comparisons is None or self.jit is None:
            return self.executor.run(*values)
        handles = self.jit.handles
        before, random_before = [h.value for h in handles], _random_state()
        expected, printed = _captured(self.executor.run, values)
        after, random_after = [h.value for h in handles], _random_state()
        for handle, value in zip(handles, before):
            handle.value = value
        _set_random_state(random_before)   # the same draws: the lowering calls the executor's random kernels
        got, jit_printed = _captured(self.jit.run, values, barrier=True)
        jit_after = [h.value for h in handles]
        for handle, value in zip(handles, after):
            handle.value = value
        _set_random_state(random_after)
        if isinstance(got, LoweringError):   # found while tracing for JAX (a loop variable changing shape)
            self.jit = None
            comparisons.skipped += 1
        else:
            comparisons.compare(self, (expected, printed, after), (got, jit_printed, jit_after))
        sys.stdout.write(printed[0])
        sys.stderr.write(printed[1])
        if isinstance(expected, BaseException):
            raise expected
        return expected


def _lowered(concrete: ConcreteFunction):
    if any(op.type == "PrintV2" and op.attrs["stream"] not in ("stdout", "stderr") for op in _ops(concrete.graph)):
        return None
    from runtime.lowering.jax_executable import JaxExecutable   # imports jax: only where a graph is compared
    try:
        return JaxExecutable(concrete.graph, concrete.graph.outputs, concrete.name)
    except LoweringError:
        return None


def _random_state() -> tuple:
    from runtime.ops import random_ops
    return (random_ops._default.bit_generator.state,
            {key: g.bit_generator.state for key, g in random_ops._generators.items()})


def _set_random_state(state: tuple) -> None:
    from runtime.ops import random_ops
    default, generators = state
    random_ops._default.bit_generator.state = default
    for key in list(random_ops._generators):
        if key in generators:
            random_ops._generators[key].bit_generator.state = generators[key]
        else:
            del random_ops._generators[key]


def _ops(graph):
    for op in graph.operations:
        yield op
        for _, sub in op.subgraphs():
            yield from _ops(sub)


def _captured(run, values, barrier: bool = False):
    """run(*values)'s results or error, and what it printed to stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            result = run(*values)
        except Exception as error:   # noqa: BLE001 - the error is a result to compare
            result = error
        if barrier:
            import jax
            jax.effects_barrier()   # the prints of jax.debug.callback are done
    return result, (out.getvalue(), err.getvalue())


class Comparisons:
    """What the twins of one test found."""

    def __init__(self):
        self.compared = 0
        self.skipped = 0
        self.mismatches: list[str] = []

    def compare(self, twin: Twin, expected, got) -> None:
        self.compared += 1
        (values, printed, state), (jit_values, jit_printed, jit_state) = expected, got
        if isinstance(values, BaseException):
            values = twin.executor.explain(values) or values
        difference = (_difference(values, jit_values) or _state_difference(state, jit_state) or
                      (f"printed {jit_printed!r} where the executor printed {printed!r}"
                       if jit_printed != printed else None))
        if difference:
            self.mismatches.append(f"{twin.concrete.name}: {difference}")


def _difference(expected, got):
    if isinstance(expected, BaseException) or isinstance(got, BaseException):
        same = (type(expected) is type(got) and str(expected) == str(got))
        return None if same else f"jit_compile gave {got!r} where the executor gave {expected!r}"
    if len(expected) != len(got):
        return f"{len(got)} outputs where the executor gave {len(expected)}"
    for i, (e, g) in enumerate(zip(expected, got)):
        difference = _value_difference(np.asarray(e), np.asarray(g))
        if difference:
            return f"output {i}: {difference}"
    return None


def _state_difference(expected: list, got: list):
    for i, (e, g) in enumerate(zip(expected, got)):
        difference = _value_difference(np.asarray(e), np.asarray(g))
        if difference:
            return f"Variable {i}: {difference}"
    return None


def _value_difference(expected: np.ndarray, got: np.ndarray):
    if expected.dtype != got.dtype or expected.shape != got.shape:
        return f"{got.dtype}{list(got.shape)} where the executor gave {expected.dtype}{list(expected.shape)}"
    if expected.dtype.kind in "fc":
        close = np.allclose(got, expected, rtol=1e-5, atol=1e-6, equal_nan=True)
    else:
        close = np.array_equal(got, expected)
    return None if close else f"{got!r} where the executor gave {expected!r}"


def compiled_with_twin(original):
    """`ConcreteFunction._compiled` that, in a marked test, compiles a Twin in place of the executor's executable."""
    def compiled(self):
        if self._executable is None and not self.jit_compile and Twin.active is not None:
            self._executable = Twin(self, compile_graph(self.graph, self.graph.outputs, self.name))
        return original(self)
    return compiled
