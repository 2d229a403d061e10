"""Functional control flow: `cond` and `while_loop`.

Eagerly (and when the predicate is a concrete value) they run the Python
functions directly. While a function is traced they trace each branch or the
loop's test and body into its own `FuncGraph` and record one `Cond` or
`While` op. They are ordinary registry ops: their kernel interprets the
branch or body graphs (`runtime.interpret`), the executor turns them into a
Python `if` and `while`, and their gradient rules sit in the gradient table
(`runtime.ops.control_flow_gradients`).
"""
from __future__ import annotations

import functools
from typing import Callable, Optional, Sequence

import numpy as np

from runtime import dtypes, loop_names, nest
from runtime.errors import user_location
from runtime.graph import FuncGraph, building, current_graph, made_at
from runtime.interpret import run_graph
from runtime.ops import dtype_origins, packing, python_ints, registry
from runtime.ops.registry import Spec, defop
from runtime.shape import as_shape
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor, convert_to_tensor, short_repr
from runtime.tensor_array import adopt_element_shapes


def _cond_kernel(pred, *inputs, then_graph, else_graph, then_inputs, else_inputs, output_specs):
    """Interpret the branch `pred` picks on NumPy values (op input i is `inputs[i - 1]`)."""
    graph, positions = (then_graph, then_inputs) if pred else (else_graph, else_inputs)
    return run_graph(graph, [inputs[i - 1] for i in positions])


def _while_kernel(*inputs, cond_graph, body_graph, num_loop_vars, cond_inputs, body_inputs, output_specs,
                  max_iterations_input):
    """Interpret the body while the test holds (and fewer than `inputs[max_iterations_input]` rounds ran)."""
    state = list(inputs[:num_loop_vars])
    cond_ext = [inputs[i] for i in cond_inputs]
    body_ext = [inputs[i] for i in body_inputs]
    limit = None if max_iterations_input is None else int(inputs[max_iterations_input])
    count = 0
    while (limit is None or count < limit) and run_graph(cond_graph, state + cond_ext)[0]:
        state = run_graph(body_graph, state + body_ext)
        count += 1
    return state


def _outputs_infer(*_inputs, output_specs, **_attrs):
    return list(output_specs)


COND = defop("Cond", _cond_kernel, _outputs_infer, multi_output=True, holds_graphs=True,
             doc="if inputs[0]: then_graph else: else_graph, each reading the inputs its *_inputs attr lists.")
WHILE = defop("While", _while_kernel, _outputs_infer, multi_output=True, holds_graphs=True,
              doc="Loop state starts as inputs[:num_loop_vars]; body_graph runs while cond_graph is true.")


class ControlFlowError(TypeError, ValueError):
    """Branches or loop bodies that don't fit together.

    Raised when the two branches of a `cond` return different structures or
    dtypes, or a `while_loop` body returns a different structure, or a loop
    variable changes dtype or shape. The message names the user's line and the
    value; make both branches (or every iteration) produce the same kind of
    value, e.g. with `runtime.cast`, or pass `shape_invariants`.
    """


def converted(fn: Optional[Callable]) -> Optional[Callable]:
    """`fn` as TensorFlow calls the functions a program gives `tf.cond`, `tf.while_loop`, `tf.map_fn`, `tf.scan`,
    ...: converted by autograph while a function traced with `autograph=True` is being built (TensorFlow's
    `tf_convert` under the current control status), so that an `if` on a tensor in a `map_fn`'s function is
    staged; as it is otherwise (eagerly its `if` is Python's anyway, and `autograph=False` means no conversion)."""
    context = registry.context
    if fn is None or not context.autograph or context.graph is None:
        return fn
    import autograph   # the same distribution; imported late because autograph is optional at import

    @functools.wraps(fn, updated=())
    def call(*args, **kwargs):
        return autograph.converted_call(fn, args, kwargs)
    return call


