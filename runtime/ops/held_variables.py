"""Replaying a graph with Variables held as values, so that a gradient rule's replay reads what the
forward pass read.

The rules of `Cond`, `While` and `Call` differentiate a branch, a body or a
function by running it again under a tape. When the graph assigns a Variable,
or the Variable was assigned after the op ran, a replay that read the
Variable would see other values than the forward pass did. The tape then
gives the rule `held`: for each such Variable, the value it had when the op
started (id of its handle -> (handle, value)); the replay here reads and
updates that value and never the Variable:

- a `ReadVariableOp` of a held Variable gives `HeldVariableRead(value)`, which
  tapes take as a read of the Variable: its gradient reaches the Variable, and
  none reaches what computed an assigned value (as in TensorFlow, where a
  gradient does not pass through an assignment);
- an assignment computes the new value into `held`;
- a `Cond` or `While` whose graphs use a held Variable is staged again with
  `cond`/`while_loop`, the values carried as extra outputs or loop variables,
  so a `While`'s gradient keeps them per iteration like the rest of its state.

    v.assign_add(x)          # in a loop body: held[v] = held[v] + x
    y = y + v * v            # HeldVariableRead(held[v]) * HeldVariableRead(held[v])
"""
from __future__ import annotations

from typing import Optional

from runtime.control_flow import cond, while_loop
from runtime.interpret import interpret, reapply_quietly
from runtime.ops import math_ops, registry
from runtime.variables import ASSIGN, ASSIGN_ADD, ASSIGN_SUB, HELD_READ, READ

_VARIABLE_OPS = (READ, ASSIGN, ASSIGN_ADD, ASSIGN_SUB)


def replay_holding(graph, feeds: list, wanted: list, held: dict, known: Optional[dict] = None) -> list:
    """`replay(graph, feeds, wanted, with_effects=False, controls=False)`, with the Variables of `held` read
    from and assigned to `held` (which is updated). The ops run are those `wanted` needs and every
    assignment to a held Variable, in program order, so each read sees the assignments before it."""
    env = {id(const): original for original, const in graph._eager_captures.values()}
    env.update(known or {})

    def apply_op(op, inputs: list) -> list:
        return _apply(op, inputs, held)
    return interpret(graph, feeds, wanted, apply_op, known=env, ops=_ops_to_run(graph, wanted, held))


def assigned_handles(graph) -> dict:
    """id -> handle of every Variable assigned in `graph` or in the graphs nested in its ops."""
    return _handles(graph, "_assigned_handles", lambda op: op.opdef in _VARIABLE_OPS and op.opdef is not READ,
                    stateful=True)


def assigned_by(op) -> dict:
    """id -> handle of every Variable that `op` assigns, itself or in its graphs."""
    if op.opdef in _VARIABLE_OPS:
        return {} if op.opdef is READ else {id(op.attrs["handle"]): op.attrs["handle"]}
    if not op.opdef.holds_graphs:
        return {}
    return {key: h for _, sub in op.subgraphs() for key, h in assigned_handles(sub).items()}


def read_handles(graph) -> dict:
    """id -> handle of every Variable read (by a ReadVariableOp) in `graph` or the graphs nested in it."""
    return _handles(graph, "_read_handles", lambda op: op.opdef is READ, stateful=True)


def variables_of(graph) -> dict:
    """id -> handle of every Variable that `graph` or the graphs nested in it read or write (by any op with
    a `handle`, HeldVariableRead too)."""
    return _handles(graph, "_variables_of", lambda op: "handle" in op.attrs)


def _used_handles(graph) -> dict:
    return _handles(graph, "_used_handles", lambda op: op.opdef in _VARIABLE_OPS, stateful=True)


def _handles(graph, key: str, chosen, stateful: bool = False) -> dict:
    """id -> handle of the ops `chosen` in `graph` and the graphs nested in it, cached on the graph. Reads
    and assignments are stateful, and so is an op whose graphs hold one: `stateful` walks those only
    (the chain of stateful ops, much shorter than a gradient's graph)."""
    cache = graph.__dict__.setdefault(key, {})
    size = len(graph.operations)
    if size not in cache:
        found = {}
        for op in graph.stateful_since(None) if stateful else graph.operations:
            if chosen(op):
                found[id(op.attrs["handle"])] = op.attrs["handle"]
            for _, sub in op.subgraphs():
                found.update(_handles(sub, key, chosen, stateful))
        cache[size] = found
    return cache[size]


