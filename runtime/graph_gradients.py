"""TensorFlow's other ways to ask for gradients, built on `GradientTape`: `gradients` (symbolic, inside a
traced function), `hessians`, `recompute_grad` (recompute a block's activations in the backward pass) and
`autodiff.ForwardAccumulator` (forward mode: Jacobian-vector products).

`gradients(ys, xs)` offers the ops of the graph being built, in order, to a tape that watches `xs` (as a
tape would have seen them had it been open), then asks it. `ForwardAccumulator` records with a tape and gives
J·v by the double-backward trick: the gradient of `<u, y>` is Jᵀu, linear in a dummy `u`, and the gradient of
`<Jᵀu, v>` with respect to `u` is J·v (u is ones, not zeros: a rule may give 0 where its upstream
gradient is 0, as sqrt's does so that `where` picks no NaN, and its derivative in u there is 0). Every op with a gradient rule whose own ops have rules has a forward
derivative this way (second-order differentiability is what the probe checks for every rule).
"""
from __future__ import annotations

import functools
from typing import Callable

from runtime import nest
from runtime.autodiff import GradientTape, _check_unconnected
from runtime.custom_gradients import custom_gradient
from runtime.ops import array_ops, registry
from runtime.tensor import EagerTensor


def _graph_view(graph, t):
    """The Const an eager tensor became where the function's ops use it (TensorFlow captures it as an input,
    so that tf.gradients can differentiate with respect to it); anything else as it is."""
    captured = graph._eager_captures.get(id(t)) if isinstance(t, EagerTensor) else None
    return t if captured is None else captured[1]


def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False, aggregation_method=None,
              stop_gradients=None, unconnected_gradients="none"):
    """d(sum of `ys`)/d(each of `xs`), a list, inside a traced function (TensorFlow's `tf.gradients`);
    `grad_ys` weights `ys`, `stop_gradients` are tensors held constant."""
    graph = registry.context.graph
    if graph is None:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape "
                           "instead.")
    _check_unconnected(unconnected_gradients)
    xs_list = [_graph_view(graph, x) for x in (xs if isinstance(xs, (list, tuple)) else [xs])]
    tape = GradientTape(persistent=True, watch_accessed_variables=False)
    tape.watch(xs_list)
    held = {id(_graph_view(graph, t)) for t in nest.flatten(stop_gradients)} if stop_gradients is not None else set()
    tape._recording = tape._entered = True
    for op in graph.get_operations():
        if op.outputs and not any(id(t) in held for t in op.outputs):
            tape.record(op.opdef, op.inputs, op.attrs, op.outputs if op.opdef.multi_output else op.outputs[0])
    tape._recording = False
    targets = list(ys) if isinstance(ys, (list, tuple)) else [ys]
    seeds = None if grad_ys is None else (list(grad_ys) if isinstance(grad_ys, (list, tuple)) else [grad_ys])
    return tape.seeded_gradient(targets, xs_list, seeds, unconnected_gradients=unconnected_gradients)


def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False, gate_gradients=False,
             aggregation_method=None):
    """The Hessian of sum(`ys`) with respect to each of `xs`, a list, inside a traced function (TensorFlow's
    `tf.hessians`): shaped `x.shape + x.shape`, each element of the gradient differentiated again (so the
    shapes of `xs` must be known when tracing)."""
    xs_list = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    return [None if g is None else _hessian(g, x) for g, x in zip(gradients(ys, xs_list), xs_list)]


def _hessian(gradient, x):
    n = x.shape.num_elements()
    if n is None:
        raise NotImplementedError(f"hessians: the shape of {x.name} ({x.shape}) must be known when tracing; "
                                  "give the function an input_signature with full shapes.")
    flat = array_ops.reshape(gradient, [-1])
    rows = [gradients(flat[i], [x], unconnected_gradients="zero")[0] for i in range(n)]
    stacked = array_ops.stack(rows) if rows else array_ops.zeros([0, *x.shape.as_list()], x.dtype)
    return array_ops.reshape(stacked, x.shape.as_list() * 2)


def recompute_grad(f: Callable) -> Callable:
    """`f`, whose gradient recomputes `f`'s forward pass instead of keeping its intermediate values
    (TensorFlow's `tf.recompute_grad`); the gradients are the same."""
    @custom_gradient
    def recomputed(*args):
        result = f(*args)

        def grad_fn(*upstream, variables=None):
            with GradientTape() as tape:
                tape.watch(list(args))
                again = f(*args)
            sources = [*args, *(variables or [])]
            found = tape.gradient(again, sources, output_gradients=list(upstream))
            return (found[:len(args)], found[len(args):]) if variables else found
        return result, grad_fn
    return functools.wraps(f)(recomputed)


class ForwardAccumulator:
    """Forward-mode derivatives (TensorFlow's `tf.autodiff.ForwardAccumulator`): inside its block, ops on
    `primals` are recorded; `jvp(y)` is the derivative of `y` along `tangents` (J·tangents)."""

    def __init__(self, primals, tangents):
        self._primals, self._tangents = nest.flatten(primals), nest.flatten(tangents)
        if len(self._primals) != len(self._tangents):
            raise ValueError(f"ForwardAccumulator: {len(self._primals)} primals but {len(self._tangents)} "
                             "tangents; give one tangent per primal, in the same structure.")
        self._tape = GradientTape(persistent=True, watch_accessed_variables=False)

    def __enter__(self) -> "ForwardAccumulator":
        self._tape.__enter__()
        self._tape.watch(self._primals)
        return self

    def __exit__(self, *exc) -> None:
        self._tape.__exit__(*exc)

    def jvp(self, primals, unconnected_gradients="none"):
        """The derivative of each tensor in `primals` (a structure of tensors computed in the block) along
        the tangents, in the same structure; None (or zeros) where it does not depend on the watched primals."""
        _check_unconnected(unconnected_gradients)
        return nest.map_structure(lambda y: self._jvp(y, unconnected_gradients), primals)

    def _jvp(self, y, unconnected: str):
        with GradientTape() as outer:
            dummy = array_ops.ones_like(y)   # not zeros: rules such as sqrt's pick 0 where the upstream is 0
            outer.watch(dummy)
            with self._tape.stop_recording():
                pulled = self._tape.gradient(y, self._primals, output_gradients=dummy)
        connected = [(g, v) for g, v in zip(pulled, self._tangents) if g is not None]
        found = outer.gradient([g for g, _ in connected], dummy, output_gradients=[v for _, v in connected]) \
            if connected else None
        if found is None and unconnected == "zero":
            return array_ops.zeros_like(y)
        return found