def _is_symbolic(value) -> bool:
    return isinstance(value, SymbolicTensor)


# --- cond ------------------------------------------------------------------------

def cond(pred, true_fn: Optional[Callable] = None, false_fn: Optional[Callable] = None, name: Optional[str] = None, *,
         names: Optional[Sequence[str]] = None):
    """`true_fn()` if `pred` else `false_fn()`; staged as one `Cond` op when tracing.

    `names` (beyond TensorFlow; autograph passes the user's variable names): when the branches return a tuple
    with one item per name, messages about an output name its variable instead of 'output i of cond'."""
    if true_fn is None or false_fn is None:
        raise TypeError("cond needs both true_fn and false_fn (functions of no arguments).")
    if not callable(true_fn) or not callable(false_fn):
        raise TypeError(f"cond's true_fn and false_fn must be callables, got {true_fn!r} and {false_fn!r}.")
    graph = current_graph()
    if graph is None or not _is_symbolic(pred) and not isinstance(pred, Tensor):
        return true_fn() if pred else false_fn()
    if isinstance(pred, EagerTensor):
        return true_fn() if bool(pred) else false_fn()
    pred = convert_to_tensor(pred)
    if pred.dtype is not dtypes.bool or pred.shape.rank not in (0, None):
        raise ControlFlowError(f"{user_location()}: cond's predicate must be a scalar bool tensor, "
                               f"got {pred.dtype.name} of shape {pred.shape}.")
    where = user_location()
    then_graph, then_out = _trace_branch(graph, true_fn, "true_fn")
    else_graph, else_out = _trace_branch(graph, false_fn, "false_fn")
    _check_branches(then_out, else_out, where)
    then_flat, else_flat, kept = _branch_outputs(then_graph, then_out, else_graph, else_out, where,
                                                 _output_labels(names, then_out))
    specs = [Spec(a.dtype, a.shape.most_specific_compatible_shape(b.shape)) for a, b in zip(then_flat, else_flat)]
    externals: list = []
    then_inputs = _external_indices(then_graph, externals, offset=1)
    else_inputs = _external_indices(else_graph, externals, offset=1)
    attrs = dict(then_graph=then_graph, else_graph=else_graph, then_inputs=then_inputs, else_inputs=else_inputs,
                 output_specs=tuple(specs))
    outs = registry.apply(COND, pred, *externals, name=name or "cond", **attrs)
    packed = _pack_outputs(then_out, outs, kept)
    adopt_element_shapes(packed, then_out, else_out)
    return packed


def _trace_branch(outer, fn: Callable, label: str):
    graph = FuncGraph(f"{outer.name}/{label}", outer_graph=outer)
    with building(graph):
        result = fn()
    return graph, result


def _check_branches(a, b, where: str) -> None:
    if not nest.same_structure(a, b):
        raise ControlFlowError(
            f"{where}: the two branches of cond return different structures: true_fn returns "
            f"{nest.structure_repr(a)}, false_fn returns {nest.structure_repr(b)}. "
            "Both branches must return the same nested structure of tensors.")


def _output_labels(names, out) -> list:
    """'output i of cond', or the variable's name when `names` has one per output."""
    flat = nest.flatten(out)
    if names and isinstance(out, (tuple, list)) and len(out) == len(names):
        labels = []
        for n, item in zip(names, out):   # a list, tuple or dict variable: a label per element ('log[0]')
            labels += [repr(path) for path in _leaf_paths(n, item)] if nest.is_sequence(item) else [repr(n)]
        if len(labels) == len(flat):
            return labels
    return [f"output {i} of cond" for i in range(len(flat))]


def _leaf_paths(name: str, item) -> list:
    """How the user writes each leaf of `item` (in `nest.flatten`'s order), the value of `name`: `d['a']`, `t[0][1]`."""
    if isinstance(item, dict):
        return [p for key in sorted(item, key=repr) for p in _leaf_paths(f"{name}[{key!r}]", item[key])]
    if isinstance(item, (tuple, list)):
        return [p for j, v in enumerate(item) for p in _leaf_paths(f"{name}[{j}]", v)]
    return [name] if not nest.is_sequence(item) else [f"{name}[{j}]" for j in range(len(nest.flatten(item)))]


