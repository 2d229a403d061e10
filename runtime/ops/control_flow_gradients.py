"""Gradient rules of the ops that hold graphs — `Cond`, `While`, and `Call` (a traced function run
under an eager tape): entries of the gradient table like every other rule.

Both differentiate their branch or body graph by replaying it
(`runtime.interpret.replay`) under a fresh GradientTape, inside a `cond` or
`while_loop` of their own. They are written with public ops only, so they
work eagerly and while tracing, and an outer tape records what they run:
gradients of gradients.

A `Cond`'s gradient is a `Cond` whose branches differentiate the original
branches. A `While`'s gradient runs the loop once more, keeping each
iteration's loop state in TensorArrays, then runs a backward `While` from the
last iteration to the first, each step differentiating the body at that
iteration's state — linear in the trip count; the body runs twice forwards.

A `Call`'s gradient is a graph traced once (the function's graph replayed
under a tape) and compiled, so a training step whose tape is outside the
function runs compiled code forwards and backwards.

Variables that the graphs read come as `variable_handles` (the tape found
them); their gradients follow the inputs' in the returned tuple. Variables
that the graphs assign, or that were assigned after the op, come as
`held_variables` with the values they had when the op started: the replays
read and assign those values instead (`held_variables.py`), so the gradient
uses what the forward pass read, and a While's keeps them per iteration.
"""
from __future__ import annotations

import numpy as np

from runtime.autodiff import GradientTape, add_gradients, differentiable, zeros_for
from runtime.control_flow import cond, static_value, while_loop
from runtime.loop_bounds import static_trip_count
from runtime.executor.codegen import compile_graph
from runtime.graph import FuncGraph, building, made_at
from runtime.interpret import interpret, needed_ops, reapply_quietly, replay, unrepeatable_ops
from runtime.ops import array_ops, math_ops, registry
from runtime.ops.held_variables import assigned_handles, replay_holding
from runtime.tensor_array import TensorArray
from runtime.variables import VariableHandle


def _check_repeatable(op_type: str, held, *graphs) -> None:
    """The Cond/While rules replay their graphs: a random draw there would be drawn again, and an
    assignment would be made again or leave a replayed read seeing another value than the op saw
    (the tape gives the Variables that the graphs assign as `held`, so this is a safety net)."""
    for graph in graphs:
        for op in unrepeatable_ops(graph):
            if op.type.startswith("Random"):
                raise LookupError(
                    f"No gradient through a {op_type} whose branch or body draws random numbers ({op.type}"
                    f"{_on_one_line(made_at(op))}): its gradient would replay the draw. Draw the numbers before the "
                    f"{op_type.lower()} and pass them in.")
    assignment = _replayed_assignment(graphs, held or {})
    if assignment is not None:
        raise LookupError(
            f"No gradient through a {op_type} whose branch or body assigns the Variable "
            f"'{assignment.attrs['handle'].name}' ({assignment.type}{_on_one_line(made_at(assignment))}) and reads "
            f"it or needs the assignment: its gradient replays the {op_type.lower()}, which would assign again and "
            "read values the first run did not see. Assign after the gradient is computed, or keep the values "
            f"in tensors carried by the {op_type.lower()} and assign them once after it.")


def _replayed_assignment(graphs, held: dict):
    """An assignment in `graphs` that a replay of their outputs would run again, or one to a Variable the
    graphs also read (a replayed read would see the value after every assignment); None if there is none.
    Assignments to the Variables `held` are replayed on the values held instead."""
    assignments = [op for graph in graphs for op in unrepeatable_ops(graph)
                   if "handle" in op.attrs and id(op.attrs["handle"]) not in held]
    if not assignments:
        return None
    read = {id(op.attrs["handle"]) for graph in graphs for op in _walk(graph) if op.type == "ReadVariableOp"}
    replayed = {id(op) for graph in graphs for op in _replayed_ops(graph)}
    return next((op for op in assignments if id(op) in replayed or id(op.attrs["handle"]) in read), None)


def _replayed_ops(graph):
    """The ops a replay of `graph`'s outputs runs: the ones they need, and all of the graphs nested in
    those (a Cond's or While's kernel runs its graphs with their effects)."""
    for op in needed_ops(graph, graph.outputs, with_effects=False, controls=False):
        yield op
        for _, sub in op.subgraphs():
            yield from _walk(sub)


