"""The compiled function of `function(jit_compile=True)`: a concrete function's graph lowered by the rules of
`to_jax.py`, jitted once, and called through a short generated path.

For small graphs the call path is most of a call's time (tools/bench/jit_compile.py), so it is kept short:
the jitted function takes the inputs and the Variables' values as flat positional arguments and returns one
flat tuple (outputs, the written Variables' values, then the checks' slots if the graph has checks), and
`run` is generated straight-line code for this graph (`run_source`), which converts each output to NumPy
with only the steps its dtype and rank need (a cast where JAX computes in another dtype: 64-bit types
without `jax_enable_x64`) and raises a failed check's error after storing the Variables.

`Function.__call__` goes shorter still once a call has run with EagerTensors by position (`eager_call`,
installed by `Function._shorten`): a generated `call(args, kwargs)` checks that the call is eager (no tape, no
graph being traced, not `run_functions_eagerly`) with EagerTensors of exactly that call's dtypes and shapes,
calls the jitted function on their values and wraps the outputs as EagerTensors of the dtypes that call gave;
anything else returns None and takes the general path (trace cache, `ConcreteFunction._call_flat`, `run`).
"""
from __future__ import annotations

import itertools
import linecache
from typing import Callable

import jax
import numpy as np

from runtime import config, dtypes
from runtime.errors import LoweringError
from runtime.graph import made_at
from runtime.lowering import jax_texts, variable_handles, walk
from runtime.lowering.jax_checks import CHECKS, Checks
from runtime.lowering.jax_effects import EFFECTS, Lowering
from runtime.lowering.to_jax import LOWERINGS, jax_dtype, materialised
from runtime.ops import registry
from runtime.tensor import EagerTensor


def check_lowerable(graph, function_name: str) -> None:
    for op in walk(graph):
        if op.type != "Placeholder" and op.type not in LOWERINGS and op.type not in EFFECTS and op.type not in CHECKS:
            raise LoweringError(
                f"{function_name}: jit_compile=True can't lower the op {op.type} ('{op.name}' in graph "
                f"'{op.graph.name}') to JAX: it has no lowering rule.{made_at(op)}\n"
                "Use jit_compile=None to run this function with the NumPy executor, or add a rule for "
                f"'{op.type}' to runtime/lowering/to_jax.py.", op.type)
        if jax_texts.deferred(op):
            continue
        if any(t.dtype is dtypes.string and not jax_texts.lowerable_text(op, t) for t in op.inputs) or \
                any(t.dtype is dtypes.string for t in op.outputs):
            raise jax_texts.refuse(op, function_name)


class JaxExecutable:
    """A graph compiled by `jax.jit`; `run(*values)` takes and returns NumPy values like the executor's."""

    scalar_inputs = False   # 0-d inputs as the 0-d arrays they are: JAX takes them faster than NumPy scalars

    def __init__(self, graph, outputs: list, name: str):
        check_lowerable(graph, name)
        self.graph, self.outputs, self.name = graph, outputs, name
        self.handles = variable_handles(graph)
        self.checks = Checks.of(graph)
        self.slots = self.checks.slots() if self.checks else []
        written = {id(op.attrs["handle"]) for op in walk(graph) if op.type.startswith("Assign")}
        self.written = [i for i, h in enumerate(self.handles) if id(h) in written]
        self.source = f"jax.jit of {name}: {sum(1 for _ in walk(graph))} ops lowered to JAX"
        self.wide = _has_64_bit_types(graph, self.handles)
        self._jitted = _with_x64(jax.jit(self._function)) if self.wide else jax.jit(self._function)
        self.run_source, self.run = _generate_run(self._jitted, len(graph.inputs), outputs, self.handles,
                                                  self.written, self.checks, self.wide)

    def _function(self, *values):
        num_inputs = len(self.graph.inputs)
        lowering = Lowering(self.handles + self.slots, self.checks)
        state = (*values[num_inputs:], *[slot.initial() for slot in self.slots])
        outputs, state = lowering.run(self.graph, list(values[:num_inputs]), state)
        return (*[materialised(v) for v in outputs], *[state[i] for i in self.written], *state[len(self.handles):])

    def explain(self, error):
        return None

    def eager_call(self, arg_dtypes: list, arg_shapes: list, out_dtypes: list, one_output: bool) -> Callable:
        """The shortest call of this program for one signature, for `Function.__call__` (see
        `_generate_eager_call`): `call(args, kwargs)` gives the outputs, or None to take the general path."""
        return _generate_eager_call(self, arg_dtypes, arg_shapes, out_dtypes, one_output)[1]


_WIDE = (dtypes.int64, dtypes.uint64, dtypes.float64, dtypes.complex128)


def _has_64_bit_types(graph, handles: list) -> bool:
    """Whether a tensor of the graph, of its nested graphs, or a Variable it uses has a 64-bit type."""
    if any(h.dtype in _WIDE for h in handles):
        return True
    return any(t.dtype in _WIDE for op in walk(graph) for t in (*op.inputs, *op.outputs))


