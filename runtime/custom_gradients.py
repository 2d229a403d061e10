"""`custom_gradient`: a function whose gradient is the user's `grad_fn` instead of its ops' rules. Eagerly, the
tapes record one entry for it (GradientTape._record_custom); while a function is traced, a `CustomGradient` op
whose gradient graph is `grad_fn` traced."""
from __future__ import annotations

import contextlib
import functools
import inspect
from typing import Callable

from autograph import do_not_convert
from runtime import nest
from runtime.autodiff import GradientTape, _variables_in
from runtime.control_flow import converted
from runtime.graph import FuncGraph, building
from runtime.interpret import replay
from runtime.ops import array_ops, registry
from runtime.ops.registry import Spec, defop
from runtime.tensor import Tensor, convert_to_tensor
from runtime.variables import HELD_READ, READ


def custom_gradient(f: Callable) -> Callable:
    """Decorator: `f(*x)` returns `(y, grad_fn)`; tapes use `grad_fn(*dy) -> dx` instead of
    differentiating the ops inside `f`. While a function is traced, `grad_fn` is traced too, into
    the graph of a `CustomGradient` op, so the gradient survives the function's replay under a
    tape outside it. `f` is converted by autograph while a function traced with autograph=True
    calls it (TensorFlow's AutoGraph converts it with the function it is defined in), and so is
    `grad_fn` (a loop on tensors in it is staged; TensorFlow 2.21 converts neither when `f` is defined
    outside the function, and raises there).
    If `f` reads trainable Variables, `grad_fn(*dy, variables=those)` must return
    `(dx, [d of each variable])`, as in TensorFlow (a `grad_fn` without the `variables` argument
    is a TypeError then: their gradients would otherwise be missing)."""
    @functools.wraps(f)
    def decorated(*args):
        with _paused(registry.context.tapes), _VariablesRead() as seen:
            result, grad_fn = converted(f)(*args)
        grad_fn = converted(grad_fn)   # traced below: its loops on tensors staged, as f's are
        flat_args = nest.flatten(args)   # as TensorFlow's: a list of tensors is several inputs
        positions = [i for i, a in enumerate(flat_args) if isinstance(a, Tensor)]
        inputs = [flat_args[i] for i in positions]
        outputs = [t for t in nest.flatten(result) if isinstance(t, Tensor)]
        if seen.variables:
            grad_fn = _with_variables(f, grad_fn, seen.variables, len(flat_args), positions)
            inputs += [v.read_value() for v in seen.variables]   # recorded reads: their gradients are the Variables'
        else:
            grad_fn = _of_tensors(f, grad_fn, len(flat_args), positions)
        if registry.context.graph is not None:
            return _with_tensors(result, _staged_custom_gradient(inputs, outputs, grad_fn)) if outputs else result
        recording = [tape for tape in registry.context.tapes if tape._recording]
        if not recording:
            return result
        outputs = _fresh(outputs)
        for tape in recording:
            tape._record_custom(inputs, outputs, grad_fn)
        return _with_tensors(result, outputs)
    return do_not_convert(decorated)


def _with_tensors(result, tensors: list):
    """`result` with `tensors`, in order, in place of its tensor leaves (its other leaves kept)."""
    replacements = iter(tensors)
    return nest.pack(result, [next(replacements) if isinstance(t, Tensor) else t for t in nest.flatten(result)])


def _fresh(outputs: list) -> list:
    """New tensors with the values of `outputs` (as TensorFlow's eager custom_gradient, which passes them
    through `identity`): an output that is an input of `f`, or a tensor made before `f`, would otherwise
    get both `grad_fn`'s gradient and its own."""
    with _paused(registry.context.tapes):
        return [array_ops.identity(t) for t in outputs]


class _VariablesRead(GradientTape):
    """The trainable Variables read inside its block (a tape that only watches, as TensorFlow's
    VariableWatcher does for custom_gradient)."""

    def __init__(self):
        super().__init__(persistent=True)

    def before(self, attrs: dict) -> None:
        pass

    def record(self, op, inputs, attrs, out) -> None:
        if not self._recording:
            return
        if op is READ or op is HELD_READ:
            self._watches(attrs["handle"])
        elif op.holds_graphs:    # the Variables that a Cond's branches or a While's body read
            for handle in _variables_in(attrs).values():
                self._watches(handle)

    @property
    def variables(self) -> list:
        return [v for v in self._variables if v.dtype.is_floating or v.dtype.is_complex]


def _of_tensors(f: Callable, grad_fn: Callable, num_args: int, positions: list) -> Callable:
    """`grad_fn` giving the gradients of the tensors among the flattened arguments of `f` (at `positions`),
    after checking that it gives one per argument, as TensorFlow does."""
    def flat(*upstream):
        return _gradients_of_arguments(f, grad_fn, grad_fn(*upstream), num_args, positions)
    return flat


