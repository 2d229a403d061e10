"""Reverse-mode differentiation: `GradientTape` and `custom_gradient`.

While a tape is active, every op applied through the registry is offered to
it (`registry.record`). The tape keeps the ops whose inputs depend on what it
watches: tensors given to `watch`, and trainable `Variable`s read inside the
`with` block. `gradient` walks those ops backwards and calls each op's
gradient rule (`OpDef.grad`, see `runtime.ops.gradients`).

The same tape works eagerly and inside a function being traced: there the
recorded ops are symbolic, and the gradient is built from symbolic ops in the
same graph.

    w = tf.Variable([[1.0]])
    with tf.GradientTape() as tape:
        loss = w * w
    tape.gradient(loss, w)            # [[2.]]
"""
from __future__ import annotations

import contextlib
import functools
import threading
from dataclasses import dataclass
from typing import Any, Callable, Optional

import numpy as np

from runtime import nest
from runtime.ops import array_ops, gradients, math_ops, registry
from runtime.tensor import SymbolicTensor, Tensor, convert_to_tensor
from runtime.variables import READ, Variable

_local = threading.local()
_lock = threading.Lock()
_active_tapes = 0


@dataclass
class _Entry:
    """One recorded op: what its gradient rule needs."""

    name: str
    rule: Optional[Callable]
    inputs: tuple
    outputs: list
    attrs: dict
    multi_output: bool


def _tapes() -> list:
    tapes = getattr(_local, "tapes", None)
    if tapes is None:
        tapes = _local.tapes = []
    return tapes


def _record_op(op, inputs, attrs, out) -> None:
    tapes = [tape for tape in getattr(_local, "tapes", ()) if tape._recording]
    if tapes and op.grad in (_cond_gradient, _while_gradient):
        inputs, attrs = _with_variable_reads(inputs, attrs)
    for tape in tapes:
        tape._record(op, inputs, attrs, out)


def _with_variable_reads(inputs, attrs):
    """A Cond or While whose branches/body read trainable variables gets those reads as extra inputs
    (read now, in the graph being built), so that gradients reach the variables."""
    handles = {}
    for graph in (v for v in attrs.values() if hasattr(v, "operations")):
        _handles_in(graph, handles)
    handles = [h for h in handles.values() if h.trainable and h.dtype.is_floating]
    if not handles:
        return inputs, attrs
    reads = [registry.apply(READ, handle=h) for h in handles]   # recorded (and watched) by the tapes
    return (*inputs, *reads), {**attrs, "variable_handles": tuple(handles)}


def _push(tape: "GradientTape") -> None:
    global _active_tapes
    _tapes().append(tape)
    with _lock:
        _active_tapes += 1
        registry.record = _record_op


def _pop(tape: "GradientTape") -> None:
    global _active_tapes
    stack = _tapes()
    if tape in stack:
        stack.remove(tape)
    with _lock:
        _active_tapes -= 1
        if _active_tapes == 0:
            registry.record = None


def _is_float(t) -> bool:
    return t.dtype.is_floating


