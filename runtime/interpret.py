"""THE graph interpreter: evaluate a graph op by op, with an "apply op" callback.

    interpret(graph, feeds, wanted, apply_op)

feeds `graph.inputs` with `feeds`, walks the ops that `wanted` needs (and,
unless `with_effects=False`, every stateful op) in program order, and asks
`apply_op(op, inputs)` for each op's outputs. The callback says what
evaluating an op means; there are three, and every way of evaluating a graph
other than the compiled executor is one of them:

- `run_kernel`: NumPy values in and out. This is the kernel of `Cond` and
  `While` (their branch and body graphs are interpreted), and the reference
  the compiled executor is checked against in tests.
- `reapply`: `registry.apply` on tensors, eagerly or into the graph being
  traced, so that GradientTapes record each op (`replay`): a traced function
  called under a tape, and the gradient rules of `Cond` and `While`.
- `inline_into(graph, prefix)`: copy each op into another graph as it is
  (no inference, no tape): a traced function called while tracing another.
"""
from __future__ import annotations

from typing import Callable, Optional

import numpy as np

from runtime.graph import FuncGraph
from runtime.ops import registry
from runtime.ops.registry import Spec

ApplyOp = Callable[[object, list], list]


def needed_ops(graph, wanted: list, with_effects: bool = True, controls: bool = True) -> list:
    """The ops `wanted` depends on (and, `with_effects`, every stateful op), in program order; without
    `controls`, through their inputs only, not the stateful ops that came before them.
    Cached on the graph: a loop body is interpreted once per iteration."""
    key = (tuple(id(t) for t in wanted), with_effects, controls, len(graph.operations))
    cache = graph.__dict__.setdefault("_needed_ops", {})
    found = cache.get(key)
    if found is None:
        found = cache[key] = _needed_ops(graph, wanted, with_effects, controls)
    return found


def _needed_ops(graph, wanted: list, with_effects: bool, controls: bool) -> list:
    needed: set[int] = set()
    stack = [t.op for t in wanted if _is_tensor_of(t, graph)]
    if with_effects:
        stack += [op for op in graph.operations if op.stateful]
    while stack:
        op = stack.pop()
        if id(op) not in needed:
            needed.add(id(op))
            stack.extend(t.op for t in op.inputs)
            if controls:
                stack.extend(op.control_inputs)
    return [op for op in graph.operations if id(op) in needed and op.type != "Placeholder"]


_REPEATABLE_EFFECTS = frozenset({"ReadVariableOp", "PrintV2", "Assert", "CheckDefined", "Raise"})


def unrepeatable_ops(graph) -> list:
    """The ops of `graph` (and of the graphs nested in its ops) that a replay would not reproduce:
    random draws, and assignments (after which a replayed read sees another value). A gradient that
    recomputes a graph by replaying it is only right when there are none."""
    cache = graph.__dict__.setdefault("_unrepeatable", {})
    if len(graph.operations) not in cache:
        found = [op for op in graph.operations if op.opdef.stateful and op.type not in _REPEATABLE_EFFECTS]
        for op in graph.operations:
            for _, sub in op.subgraphs():
                found += unrepeatable_ops(sub)
        cache[len(graph.operations)] = found
    return cache[len(graph.operations)]


def without_prints(graph):
    """`graph`, or where it prints (itself or in the branches and loop bodies nested in it, at any depth) a
    copy without the `PrintV2` ops: what a gradient's replay runs of a `Cond` or `While` nested in the graph
    it replays, so that their prints happen once, in the forward pass, as TensorFlow's (whose gradients use
    the forward pass's values and run no branch again). Cached on the graph, as `unrepeatable_ops`."""
    cache = graph.__dict__.setdefault("_without_prints", {})
    if len(graph.operations) not in cache:
        prints = any(op.type == "PrintV2" for op in graph.operations) or any(
            without_prints(sub) is not sub for op in graph.operations for _, sub in op.subgraphs())
        cache[len(graph.operations)] = _copy_without_prints(graph) if prints else graph
    return cache[len(graph.operations)]


def _copy_without_prints(graph):
    def zero_for_print(op, copy):   # a print's output (an int32 scalar) stands for it: 0 if anything reads it
        if op.type != "PrintV2":
            return None
        return copy.create_op(registry.OPS["Const"], (), {"value": np.int32(0)},
                              [Spec(t.dtype, t.shape) for t in op.outputs])
    return copy_graph(graph, without_prints, zero_for_print)[0]


def with_handles(graph, handles: dict):
    """`graph`, or where it (or a branch or loop body nested in it, at any depth) reads or writes a Variable
    whose handle `handles` maps (by id) to another, a copy that uses the other: a traced function for other
    Variables passed as its arguments, without tracing it again."""
    def mapped(sub):
        return with_handles(sub, handles)

    if not any(id(op.attrs.get("handle")) in handles or any(mapped(sub) is not sub for _, sub in op.subgraphs())
               for op in graph.operations):
        return graph
    return copy_graph(graph, mapped, attrs=lambda attrs: {
        k: handles.get(id(v), v) if k == "handle" else v for k, v in attrs.items()})[0]