def _made_in(graph, tensor) -> str:
    """`made_at` of the op a branch or body made `tensor` with ('' for one it only passed through)."""
    op = tensor.op
    return made_at(op) if op.graph is graph and op.type != "Placeholder" else ""


def _branch_outputs(then_graph, then_out, else_graph, else_out, where: str, labels: list):
    then_flat = nest.flatten(then_out)
    else_flat = nest.flatten(else_out)
    then_t, else_t, kept = [], [], []
    for i, (a, b) in enumerate(zip(then_flat, else_flat)):
        if a is None and b is None:  # e.g. both branches only call runtime.print
            kept.append(False)
            continue
        if a is None or b is None:
            raise ControlFlowError(
                f"{where}: {labels[i]} is None in {'true_fn' if a is None else 'false_fn'} but a value "
                "in the other branch; both branches must return a value there (or both None).")
        kept.append(True)
        met = {a.__class__, b.__class__} == {int, float}
        a, b = _numbers_meeting(a, b, not labels[i].startswith("output "))
        met = met and a.__class__ is float   # an int on one path, a float on the other, carried as a float
        python_int = (a.__class__ is b.__class__ and a.__class__ in (int, float, bool, str)   # or a float, bool, str
                      and not labels[i].startswith("output "))
        double = dtypes.float64 if python_int and a.__class__ is float else None   # a Python float is a double
        a, b = (_as_branch_tensor(then_graph, a, b, f"{where}: {labels[i]}", "true_fn", double),
                _as_branch_tensor(else_graph, b, a, f"{where}: {labels[i]}", "false_fn", double))
        if python_int:   # autograph's variable is a Python int (float) on both paths: it stays one (ops/python_ints.py)
            kind = python_ints.INT_OR_FLOAT if met else ""
            python_ints.mark(then_graph, a, labels[i][1:-1], kind)
            python_ints.mark(else_graph, b, labels[i][1:-1], kind)
        elif not labels[i].startswith("output "):   # one path's Python number: the Cond's output is one where the
            for graph, value, t in ((then_graph, then_flat[i], a), (else_graph, else_flat[i], b)):   # other path's
                if value.__class__ in (int, float, bool):   # is one or a constant (the zero of a variable it leaves
                    python_ints.mark(graph, t, labels[i][1:-1])   # unassigned)
        if a.dtype is not b.dtype and registry.context.weak is not None:
            a, b = _weak_branches(then_graph, a, else_graph, b, where)
        if a.dtype is not b.dtype:
            raise ControlFlowError(
                f"{where}: {labels[i]} has dtype {a.dtype.name} in true_fn but {b.dtype.name} in "
                "false_fn; use runtime.cast so both branches return the same dtype."
                f"{_made_in(then_graph, a)}{_made_in(else_graph, b)}")
        then_t.append(a)
        else_t.append(b)
    then_graph.outputs, else_graph.outputs = then_t, else_t
    return then_t, else_t, kept


def _numbers_meeting(a, b, variable: bool) -> tuple:
    """An int in one branch and a float in the other (`y = 1` / `y = 2.5`): both as floats, the dtype a Cond
    can carry them in (float64, Python's float, for autograph's `variable`; float32 for tf.cond's outputs), when
    it holds the int exactly; otherwise as they are (the dtype error)."""
    if {a.__class__, b.__class__} == {int, float}:
        number = a if a.__class__ is int else b
        if abs(number) < 2 ** 63 and int((np.float64 if variable else np.float32)(number)) == number:
            return float(a), float(b)
    return a, b