class GradientTape:
    """Records ops on watched values so that `gradient` can differentiate them."""

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True):
        self._persistent = persistent
        self._watch_accessed = watch_accessed_variables
        self._recording = False
        self._used = False
        self.reset()

    def reset(self) -> None:
        """Forget everything recorded so far."""
        self._entries: list[_Entry] = []
        self._tracked: dict[int, Any] = {}          # id -> tensor whose gradient is wanted or flows
        self._reads: dict[int, Any] = {}            # id of a ReadVariableOp output -> VariableHandle
        self._handles: dict[int, Any] = {}          # id of a watched VariableHandle -> handle
        self._variables: list[Variable] = []

    def __enter__(self) -> "GradientTape":
        self._recording = True
        _push(self)
        return self

    def __exit__(self, *exc) -> None:
        self._recording = False
        _pop(self)

    @contextlib.contextmanager
    def stop_recording(self):
        """Ops run inside this block are not recorded."""
        was, self._recording = self._recording, False
        try:
            yield
        finally:
            self._recording = was

    def watch(self, tensor) -> None:
        """Record ops on `tensor` (a tensor, a Variable, or a nested structure of them)."""
        for value in nest.flatten(tensor):
            if isinstance(value, Variable):
                self._watch_variable(value)
            elif isinstance(value, Tensor):
                if _is_float(value):
                    self._tracked[id(value)] = value
            else:
                raise TypeError(f"GradientTape.watch: expected tensors or Variables, got {type(value).__name__}.")

    def watched_variables(self) -> tuple:
        """The Variables this tape has watched, in the order it first saw them."""
        return tuple(self._variables)

    def _watch_variable(self, variable: Variable) -> None:
        if id(variable.handle) not in self._handles:
            self._handles[id(variable.handle)] = variable.handle
            self._variables.append(variable)

    def _record(self, op, inputs, attrs, out) -> None:
        outputs = out if op.multi_output else [out]
        if op is READ:
            handle = attrs["handle"]
            if id(handle) not in self._handles:
                if not (self._watch_accessed and handle.trainable and handle.dtype.is_floating):
                    return
                self._handles[id(handle)] = handle
                owner = handle.owner() if handle.owner is not None else None
                if owner is not None:
                    self._variables.append(owner)
            self._reads[id(out)] = handle
            self._tracked[id(out)] = out
            return
        if not any(id(t) in self._tracked for t in inputs):
            return
        float_outputs = [t for t in outputs if _is_float(t)]
        if not float_outputs:
            return
        for t in float_outputs:
            self._tracked[id(t)] = t
        self._entries.append(_Entry(op.name, op.grad, tuple(inputs), outputs, attrs, op.multi_output))

    def _record_custom(self, inputs: list, outputs: list, grad_fn: Callable) -> None:
        if not any(id(t) in self._tracked for t in inputs):
            return
        for t in outputs:
            self._tracked[id(t)] = t

        def rule(grads, op_inputs, op_outputs):
            result = grad_fn(*grads)
            return tuple(result) if isinstance(result, (list, tuple)) else (result,)
        self._entries.append(_Entry("custom_gradient", rule, tuple(inputs), outputs, {}, True))

    def gradient(self, target, sources, output_gradients=None, unconnected_gradients: str = "none"):
        """d(sum of `target`)/d(each of `sources`), in the structure of `sources`."""
        if unconnected_gradients not in ("none", "zero"):
            raise ValueError(f"unconnected_gradients must be 'none' or 'zero', got {unconnected_gradients!r}.")
        if self._used and not self._persistent:
            raise RuntimeError("A non-persistent GradientTape can compute one set of gradients only; "
                               "create it with GradientTape(persistent=True) to call gradient() again.")
        self._used = True
        with self.stop_recording():
            grads = self._backward(nest.flatten(target), output_gradients)
            flat = [self._gradient_of(s, grads, unconnected_gradients) for s in nest.flatten(sources)]
        return nest.pack(sources, flat)

    def _backward(self, targets: list, output_gradients) -> dict:
        seeds = nest.flatten(output_gradients) if output_gradients is not None else [None] * len(targets)
        if len(seeds) != len(targets):
            raise ValueError(f"gradient: {len(targets)} targets but {len(seeds)} output_gradients.")
        grads: dict[int, Any] = {}
        for t, seed in zip(targets, seeds):
            t = t.read_value() if isinstance(t, Variable) else t
            if id(t) in self._tracked:
                _accumulate(grads, t, array_ops.ones_like(t) if seed is None else convert_to_tensor(seed, t.dtype))
        for entry in reversed(self._entries):
            upstream = [grads.get(id(o)) for o in entry.outputs]
            if all(g is None for g in upstream):
                continue
            for g_in, x in zip(self._apply_rule(entry, upstream), entry.inputs):
                if g_in is not None and id(x) in self._tracked:
                    _accumulate(grads, x, g_in)
        return grads

    def _apply_rule(self, entry: _Entry, upstream: list) -> tuple:
        if entry.rule is None:
            if entry.name in gradients.NOT_DIFFERENTIABLE:
                return ()
            raise LookupError(f"No gradient defined for the op {entry.name}: GradientTape cannot differentiate "
                              "through it. Wrap the computation in runtime.custom_gradient, or stop the gradient "
                              "before it.")
        upstream = [g if g is not None else array_ops.zeros_like(o) for g, o in zip(upstream, entry.outputs)]
        if entry.multi_output:
            return entry.rule(upstream, entry.inputs, entry.outputs, **entry.attrs)
        return entry.rule(upstream[0], entry.inputs, entry.outputs[0], **entry.attrs)

    def _gradient_of(self, source, grads: dict, unconnected: str):
        if isinstance(source, Variable):
            parts = [g for key, g in grads.items() if self._reads.get(key) is source.handle]
            total = functools.reduce(math_ops.add, parts) if parts else None
            like = source
        else:
            total, like = grads.get(id(source)), source
        if total is None and unconnected == "zero":
            return array_ops.zeros(like.shape.as_list(), dtype=like.dtype)
        return total


