"""Reverse-mode differentiation: `GradientTape` (`custom_gradient` is in runtime/custom_gradients.py).

A tape records the ops of the place it was made in — eager code, or the
graph being traced — from `registry.apply`, which offers every op to the
tapes in `registry.context.tapes`. It keeps the ops whose inputs depend on
what it watches: tensors given to `watch`, and trainable float `Variable`s
read inside the `with` block (also those read inside the branches and bodies
of a `Cond` or `While`: the tape keeps them with the op, and what they held
when it ran, so that its rule replays the graphs on the values the forward
pass read even where the graphs, or later code, assign them:
`runtime/ops/held_variables.py`). `gradient` walks the ops backwards and
calls each op's gradient rule (`OpDef.grad`: its entry in the gradient
table, filled by `runtime.ops.gradients`); `jacobian` and `batch_jacobian`
run that walk once per element of the target (`runtime/jacobians.py`).

Rules are written with the public ops, so the same tape works eagerly and
inside a function being traced (the gradient becomes ops of that graph), and
the ops a gradient runs are recorded by any outer tape: gradients of
gradients.

    w = tf.Variable([[1.0]])
    with tf.GradientTape() as tape:
        loss = w * w
    tape.gradient(loss, w)            # [[2.]]
"""
from __future__ import annotations

import contextlib
import functools
import linecache
from dataclasses import dataclass
from typing import Any, Callable, Optional

from runtime import dtypes, jacobians, nest
from runtime.errors import NotWatchableError
from runtime.graph import Graph, assignments_recorded, creation_site
from runtime.ops import array_ops, math_ops, registry
from runtime.ops.held_variables import assigned_by, assigned_handles, read_handles, variables_of
from runtime.tensor import SymbolicTensor, Tensor, convert_to_tensor
from runtime.ops.list_ops import TENSOR_LIST_ADD, TENSOR_LIST_ZEROS
from runtime.variables import HELD_READ, READ, Variable, VariableHandle


@dataclass
class _Entry:
    """One recorded op: what its gradient rule needs. `handles` are the watched Variables that the
    op's branch or body graphs read; the rule returns their gradients after the inputs'."""

    name: str
    rule: Optional[Callable]
    inputs: tuple
    outputs: list
    attrs: dict
    multi_output: bool
    handles: tuple = ()
    location: Optional[tuple] = None   # the user's (file, line) for an op without a rule
    forward: Optional["_Forward"] = None   # for an op whose graphs use Variables: what they held


@dataclass
class _Forward:
    """What the Variables used by an op's graphs held when it ran, for a rule that replays the graphs
    (see `runtime/ops/held_variables.py`). Eagerly, their arrays before the op (an assignment replaces
    the array, never writes into it); while tracing, the op, before which a read is added when needed."""

    variables: dict                     # id -> VariableHandle
    before: Optional[dict] = None       # eagerly: id -> array
    op: Any = None                      # while tracing: the Operation
    reads: Optional[dict] = None        # while tracing: id -> the tensor of the read added before `op`
    assignments: int = 0                # while tracing: `assignments_recorded()` when `op` was recorded


def differentiable(t) -> bool:
    """Whether gradients flow through `t`: floats, complex numbers, and lists (a TensorArray's variant tensor)."""
    return t.dtype.is_floating or t.dtype.is_complex or t.dtype is dtypes.variant


def zeros_for(t):
    """The zero gradient of `t`."""
    if t.dtype is dtypes.variant:
        return registry.apply(TENSOR_LIST_ZEROS)
    return array_ops.zeros_like(t)


def add_gradients(a, b):
    """Two gradients of one tensor, summed."""
    if a.dtype is dtypes.variant:
        return registry.apply(TENSOR_LIST_ADD, a, b)
    return math_ops.add(a, b)


def _push(tape: "GradientTape") -> None:
    registry.context.tapes = (*registry.context.tapes, tape)


def _pop(tape: "GradientTape") -> None:
    registry.context.tapes = tuple(t for t in registry.context.tapes if t is not tape)