def _weak_branches(then_graph, a, else_graph, b, where: str):
    """While autograph probes a loop's Python numbers (runtime/ops/weak.py): a weak branch output takes the
    other branch's dtype (`s = 0` before the loop, `if c: s = tf.cast(i, tf.float32)` in it: `s` is float32)."""
    weak = registry.context.weak
    with building(then_graph if weak.info(a) is not None else else_graph):
        return weak.meet(a, b, where)


def _as_branch_tensor(graph: FuncGraph, value, other, who: str, branch: str, dtype=None):
    """A tensor of `graph` for a branch's output (Python values become constants, of `dtype` if given)."""
    hint = other.dtype if isinstance(other, Tensor) else dtype
    with building(graph):
        return graph.capture(_carried(value, hint, f"{who} is {{}} in {branch}", "a Cond returns"))


def _carried(value, dtype_hint, what: str, carrier: str):
    """`convert_to_tensor(value)` for a value a Cond or While carries, or a ControlFlowError that says which
    value (`what`, with {} for the value) can't be carried and why."""
    try:
        with np.errstate(over="ignore"):   # a float float32 makes inf is refused below, with its name
            tensor = convert_to_tensor(value, dtype_hint=dtype_hint)
    except (TypeError, ValueError) as e:
        raise ControlFlowError(
            f"{what.format(f'the {type(value).__name__} {short_repr(value)}')}: {carrier} tensors only "
            f"(Python numbers and bools become tensors), and this value can't become one: {e} Compute it outside the graph's "
            "control flow, or carry a number or a tensor instead.") from None
    if not number_kept(value, tensor.dtype):
        raise ControlFlowError(
            f"{what.format(f'the Python {type(value).__name__} {value!r}')}: {carrier} tensors only, and as "
            f"{tensor.dtype.name} it would be {_as_dtype(value, tensor.dtype)!r}, where Python keeps {value!r}. Make "
            "it a tensor of a dtype that holds it (runtime.constant(..., runtime.float64)), or scale it.")
    return tensor


def number_kept(value, dtype) -> bool:
    """Does the Python number `value` keep its value in the float (or complex) `dtype`? An int must stay exact
    (16777217 is no float32); a float keep its magnitude: a finite one must not become inf, a nonzero one not 0
    (1e39 and 1e-50 in float32). Rounding a float is accepted: a Python float carried by a staged statement is
    a float32, as TensorFlow makes it. (An integer dtype that can't hold an int refuses it when converting.)"""
    if value.__class__ not in (int, float) or not (dtype.is_floating or dtype.is_complex):
        return True
    try:
        converted = _as_dtype(value, dtype)
    except OverflowError:   # an int past any float
        return False
    if value.__class__ is int:
        return bool(np.isfinite(converted)) and int(converted) == value
    return not (np.isfinite(value) and not np.isfinite(converted) or value != 0 and converted == 0)


def _as_dtype(value, dtype) -> float:
    with np.errstate(over="ignore", under="ignore"):
        return float(np.real(np.asarray(float(value), dtype=dtype.as_numpy_dtype)))


def _external_indices(graph: FuncGraph, externals: list, offset: int) -> tuple:
    indices = []
    for external, _ in graph.capture_pairs:
        for i, known in enumerate(externals):
            if known is external:
                break
        else:
            externals.append(external)
            i = len(externals) - 1
        indices.append(i + offset)
    return tuple(indices)


def _pack_outputs(structure, outs, kept: list) -> object:
    """The branches' structure around the Cond's outputs (None where both branches gave None)."""
    if structure is None:
        return None
    it = iter(outs)
    leaves = [next(it) if keep else None for keep in kept]
    return nest.pack(structure, leaves) if leaves else structure


# --- while_loop --------------------------------------------------------------------

