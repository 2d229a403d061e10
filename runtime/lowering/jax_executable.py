"""The compiled function of `function(jit_compile=True)`: a concrete function's graph lowered by the rules of
`to_jax.py`, jitted once, and called through a short generated path.

For small graphs the call path is most of a call's time (tools/bench/jit_compile.py), so it is kept short:
the jitted function takes the inputs and the Variables' values as flat positional arguments and returns one
flat tuple (outputs, the written Variables' values, then the checks' slots if the graph has checks), and
`run` is generated straight-line code for this graph (`run_source`), which converts each output to NumPy
with only the steps its dtype and rank need (a cast where JAX computes in another dtype: 64-bit types
without `jax_enable_x64`) and raises a failed check's error after storing the Variables.
"""
from __future__ import annotations

from typing import Callable

import jax
import numpy as np

from runtime import dtypes
from runtime.errors import LoweringError
from runtime.graph import made_at
from runtime.lowering import variable_handles, walk
from runtime.lowering.to_jax import CHECKS, EFFECTS, LOWERINGS, Checks, Lowering, jax_dtype, materialised


def check_lowerable(graph, function_name: str) -> None:
    for op in walk(graph):
        if op.type != "Placeholder" and op.type not in LOWERINGS and op.type not in EFFECTS and op.type not in CHECKS:
            raise LoweringError(
                f"{function_name}: jit_compile=True can't lower the op {op.type} ('{op.name}' in graph "
                f"'{op.graph.name}') to JAX: it has no lowering rule.{made_at(op)}\n"
                "Use jit_compile=None to run this function with the NumPy executor, or add a rule for "
                f"'{op.type}' to runtime/lowering/to_jax.py.", op.type)
        if any(t.dtype is dtypes.string for t in (*op.inputs, *op.outputs)):
            raise LoweringError(
                f"{function_name}: jit_compile=True can't lower the op {op.type} ('{op.name}'): it computes on "
                f"strings, which XLA has no type for.{made_at(op)}\nUse jit_compile=None for this function.",
                op.type)


class JaxExecutable:
    """A graph compiled by `jax.jit`; `run(*values)` takes and returns NumPy values like the executor's."""

    scalar_inputs = False   # 0-d inputs as the 0-d arrays they are: JAX takes them faster than NumPy scalars

    def __init__(self, graph, outputs: list, name: str):
        check_lowerable(graph, name)
        self.graph, self.name = graph, name
        self.handles = variable_handles(graph)
        self.checks = Checks.of(graph)
        self.slots = self.checks.slots() if self.checks else []
        written = {id(op.attrs["handle"]) for op in walk(graph) if op.type.startswith("Assign")}
        self.written = [i for i, h in enumerate(self.handles) if id(h) in written]
        self.source = f"jax.jit of {name}: {sum(1 for _ in walk(graph))} ops lowered to JAX"
        self._jitted = jax.jit(self._function)
        self.run_source, self.run = _generate_run(self._jitted, len(graph.inputs), outputs, self.handles,
                                                  self.written, self.checks)

    def _function(self, *values):
        num_inputs = len(self.graph.inputs)
        lowering = Lowering(self.handles + self.slots, self.checks)
        state = (*values[num_inputs:], *[slot.initial() for slot in self.slots])
        outputs, state = lowering.run(self.graph, list(values[:num_inputs]), state)
        return (*[materialised(v) for v in outputs], *[state[i] for i in self.written], *state[len(self.handles):])

    def explain(self, error):
        return None


def _generate_run(jitted, num_inputs: int, outputs: list, handles: list, written: list, checks) -> tuple[str, Callable]:
    """`def run(v0, ...)`: the jitted call, the written Variables stored, a failed check's error raised,
    the outputs as NumPy values."""
    namespace = {"jitted": jitted, "asarray": np.asarray, "array": np.array, "scalar": _scalar}
    inputs = [f"v{i}" for i in range(num_inputs)]
    state = [f"h{i}.value" for i in range(len(handles))]
    namespace.update({f"h{i}": h for i, h in enumerate(handles)})
    lines = [f"def run({', '.join(inputs)}):", f"    r = jitted({', '.join(inputs + state)})"]
    lines += [f"    h{i}.value = array(r[{len(outputs) + k}])" for k, i in enumerate(written)]
    if checks is not None:
        namespace["checks"] = checks
        code = len(outputs) + len(written)
        lines += [f"    code = int(r[{code}])", "    if code:", f"        checks.fail(code, r[{code + 1}:])"]
    converted = []
    for i, tensor in enumerate(outputs):
        expr = f"asarray(r[{i}])"
        dtype = np.dtype(tensor.dtype.as_numpy_dtype)
        if jax_dtype(tensor.dtype) != dtype:
            namespace[f"d{i}"] = dtype
            expr = f"{expr}.astype(d{i})"
        rank = tensor.shape.rank
        converted.append(f"{expr}[()]" if rank == 0 else expr if rank else f"scalar({expr})")
    lines.append(f"    return ({''.join(c + ', ' for c in converted)})")
    source = "\n".join(lines) + "\n"
    exec(compile(source, "<jit_compile run>", "exec"), namespace)   # the only code we compile is our own
    return source, namespace["run"]


def _scalar(array):
    """A 0-d array as the NumPy scalar the executor gives; other arrays as they are (rank unknown at trace time)."""
    return array[()] if array.ndim == 0 else array