def _gradients_of_arguments(f: Callable, grad_fn: Callable, found, num_args: int, positions: list) -> list:
    found = nest.flatten(found)
    if len(found) != num_args:
        code = getattr(inspect.unwrap(grad_fn), "__code__", None)   # the user's, not autograph's wrapper
        where = f" (its grad_fn at {code.co_filename}:{code.co_firstlineno})" if code is not None else ""
        raise ValueError(f"custom_gradient function {getattr(f, '__qualname__', f)}{where} expected to return "
                         f"{num_args} gradients, but returned {len(found)} instead: one per argument of "
                         f"{getattr(f, '__name__', f)}, a list's items counted one by one (None for those without "
                         "one), as in TensorFlow.")
    return [found[i] for i in positions]


def _with_variables(f: Callable, grad_fn: Callable, variables: list, num_args: int, positions: list) -> Callable:
    """`grad_fn` of a custom_gradient function that read `variables`, called as `grad_fn(*dy,
    variables=variables)`, its `(dx, dvariables)` flattened to the gradients of the inputs then the Variables."""
    parameters = inspect.signature(grad_fn).parameters
    if "variables" not in parameters and not any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
        names = ", ".join(v.name for v in variables)
        raise TypeError(f"custom_gradient: {getattr(f, '__qualname__', f)} reads the Variables {names}, so its "
                        "grad_fn must accept the keyword argument `variables` and return (gradients of the "
                        "inputs, [gradient of each Variable]), as in TensorFlow.")

    def flat(*upstream):
        dx, dvariables = grad_fn(*upstream, variables=variables)
        dvariables = list(dvariables)
        if len(dvariables) != len(variables):
            raise ValueError(f"custom_gradient: grad_fn of {getattr(f, '__qualname__', f)} returned "
                             f"{len(dvariables)} Variable gradient(s); expected {len(variables)}.")
        return [*_gradients_of_arguments(f, grad_fn, dx, num_args, positions), *dvariables]
    return flat


@contextlib.contextmanager
def _paused(tapes):
    recording = [t for t in tapes if t._recording]
    for tape in recording:
        tape._recording = False
    try:
        yield
    finally:
        for tape in recording:
            tape._recording = True


def _custom_gradient_kernel(*values, num_inputs, num_outputs, grad_graph, has_gradient):
    return list(values[num_inputs:num_inputs + num_outputs])


def _custom_gradient_infer(*inputs, num_inputs, num_outputs, grad_graph, has_gradient):
    return [Spec(t.dtype, t.shape) for t in inputs[num_inputs:num_inputs + num_outputs]]


CUSTOM_GRADIENT = defop("CustomGradient", _custom_gradient_kernel, _custom_gradient_infer, multi_output=True,
                        doc="its outputs are inputs[num_inputs:][:num_outputs]; grad_graph is their gradient")


def _staged_custom_gradient(inputs: list, outputs: list, grad_fn: Callable) -> list:
    """`outputs` passed through a CustomGradient op that carries `grad_fn` traced into a graph."""
    outer = registry.context.graph
    grad_graph = FuncGraph(f"{outer.name}/custom_gradient", outer_graph=outer)
    with building(grad_graph):
        upstream = [grad_graph.placeholder(t.dtype, t.shape, "dy") for t in outputs]
        try:
            found = grad_fn(*upstream)
        except ValueError as e:   # a wrong number of gradients: raised when a gradient needs them, as TensorFlow
            if "expected to return" not in str(e):
                raise
            grad_graph.custom_gradient_error, found = e, [None] * len(inputs)
        grad_graph.outputs = [grad_graph.capture(convert_to_tensor(g)) for g in found if g is not None]
    captured = [external for external, _ in grad_graph.capture_pairs]
    return registry.apply(CUSTOM_GRADIENT, *inputs, *outputs, *captured, num_inputs=len(inputs),
                          num_outputs=len(outputs), grad_graph=grad_graph,
                          has_gradient=tuple(g is not None for g in found))


def custom_gradient_rule(grads, inputs, outputs, num_inputs, num_outputs, grad_graph, has_gradient):
    """The CustomGradient op's rule: the traced `grad_fn`, replayed on the upstream gradients."""
    error = getattr(grad_graph, "custom_gradient_error", None)
    if error is not None:
        raise error
    captured = list(inputs[num_inputs + num_outputs:])
    found = iter(replay(grad_graph, [*grads, *captured], grad_graph.outputs))
    return tuple(next(found) if has else None for has in has_gradient)