def _accumulate(grads: dict, t, g) -> None:
    if g.dtype is not t.dtype:
        g = math_ops.cast(g, t.dtype)
    previous = grads.get(id(t))
    grads[id(t)] = g if previous is None else math_ops.add(previous, g)


def _needed_ops(graph, wanted: list, with_effects: bool) -> list:
    """The ops `wanted` depends on (and, `with_effects`, every stateful op), in program order."""
    needed: set[int] = set()
    stack = [t.op for t in wanted if isinstance(t, SymbolicTensor)]
    if with_effects:
        stack += [op for op in graph.operations if op.stateful]
    while stack:
        op = stack.pop()
        if id(op) not in needed:
            needed.add(id(op))
            stack.extend(t.op for t in op.inputs)
            stack.extend(op.control_inputs)
    return [op for op in graph.operations if id(op) in needed]


def replay(graph, feeds: list, wanted: list, with_effects: bool = True, variable_values: Optional[dict] = None
           ) -> list:
    """Run the ops of `graph` that `wanted` needs through `registry.apply`, its inputs fed by `feeds`
    (eagerly, or into the graph being traced), so that tapes record them. Returns `wanted`'s values;
    entries of `wanted` that are not symbolic tensors of `graph` are returned as they are.
    `variable_values` (id of a VariableHandle -> tensor) stands in for reads of those variables."""
    mapping = {id(ph): t for ph, t in zip(graph.inputs, feeds)}
    for original, const in getattr(graph, "_eager_captures", {}).values():
        mapping[id(const)] = original
    for op in _needed_ops(graph, wanted, with_effects):
        if op.type == "Placeholder" or id(op.outputs[0]) in mapping:
            continue
        if op.opdef is READ and variable_values and id(op.attrs["handle"]) in variable_values:
            mapping[id(op.outputs[0])] = variable_values[id(op.attrs["handle"])]
            continue
        out = registry.apply(op.opdef, *(mapping[id(t)] for t in op.inputs), **op.attrs)
        for old, new in zip(op.outputs, out if op.opdef.multi_output else [out]):
            mapping[id(old)] = new
    return [mapping[id(v)] if isinstance(v, SymbolicTensor) else v for v in wanted]


def _split_reads(inputs, variable_handles) -> tuple:
    k = len(variable_handles)
    real, reads = (list(inputs[:-k]), list(inputs[-k:])) if k else (list(inputs), [])
    return real, reads, {id(h): r for h, r in zip(variable_handles, reads)}