class GradientTape:
    """Records ops on watched values so that `gradient` can differentiate them."""

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True):
        self._persistent = persistent
        self._watch_accessed = watch_accessed_variables
        self._recording = False
        self._used = False
        self._entered = False    # recorded in a `with` block (or by tf.gradients): else gradient() has nothing
        self.reset()

    def reset(self) -> None:
        """Forget everything recorded so far."""
        self._entries: list[_Entry] = []
        self._tracked: dict[int, Any] = {}          # id -> tensor whose gradient is wanted or flows
        self._reads: dict[int, Any] = {}            # id of a ReadVariableOp output -> VariableHandle
        self._handles: dict[int, Any] = {}          # id of a watched VariableHandle -> handle
        self._variables: list[Variable] = []
        self._before: dict[int, tuple] = {}         # id of an eager op's attrs -> (attrs, its Variables' arrays)

    def __enter__(self) -> "GradientTape":
        if self._recording:     # TensorFlow's error: the inner block's exit would end the outer's recording
            raise ValueError("This GradientTape is still recording: a `with tape:` inside `with tape:` of the "
                             "same tape; use one block, or a second GradientTape.")
        self._recording = self._entered = True
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
            if isinstance(value, (Variable, VariableHandle)):
                self._watch_handle(value.handle if isinstance(value, Variable) else value)
            elif isinstance(value, Tensor):
                if differentiable(value):
                    self._tracked[id(value)] = value
            else:   # TensorFlow's ValueError ("Passed in object 3.0 of type 'float', not tf.Tensor"); a TypeError too
                raise NotWatchableError(f"GradientTape.watch: expected tensors or Variables, got "
                                        f"{type(value).__name__} ({value!r:.40}); watch tf.constant(value) and "
                                        "compute with that tensor.")

    def watched_variables(self) -> tuple:
        """The Variables this tape has watched, in the order they were created (TensorFlow's): every trainable one
        read in its block (as TensorFlow's, integer, bool and string ones too, which get no gradient) and those
        watched."""
        return tuple(sorted(self._variables, key=lambda v: v.handle.serial))

    # -- recording (called by registry.apply) -------------------------------------------

    def before(self, attrs: dict) -> None:
        """Called before an op that holds graphs runs eagerly: note what its graphs' Variables hold."""
        if self._recording:   # keeping `attrs` keeps its id from being reused by another op's
            self._before[id(attrs)] = attrs, {key: h.value for key, h in _variables_in(attrs).items()}

    def record(self, op, inputs, attrs, out) -> None:
        before = self._before.pop(id(attrs), (None, None))[1] if self._before else None
        if not self._recording:
            return
        if op is READ or op is HELD_READ:
            self._record_read(attrs["handle"], out)
            return
        if op.holds_graphs:
            variables = _variables_in(attrs)
            handles = tuple(h for h in variables.values() if self._watches(h))
        else:
            variables, handles = None, ()
        if not handles and not any(id(t) in self._tracked for t in inputs):
            return
        outputs = out if op.multi_output else [out]
        kept = [t for t in outputs if differentiable(t)]
        if not kept:
            return
        for t in kept:
            self._tracked[id(t)] = t
        location = None if op.grad is not None else _location(outputs)
        forward = _forward(variables, before, outputs) if variables else None
        self._entries.append(_Entry(op.name, op.grad, tuple(inputs), outputs, attrs, op.multi_output, handles,
                                    location, forward))

    def _record_read(self, handle: VariableHandle, out) -> None:
        if not self._watches(handle):
            return
        self._reads[id(out)] = handle
        self._tracked[id(out)] = out

    def _watches(self, handle: VariableHandle) -> bool:
        """Whether this tape watches `handle`, starting to if it is a trainable float one it may watch."""
        if id(handle) in self._handles:
            return True
        if not (self._watch_accessed and handle.trainable):
            return False
        if not (handle.dtype.is_floating or handle.dtype.is_complex):   # listed, as TensorFlow's, but no gradient
            self._list_owner(handle)
            return False
        self._watch_handle(handle)
        return True

    def _list_owner(self, handle: VariableHandle) -> None:
        owner = handle.owner() if handle.owner is not None else None
        if owner is not None and not any(v is owner for v in self._variables):
            self._variables.append(owner)

    def _watch_handle(self, handle: VariableHandle) -> None:
        if id(handle) not in self._handles:
            self._handles[id(handle)] = handle
            self._list_owner(handle)

    def _record_custom(self, inputs: list, outputs: list, grad_fn: Callable) -> None:
        if not any(id(t) in self._tracked for t in inputs):
            return
        for t in outputs:
            self._tracked[id(t)] = t

        def rule(grads, op_inputs, op_outputs):
            result = grad_fn(*grads)
            return tuple(result) if isinstance(result, (list, tuple)) else (result,)
        self._entries.append(_Entry("custom_gradient", rule, tuple(inputs), outputs, {}, True))

    # -- differentiating -----------------------------------------------------------------

    def gradient(self, target, sources, output_gradients=None, unconnected_gradients: str = "none"):
        """d(sum of `target`)/d(each of `sources`), in the structure of `sources`."""
        seeds = [] if output_gradients is None else nest.flatten(output_gradients)
        missing = [i for i, g in enumerate(seeds) if g is None]
        if missing:   # TensorFlow raises too (ValueError: "Attempt to convert a value (None)")
            raise ValueError(f"GradientTape.gradient: output_gradients[{missing[0]}] is None; give a tensor for every "
                             "target: tf.ones_like(target) weights it as output_gradients=None does, "
                             "tf.zeros_like(target) leaves it out.")
        return self.seeded_gradient(target, sources, output_gradients, unconnected_gradients)

    def seeded_gradient(self, target, sources, output_gradients=None, unconnected_gradients: str = "none"):
        """`gradient`, where a None among `output_gradients` weights its target by ones (as `tf.gradients`'s
        grad_ys do, and the gradients of loops for the targets that are not floats)."""
        _check_unconnected(unconnected_gradients)
        if target is None or any(t is None for t in nest.flatten(target)):   # TensorFlow's TypeError too
            raise TypeError("GradientTape.gradient: the target is None or holds a None; pass the tensor (or "
                            "Variable, or a structure of them) to differentiate.")
        flat_sources = nest.flatten(sources)
        for source in flat_sources:   # TensorFlow raises too: a None or a number has no gradient to be unconnected
            if not isinstance(source, (Tensor, Variable, VariableHandle)):
                raise TypeError(f"GradientTape.gradient: the sources must be tensors or Variables, got "
                                f"{type(source).__name__} ({source!r:.40}).")
        self._use()
        with self._recording_gradients():
            flat = self._gradients(nest.flatten(target), flat_sources, output_gradients,
                                   unconnected_gradients)
        return nest.pack(sources, flat)

    def jacobian(self, target, sources, unconnected_gradients: str = "none", parallel_iterations=None,
                 experimental_use_pfor: bool = True):
        """d target[i...]/d source[j...] for each of `sources`, shaped target.shape + source.shape, in the
        structure of `sources` (one backward pass per element of `target`: runtime/jacobians.py)."""
        _check_unconnected(unconnected_gradients)
        with self._recording_gradients():
            return jacobians.jacobian(self, target, sources, unconnected_gradients, experimental_use_pfor)

    def batch_jacobian(self, target, source, unconnected_gradients: str = "none", parallel_iterations=None,
                       experimental_use_pfor: bool = True):
        """d target[b, i...]/d source[b, j...], shaped [batch] + target.shape[1:] + source.shape[1:], for a
        target whose row b depends on row b of `source` only (zeros, as TensorFlow's, where it does not
        depend on `source` at all)."""
        _check_unconnected(unconnected_gradients)
        with self._recording_gradients():
            return jacobians.batch_jacobian(self, target, source, unconnected_gradients, experimental_use_pfor)

    def _use(self) -> None:
        if not self._entered:   # TensorFlow raises too; a None gradient would look like an unconnected one
            raise RuntimeError("This GradientTape never recorded: compute the target inside `with "
                               "tf.GradientTape() as tape:`, then ask tape.gradient (or jacobian) after it.")
        if self._used and not self._persistent:
            raise RuntimeError("A non-persistent GradientTape can compute one set of gradients (or jacobians) "
                               "only; create it with GradientTape(persistent=True) to ask again.")
        self._used = True

    def _start_jacobian(self, name: str, use_pfor: bool) -> None:
        if not use_pfor and not self._persistent and registry.context.graph is None:
            raise RuntimeError(f"GradientTape must be created with persistent=True to compute the {name} with "
                               "eager execution enabled and with experimental_use_pfor set to False.")
        self._use()

    def _recording_gradients(self):
        """As in TensorFlow, a persistent tape asked inside its `with` block records the gradient's own ops:
        asked again, it gives the gradient's gradient."""
        return contextlib.nullcontext() if self._persistent else self.stop_recording()

    def _gradients(self, targets: list, sources: list, output_gradients, unconnected: str) -> list:
        grads, by_handle, unfollowed = self._backward(targets, output_gradients)
        return [self._gradient_of(s, grads, by_handle, unfollowed, unconnected) for s in sources]

    def _backward(self, targets: list, output_gradients) -> tuple[dict, dict, list]:
        """Gradients by id of tensor, and by id of VariableHandle for the reads inside Cond/While graphs; and
        the targets the tape does not follow, with their seeds (a source that is one of them gets its seed)."""
        seeds = nest.flatten(output_gradients) if output_gradients is not None else [None] * len(targets)
        if len(seeds) != len(targets):
            raise ValueError(f"gradient: {len(targets)} targets but {len(seeds)} output_gradients.")
        grads: dict[int, Any] = {}
        by_handle: dict[int, Any] = {}
        unfollowed = []
        for t, seed in zip(targets, seeds):   # a target's own gradient is its seed, watched or not (TensorFlow's)
            if isinstance(t, Variable):
                value = t.read_value()
                _accumulate(by_handle, t.handle, array_ops.ones_like(value) if seed is None
                            else convert_to_tensor(seed, value.dtype))
            elif id(t) in self._tracked:
                _accumulate(grads, t, array_ops.ones_like(t) if seed is None else convert_to_tensor(seed, t.dtype))
            else:
                unfollowed.append((t, seed))
        for entry in reversed(self._entries):
            upstream = [grads.get(id(o)) for o in entry.outputs]
            if all(g is None for g in upstream):
                continue
            found = tuple(self._apply_rule(entry, upstream))
            for g, x in zip(found, entry.inputs):
                if g is not None and id(x) in self._tracked:
                    _accumulate(grads, x, g)
            for g, handle in zip(found[len(entry.inputs):], entry.handles):
                if g is not None:
                    _accumulate(by_handle, handle, g)
        return grads, by_handle, unfollowed

    def _apply_rule(self, entry: _Entry, upstream: list) -> tuple:
        if entry.rule is None:
            raise LookupError(
                f"No gradient defined for the op {entry.name}{_where(entry.location)}: GradientTape cannot "
                "differentiate through it. Wrap the computation in runtime.custom_gradient, or apply "
                "runtime.stop_gradient before it.")
        if not getattr(entry.rule, "takes_missing_gradients", False):   # None stands for zeros: see gradients.py
            upstream = [g if g is not None else zeros_for(o) for g, o in zip(upstream, entry.outputs)]
        attrs = {**entry.attrs, "variable_handles": entry.handles} if entry.handles else entry.attrs
        held = _held_variables(entry) if entry.forward is not None else None
        if held:
            attrs = {**attrs, "held_variables": held}
        if entry.multi_output:
            return entry.rule(upstream, entry.inputs, entry.outputs, **attrs)
        return entry.rule(upstream[0], entry.inputs, entry.outputs[0], **attrs)

    def _gradient_of(self, source, grads: dict, by_handle: dict, unfollowed: list, unconnected: str):
        if isinstance(source, (Variable, VariableHandle)):
            handle = source.handle if isinstance(source, Variable) else source
            parts = [g for key, g in grads.items() if self._reads.get(key) is handle]
            parts += [by_handle[id(handle)]] if id(handle) in by_handle else []
            total = functools.reduce(math_ops.add, parts) if parts else None
        else:
            total = grads.get(id(source))
            if total is None:
                own = [array_ops.ones_like(t) if seed is None else convert_to_tensor(seed, t.dtype)
                       for t, seed in unfollowed if t is source]
                total = functools.reduce(math_ops.add, own) if own else None
        if total is None and unconnected == "zero":
            return _zeros_shaped_like(source)
        return total


