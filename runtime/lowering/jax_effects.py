"""The state and the graphs of a lowered function (`function(jit_compile=True)`): the `Lowering` that
interprets a graph with the rules of `to_jax.LOWERINGS`, `EFFECTS` and `jax_checks.CHECKS`, and the rules of
the ops that read or write state or run graphs.

Variables are functional state: the jitted function takes the current value of every Variable the graph
(and its nested graphs) touches and returns their new values, which `JaxExecutable.run` stores after the
call. `Cond` is `lax.cond` and `While` is `lax.while_loop`, their graphs lowered by the same interpreter
(`runtime.interpret.interpret` with `lower_op` as the callback), the Variables' values carried through.
XLA has no run-time error, so a check is state too (jax_checks.py): the number of the first check that
failed on the path taken, and the values it reports; after it no effect happens and loops stop, and `run`
raises the check's error (its op's kernel, on the reported values) after the call, as the executor would
have.

TensorArrays are preallocated buffers (jax_lists.py). Both branches of a `Cond` and every iteration of a
`While` must give a list the same rows and element shape, so before tracing them for real the branches or one
iteration are traced with `jax.eval_shape` and the lists given the widest (`jax_lists.join`); a loop that
appends to a list gives it room for every iteration: its trip count, where known while lowering
(`static_trip_count`), or its `maximum_iterations`.
"""
from __future__ import annotations

from typing import Callable, Optional

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import io_callback

from runtime import dtypes
from runtime.loop_bounds import static_trip_count
from runtime.errors import InvalidArgumentError, LoweringError, OpError
from runtime.graph import made_at
from runtime.interpret import interpret
from runtime.lowering import jax_lists, walk
from runtime.lowering.jax_lists import fit, is_list, join
from runtime.lowering.to_jax import LOWERINGS, jax_dtype, materialised, static_argument
from runtime.ops import registry

class Lowering:
    """The functional state while one graph is lowered: `handles` in a fixed order (the Variables', then
    the checks' slots), `state` their values; `checks`: the graph's `jax_checks.Checks`, None if it has none."""

    def __init__(self, handles: list, checks=None):
        self.handles = handles
        self.checks = checks
        self.state: dict = {}
        self.op = None
        self.static: dict = {}   # id(a nested graph's placeholder) -> its value, where known while lowering
        self.loop_depth = 0      # how many loops' bodies are being traced around the op

    def static_of(self, tensor) -> Optional[np.ndarray]:
        """`tensor`'s value if it is known while lowering: a constant, or computed from constants, also through
        the placeholders of the branches and bodies being lowered."""
        from runtime.control_flow import static_value   # imports the ops: late, as jax_lists does
        return static_value(tensor, self.static)

    def enter(self, graph, outer: list) -> None:
        """Note the values known while lowering of `graph`'s placeholders, fed `outer` (tensors of the graph
        around it, None for a loop variable)."""
        for placeholder, tensor in zip(graph.inputs, outer):
            value = None if tensor is None else self.static_of(tensor)
            if value is not None:
                self.static[id(placeholder)] = value

    def values(self) -> tuple:
        return tuple(self.state[h] for h in self.handles)

    def run(self, graph, feeds: list, state: tuple) -> tuple[list, tuple]:
        """`graph`'s outputs and the state after it, from `feeds` and the state before."""
        saved = self.state
        self.state = dict(zip(self.handles, state))
        try:
            outputs = interpret(graph, feeds, graph.outputs, self.lower_op)
            return outputs, self.values()
        finally:
            self.state = saved

    def lower_op(self, op, inputs: list) -> list:
        self.op = op   # the op being lowered, for a rule's error message
        if self.is_check(op):
            out = self.checks.lower(self, op, inputs)
            return out if op.opdef.multi_output else [out]
        effect = EFFECTS.get(op.type)
        if effect is not None:
            out = effect(self, *inputs, **op.attrs)
        else:
            out = _pure(op, inputs)
        return out if op.opdef.multi_output else [out]

    def is_check(self, op) -> bool:
        return self.checks is not None and id(op) in self.checks.values

    def running(self, state: "tuple | None" = None):
        """Whether no check has failed so far on this path (None when the graph has no checks), in the current
        state or in `state`: an effect after a failed check does not happen, as the executor stops at the error."""
        if self.checks is None:
            return None
        code = self.state[self.checks.code] if state is None else state[self.handles.index(self.checks.code)]
        return code == 0


