"""`ConcreteFunction`: one traced graph of a `runtime.function`, for one input signature.

Called with the traced signature's arguments (or its tensors, flattened), it
runs the graph: by the NumPy executor's generated code, or, with
`jit_compile`, by JAX. Under a GradientTape it is recorded as one `Call` op,
whose gradient replays the graph; inside another function's trace it is
inlined.
"""
from __future__ import annotations

import copy
import threading
import weakref
from typing import Optional

import numpy as np

from runtime import nest
from runtime.errors import OpError
from runtime.executor.codegen import compile_graph
from runtime.graph import FuncGraph
from runtime.interpret import inline_into, interpret, replay, unrepeatable_ops, with_handles
from runtime.lowering import jax_executable
from runtime.ops import array_ops, registry
from runtime.ops.registry import Spec, defop, wrap
from runtime.signatures import (differ, is_tensor_leaf, is_variable, leaf_key, match_signature, mismatch_error,
                                returns_text, spec_text)
from runtime.tensor import EagerTensor, SymbolicTensor, convert_to_tensor
from runtime.tensor_array import stacked_list_of


class ConcreteFunction:
    """One traced graph of a Function, for one input signature; callable."""

    def __init__(self, graph: FuncGraph, name: str, input_structure, structured_outputs, flat_outputs,
                 param_names: list[str], traced_keys: Optional[dict] = None):
        self.graph = graph
        self.name = name
        self._input_structure = input_structure
        # the keys of the Python arguments when they were traced (by id): an object's snapshot
        # (signatures.object_key) is of its attributes then, not now
        self._traced_keys = traced_keys if traced_keys is not None else {
            id(v): leaf_key(v) for v in nest.flatten(input_structure) if not is_tensor_leaf(v)}
        self.structured_outputs = structured_outputs
        self._flat_outputs = flat_outputs
        self._resolves = _holds_maybe(structured_outputs)   # values defined on some paths only (see _structured)
        # the lists a staged loop built, returned: Python lists of their rows to the caller (see _structured)
        self._lists = frozenset(i for i, v in enumerate(flat_outputs) if getattr(v, "is_stacked_list", False))
        self._returns_one_tensor = (isinstance(structured_outputs, SymbolicTensor) and len(flat_outputs) == 1
                                    and not self._lists)
        self._returns_tensor_tuple = type(structured_outputs) is tuple and len(structured_outputs) == len(
            flat_outputs) and all(isinstance(v, SymbolicTensor) for v in structured_outputs) and not self._lists
        self._param_names = param_names
        self._executable = None
        self._lock = threading.Lock()
        self.jit_compile = False   # True: run by JAX (`runtime/lowering/to_jax.py`), not the NumPy executor
        self._for_variables: dict = {}   # ids of other Variable arguments -> (their weak references, the copy)
        self._reads = None   # the Python values its trace read from outside the function (Function sets it)

    @property
    def structured_input_signature(self):
        return self._input_structure

    @property
    def inputs(self) -> list:
        return list(self.graph.inputs)

    @property
    def outputs(self) -> list:
        return list(self.graph.outputs)

    def _compiled(self):
        if self._executable is None:
            with self._lock:
                if self._executable is None:
                    compile_ = jax_executable if self.jit_compile else compile_graph
                    self._executable = compile_(self.graph, self.graph.outputs, self.name)
        return self._executable

    def executor_source(self) -> str:
        """The Python code the executor generated for this graph (a one-line summary under jit_compile)."""
        return self._compiled().source

    def __call__(self, *args, **kwargs):
        """Call with the arguments of the traced signature (Python ones must equal the traced values),
        or with just its tensors, flattened, in order."""
        flat = [v for v in nest.flatten((args, kwargs)) if is_tensor_leaf(v)]
        specs = [v for v in nest.flatten(self._input_structure) if is_tensor_leaf(v)]
        structured = self._bind(args, kwargs)
        if structured is not None:
            try:
                tensors = match_signature(self.name, structured, self._input_structure[0], self.traced_key)
                variables = [v for v in nest.flatten(structured) if is_variable(v)]
                return (self.with_variables(variables) if variables else self)._call_flat(tensors)
            except TypeError:
                given = (*args, *kwargs.values())
                if len(flat) != len(specs) or not all(is_tensor_leaf(v) for v in given):
                    raise  # not a call with the flat tensors either
        if len(flat) != len(specs):
            raise TypeError(f"{self.name} was traced for {len(specs)} tensor argument(s), got {len(flat)}.")
        converted = []
        for value, spec in zip(flat, specs):
            t = convert_to_tensor(value, dtype_hint=spec.dtype)
            if not spec.is_compatible_with(t):
                raise mismatch_error(t, spec)(f"{self.name}: got a {t.dtype.name} tensor of shape {t.shape} "
                                              f"where the traced signature has {spec}.")
            converted.append(t)
        return self._call_flat(converted)

    def with_variables(self, variables: list) -> "ConcreteFunction":
        """This function for other Variable arguments (of the traced ones' dtypes and shapes, in the order they
        come in the arguments), as TensorFlow's takes Variables as inputs: a copy of the graph that reads and
        writes them instead, made once per set of Variables, without running the Python function again."""
        traced = [v for v in nest.flatten(self._input_structure) if is_variable(v)]
        if len(traced) != len(variables) or all(a is b for a, b in zip(traced, variables)):
            return self
        key = tuple(id(v) for v in variables)
        found = self._for_variables.get(key)
        if found is not None and all(ref() is v for ref, v in zip(found[0], variables)):
            return found[1]
        with self._lock:
            self._for_variables = {k: (refs, c) for k, (refs, c) in self._for_variables.items()
                                   if all(ref() is not None for ref in refs)}   # none for Variables gone
            bound = self._bound_to(traced, variables)
            self._for_variables[key] = ([weakref.ref(v) for v in variables], bound)
        return bound

    def _bound_to(self, traced: list, variables: list) -> "ConcreteFunction":
        handles = {id(a.handle): b.handle for a, b in zip(traced, variables) if a is not b}
        graph = with_handles(self.graph, handles)
        if graph is self.graph:
            return self
        mapping = {id(a): b for a, b in zip(traced, variables)}
        tensors = {id(old): new for old, new in zip(self.graph.inputs, graph.inputs)}
        tensors.update((id(old), new) for old, new in zip(self.graph.outputs, graph.outputs))
        bound = copy.copy(self)
        bound.graph, bound._executable, bound._lock, bound._for_variables = graph, None, threading.Lock(), {}
        bound._flat_outputs = [tensors.get(id(v), v) if isinstance(v, SymbolicTensor) else v
                               for v in self._flat_outputs]
        bound._input_structure = nest.pack(self._input_structure, [
            mapping.get(id(v), v) for v in nest.flatten(self._input_structure)])
        return bound

    def _bind(self, args, kwargs) -> Optional[tuple]:
        """The call's arguments in the positions of the traced ones, if it gives all of them."""
        traced_args, traced_kwargs = self._input_structure
        if traced_kwargs or len(args) > len(traced_args):
            return None
        names = self._param_names[len(args):len(traced_args)]
        if len(args) + len(names) != len(traced_args) or set(kwargs) != set(names):
            return None
        return (*args, *(kwargs[name] for name in names))

    def _call_flat(self, tensors):
        """Run the call: the path every eager call takes, kept short (see tools/bench/jit_compile.py and
        graph_execution.py's small rows)."""
        context = registry.context
        if context.tapes or context.graph is not None:
            return self._call_in_context(tensors, context)
        executable = self._executable or self._compiled()
        values = [t._value if isinstance(t, EagerTensor) else convert_to_tensor(t)._value for t in tensors]
        if executable.scalar_inputs:   # the executor computes on NumPy scalars (JAX takes 0-d arrays faster)
            values = [v[()] if v.__class__ is np.ndarray and v.ndim == 0 else v for v in values]
        try:
            results = executable.run(*values)
        except _KERNEL_ERRORS as e:
            explained = executable.explain(e)
            if explained is None:
                raise
            raise explained from None
        if self._returns_one_tensor:
            return wrap(results[0])
        if self._returns_tensor_tuple:
            return tuple([wrap(r) for r in results])
        results = iter(results)
        flat = [wrap(next(results)) if isinstance(v, SymbolicTensor) else v for v in self._flat_outputs]
        return self._structured(flat)

    def _call_in_context(self, tensors, context):
        if context.tapes and context.graph is not None:   # tapes in the graph being traced see every op
            return self._replay(tensors)
        if context.tapes:   # eager tapes see one Call op, differentiated by a compiled gradient graph ...
            if unrepeatable_ops(self.graph):   # ... which recomputes the function: not if it draws or assigns
                return self._replay(tensors)
            return self._call_recorded(tensors)
        return self._inline(tensors)   # called while tracing another function

    def execute(self, values: list) -> tuple:
        """The compiled graph's outputs for its inputs' NumPy values; a failing op names the user's line."""
        executable = self._executable or self._compiled()
        if executable.scalar_inputs:
            values = [v[()] if v.__class__ is np.ndarray and v.ndim == 0 else v for v in values]
        try:
            return executable.run(*values)
        except _KERNEL_ERRORS as e:
            explained = executable.explain(e)
            if explained is None:
                raise
            raise explained from None

    def _call_recorded(self, tensors):
        """Run the compiled graph as one `Call` op, which the eager tapes record. The tensors that the
        graph captured as constants and that a tape follows come as inputs too, so they get gradients."""
        tensors = [convert_to_tensor(t) for t in tensors]
        followed = [(original, const) for original, const in self.graph._eager_captures.values()
                    if any(id(original) in tape._tracked for tape in registry.context.tapes)]
        outs = iter(registry.apply(CALL, *tensors, *(original for original, _ in followed), function=self,
                                   graph=self.graph, captures=tuple(const for _, const in followed)))
        return self._structured([next(outs) if isinstance(v, SymbolicTensor) else v for v in self._flat_outputs])

    def _replay(self, tensors):
        """Apply this function's ops again through the registry (eagerly, or into the graph being
        traced), so that the GradientTapes recording there see them."""
        flat = replay(self.graph, [convert_to_tensor(t) for t in tensors], self._flat_outputs)
        return self._structured(flat)

    def _inline(self, tensors):
        """Copy this function's ops into the graph being traced, fed by `tensors`."""
        graph = registry.context.graph
        feeds = [graph.capture(convert_to_tensor(t)) for t in tensors]
        flat = interpret(self.graph, feeds, self._flat_outputs, inline_into(graph, self.name))
        return self._structured(flat)

    def _structured(self, flat: list):
        if self._lists:
            flat = [_as_list(v) if i in self._lists else v for i, v in enumerate(flat)]
        out = nest.pack(self.structured_outputs, flat) if nest.is_sequence(self.structured_outputs) else flat[0]
        if self._resolves and registry.context.graph is None:
            return _resolved(out, f" ({self.name} returns it)")
        return out

    def _accepts(self, args, kwargs) -> bool:
        mine = nest.flatten(self._input_structure)
        theirs = nest.flatten((tuple(args), dict(kwargs)))
        if len(mine) != len(theirs) or not nest.same_structure(self._input_structure, (tuple(args), dict(kwargs))):
            return False
        for a, b in zip(mine, theirs):
            if is_tensor_leaf(a) != is_tensor_leaf(b):
                return False
            if is_tensor_leaf(a):
                if not a.is_compatible_with(b):
                    return False
            elif differ(self.traced_key(a), leaf_key(b)):
                return False
        return True

    def traced_key(self, leaf):
        """The key `leaf`, a Python argument of the traced signature, had when it was traced."""
        key = self._traced_keys.get(id(leaf))
        return leaf_key(leaf) if key is None else key

    def pretty_printed_signature(self, verbose: bool = True) -> str:
        args, kwargs = self._input_structure
        parts, arg_lines = [], []
        for i, value in enumerate(args):
            label = self._param_names[i] if i < len(self._param_names) else f"arg{i}"
            if any(is_tensor_leaf(v) for v in nest.flatten(value)):
                parts.append(label)
                arg_lines.append(f"    {label}: {spec_text(value)}")
            else:
                parts.append(f"{label}={value!r}")
        for key in kwargs:
            value = kwargs[key]
            if any(is_tensor_leaf(v) for v in nest.flatten(value)):
                parts.append(key)
                arg_lines.append(f"    {key}: {spec_text(value)}")
            else:
                parts.append(f"{key}={value!r}")
        lines = [f"{self.name}({', '.join(parts)})"]
        if arg_lines:
            lines += ["  Args:", *arg_lines]
        lines += ["  Returns:", *returns_text(self.structured_outputs)]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<ConcreteFunction {self.pretty_printed_signature().splitlines()[0]}>"