def _cond_gradient(grads, inputs, outputs, then_graph, else_graph, then_inputs, else_inputs, output_specs,
                   variable_handles=()):
    """A Cond whose branches differentiate the original branches (replayed under a tape)."""
    from runtime.control_flow import cond
    real, reads, overrides = _split_reads(inputs, variable_handles)
    float_positions = [i for i, x in enumerate(real) if i > 0 and x.dtype.is_floating]

    def branch(graph, positions):
        def differentiate():
            feeds = [real[i] for i in positions]
            with GradientTape() as tape:
                tape.watch(feeds + reads)
                outs = replay(graph, feeds, graph.outputs, with_effects=False, variable_values=overrides)
            found = tape.gradient(outs, feeds + reads, output_gradients=grads, unconnected_gradients="zero")
            by_position = {}
            for i, g in zip(positions, found):
                by_position[i] = g if i not in by_position else math_ops.add(by_position[i], g)
            return [by_position.get(i, array_ops.zeros_like(real[i])) for i in float_positions] + \
                list(found[len(feeds):])
        return differentiate

    if not float_positions and not reads:
        return ()
    results = cond(real[0], branch(then_graph, then_inputs), branch(else_graph, else_inputs))
    results = list(results) if isinstance(results, (list, tuple)) else [results]
    wanted = float_positions + list(range(len(real), len(inputs)))
    by_input = dict(zip(wanted, results))
    return tuple(by_input.get(i) for i in range(len(inputs)))


def _while_gradient(grads, inputs, outputs, cond_graph, body_graph, num_loop_vars, cond_inputs, body_inputs,
                    output_specs, max_iterations_input, variable_handles=()):
    """Reverse-mode through a While: run the loop again, keeping each iteration's state in TensorArrays,
    then a backward While from the last iteration to the first, each step differentiating the body
    (replayed under a tape) with the incoming gradient. Linear in the trip count; the forward body
    runs twice."""
    from runtime.control_flow import while_loop
    from runtime.tensor_array import TensorArray
    n = num_loop_vars
    inputs, reads, overrides = _split_reads(inputs, variable_handles)
    state0 = list(inputs[:n])
    if any(t.dtype.name == "variant" for t in state0):
        raise LookupError("No gradient defined for a While whose loop variables include TensorArrays.")
    cond_ext = [inputs[i] for i in cond_inputs]
    body_ext = [inputs[i] for i in body_inputs]
    limit = None if max_iterations_input is None else inputs[max_iterations_input]

    def more(i, *rest):
        test = replay(cond_graph, [*rest[:n], *cond_ext], cond_graph.outputs, with_effects=False,
                      variable_values=overrides)[0]
        return test if limit is None else math_ops.logical_and(math_ops.less(i, limit), test)

    def step(i, *rest):
        state, tapes = list(rest[:n]), list(rest[n:])
        tapes = [ta.write(i, v) for ta, v in zip(tapes, state)]
        state = replay(body_graph, [*state, *body_ext], body_graph.outputs, with_effects=False,
                       variable_values=overrides)
        return (i + 1, *state, *tapes)

    saved = [TensorArray(spec.dtype, size=0, dynamic_size=True, element_shape=spec.shape) for spec in output_specs]
    final = while_loop(more, step, (0, *state0, *saved))
    count, history = final[0], list(final[1 + n:])

    floats = [k for k in range(n) if state0[k].dtype.is_floating]
    ext_floats = [j for j, t in enumerate(body_ext) if t.dtype.is_floating]

    def back_more(k, *rest):
        return math_ops.greater(k, 0)

    def back_step(k, *rest):
        k = k - 1
        g_state, g_ext = list(rest[:len(floats)]), list(rest[len(floats):])
        state = [history[j].read(k) for j in range(n)]
        sources = [state[j] for j in floats] + [body_ext[j] for j in ext_floats] + reads
        with GradientTape() as tape:
            tape.watch(sources)
            outs = replay(body_graph, [*state, *body_ext], body_graph.outputs, with_effects=False,
                          variable_values=overrides)
        found = tape.gradient([outs[j] for j in floats], sources, output_gradients=g_state,
                              unconnected_gradients="zero")
        new_state, new_ext = found[:len(floats)], found[len(floats):]
        return (k, *new_state, *(math_ops.add(a, b) for a, b in zip(g_ext, new_ext)))

    start = [grads[j] for j in floats] + [array_ops.zeros_like(t) for t in [body_ext[j] for j in ext_floats] + reads]
    if not start:
        return ()
    result = while_loop(back_more, back_step, (count, *start))
    g_state0, g_ext = result[1:1 + len(floats)], result[1 + len(floats):]
    by_input: dict[int, Any] = dict(zip(floats, g_state0))
    for j, g in zip(ext_floats, g_ext):
        position = body_inputs[j]
        by_input[position] = g if position not in by_input else math_ops.add(by_input[position], g)
    for j, g in enumerate(g_ext[len(ext_floats):]):
        by_input[len(inputs) + j] = g
    return tuple(by_input.get(i) for i in range(len(inputs) + len(reads)))