def _check_unconnected(value: str) -> None:
    if value not in ("none", "zero"):
        raise ValueError(f"unconnected_gradients must be 'none' or 'zero', got {value!r}.")


def _variables_in(attrs: dict) -> dict:
    """id -> handle of every Variable that the graphs among an op's `attrs` read or write."""
    graphs = [value for value in attrs.values() if isinstance(value, Graph)]
    if len(graphs) == 1:
        return variables_of(graphs[0])
    return {key: h for graph in graphs for key, h in variables_of(graph).items()}


def _forward(variables: dict, before: Optional[dict], outputs: list) -> _Forward:
    if isinstance(outputs[0], SymbolicTensor):
        return _Forward(variables, op=outputs[0].op, reads={}, assignments=assignments_recorded())
    return _Forward(variables, before=before or {key: h.value for key, h in variables.items()})


def _held_variables(entry: _Entry) -> dict:
    """For the rule of an op holding graphs: the Variables whose values a replay of its graphs must take
    from the forward pass (id -> (handle, value when the op started)). They are those the graphs assign, and
    those they read that were assigned after the op was recorded."""
    forward = entry.forward
    graphs = [v for v in entry.attrs.values() if isinstance(v, Graph)]
    assigned = {key for graph in graphs for key in assigned_handles(graph)}
    read = {key for graph in graphs for key in read_handles(graph)}
    held = assigned | (_assigned_since(forward, read - assigned) if read - assigned else set())
    return {key: (forward.variables[key], _value_before(forward, key)) for key in held if key in forward.variables}