def _walk(graph):
    for op in graph.operations:
        yield op
        for _, sub in op.subgraphs():
            yield from _walk(sub)


def _on_one_line(where: str) -> str:
    return where.replace("\n    made at", ", made at")


def graph_gradient(graph, feeds: list, output_gradients: list, handles=(), held=None, unconnected="zero") -> list:
    """d(graph's outputs, weighted by `output_gradients`)/d(each feed, then each handle), with zeros
    where there is no dependence. A tensor that feeds two inputs gets a gradient for each. The replay
    follows the ops' inputs only, not the order of stateful ops: the Variables that the graph assigns are
    `held` (their reads and assignments replayed on values, in program order), so a read of another one
    need not wait for an assignment (which would be made again)."""
    feeds = _distinct(feeds)
    with GradientTape() as tape:
        tape.watch([f for f in feeds if differentiable(f)])
        if held:
            outs = replay_holding(graph, feeds, graph.outputs, dict(held))
        else:
            outs = replay(graph, feeds, graph.outputs, with_effects=False, controls=False)
    return tape.seeded_gradient(outs, [*feeds, *handles], output_gradients, unconnected_gradients=unconnected)


def _distinct(feeds: list) -> list:
    seen: set[int] = set()
    out = []
    for f in feeds:
        out.append(array_ops.identity(f) if id(f) in seen else f)
        seen.add(id(f))
    return out


# --- Cond ---------------------------------------------------------------------------------

def cond_gradient(grads, inputs, outputs, then_graph, else_graph, then_inputs, else_inputs, output_specs,
                  variable_handles=(), held_variables=None):
    wanted = [i for i in range(1, len(inputs)) if differentiable(inputs[i])]
    if not wanted and not variable_handles:
        return ()
    _check_repeatable("Cond", held_variables, then_graph, else_graph)

    unreached = set(wanted)   # the inputs no branch traced (or, eagerly, the branch taken) has a gradient for

    def branch(graph, positions):
        def differentiate():
            found = graph_gradient(graph, [inputs[i] for i in positions], grads, variable_handles, held_variables,
                                   unconnected="none")
            by_position = dict(zip(positions, found))
            unreached.difference_update(i for i in positions if by_position[i] is not None)
            return ([_or_zeros(by_position.get(i), inputs[i]) for i in wanted]
                    + [array_ops.zeros(h.shape.as_list(), dtype=h.dtype) if g is None else g
                       for g, h in zip(found[len(positions):], variable_handles)])
        return differentiate

    results = cond(inputs[0], branch(then_graph, then_inputs), branch(else_graph, else_inputs))
    by_input = {i: g for i, g in zip(wanted, results) if i not in unreached}   # None there, as TensorFlow's
    return (None, *(by_input.get(i) for i in range(1, len(inputs))), *results[len(wanted):])


def _or_zeros(gradient, like):
    return zeros_for(like) if gradient is None else gradient


# --- While --------------------------------------------------------------------------------