_KERNEL_ERRORS = (OpError, ValueError, IndexError, TypeError, ZeroDivisionError, FloatingPointError)


def _as_list(value):
    """A list a staged loop built, as the function returns it: eagerly, the Python list of its rows (each an
    op, so that tapes follow them), as the Python function would return; while tracing another function, the
    stacked list of that graph."""
    if registry.context.graph is not None:
        return stacked_list_of(value)
    return list(array_ops.unstack(value)) if value.shape[0] else []


def _holds_maybe(structure) -> bool:
    """Whether a function's outputs hold a value that a staged statement defined on some paths only (autograph's
    `MaybeValue`: a value and a defined flag, carried as a structure of two tensors)."""
    if hasattr(structure, "resolved") and hasattr(structure, "_flatten"):
        return True
    if isinstance(structure, (tuple, list)):
        return any(_holds_maybe(v) for v in structure)
    return isinstance(structure, dict) and any(_holds_maybe(v) for v in structure.values())


def _resolved(structure, context: str):
    """The outputs with each such value replaced by what Python gives on the path that ran: the value, None,
    or the error (UnboundLocalError) Python raises."""
    if hasattr(structure, "resolved") and hasattr(structure, "_flatten"):
        return structure.resolved(context)
    if isinstance(structure, (tuple, list)) and not hasattr(structure, "_fields"):
        return type(structure)(_resolved(v, context) for v in structure)
    if isinstance(structure, tuple):
        return type(structure)(*(_resolved(v, context) for v in structure))
    if isinstance(structure, dict):
        return {k: _resolved(v, context) for k, v in structure.items()}
    return structure


def _call_kernel(*values, function, graph, captures):
    return list(function.execute(values[:len(graph.inputs)]))


CALL = defop("Call", _call_kernel, lambda *inputs, function, graph, captures: [
    Spec(t.dtype, t.shape) for t in graph.outputs], multi_output=True, holds_graphs=True,
    doc="a traced function run by its compiled graph, as eager GradientTapes record it; inputs[len(graph.inputs):] "
        "are the eager tensors the graph captured as the constants `captures`")