def _pure(op, inputs: list):
    """A pure op's rule; where JAX refuses the values while tracing (a reshape to a size that does not fit, an
    index out of range), the error names the op and the line that made it, as the executor's does."""
    try:
        return LOWERINGS[op.type](*inputs, **op.attrs)
    except OpError:
        raise
    except (TypeError, ValueError, IndexError) as error:
        message = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise InvalidArgumentError(f"{op.type}: {message} (op '{op.name}' in graph '{op.graph.name}', while "
                                   f"jit_compile=True lowered it to JAX){made_at(op)}", op.type) from None


def _typed(values, specs) -> list:
    return [v if is_list(v) else jnp.asarray(materialised(v)).astype(jax_dtype(s.dtype)) for v, s in zip(values, specs)]


def _holds_lists(specs) -> bool:
    return any(s.dtype is dtypes.variant for s in specs)


def _cond(lowering: Lowering, pred, *inputs, then_graph, else_graph, then_inputs, else_inputs, output_specs):
    op = lowering.op
    lowering.enter(then_graph, [op.inputs[i] for i in then_inputs])
    lowering.enter(else_graph, [op.inputs[i] for i in else_inputs])
    fitted = [None] * len(output_specs)

    def branch(graph, positions):
        def run(operands):
            values, state = operands
            outputs, state = lowering.run(graph, [values[i - 1] for i in positions], state)
            return [fit(v, like) for v, like in zip(_typed(outputs, output_specs), fitted)], state
        return run

    operands = ([materialised(v) for v in inputs], lowering.values())
    branches = branch(then_graph, then_inputs), branch(else_graph, else_inputs)
    if _holds_lists(output_specs):   # both branches must give a list the same rows and element shape
        then_shapes, else_shapes = (jax.eval_shape(b, operands)[0] for b in branches)
        fitted = [join(a, b, op) if is_list(a) else None for a, b in zip(then_shapes, else_shapes)]
    outputs, lowering.state = _restate(lowering, _fixed_shapes(op, "its branches' outputs", lambda: lax.cond(
        _scalar_predicate(pred), *branches, operands)))
    return outputs


def _fixed_shapes(op, what: str, trace: Callable):
    """`trace()` (a lax.cond or lax.while_loop), or a LoweringError naming `op` if the values it carries change
    shape (XLA needs one shape; the executor relaxes it)."""
    try:
        return trace()
    except TypeError as error:
        if "shape" not in str(error):
            raise
        raise LoweringError(
            f"jit_compile=True can't lower {op.type} '{op.name}': {what} change shape, and XLA needs each to keep "
            f"one shape.{made_at(op)}\nUse jit_compile=None for this function, or keep the shapes fixed "
            f"(pad to a fixed size).\n(JAX: {str(error).splitlines()[0]})", op.type) from None


def _scalar_predicate(pred):
    return pred if jnp.ndim(pred) == 0 else jnp.reshape(pred, ())


def _restate(lowering: Lowering, result):
    outputs, state = result
    return outputs, dict(zip(lowering.handles, state))