def while_loop(cond: Callable, body: Callable, loop_vars, maximum_iterations=None, shape_invariants=None,
               parallel_iterations: int = 10, name: Optional[str] = None, *, back_prop: bool = True,
               swap_memory: bool = False, relax_shapes: bool = False, names: Optional[Sequence[str]] = None,
               first_test=None):
    """Repeat `loop_vars = body(*loop_vars)` while `cond(*loop_vars)`; one `While` op when tracing.

    A loop variable must keep its shape unless `shape_invariants` says which dimensions may change. With
    `relax_shapes=True` (beyond TensorFlow; autograph's loops pass it) a variable without an invariant whose
    shape changes in one iteration is carried with the dimensions that changed unknown instead. `names` (also
    beyond TensorFlow): the loop variables' names for messages and graph labels; by default the body's
    parameter names. `first_test` (autograph's): the test's value before the first iteration, already computed
    outside the loop; where the test has effects (a Variable update, a print), the loop uses it instead of
    running the test a second time. As TensorFlow's, `back_prop=False` stops gradients through the outputs, and
    `parallel_iterations` and `swap_memory` change nothing here (the executor runs iterations one by one)."""
    if not callable(cond) or not callable(body):
        raise TypeError("while_loop needs callables: while_loop(cond, body, loop_vars).")
    if not back_prop:
        out = while_loop(cond, body, loop_vars, maximum_iterations, shape_invariants, name=name,
                         relax_shapes=relax_shapes, names=names, first_test=first_test)
        stop = registry.OPS["StopGradient"]   # array_ops imports this module
        return nest.map_structure(lambda t: registry.apply(stop, t) if isinstance(t, Tensor) else t, out)
    single = not isinstance(loop_vars, (tuple, list))
    state = [loop_vars] if single else list(loop_vars)
    graph = current_graph()
    if graph is None:
        return _eager_while(cond, body, state, loop_vars, single, maximum_iterations)
    where = user_location()
    return _staged_while(graph, cond, body, state, single, loop_vars, maximum_iterations, shape_invariants, where, name,
                         relax_shapes, names, first_test)


def _python_bool(graph, t, name: str):
    """The bool (or str) constant `t` as a tensor of its own, marked as the Python bool (str) variable `name`
    (runtime/ops/python_ints.py: its text and `isinstance` are a bool's, a str's)."""
    with building(graph):
        t = registry.apply(registry.OPS["Identity"], t)   # not the graph's shared Const: only this value is marked
    python_ints.mark(graph, t, name)
    return t


def _call_body(body, state, single):
    result = body(*state)
    if single:
        return [result]
    if not isinstance(result, (tuple, list)):
        result = [result]
    return list(result)


def _eager_while(cond, body, state, original, single, maximum_iterations):
    count = 0
    while (maximum_iterations is None or count < int(maximum_iterations)) and cond(*state):
        state = _call_body(body, state, single)
        count += 1
    state = [_as_tensors(v) for v in state]   # as TensorFlow: the body sees Python values, the loop gives tensors
    return state[0] if single else (tuple(state) if isinstance(original, tuple) else state)