def _with_x64(jitted):
    """`jitted` traced and run with JAX's 64-bit types on (scoped to the call, this thread): without them JAX
    computes int64 and float64 in 32 bits (2**40 + 3 times 3 gave 9, float64 1e300 overflowed)."""
    def call(*values):
        with jax.enable_x64(True):
            return jitted(*values)
    return call


def _generate_run(jitted, num_inputs: int, outputs: list, handles: list, written: list, checks,
                  wide: bool) -> tuple[str, Callable]:
    """`def run(v0, ...)`: the jitted call, the written Variables stored, a failed check's error raised,
    the outputs as NumPy values."""
    namespace = {"jitted": jitted, "asarray": np.asarray, "array": np.array, "scalar": _scalar}
    inputs = [f"v{i}" for i in range(num_inputs)]
    lines = [f"def run({', '.join(inputs)}):", *_call_lines(inputs, len(outputs), handles, written, checks, namespace)]
    converted = []
    for i, tensor in enumerate(outputs):
        expr = _as_numpy(i, tensor, namespace, wide)
        rank = tensor.shape.rank
        converted.append(f"{expr}[()]" if rank == 0 else expr if rank else f"scalar({expr})")
    lines.append(f"    return ({''.join(c + ', ' for c in converted)})")
    return _define("run", lines, namespace)


def _call_lines(inputs: list[str], num_outputs: int, handles: list, written: list, checks,
                namespace: dict) -> list[str]:
    """The jitted call on `inputs` and the Variables' values; the written Variables stored; a failed check raised."""
    state = [f"h{i}.value" for i in range(len(handles))]
    namespace.update({f"h{i}": h for i, h in enumerate(handles)})
    lines = [f"    r = jitted({', '.join(inputs + state)})"]
    lines += [f"    h{i}.value = array(r[{num_outputs + k}])" for k, i in enumerate(written)]
    if checks is not None:
        namespace["checks"] = checks
        code = num_outputs + len(written)
        lines += [f"    code = int(r[{code}])", "    if code:", f"        checks.fail(code, r[{code + 1}:])"]
    return lines


def _as_numpy(i: int, tensor, namespace: dict, wide: bool) -> str:
    """Output i as a NumPy array of the graph's dtype (JAX computes 64-bit types in 32 bits without x64; with
    it, a Python int that a rule made an array of is 64-bit: every output is cast, a no-op where it fits)."""
    dtype = np.dtype(tensor.dtype.as_numpy_dtype)
    namespace[f"d{i}"] = dtype
    if wide:
        return f"asarray(r[{i}]).astype(d{i}, copy=False)"
    if jax_dtype(tensor.dtype) == dtype:
        return f"asarray(r[{i}])"
    return f"asarray(r[{i}]).astype(d{i})"


def _generate_eager_call(executable: JaxExecutable, arg_dtypes: list, arg_shapes: list, out_dtypes: list,
                         one_output: bool) -> tuple[str, Callable]:
    """`def call(args, kwargs)`: None unless the call is eager (no tape, no trace, not run eagerly) with exactly
    these EagerTensors by position; then the jitted call and the outputs as EagerTensors of `out_dtypes`."""
    namespace = {"jitted": executable._jitted, "asarray": np.asarray, "array": np.array, "Eager": EagerTensor,
                 "new": object.__new__, "context": registry.context, "config": config}
    namespace.update({f"k{i}": d for i, d in enumerate(arg_dtypes)})
    namespace.update({f"s{i}": tuple(s) for i, s in enumerate(arg_shapes)})
    namespace.update({f"o{i}": d for i, d in enumerate(out_dtypes)})
    args = [f"a{i}" for i in range(len(arg_dtypes))]
    guards = [f"{a}.__class__ is not Eager or {a}._dtype is not k{i} or {a}._value.shape != s{i}"
              for i, a in enumerate(args)]
    lines = ["def call(args, kwargs):",
             f"    if kwargs or len(args) != {len(args)} or context.tapes or context.graph is not None "
             "or config._run_eagerly:",
             "        return None"]
    if args:
        lines += [f"    {''.join(a + ', ' for a in args)}= args",
                  f"    if {' or '.join(guards)}:", "        return None"]
    outputs = executable.outputs
    lines += _call_lines([f"{a}._value" for a in args], len(outputs), executable.handles, executable.written,
                         executable.checks, namespace)
    for i, tensor in enumerate(outputs):
        lines += [f"    t{i} = new(Eager)", f"    t{i}._value = {_as_numpy(i, tensor, namespace, executable.wide)}",
                  f"    t{i}._dtype = o{i}"]
    results = [f"t{i}" for i in range(len(outputs))]
    lines.append(f"    return {results[0]}" if one_output else f"    return ({''.join(t + ', ' for t in results)})")
    return _define("call", lines, namespace)


def _define(name: str, lines: list[str], namespace: dict) -> tuple[str, Callable]:
    """The generated function `name` from its source lines, registered in `linecache` for tracebacks."""
    source = "\n".join(lines) + "\n"
    filename = f"<jit_compile {name} {next(_COUNTER)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)   # the only code we compile is our own
    return source, namespace[name]


_COUNTER = itertools.count()


def _scalar(array):
    """A 0-d array as the NumPy scalar the executor gives; other arrays as they are (rank unknown at trace time)."""
    return array[()] if array.ndim == 0 else array