def _while(lowering: Lowering, *inputs, cond_graph, body_graph, num_loop_vars, cond_inputs, body_inputs,
           output_specs, max_iterations_input):
    """`lax.while_loop` carrying the loop variables and the state (Variables' values, checks), and an iteration
    count only where `maximum_iterations` needs one. A condition with effects (a Variable's read or assignment,
    a check) is evaluated before the first iteration and at the end of each one and carried, so that its
    effects flow on as the executor's do. TensorArrays among the loop variables are given their room first
    (`_room_for_lists`)."""
    op = lowering.op
    n = num_loop_vars
    lowering.enter(cond_graph, [None] * n + [op.inputs[i] for i in cond_inputs])
    lowering.enter(body_graph, [None] * n + [op.inputs[i] for i in body_inputs])
    cond_ext = [materialised(inputs[i]) for i in cond_inputs]
    body_ext = [inputs[i] for i in body_inputs]
    limit = None if max_iterations_input is None else inputs[max_iterations_input]
    effects = any(op.stateful or lowering.is_check(op) for op in walk(cond_graph))   # ExactInt32 is pure but checks
    carried: list = [None] * n   # the structure of each list the loop carries

    def test(count, loop_vars, state):
        def evaluate(state):
            outputs, state = lowering.run(cond_graph, list(loop_vars) + cond_ext, state)
            return _scalar_predicate(outputs[0]), state

        if limit is None:
            holds, state = evaluate(state)
        elif effects:   # not evaluated once the count reaches the limit, as the executor does
            holds, state = lax.cond(count < limit, evaluate, lambda state: (jnp.asarray(False), state), state)
        else:
            holds, state = evaluate(state)
            holds = jnp.logical_and(count < limit, holds)
        running = lowering.running(state)
        return (holds if running is None else jnp.logical_and(holds, running)), state

    def iterate(loop_vars, state):
        outputs, state = lowering.run(body_graph, list(loop_vars) + body_ext, state)
        return [fit(v, like) for v, like in zip(_typed(outputs, output_specs), carried)], state

    def body(carry):
        count, _, loop_vars, state = carry
        loop_vars, state = iterate(loop_vars, state)
        count = None if count is None else count + 1
        holds, state = test(count, loop_vars, state)
        return count, holds, loop_vars, state

    def plain_body(carry):   # a condition without effects: evaluated by the loop, as hand-written JAX does
        count, loop_vars, state = carry
        loop_vars, state = iterate(loop_vars, state)
        return None if count is None else count + 1, loop_vars, state

    count = None if limit is None else jnp.int32(0)
    loop_vars = _typed(inputs[:n], output_specs)
    before = [v.appended if is_list(v) else 0 for v in loop_vars]
    lowering.loop_depth += 1
    try:
        growth = [0] * n
        if _holds_lists(output_specs):
            loop_vars, growth = _room_for_lists(lowering, op, loop_vars, iterate, carried)
        if effects:   # the condition's state after it flows into the body: the condition is carried
            holds, state = test(count, loop_vars, lowering.values())
            _, _, outputs, state = _fixed_shapes(op, "its loop variables", lambda: lax.while_loop(
                lambda carry: carry[1], body, (count, holds, loop_vars, state)))
        else:   # 25-30% faster on a scalar loop of 10,000 iterations than carrying it (tools/bench/jit_compile.py)
            _, outputs, state = _fixed_shapes(op, "its loop variables", lambda: lax.while_loop(
                lambda carry: test(*carry)[0], plain_body, (count, loop_vars, lowering.values())))
    finally:
        lowering.loop_depth -= 1
    lowering.state = dict(zip(lowering.handles, state))
    return [v.replace(appended=old + rows) if is_list(v) else v for v, old, rows in zip(outputs, before, growth)]


def _room_for_lists(lowering: Lowering, op, loop_vars: list, iterate: Callable, carried: list) -> tuple:
    """The loop variables with each TensorArray given the rows and element shape that every iteration keeps:
    one iteration is traced (`jax.eval_shape`) and each list widened to what it gives, until none changes; a
    list that one iteration appends `k` rows to gets `k` times the trip count more, unless an outer loop carries
    it (that loop gave it its room). Also fills `carried`; returns the rows each list may gain."""
    growth = [0] * len(loop_vars)
    loop_vars = [v.replace(appended=0) if is_list(v) else v for v in loop_vars]
    for _ in range(8):
        carried[:] = [None] * len(loop_vars)
        shapes = jax.eval_shape(iterate, loop_vars, lowering.values())[0]
        widened = []
        for k, (v, out) in enumerate(zip(loop_vars, shapes)):
            if not is_list(v):
                widened.append(v)
                continue
            like = join(v, out, op).replace(appended=0)
            if out.appended and not growth[k]:
                growth[k] = out.appended * _trip_bound(lowering, op)
                if v.home == lowering.loop_depth - 1:   # made just outside this loop: no outer loop gave it rows
                    like = jax_lists.with_capacity(like, v.capacity + growth[k])
            widened.append(fit(v, like))
        settled = all(jax_lists.structure(a) == jax_lists.structure(b) for a, b in zip(widened, loop_vars))
        loop_vars = widened
        if settled:
            carried[:] = [jax.eval_shape(lambda v: v, v) if is_list(v) else None for v in loop_vars]
            return loop_vars, growth
    raise LoweringError(f"jit_compile=True can't lower While '{op.name}': the TensorArrays it carries do not keep "
                        f"one shape.{made_at(op)}\nUse jit_compile=None for this function.", op.type)