def while_gradient(grads, inputs, outputs, cond_graph, body_graph, num_loop_vars, cond_inputs, body_inputs,
                   output_specs, max_iterations_input, variable_handles=(), held_variables=None):
    n = num_loop_vars
    body_ext = [inputs[i] for i in body_inputs]
    loop_floats = [k for k in range(n) if differentiable(inputs[k])]
    ext_floats = [j for j, t in enumerate(body_ext) if differentiable(t)]
    start = ([grads[k] for k in loop_floats] + [zeros_for(body_ext[j]) for j in ext_floats]
             + [array_ops.zeros(h.shape.as_list(), dtype=h.dtype) for h in variable_handles])
    if not start:
        return ()
    _check_repeatable("While", held_variables, cond_graph, body_graph)
    held = held_variables or {}
    changing = {**assigned_handles(cond_graph), **assigned_handles(body_graph)}
    carried = [(key, value) for key, value in held.items() if key in changing]    # kept per iteration
    fixed = {key: value for key, value in held.items() if key not in changing}   # assigned after the loop
    bound = _most_trips(inputs, cond_graph, body_graph, n, cond_inputs, body_inputs, max_iterations_input)
    count, history = _forward_history(inputs, cond_graph, body_graph, n, cond_inputs, body_inputs, output_specs,
                                      bound, carried, fixed)

    def more(k, *gradients):
        return math_ops.greater(k, 0)

    def back_step(k, *gradients):
        k = k - 1
        state = [saved.read(k) for saved in history]
        at_k = {**fixed, **{key: (handle, value) for (key, (handle, _)), value in zip(carried, state[n:])}}
        seeds = [None] * n
        for k_, g in zip(loop_floats, gradients):
            seeds[k_] = g
        found = graph_gradient(body_graph, [*state[:n], *body_ext], seeds, variable_handles, at_k)
        to_state = [found[j] for j in loop_floats]
        to_rest = [found[n + j] for j in ext_floats] + list(found[n + len(body_ext):])
        summed = [add_gradients(a, b) for a, b in zip(gradients[len(loop_floats):], to_rest)]
        return (k, *to_state, *summed)

    result = while_loop(more, back_step, (count, *start), relax_shapes=True,   # their gradients may change shape too
                        maximum_iterations=bound)
    return _by_input(inputs, result[1:], loop_floats, ext_floats, body_inputs, cond_inputs)


def _most_trips(inputs, cond_graph, body_graph, n, cond_inputs, body_inputs, max_iterations_input):
    """The loop's maximum_iterations, or its trip count where tracing knows it (a constant range): the history
    and the backward loop are given it as their maximum_iterations, so that jit_compile knows their lists' size
    (XLA needs it before the loops run; the executor's loops end where they did without it)."""
    limit = None if max_iterations_input is None else inputs[max_iterations_input]
    if registry.context.graph is None:   # eager: the loops run on values, and end where they end
        return limit
    static_limit = None if limit is None else static_value(limit)
    if limit is not None and static_limit is None:
        return limit
    trips = static_trip_count(inputs, cond_graph, body_graph, n, cond_inputs, body_inputs,
                              limit=None if limit is None else int(static_limit))
    return trips if trips is not None else None if limit is None else int(static_limit)


def _forward_history(inputs, cond_graph, body_graph, n, cond_inputs, body_inputs, output_specs,
                     limit, carried: list, fixed: dict):
    """The loop run again, keeping each iteration's loop state: (trip count, a TensorArray per loop var,
    then one per Variable held that the loop assigns, whose values are carried after the loop variables;
    those held at one value, `fixed`, are read at it). `limit`: the most iterations, or None."""
    cond_ext = [inputs[i] for i in cond_inputs]
    body_ext = [inputs[i] for i in body_inputs]
    m = n + len(carried)

    def run(graph, state, ext) -> list:
        """`graph` replayed on the loop variables and Variables held in `state`; a body gives both anew."""
        if not carried and not fixed:
            return replay(graph, [*state, *ext], graph.outputs, with_effects=False, controls=False)
        mine = {**fixed, **{key: (handle, value) for (key, (handle, _)), value in zip(carried, state[n:])}}
        outs = replay_holding(graph, [*state[:n], *ext], graph.outputs, mine)
        return outs if graph is cond_graph else [*outs, *(mine[key][1] for key, _ in carried)]

    def more(i, *rest):
        return run(cond_graph, rest[:m], cond_ext)[0]

    def step(i, *rest):
        saved = [ta.write(i, v) for ta, v in zip(rest[m:], rest[:m])]
        return (i + 1, *run(body_graph, rest[:m], body_ext), *saved)

    specs = [*output_specs, *((h.dtype, h.shape) for _, (h, _) in carried)]
    saved = [TensorArray(dtype, size=0, dynamic_size=True, element_shape=shape) for dtype, shape in specs]
    start = (0, *inputs[:n], *(value for _, (_, value) in carried), *saved)
    final = while_loop(more, step, start, relax_shapes=True, maximum_iterations=limit)   # shapes may change
    return final[0], list(final[1 + m:])