def copy_graph(graph, subgraph, replace=None, attrs=None) -> tuple:
    """A copy of `graph` (and the map from its tensors' ids to the copy's), each nested graph `subgraph(g)`;
    `replace(op, copy)` may give an op's outputs instead of a copy of it (None: copied), `attrs(op.attrs)`
    the copy's attributes."""
    copy = FuncGraph(graph.name, graph.outer_graph)
    env = {id(t): copy.placeholder(t.dtype, t.shape, t.op.name) for t in graph.inputs}
    for op in graph.operations:
        if op.type == "Placeholder":
            continue
        outs = replace(op, copy) if replace is not None else None
        if outs is None:
            nested = dict(op.subgraphs())
            new_attrs = {k: subgraph(v) if k in nested else v for k, v in op.attrs.items()}
            outs = copy.create_op(op.opdef, tuple(env[id(t)] for t in op.inputs),
                                  attrs(new_attrs) if attrs is not None else new_attrs,
                                  [Spec(t.dtype, t.shape) for t in op.outputs], name=op.name)
            copy.operations[-1].location = op.location
        env.update((id(t), new) for t, new in zip(op.outputs, outs))
    copy.outputs = [env[id(t)] for t in graph.outputs]
    copy.structured_outputs = graph.structured_outputs
    copy._eager_captures = {key: (eager, env[id(const)]) for key, (eager, const) in graph._eager_captures.items()}
    copy.captures = {key: (outer, env[id(ph)]) for key, (outer, ph) in graph.captures.items()}
    copy.capture_pairs = [(outer, env[id(ph)]) for outer, ph in graph.capture_pairs]
    return copy, env


def _is_tensor_of(value, graph) -> bool:
    op = getattr(value, "op", None)
    return op is not None and op.graph is graph


def interpret(graph, feeds: list, wanted: list, apply_op: ApplyOp, with_effects: bool = True,
              known: Optional[dict] = None, controls: bool = True, ops: Optional[list] = None) -> list:
    """The values of `wanted` (tensors of `graph`; anything else is returned as it is), with
    `graph.inputs` fed by `feeds` and every op evaluated by `apply_op`. `known` maps ids of
    tensors of `graph` to values that stand for them (they are not computed). `controls`: see
    `needed_ops`; `ops`, when given, are the ops to evaluate instead (in program order)."""
    env = dict(known) if known else {}
    for placeholder, value in zip(graph.inputs, feeds):
        env[id(placeholder)] = value
    for op in needed_ops(graph, wanted, with_effects, controls) if ops is None else ops:
        if op.outputs and id(op.outputs[0]) in env:   # a `known` value
            continue
        results = apply_op(op, [env[id(t)] for t in op.inputs])
        for tensor, value in zip(op.outputs, results):
            env[id(tensor)] = value
    return [env[id(t)] if _is_tensor_of(t, graph) else t for t in wanted]


# --- the callbacks ---------------------------------------------------------------------

def run_kernel(op, values: list) -> list:
    """Evaluate `op` on NumPy values with its kernel."""
    out = op.opdef.kernel(*values, **op.attrs)
    return out if op.opdef.multi_output else [out]


def run_graph(graph, values: list) -> list:
    """`graph`'s outputs on NumPy values: what `Cond` and `While` do with their graphs."""
    return interpret(graph, values, graph.outputs, run_kernel)


def reapply(op, inputs: list) -> list:
    """Apply `op` again through the registry, so that tapes see it."""
    out = registry.apply(op.opdef, *inputs, **op.attrs)
    return out if op.opdef.multi_output else [out]


def reapply_quietly(op, inputs: list) -> list:
    """`reapply`, a `Cond` or `While` with its graphs `without_prints`: the callback of a replay without
    effects (a gradient's), which leaves out the prints of the graph it replays and of the graphs nested
    in it."""
    if op.opdef.holds_graphs and op.type in ("Cond", "While"):
        attrs = {k: without_prints(v) if k in dict(op.subgraphs()) else v for k, v in op.attrs.items()}
        return registry.apply(op.opdef, *inputs, **attrs)
    return reapply(op, inputs)


def replay(graph, feeds: list, wanted: list, with_effects: bool = True, controls: bool = True) -> list:
    """`interpret` with `reapply`: the ops run eagerly, or are recorded into the graph being traced,
    and GradientTapes record them. A constant the graph made for an eager tensor it captured stands
    for that very tensor, so a tape that watches it sees its uses. Without effects, no print runs, nor
    those of the branches and loops nested in the graph (`reapply_quietly`)."""
    known = {id(const): original for original, const in graph._eager_captures.values()}
    return interpret(graph, feeds, wanted, reapply if with_effects else reapply_quietly, with_effects, known,
                     controls)


def inline_into(target, prefix: str) -> ApplyOp:
    """A callback that copies each op into `target` under `prefix/`, outputs typed as before."""
    def copy(op, inputs: list) -> list:
        specs = [Spec(t.dtype, t.shape) for t in op.outputs]
        return target.create_op(op.opdef, tuple(inputs), op.attrs, specs, name=f"{prefix}/{op.name}")
    return copy