def _as_tensors(value):
    """A loop variable's value with Python numbers (and arrays) made tensors; TensorArrays as they are."""
    if isinstance(value, dict):
        return type(value)((k, _as_tensors(v)) for k, v in value.items())
    if isinstance(value, (tuple, list)):
        items = [_as_tensors(v) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    if value is None or isinstance(value, Tensor) or hasattr(value, "_flatten") or hasattr(value, "assign"):
        return value
    return convert_to_tensor(value)


def _staged_while(graph, cond, body, state, single, original, maximum_iterations, shape_invariants, where, name,
                  relax_shapes, given_names, first_test=None):
    structure = state
    names = loop_names.loop_var_names(structure, given_names if given_names is not None else loop_names.parameter_names(body))
    flat = [_carried(v, None, f"{where}: {name} is {{}} before the loop", "a While carries")
            for v, name in zip(nest.flatten(structure), names)]
    if given_names is not None:   # autograph's variables: a Python bool stays one where the body keeps it one
        flat = [_python_bool(graph, t, name) if v.__class__ in (bool, str) else t
                for v, t, name in zip(nest.flatten(structure), flat, names)]
    invariants = _invariants(shape_invariants, single, len(flat), structure)
    shapes = [inv if inv is not None else t.shape for t, inv in zip(flat, invariants)]
    for _ in range(_RELAXATIONS + 1 if relax_shapes else 1):
        loop = _trace_loop(graph, cond, body, structure, single, flat, shapes, names, where)
        relaxed = _relaxed_shapes(shapes, invariants, loop.body_phs, loop.outs)
        if relaxed is None:
            break
        shapes = relaxed
    if isinstance(first_test, SymbolicTensor) and _has_effects(loop.cond_graph):
        return _reusing_first_test(graph, cond, body, state, single, original, maximum_iterations, shape_invariants,
                                   where, name, relax_shapes, given_names, first_test)
    for i, (ph, out) in enumerate(zip(loop.body_phs, loop.outs)):
        _check_loop_var(names[i], ph, out, where)
    cond_graph, body_graph, body_phs = loop.cond_graph, loop.body_graph, loop.body_phs
    body_graph.outputs = loop.outs
    if maximum_iterations is None and _always_true(loop.test, loop.cond_phs, flat, body_phs, loop.outs):
        raise ControlFlowError(
            f"{where}: this loop never ends: its condition is true before the loop and every iteration keeps it "
            "true (the variables it reads are the same constants after each iteration), and nothing else leaves "
            "the loop. Python would run forever; a graph would hang (or, if nothing used its results, skip it). "
            "Make the condition able to become false, or pass maximum_iterations.")

    externals: list = []
    n = len(flat)
    cond_inputs = _external_indices(cond_graph, externals, offset=n)
    body_inputs = _external_indices(body_graph, externals, offset=n)
    inputs = [*flat, *externals]
    attrs = dict(cond_graph=cond_graph, body_graph=body_graph, num_loop_vars=n, cond_inputs=cond_inputs,
                 body_inputs=body_inputs, output_specs=tuple(Spec(ph.dtype, ph.shape) for ph in body_phs),
                 max_iterations_input=None)
    if maximum_iterations is not None:
        attrs["max_iterations_input"] = len(inputs)
        inputs.append(convert_to_tensor(maximum_iterations))
    results = registry.apply(WHILE, *inputs, name=name or "while", **attrs)
    packed = nest.pack(structure, results)
    adopt_element_shapes(packed, loop.result)
    return packed[0] if single else (tuple(packed) if isinstance(original, tuple) else packed)


_RELAXATIONS = 2   # retraces with relaxed shapes before a shape that still changes is an error


def _has_effects(graph) -> bool:
    """Whether running `graph` again changes something or shows it: a stateful op other than a Variable's read
    (in nested branches and loops too)."""
    for op in graph.operations:
        if not op.stateful or op.type == "ReadVariableOp":
            continue
        nested = [g for g in op.attrs.values() if isinstance(g, FuncGraph)]
        if not nested or any(_has_effects(g) for g in nested):
            return True
    return False


def _reusing_first_test(graph, test, body, state, single, original, maximum_iterations, shape_invariants, where,
                        name, relax_shapes, given_names, first_test):
    """The loop with a flag 'first iteration' carried beside its variables: the test of the first iteration is
    `first_test`, computed (with its effects) before the loop, as Python evaluates a `while` test once before
    the first iteration; the next ones run the test."""
    def flagged_test(*s):
        return cond(s[-1], lambda: first_test, lambda: test(*s[:-1]))

    def flagged_body(*s):
        return (*_call_body(body, list(s[:-1]), single), convert_to_tensor(False))

    invariants = None if shape_invariants is None else [*([shape_invariants] if single else shape_invariants), None]
    names = [*(given_names if given_names is not None else loop_names.parameter_names(body)), "first_iteration_"]
    out = _staged_while(graph, flagged_test, flagged_body, [*state, convert_to_tensor(True)], False, [],
                        maximum_iterations, invariants, where, name, relax_shapes, names)[:-1]
    return out[0] if single else (tuple(out) if isinstance(original, tuple) else out)


class _TracedLoop:
    """A loop's test and body traced once on placeholders of the given shapes."""

    def __init__(self, cond_graph, body_graph, cond_phs, body_phs, test, outs, result):
        self.cond_graph, self.body_graph = cond_graph, body_graph
        self.cond_phs, self.body_phs, self.test, self.outs = cond_phs, body_phs, test, outs
        self.result = result   # what the body returned (its TensorArrays know the shape of what it wrote)


def _trace_loop(graph, cond, body, structure, single, flat, shapes, names, where) -> _TracedLoop:
    cond_graph = FuncGraph(f"{graph.name}/while_cond", outer_graph=graph)
    body_graph = FuncGraph(f"{graph.name}/while_body", outer_graph=graph)
    labels = [loop_names.placeholder_label(name) for name in names]
    cond_phs = [cond_graph.placeholder(t.dtype, s, label) for t, s, label in zip(flat, shapes, labels)]
    body_phs = [body_graph.placeholder(t.dtype, s, label) for t, s, label in zip(flat, shapes, labels)]
    for t, cond_ph, body_ph, name in zip(flat, cond_phs, body_phs, labels):
        if isinstance(t, SymbolicTensor):   # a Python int (float, bool) stays one in the loop
            python_ints.copy_mark(cond_graph, t, cond_ph)
            python_ints.copy_mark(body_graph, t, body_ph)
        origin = dtype_origins.of(t) or (name, f"it is {t.dtype.name} when the loop at {where} starts")
        dtype_origins.record(cond_graph, cond_ph, *origin)
        dtype_origins.record(body_graph, body_ph, *origin)
    with building(cond_graph):
        test = cond(*nest.pack(structure, cond_phs))
        test = cond_graph.capture(convert_to_tensor(test))
    if test.dtype is not dtypes.bool or test.shape.rank not in (0, None):
        raise ControlFlowError(f"{where}: while_loop's cond must return a scalar bool, got a {test.dtype.name} "
                               f"tensor of shape {test.shape} (TensorFlow refuses it too): reduce it with "
                               "runtime.reduce_any or runtime.reduce_all.")
    cond_graph.outputs = [test]
    with building(body_graph):
        result = _call_body(body, nest.pack(structure, body_phs), single)
        if not nest.same_structure(result, structure):
            raise ControlFlowError(
                f"{where}: while_loop's body returns {nest.structure_repr(result)} but the loop variables are "
                f"{nest.structure_repr(structure)}; return the same structure from every iteration.")
        outs = [body_graph.capture(_carried(v, t.dtype, f"{where}: {name} is {{}} after one iteration",
                                            "a While carries"))
                for v, t, name in zip(nest.flatten(result), flat, names)]
    return _TracedLoop(cond_graph, body_graph, cond_phs, body_phs, test, outs, result)


def _relaxed_shapes(shapes, invariants, body_phs, outs):
    """Automatic shape relaxation: a loop variable without a shape invariant whose shape changed in one
    iteration gets the dimensions that changed unknown (the rank too, if that changed); None when no shape
    needs relaxing. A variable whose dtype changed is left for `_check_loop_var` to report."""
    relaxed = list(shapes)
    for i, (ph, out) in enumerate(zip(body_phs, outs)):
        if invariants[i] is None and out.dtype is ph.dtype and not ph.shape.is_compatible_with(out.shape):
            relaxed[i] = ph.shape.most_specific_compatible_shape(out.shape)
    return None if relaxed == list(shapes) else relaxed


def _always_true(test, cond_phs, initial, body_phs, outs) -> bool:
    """Whether a loop's test is provably true on every iteration: the loop variables it reads start as
    constants and each iteration gives them back unchanged. Only what tracing knows counts; a loop whose end
    depends on values that change (a lowered `break` flag, a counter) is never flagged. The check runs once per
    traced loop and walks only the ops whose inputs are known."""
    start = {i: v for i, t in enumerate(initial) if (v := packing.static_value(t)) is not None}
    constant = dict(start)
    while True:   # drop the variables an iteration changes, until none does
        known = {id(body_phs[i]): v for i, v in constant.items()}
        kept = {i: v for i, v in constant.items() if _same(_known_value(outs[i], known), v)}
        if len(kept) == len(constant):
            break
        constant = kept
    value = _known_value(test, {id(cond_phs[i]): v for i, v in constant.items()})
    return value is not None and value.shape == () and bool(value)


def static_value(t, known: Optional[dict] = None) -> Optional[np.ndarray]:
    """`t`'s value if tracing knows it: a constant, a shape, size or rank of a known shape, or a stateless op
    on such values (`tf.size(x) > 0` for an `x` of static shape). None when it depends on a run-time value.
    `known`: values (by id) of tensors tracing does not know, such as a body's placeholders (jit lowering)."""
    return _known_value(t, known or {})


def _known_value(t, known: dict, depth: int = 0):
    """`t`'s value when the inputs in `known` (by id) have those values, from the ops' own kernels; None when it
    depends on anything else (or on a stateful op)."""
    if id(t) in known:
        return known[id(t)]
    value = packing.static_value(t)
    if value is not None or depth > 50:
        return value
    op = getattr(t, "op", None)
    if op is None or op.stateful or op.opdef.multi_output or not op.inputs or op.type in ("Placeholder", "Cond", "While"):
        return None
    values = [_known_value(i, known, depth + 1) for i in op.inputs]
    if any(v is None for v in values):
        return None
    try:
        return np.asarray(op.opdef.kernel(*values, **op.attrs))
    except Exception:   # noqa: BLE001 - a kernel that fails here fails when the graph runs, where it is reported
        return None


def _same(a, b) -> bool:
    return a is not None and a.dtype == b.dtype and a.shape == b.shape and bool(np.all(a == b))


def _invariants(shape_invariants, single, n, structure) -> list:
    if shape_invariants is None:
        return [None] * n
    given = [shape_invariants] if single else shape_invariants
    flat = nest.flatten(list(given))
    if len(flat) != n:
        raise ControlFlowError(f"shape_invariants has {len(flat)} entries but there are {n} loop variables.")
    return [None if s is None else as_shape(s) for s in flat]


def _check_loop_var(label: str, before, after, where: str) -> None:
    """Each message ends with the line that made the new value (`s = tf.cast(s, ...)`), when the body made it."""
    if after.dtype is not before.dtype:
        raise ControlFlowError(
            f"{where}: {label} is {before.dtype.name} before the loop but {after.dtype.name} after one "
            f"iteration; a loop variable must keep its dtype (use runtime.cast).{_made_in(before.op.graph, after)}")
    if not before.shape.is_compatible_with(after.shape):
        raise ControlFlowError(
            f"{where}: {label} has shape {before.shape} before the loop but {after.shape} after one "
            "iteration. To let its shape vary, pass shape_invariants with None for the dimensions that change "
            f"(in a converted loop: autograph.set_loop_options(shape_invariants=[({label}, "
            f"{_invariant_hint(before.shape, after.shape)})]) in the loop body).{_made_in(before.op.graph, after)}")


def _invariant_hint(before, after) -> str:
    """`[None, 3]` for shapes (1, 3) -> (2, 3): the dimensions that changed become None."""
    b, a = before.dims, after.dims
    if b is None or a is None or len(b) != len(a):
        return "None"
    return "[" + ", ".join("None" if x != y else str(x) for x, y in zip(b, a)) + "]"