def _by_input(inputs, results, loop_floats, ext_floats, body_inputs, cond_inputs) -> tuple:
    """The backward loop's results as one gradient per While input, then the variables' gradients.
    A float that only the condition reads gets zeros, as in TensorFlow (whose loop carries it: its
    gradient is that of an unused output), and as a Variable read there does."""
    by_input = dict(zip(loop_floats, results))
    to_ext = results[len(loop_floats):]
    for j, g in zip(ext_floats, to_ext):
        position = body_inputs[j]
        by_input[position] = g if position not in by_input else add_gradients(by_input[position], g)
    for position in cond_inputs:
        if position not in by_input and differentiable(inputs[position]):
            by_input[position] = zeros_for(inputs[position])
    return (*(by_input.get(i) for i in range(len(inputs))), *to_ext[len(ext_floats):])


# --- Call: a traced function run under an eager tape ---------------------------------------------

def call_gradient(grads, inputs, outputs, function, graph, captures, variable_handles=(), held_variables=None):
    """Run the function's gradient graph (traced once per set of watched and held variables and gradient
    types, then compiled): replayed op by op when a tape records here (gradients of gradients),
    else by the executor. The values of `held_variables` (Variables the function reads, assigned after
    it ran) are inputs of the gradient graph."""
    held = list((held_variables or {}).items())
    backward, executable, connected = _call_gradient_graph(graph, captures, variable_handles, inputs, grads, held)
    feeds = [*inputs, *grads, *(value for _, (_, value) in held)]
    if any(tape._recording for tape in registry.context.tapes):
        found = replay(backward, feeds, backward.outputs)
    else:
        found = [registry.wrap(v) for v in executable.run(*(_scalar(t._value) for t in feeds))]
    # None where the outputs do not depend on the input or variable, as a tape gives for the ops run eagerly
    return tuple(g if joined else None for g, joined in zip(found, connected))


def _scalar(value):
    return value[()] if value.__class__ is np.ndarray and value.ndim == 0 else value


def _call_gradient_graph(graph, captures, handles, inputs, grads, held: list):
    """The gradient graph for these inputs, traced once per their shapes: a function traced for a shape with
    unknown dimensions (an input_signature, reduce_retracing) is called with tensors of several shapes, and
    gradient rules read the static shapes of the placeholders they are traced on (reduce_mean's count)."""
    key = (tuple(id(c) for c in captures), tuple(id(h) for h in handles),
           tuple((t.dtype, tuple(t.shape.dims)) for t in [*inputs, *grads]), tuple(key for key, _ in held))
    cache = graph.__dict__.setdefault("_call_gradients", {})
    if key not in cache:
        backward, connected = _trace_call_gradient(graph, captures, handles, inputs, grads, held)
        cache[key] = backward, compile_graph(backward, backward.outputs, backward.name), connected
    return cache[key]


def _trace_call_gradient(graph, captures, handles, inputs, grads, held: list) -> tuple[FuncGraph, list]:
    """d(graph's outputs, weighted by the upstream gradients)/d(each input, then each handle), zeros where
    they do not depend on it; and for each, whether they do."""
    backward = FuncGraph(f"{graph.name}_gradient")
    with building(backward):
        xs = [backward.placeholder(t.dtype, t.shape, f"x{i}") for i, t in enumerate(inputs)]
        dys = [backward.placeholder(g.dtype, g.shape, f"dy{i}") for i, g in enumerate(grads)]
        values = {key: (h, backward.placeholder(h.dtype, h.shape, f"held{i}")) for i, (key, (h, _)) in enumerate(held)}
        n = len(graph.inputs)
        known = {id(const): x for const, x in zip(captures, xs[n:])}
        with GradientTape() as tape:
            tape.watch([x for x in xs if differentiable(x)] + list(handles))
            if values:
                outs = replay_holding(graph, xs[:n], graph.outputs, values, known=known)
            else:
                outs = interpret(graph, xs[:n], graph.outputs, reapply_quietly, with_effects=False, known=known)
        found = tape.gradient(outs, [*xs, *handles], output_gradients=dys)
        connected = [g is not None and (i >= len(xs) or differentiable(xs[i])) for i, g in enumerate(found)]
        backward.outputs = [backward.capture(g if g is not None else _zeros_of(source))
                            for g, source in zip(found, [*xs, *handles])]
    return backward, connected


def _zeros_of(source):
    if isinstance(source, VariableHandle):
        return array_ops.zeros(source.shape.as_list(), dtype=source.dtype)
    return zeros_for(source)