def _ops_to_run(graph, wanted: list, held: dict) -> list:
    roots = [t.op for t in wanted if getattr(t, "op", None) is not None and t.op.graph is graph]
    roots += [op for op in graph.operations if _assigns(op, held)]
    needed: set[int] = set()
    while roots:
        op = roots.pop()
        if id(op) not in needed:
            needed.add(id(op))
            roots.extend(t.op for t in op.inputs)
    return [op for op in graph.operations if id(op) in needed and op.type != "Placeholder"]


def _assigns(op, held: dict) -> bool:
    if op.opdef in _VARIABLE_OPS:
        return op.opdef is not READ and id(op.attrs["handle"]) in held
    return op.opdef.holds_graphs and any(k in held for _, sub in op.subgraphs() for k in assigned_handles(sub))


def _apply(op, inputs: list, held: dict) -> list:
    if op.opdef in _VARIABLE_OPS and id(op.attrs["handle"]) in held:
        return [_held_variable_op(op, inputs, held)]
    if op.opdef.holds_graphs:
        used = [k for k in held if any(k in _used_handles(sub) for _, sub in op.subgraphs())]
        if used and op.type in _RESTAGED:
            return _RESTAGED[op.type](op, inputs, held, used)
        if used:
            raise LookupError(f"No gradient through the {op.type} op {op.name}: it uses a Variable that a "
                              "gradient rule holds as the values the forward pass read.")
    return reapply_quietly(op, inputs)


def _held_variable_op(op, inputs: list, held: dict):
    handle, value = held[id(op.attrs["handle"])]
    if op.opdef is ASSIGN:
        value = inputs[0] if inputs[0].dtype is handle.dtype else math_ops.cast(inputs[0], handle.dtype)
    elif op.opdef is ASSIGN_ADD:
        value = math_ops.add(value, inputs[0])
    elif op.opdef is ASSIGN_SUB:
        value = math_ops.subtract(value, inputs[0])
    held[id(handle)] = (handle, value)
    return registry.apply(HELD_READ, value, handle=handle)   # an assignment's output is the new value, read


def _restaged_cond(op, inputs: list, held: dict, used: list) -> list:
    """The Cond again, each branch replayed holding the Variables; their values after it are extra outputs."""
    attrs = op.attrs

    def branch(graph, positions):
        def run():
            mine = {k: held[k] for k in used}
            outs = replay_holding(graph, [inputs[i] for i in positions], graph.outputs, mine)
            return [*outs, *(mine[k][1] for k in used)]
        return run

    results = list(cond(inputs[0], branch(attrs["then_graph"], attrs["then_inputs"]),
                        branch(attrs["else_graph"], attrs["else_inputs"])))
    return _kept(results, len(op.outputs), used, held)


def _restaged_while(op, inputs: list, held: dict, used: list) -> list:
    """The While again, its test and body replayed holding the Variables, carried as extra loop variables."""
    attrs = op.attrs
    n, cond_graph, body_graph = attrs["num_loop_vars"], attrs["cond_graph"], attrs["body_graph"]
    cond_ext = [inputs[i] for i in attrs["cond_inputs"]]
    body_ext = [inputs[i] for i in attrs["body_inputs"]]
    limit = attrs["max_iterations_input"]

    def holding(state) -> dict:
        return {k: (held[k][0], value) for k, value in zip(used, state[n:])}

    def test(*state):
        return replay_holding(cond_graph, [*state[:n], *cond_ext], cond_graph.outputs, holding(state))[0]

    def body(*state):
        mine = holding(state)
        outs = replay_holding(body_graph, [*state[:n], *body_ext], body_graph.outputs, mine)
        return [*outs, *(mine[k][1] for k in used)]

    start = [*inputs[:n], *(held[k][1] for k in used)]
    results = list(while_loop(test, body, start, maximum_iterations=None if limit is None else inputs[limit],
                              relax_shapes=True))
    return _kept(results, n, used, held)


def _kept(results: list, n: int, used: list, held: dict) -> list:
    for k, value in zip(used, results[n:]):
        held[k] = (held[k][0], value)
    return results[:n]


_RESTAGED = {"Cond": _restaged_cond, "While": _restaged_while}