def _handles_in(graph, found: dict) -> dict:
    """Every VariableHandle read or written in `graph` and the branch/body graphs nested in it."""
    for op in graph.operations:
        for value in op.attrs.values():
            if hasattr(value, "operations"):
                _handles_in(value, found)
        handle = op.attrs.get("handle")
        if handle is not None and hasattr(handle, "trainable"):
            found[id(handle)] = handle
    return found


def record_function_call(concrete, tensors: list, run: Callable):
    """Call `concrete` (whose graph has Cond/While ops, so its ops can't be replayed eagerly) with
    `run`, and give the tapes one entry for the whole call. Its gradient rule traces the function's
    gradient into a graph and runs that graph once."""
    tensors = [convert_to_tensor(t) for t in tensors]
    handles = [h for h in _handles_in(concrete.graph, {}).values() if h.trainable and h.dtype.is_floating]
    reads = [registry.apply(READ, handle=h) for h in handles]   # the tapes see (and watch) these reads
    result = run(tensors)
    outputs = [t for t in nest.flatten(result) if isinstance(t, Tensor)]

    def rule(grads, inputs, outs):
        return _function_gradient(concrete, handles, inputs, grads)
    op = registry.OpDef(f"{concrete.name} (call)", None, None, multi_output=True, grad=rule)
    registry.record(op, tensors + reads, {}, outputs)
    return result


def _function_gradient(concrete, handles: list, inputs: list, grads: list) -> list:
    from runtime.executor.codegen import compile_graph
    from runtime.graph import FuncGraph, building
    graph = FuncGraph(f"{concrete.name}_gradient")
    with building(graph):
        phs = [graph.placeholder(t.dtype, t.shape, f"x{i}") for i, t in enumerate(inputs)]
        g_phs = [graph.placeholder(g.dtype, g.shape, f"dy{i}") for i, g in enumerate(grads)]
        n = len(inputs) - len(handles)
        overrides = {id(h): ph for h, ph in zip(handles, phs[n:])}
        with GradientTape() as tape:
            tape.watch([p for p in phs if p.dtype.is_floating])
            outs = replay(concrete.graph, phs[:n], concrete.graph.outputs, with_effects=False,
                          variable_values=overrides)
        found = tape.gradient(outs, phs, output_gradients=g_phs)
    wanted = [g for g in found if g is not None]
    if not wanted:
        return [None] * len(inputs)
    values = [t._value[()] if t._value.__class__ is np.ndarray and t._value.ndim == 0 else t._value
              for t in (*inputs, *grads)]
    results = iter(compile_graph(graph, wanted, f"{concrete.name}_gradient").run(*values))
    return [None if g is None else registry.wrap(next(results)) for g in found]


def _install_control_flow_rules() -> None:
    from runtime.control_flow import COND, WHILE
    COND.grad = _cond_gradient
    WHILE.grad = _while_gradient


_install_control_flow_rules()


def custom_gradient(f: Callable) -> Callable:
    """Decorator: `f(*x)` returns `(y, grad_fn)`; tapes use `grad_fn(dy) -> dx` instead of
    differentiating the ops inside `f`."""
    @functools.wraps(f)
    def decorated(*args):
        recording = [t for t in _tapes() if t._recording]
        for tape in recording:
            tape._recording = False
        try:
            result, grad_fn = f(*args)
        finally:
            for tape in recording:
                tape._recording = True
        inputs = [a for a in args if isinstance(a, Tensor)]
        outputs = [t for t in nest.flatten(result) if isinstance(t, Tensor)]
        for tape in recording:
            tape._record_custom(inputs, outputs, grad_fn)
        return result
    return decorated
