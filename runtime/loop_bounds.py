"""How many times a staged `While` runs, where tracing (or jit lowering) can know it: from its
`maximum_iterations`, or by evaluating its test on the loop variables it reads while they are constants or
computed from constants (a `for` over `tf.range(3)`, with or without a `break`).

A loop's gradient gives its history loop and its backward loop that bound as their `maximum_iterations`
(runtime/ops/control_flow_gradients.py), and `jit_compile=True` gives a loop that appends to a TensorArray
that many rows (runtime/lowering/jax_effects.py): XLA needs every size before the program runs.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from runtime.control_flow import static_value

_MOST_TRIPS = 100_000   # a longer loop needs maximum_iterations (simulating it would be slow)


def static_trip_count(inputs, cond_graph, body_graph, n: int, cond_inputs, body_inputs, known: Optional[dict] = None,
                      limit: Optional[int] = None, value_of=None) -> Optional[int]:
    """The most times a While on `inputs` runs its body, where that is known when tracing: the test evaluated on
    the loop variables it reads, and those the body computes them from, while they are constants or computed
    from constants (with the ops' kernels, `static_value`; `known`: values of other placeholders, by id). A
    test that becomes false on known values (also `a and b` with one side false: a `for` over a constant
    range with a `break`) ends it. `limit`: a maximum_iterations. None where neither knows."""
    known = dict(known or {})
    value_of = value_of or (lambda t: static_value(t, known))
    for graph, positions in ((cond_graph, cond_inputs), (body_graph, body_inputs)):   # what the graphs capture
        for placeholder, i in zip(graph.inputs[n:], positions):
            if (value := value_of(inputs[i])) is not None:
                known[id(placeholder)] = value
    needed = _test_variables(cond_graph, body_graph, n)
    values = {k: v for k in needed if (v := value_of(inputs[k])) is not None}
    most = _MOST_TRIPS if limit is None else min(limit, _MOST_TRIPS)
    for count in range(most + 1):
        if count == limit:
            return count
        at = {**known, **{id(cond_graph.inputs[k]): v for k, v in values.items()}}
        if _known_false(cond_graph.outputs[0], at):
            return count
        at = {**known, **{id(body_graph.inputs[k]): v for k, v in values.items()}}
        values = {k: v for k in values if (v := static_value(body_graph.outputs[k], at)) is not None}
        if not values:
            return None
    return None


def _known_false(test, known: dict) -> bool:
    """Whether `test` is false on the values `known`: its value, or `a and b` with a side false (a LogicalAnd, or
    autograph's lazy `and`: a Cond on `a` whose branch taken gives false)."""
    value = static_value(test, known)
    if value is not None:
        return np.ndim(value) == 0 and not bool(value)
    op = getattr(test, "op", None)
    if op is not None and op.type == "LogicalAnd":
        return any(_known_false(t, known) for t in op.inputs)
    if op is not None and op.type == "Cond":
        pred = static_value(op.inputs[0], known)
        if pred is None or np.ndim(pred) != 0:
            return False
        graph, positions = (op.attrs["then_graph"], op.attrs["then_inputs"]) if pred else \
            (op.attrs["else_graph"], op.attrs["else_inputs"])
        inner = dict(known)
        for placeholder, i in zip(graph.inputs, positions):
            value = static_value(op.inputs[i], known)
            if value is not None:
                inner[id(placeholder)] = value
        return _known_false(graph.outputs[op.outputs.index(test)], inner)
    return False


def _test_variables(cond_graph, body_graph, n: int) -> set:
    """The loop variables the test reads, and those the body computes them from (their closure)."""
    needed = _placeholders_under(cond_graph.outputs[0], cond_graph.inputs[:n])
    while True:
        more = set().union(*(_placeholders_under(body_graph.outputs[k], body_graph.inputs[:n]) for k in needed))
        if more <= needed:
            return needed
        needed |= more


def _placeholders_under(tensor, placeholders: list) -> set:
    """The positions in `placeholders` of those `tensor` is computed from."""
    wanted = {id(p): k for k, p in enumerate(placeholders)}
    found, seen, stack = set(), set(), [tensor]
    while stack:
        t = stack.pop()
        if id(t) in seen:
            continue
        seen.add(id(t))
        if id(t) in wanted:
            found.add(wanted[id(t)])
        elif getattr(t, "op", None) is not None:
            stack.extend(t.op.inputs)
    return found