def _assigned_since(forward: _Forward, keys: set) -> set:
    """Which of the Variables `keys` were assigned after the op ran (eagerly) or was recorded (tracing: in
    its graph, or in a graph being built inside it now, such as a loop body where `gradient` is asked)."""
    if forward.op is None:
        return {key for key in keys if forward.variables[key].value is not forward.before[key]}
    if assignments_recorded() == forward.assignments:   # no graph has recorded an assignment since
        return set()
    found: set = set()
    graph, current = forward.op.graph, registry.context.graph
    while current is not None and current is not graph:
        found.update(key for op in current.stateful_since(None) for key in assigned_by(op) if key in keys)
        current = current.outer_graph
    found.update(key for op in graph.stateful_since(forward.op) for key in assigned_by(op) if key in keys)
    return found


def _value_before(forward: _Forward, key: int):
    """What the Variable `key` held when the op started: its array, or a read added just before the op."""
    if forward.op is None:
        return registry.wrap(forward.before[key])
    if key not in forward.reads:
        graph = forward.op.graph
        forward.reads[key] = graph.insert_before(forward.op, READ, {"handle": forward.variables[key]})[0]
    return forward.reads[key]


def _zeros_shaped_like(source):
    if isinstance(source, Tensor):
        return zeros_for(source)
    return array_ops.zeros(source.shape.as_list(), dtype=source.dtype)   # a Variable: its shape is known


def _accumulate(grads: dict, key_of, g) -> None:
    if g.dtype is not key_of.dtype:
        g = math_ops.cast(g, key_of.dtype)
    previous = grads.get(id(key_of))
    grads[id(key_of)] = g if previous is None else add_gradients(previous, g)


def _location(outputs: list) -> Optional[tuple]:
    """Where the user made the op whose `outputs` these are: its graph's record, or the calling line."""
    first = outputs[0] if outputs else None
    if isinstance(first, SymbolicTensor):
        return first.op.location
    return creation_site()


def _where(location: Optional[tuple]) -> str:
    """' (made at file:line: source)' for a known location, else ''."""
    if location is None:
        return ""
    filename, line = location
    text = linecache.getline(filename, line).strip()
    return f" (made at {filename}:{line}" + (f": {text})" if text else ")")


from runtime.graph_gradients import ForwardAccumulator  # noqa: E402,F401  (tf.autodiff.ForwardAccumulator)