def _trip_bound(lowering: Lowering, op) -> int:
    """The most iterations the While `op` runs, known while lowering: its `maximum_iterations`, or its trip count
    where its test reads only constants and what the body computes from them; else a LoweringError."""
    attrs = op.attrs
    bounds = []
    if attrs["max_iterations_input"] is not None:
        limit = lowering.static_of(op.inputs[attrs["max_iterations_input"]])
        if limit is not None:
            bounds.append(max(int(limit), 0))
    trips = static_trip_count(op.inputs, attrs["cond_graph"], attrs["body_graph"], attrs["num_loop_vars"],
                              attrs["cond_inputs"], attrs["body_inputs"], lowering.static, bounds[0] if bounds else None,
                              lowering.static_of)
    if trips is not None:
        bounds.append(trips)
    if not bounds:
        raise LoweringError(
            f"jit_compile=True can't lower While '{op.name}': it appends to a TensorArray (a list a loop appends "
            f"to, or the loop state a gradient keeps per iteration), and XLA needs the list's size before the loop "
            f"runs, but the loop's trip count is not known while lowering.{made_at(op)}\nPass maximum_iterations= "
            "to the while_loop (or autograph.set_loop_options(maximum_iterations=...)), loop over a range of "
            "constant bounds, or use jit_compile=None for this function.", op.type)
    return min(bounds)


def _read(lowering: Lowering, handle):
    return lowering.state[handle]


def _assigner(combine: Callable) -> Callable:
    def assign(lowering: Lowering, value, handle):
        old = lowering.state[handle]
        new = jnp.asarray(combine(old, materialised(value))).astype(jax_dtype(handle.dtype))
        new = jnp.broadcast_to(new, handle.value.shape)
        running = lowering.running()
        lowering.state[handle] = new if running is None else jnp.where(running, new, old)
        return new
    return assign


def _print(lowering: Lowering, *values, **attrs):
    print_kernel = registry.OPS["PrintV2"].kernel   # the kernel itself, called back on the host
    running = lowering.running()
    if running is None:
        jax.debug.callback(lambda *v: print_kernel(*v, **attrs), *[materialised(v) for v in values], ordered=True)
    else:   # not after a failed check
        jax.debug.callback(lambda running, *v: print_kernel(*v, **attrs) if running else None,
                           running, *[materialised(v) for v in values], ordered=True)
    return jnp.int32(0)


def _host_draw(op_type: str) -> Callable:
    """A random draw: the executor's own kernel, called back on the host in program order, so the numbers and
    the generators' state are the executor's, draw for draw (none after a failed check)."""
    def draw(lowering: Lowering, *shape_input, shape, dtype, **attrs):
        kernel = registry.OPS[op_type].kernel
        result = jax.ShapeDtypeStruct(tuple(static_argument(shape_input, shape, f"{op_type}'s shape")), jax_dtype(dtype))

        def on_host(running):
            if not running:
                return np.zeros(result.shape, result.dtype)
            return np.asarray(kernel(shape=result.shape, dtype=dtype, **attrs)).astype(result.dtype)

        running = lowering.running()
        return io_callback(on_host, result, True if running is None else running, ordered=True)
    return draw


EFFECTS: dict[str, Callable] = {
    "TensorListNew": jax_lists.new,
    "Cond": _cond,
    "While": _while,
    "ReadVariableOp": _read,
    "AssignVariableOp": _assigner(lambda old, new: new),
    "AssignAddVariableOp": _assigner(lambda old, delta: old + delta),
    "AssignSubVariableOp": _assigner(lambda old, delta: old - delta),
    "PrintV2": _print,
    "RandomUniform": _host_draw("RandomUniform"),
    "RandomStandardNormal": _host_draw("RandomStandardNormal"),
}
