"""`runtime.function`: one Python function, many graphs (ConcreteFunctions).

Calling a `Function` computes a key from its arguments — tensors by dtype and
shape, Python values by value, nested lists/tuples/dicts by structure — and
runs the concrete function traced for that key, tracing a new one on a miss.
Python side effects in the function happen while tracing only; the graph runs
on every call. With `autograph=True` (the default) the function is converted
by `autograph` first, so data-dependent `if`/`while`/`for` become `Cond` and
`While` ops.
"""
from __future__ import annotations

import functools
import inspect
import threading
import types
import warnings
import weakref
from typing import Callable, Optional

from runtime import config, nest, python_reads
from runtime.compat import check_autograph_options
from runtime.concrete_function import ConcreteFunction
from runtime.control_flow import ControlFlowError
from runtime.errors import user_location
from runtime.errors import OperatorNotAllowedInGraphError, OpError
from runtime.executor.codegen import compile_graph
from runtime.function_results import as_results
from runtime.graph import FuncGraph, building, conversion_status
from runtime.ops import registry
from runtime.ops.logging_ops import is_raised_by_program
from runtime.signatures import (TensorSpec, array_to_tensor, describe, differ, encode, has_array, is_tensor_leaf,
                                is_variable, leaf_key, relax, variables_aliased)
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor, convert_to_tensor

RETRACE_WARNING_THRESHOLD = 5


# --- Function ------------------------------------------------------------------------

class Function:
    """A Python function that runs as traced graphs; see `runtime.function`."""

    def __init__(self, python_function: Callable, input_signature=None, autograph: bool = True,
                 reduce_retracing: bool = False, jit_compile=None, name: Optional[str] = None,
                 follow_type_hints: bool = False):
        if not callable(python_function):
            raise TypeError(f"runtime.function needs a callable, got {python_function!r}.")
        self.python_function = python_function
        self.input_signature = None if input_signature is None else tuple(input_signature)
        self._autograph = autograph
        self._reduce_retracing = reduce_retracing
        self._jit_compile = bool(jit_compile)
        self._hinted = _tensor_hinted(python_function) if follow_type_hints else None
        self.__name__ = name or getattr(python_function, "__name__", "function")
        self._cache: dict = {}
        self._concrete: list[ConcreteFunction] = []
        self._keys: list = []
        self._traces_creating_variables = 0   # first traces that created Variables, traced again (see _trace)
        self._traces_retired = 0   # traces dropped once a value they read was rebound (see _retire_stale)
        self._lock = threading.RLock()
        self._warned = False
        self.last_retrace_reason: Optional[str] = None
        self._bound: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
        self._short_call: Optional[Callable] = None   # see _shorten
        self._short_calls: dict = {}
        self._short_reads = None   # the Python values the shortened trace read (python_reads.Reads)
        functools.update_wrapper(self, python_function, updated=())

    # -- binding to instances (methods) -------------------------------------

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        try:
            bound = self._bound.get(instance)
        except TypeError:
            bound = None
        if bound is None:
            bound = Function(types.MethodType(self.python_function, instance), self.input_signature,
                             self._autograph, self._reduce_retracing, self._jit_compile, name=self.__name__,
                             follow_type_hints=self._hinted is not None)
            try:
                self._bound[instance] = bound
            except TypeError:
                pass
        return bound

    # -- calling ----------------------------------------------------------------

    def __call__(self, *args, **kwargs):
        try:
            short = self._short_call
            if short is not None and self._short_reads is not None and self._short_reads.changed():
                short = self._short_call = None   # a value the trace read was rebound: trace again (_lookup)
                self._short_calls.clear()
            if short is not None:
                result = short(args, kwargs)
                if result is not None:
                    return result
            if config.functions_run_eagerly():
                return self.python_function(*args, **kwargs)
            concrete = None if kwargs else self._cached_for_eager_tensors(args)
            if concrete is not None:
                result = concrete._call_flat(args)
                if concrete.jit_compile:
                    self._shorten(concrete, args, result)
                return result
            concrete, flat = self._lookup(args, kwargs)
            return concrete._call_flat(flat)
        except Exception as e:   # the user's frames only, as autograph shows them (see docs/errors.md)
            raise _user_frames(e)   # noqa: B904 - the same exception, shorter traceback

    def _shorten(self, concrete: "ConcreteFunction", args: tuple, result) -> None:
        """After an eager call of a jit-compiled function with EagerTensors by position, make the next call with
        the same dtypes and shapes go straight to the compiled program (`JaxExecutable.eager_call`: a few
        microseconds less a call, most of the gap to hand-written `jax.jit`; tools/bench/jit_compile.py)."""
        context = registry.context
        if context.tapes or context.graph is not None or not (concrete._returns_one_tensor or
                                                              concrete._returns_tensor_tuple) or concrete._resolves:
            return
        key = tuple([(a._dtype, a._value.shape) for a in args])
        short = self._short_calls.get(key)
        if short is None:
            outputs = (result,) if concrete._returns_one_tensor else result
            short = concrete._compiled().eager_call([d for d, _ in key], [s for _, s in key],
                                                    [t._dtype for t in outputs], concrete._returns_one_tensor)
            self._short_calls[key] = short
        self._short_call = short
        self._short_reads = concrete._reads

    def _cached_for_eager_tensors(self, args: tuple) -> Optional["ConcreteFunction"]:
        """The common case, fast: the trace for eager tensors passed by position, keyed exactly as
        `_lookup` keys them (see `signatures.encode`), or None."""
        if self.input_signature is not None or len(args) != self._positional_count():
            return None
        if not all(a.__class__ is EagerTensor for a in args):
            return None
        concrete = self._cache.get((("tuple", tuple([(a._dtype, a._value.shape) for a in args])), ()))
        if concrete is not None and concrete._reads is not None and concrete._reads.changed():
            return None   # a value the trace read was rebound: `_lookup` traces again
        return concrete

    def get_concrete_function(self, *args, **kwargs) -> "ConcreteFunction":
        if not args and not kwargs and self.input_signature is not None:
            args = self.input_signature
        return self._lookup(args, kwargs)[0]

    def experimental_get_tracing_count(self) -> int:
        return len(self._concrete) + self._traces_creating_variables + self._traces_retired

    def pretty_printed_concrete_signatures(self) -> str:
        return "\n\n".join(c.pretty_printed_signature() for c in self._concrete)

    def _lookup(self, args, kwargs):
        if self._hinted:
            args, kwargs = _as_hinted(self._hinted, args, kwargs)
        if kwargs or (len(args) != self._positional_count() and self.input_signature is None):
            args, kwargs = self._canonical(args, kwargs)
        if self.input_signature is not None:
            try:
                args, kwargs = self._apply_signature(args, kwargs)
            except TypeError as e:  # name the user's call, not this frame
                raise TypeError(f"{user_location()}: {e}") from None
        elif has_array(args, kwargs):
            args, kwargs = nest.pack((args, kwargs), [array_to_tensor(v) for v in nest.flatten((args, kwargs))])
        key = (encode(args), encode(kwargs) if kwargs else ())
        leaves = nest.flatten((args, kwargs))
        variables = [v for v in leaves if is_variable(v)]
        if variables:   # keyed by dtype and shape; which of them are the same Variable counts too
            key += (variables_aliased(variables),)
        concrete = self._cache.get(key)
        stale = concrete._reads.changed() if concrete is not None and concrete._reads is not None else None
        if concrete is None or stale:
            with self._lock:
                concrete = None if stale else self._cache.get(key)
                if concrete is None and not stale:
                    concrete, stale = self._relaxed_match(args, kwargs)
                if concrete is None:
                    concrete = self._trace(args, kwargs, key, stale)
                self._cache[key] = concrete
        if variables:
            concrete = concrete.with_variables(variables)
        flat = [v for v in leaves if is_tensor_leaf(v)]
        return concrete, flat

    def _apply_signature(self, args, kwargs):
        if kwargs:
            raise TypeError(f"{self.__name__} has an input_signature, so it takes positional arguments only; "
                            f"got keyword arguments {sorted(kwargs)}.")
        specs = self.input_signature
        if len(args) != len(specs):
            raise TypeError(f"{self.__name__} takes {len(specs)} argument(s) by its input_signature "
                            f"{list(specs)}, got {len(args)}.")
        checked = [self._check_against_spec(i, value, spec) for i, (value, spec) in enumerate(zip(args, specs))]
        return tuple(checked), {}

    def _check_against_spec(self, i: int, value, spec):
        """`value` (a tensor, or a nested structure of them) converted and checked against `spec`."""
        if isinstance(value, TensorSpec):
            return spec
        if not isinstance(spec, TensorSpec):  # a structure of specs: the value must have that structure
            if isinstance(spec, dict) and isinstance(value, dict) and nest.sorted_keys(spec) == nest.sorted_keys(value):
                return {k: self._check_against_spec(i, value[k], s) for k, s in spec.items()}
            if isinstance(spec, (tuple, list)) and isinstance(value, (tuple, list)) and len(spec) == len(value):
                items = [self._check_against_spec(i, v, s) for v, s in zip(value, spec)]
                return type(spec)(*items) if hasattr(spec, "_fields") else type(spec)(items)  # namedtuples too
            raise TypeError(f"{self.__name__}: argument {i} is {nest.structure_repr(value)} but the "
                            f"input_signature expects {nest.structure_repr(spec)}.")
        tensor = self._converted_for_spec(i, value, spec)
        if not spec.is_compatible_with(tensor):
            raise TypeError(
                f"{self.__name__}: argument {i} is a {tensor.dtype.name} tensor of shape {tensor.shape}, "
                f"which does not match the input_signature's {spec}. Pass a matching value, or widen "
                "the TensorSpec (None for a dimension that varies, shape=None for any shape).")
        return tensor

    def _converted_for_spec(self, i: int, value, spec: TensorSpec):
        """A tensor keeps its dtype; a NumPy array or Python value takes the spec's, as TensorFlow converts it."""
        if is_tensor_leaf(value):
            return convert_to_tensor(value, dtype_hint=spec.dtype)
        try:
            return convert_to_tensor(value, dtype=spec.dtype)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{self.__name__}: argument {i} can't be converted to the input_signature's {spec}: "
                            f"{e}") from None

    def _relaxed_match(self, args, kwargs) -> tuple[Optional["ConcreteFunction"], Optional[str]]:
        """With an input_signature or reduce_retracing, an existing trace that accepts these arguments; or None
        and, if one accepted them but read a value the program has rebound since, what was rebound."""
        if self.input_signature is not None:
            accepting = self._concrete[-1:]
        elif self._reduce_retracing:
            accepting = [concrete for concrete in self._concrete if concrete._accepts(args, kwargs)]
        else:
            return None, None
        stale = None
        for concrete in accepting:
            stale = concrete._reads.changed() if concrete._reads is not None else None
            if stale is None:
                return concrete, None
        return None, stale

    def _trace(self, args, kwargs, key, stale: Optional[str] = None) -> "ConcreteFunction":
        """A new trace for `key`; `stale`: why the trace cached for it no longer serves (a Python value it
        read from outside the function was rebound, python_reads.py)."""
        specs_args, specs_kwargs = args, kwargs
        if self.input_signature is not None:
            specs_args = self.input_signature
        elif self._reduce_retracing and self._concrete:
            specs_args, specs_kwargs = relax(self._concrete[-1]._input_structure, (args, kwargs))
        reason = stale or (self._explain(key) if self._keys else None)
        feeds = [v for v in nest.flatten((args, kwargs)) if is_tensor_leaf(v)]
        concrete = trace(self._traced_callable(), specs_args, specs_kwargs, self.__name__,
                         self._parameter_names(), feeds=feeds, first_trace=not self._concrete,
                         autograph=self._autograph)
        if concrete.graph.created_variables:   # as TensorFlow: trace again, where creating one is refused
            self._traces_creating_variables += 1
            concrete = trace(self._traced_callable(), specs_args, specs_kwargs, self.__name__,
                             self._parameter_names(), feeds=feeds, creation="again", autograph=self._autograph)
        concrete.jit_compile = self._jit_compile
        concrete._reads = python_reads.of(self.python_function)   # as bound after tracing
        self._retire_stale()
        self._concrete.append(concrete)
        self._keys.append(key)
        if reason is not None:
            self.last_retrace_reason = reason
            self._maybe_warn(reason, rebound=stale is not None)
        return concrete

    def _retire_stale(self) -> None:
        """Drop the traces that read a value the program has rebound since: no call can use them again (a
        loop rebinding a global the function reads, `lr = schedule(step)`, would keep one more graph a step)."""
        stale = {id(c) for c in self._concrete if c._reads is not None and c._reads.changed()}
        if not stale:
            return
        self._traces_retired += len(stale)
        kept = [(c, k) for c, k in zip(self._concrete, self._keys) if id(c) not in stale]
        self._concrete, self._keys = [c for c, _ in kept], [k for _, k in kept]
        for key in [key for key, c in self._cache.items() if id(c) in stale]:
            self._cache.pop(key, None)

    def _traced_callable(self) -> Callable:
        fn = self.python_function
        if not self._autograph:
            return fn
        import autograph   # the same distribution; imported late because autograph is optional at import
        return autograph.convert(fn)

    def _positional_count(self) -> int:
        """How many positional parameters the function has (-1 if unknown); calls giving exactly
        these are already canonical, so the common case skips `inspect`."""
        count = self.__dict__.get("_n_positional")
        if count is None:
            try:
                self._signature = inspect.signature(self.python_function)
                params = self._signature.parameters.values()
                count = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
                if any(p.kind is p.VAR_POSITIONAL for p in params):
                    count = -1
            except (TypeError, ValueError):
                count, self._signature = -1, None
            self._n_positional = count
        return count

    def _canonical(self, args, kwargs):
        """Arguments bound to parameters, defaults filled in: `f(x, n=2)`, `f(x, 2)` and, with a
        default of 2, `f(x)` are one call for the trace cache, as in TensorFlow."""
        self._positional_count()
        signature = self._signature
        if signature is None:
            return args, kwargs
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{self.__name__}{signature}: {e}") from None
        bound.apply_defaults()
        return bound.args, bound.kwargs

    def _parameter_names(self) -> list[str]:
        names = self.__dict__.get("_param_names")
        if names is None:
            try:
                names = list(inspect.signature(self.python_function).parameters)
            except (TypeError, ValueError):
                names = []
            self._param_names = names
        return names

    def _explain(self, key) -> str:
        previous = self._keys[-1]
        names = self._parameter_names()
        changes = []
        for i, (old, new) in enumerate(zip(previous[0][1], key[0][1])):
            if differ(old, new):
                label = names[i] if i < len(names) else f"argument {i}"
                changes.append(f"{label}: {describe(old)} -> {describe(new)}")
        if previous[0][1].__len__() != key[0][1].__len__():
            changes.append(f"number of arguments: {len(previous[0][1])} -> {len(key[0][1])}")
        if previous[1] != key[1]:
            changes.append("keyword arguments changed")
        if previous[2:] != key[2:] and previous[:2] == key[:2]:
            changes.append("which Variable arguments are the same Variable")
        return "; ".join(changes) or "new argument structure"

    def _maybe_warn(self, reason: str, rebound: bool = False) -> None:
        traces = self.experimental_get_tracing_count() - self._traces_creating_variables
        if self._warned or traces < RETRACE_WARNING_THRESHOLD:
            return
        self._warned = True
        filename, line = _caller_file_line()
        warnings.warn_explicit(
            f"{self.__name__} has been traced {traces} times; the latest retrace was called from "
            f"{filename}:{line} (changed: {reason}). Retracing is expensive: " + (
                "a value the function reads from outside itself was rebound (input_signature and reduce_retracing "
                "don't help here); pass it as an argument (a tensor), or hold it in a tf.Variable and assign to it."
                if rebound else "pass tensors rather than Python numbers, keep shapes stable, or use "
                "input_signature / reduce_retracing=True."),
            RuntimeWarning, filename, line)

    def __repr__(self) -> str:
        return f"<runtime.Function {self.__name__}>"


def _caller_file_line() -> tuple[str, int]:
    where = user_location()
    filename, _, line = where.rpartition(":")
    return filename or where, int(line) if line.isdigit() else 0


# --- tracing ------------------------------------------------------------------------

def trace(fn: Callable, args, kwargs, name: str, param_names: list[str], feeds: Optional[list] = None,
          first_trace: bool = False, creation: Optional[str] = None, autograph: bool = False) -> "ConcreteFunction":
    """Trace `fn` on placeholders for the tensor leaves of (args, kwargs).

    `autograph`: `fn` is autograph's conversion, so the functions the trace hands to `cond`, `while_loop`,
    `map_fn`... are converted too (TensorFlow's control status; see `functional_ops.converted`).

    `feeds`, the call's own tensors when a call caused the trace, let a Variable created during the first
    trace get its initial value at once (see `initial_value_while_tracing`). A first trace may create
    Variables; `creation` overrides what the trace allows (see `check_variable_creation`)."""
    graph = FuncGraph(name)
    graph.variable_creation = creation or ("allowed" if first_trace else "second trace")
    graph.feeds = feeds if feeds is not None and all(isinstance(t, EagerTensor) for t in feeds) else None
    structure = (tuple(args), dict(kwargs))
    leaves = nest.flatten(structure)
    arg_names = _leaf_names(structure, param_names)
    inputs = []
    for leaf, label in zip(leaves, arg_names):
        if is_tensor_leaf(leaf):
            inputs.append(graph.placeholder(leaf.dtype, leaf.shape, label))
        else:
            inputs.append(leaf)
    call_args, call_kwargs = nest.pack(structure, inputs)
    traced_keys = {id(v): leaf_key(v) for v in leaves if not is_tensor_leaf(v)}   # before the function changes one
    with building(graph), conversion_status(autograph):
        try:
            result = as_results(fn(*call_args, **call_kwargs), fn)
        except Exception as error:   # noqa: BLE001 - re-raised, or an error Python raises before it
            earlier = None if _refusal(error) else _earlier_error(graph, graph.feeds, name)
            if earlier is not None:
                raise earlier from None
            raise
        outputs = [graph.capture(v) if isinstance(v, Tensor) else v for v in nest.flatten(result)]
        outputs = [graph.capture(v._as_tensor(None)) if is_variable(v) else v for v in outputs]
    graph.structured_outputs = result
    graph.outputs = [v for v in outputs if isinstance(v, SymbolicTensor)]
    specs = [TensorSpec(leaf.shape, leaf.dtype, _spec_name(leaf, label)) if is_tensor_leaf(leaf) else leaf
             for leaf, label in zip(leaves, arg_names)]
    signature = nest.pack(structure, specs)
    return ConcreteFunction(graph, name, signature, result, outputs, param_names, traced_keys)


def _refusal(error: Exception) -> bool:
    """Whether `error` says the program can't be staged (autograph's or the graph's refusal, or the program's
    own error raised while tracing a branch that may not run) rather than being the program's own error at
    this point: a refusal may have been carried past code of the user's that went on tracing (a `with` that
    suppresses it), so the ops traced before it are not all ops Python runs before it."""
    notes = "\n".join(getattr(error, "__notes__", ()))
    return "(autograph)" in notes or isinstance(error, (ControlFlowError, OperatorNotAllowedInGraphError)) or \
        type(error).__module__.startswith("autograph.")


def _earlier_error(graph: FuncGraph, feeds, name: str) -> Optional[Exception]:
    """The error that a check recorded before tracing failed raises on this call's values, or None.

    The ops traced so far are what Python runs before the statement whose error stopped the trace. A check
    among them (a variable read where a staged statement may have left it unassigned, a staged `raise`, an
    assert, a Python int's overflow) is an error Python raises first, on this call's values: the partial graph
    runs (its effects in order, as Python's statements before the error run), and its error, if one fires,
    is the call's. Without the call's values (`get_concrete_function`) the tracing error stands."""
    if not feeds or len(feeds) != len(graph.inputs) or not any(op.stateful for op in graph.operations):
        return None
    with building(None):
        try:
            executable = compile_graph(graph, [], name)
            executable.run(*[t._value for t in feeds])
        except Exception as error:   # noqa: BLE001 - only the program's own errors are the answer
            if getattr(error, "raised_by_program", False) or is_raised_by_program(error) or \
                    isinstance(error, OpError):
                return executable.explain(error) or error
    return None


def _spec_name(leaf, label: str) -> str:
    """The name of an argument's TensorSpec in a signature: the one its TensorSpec was given, as in TensorFlow,
    else the parameter's."""
    return leaf.name if isinstance(leaf, TensorSpec) and leaf.name else label


def _leaf_names(structure, param_names: list[str]) -> list[str]:
    args, kwargs = structure
    names = []
    for i, value in enumerate(args):
        base = param_names[i] if i < len(param_names) else f"arg{i}"
        count = len(nest.flatten(value))
        names += [base] if count == 1 else [f"{base}_{j}" for j in range(count)]
    for key in nest.sorted_keys(kwargs):
        count = len(nest.flatten(kwargs[key]))
        names += [key] if count == 1 else [f"{key}_{j}" for j in range(count)]
    return names


def function(func: Optional[Callable] = None, input_signature=None, autograph: bool = True,
             reduce_retracing: bool = False, jit_compile=None, experimental_relax_shapes: Optional[bool] = None,
             experimental_compile=None, experimental_autograph_options=None,
             experimental_follow_type_hints: Optional[bool] = None):
    """Make a Python function run as traced graphs (decorator or call), like `tf.function`.
    `jit_compile=True` (or TensorFlow's older `experimental_compile=True`) compiles each concrete
    function with XLA through JAX instead of running it on the NumPy executor.
    `experimental_follow_type_hints=True`: the arguments of parameters annotated `tf.Tensor` are converted to
    tensors before the trace is looked up, so `f(1)`, `f(2)` share a trace.
    `experimental_autograph_options` (`runtime.autograph.experimental.Feature` values) is accepted and
    changes nothing: autograph always applies every conversion it has."""
    check_autograph_options(experimental_autograph_options)
    if experimental_relax_shapes is not None:
        reduce_retracing = experimental_relax_shapes
    if jit_compile is None:
        jit_compile = experimental_compile

    def decorate(fn: Callable) -> Function:
        if isinstance(fn, Function):  # function(function(f)) is function(f)
            fn = fn.python_function
        return Function(fn, input_signature, autograph, reduce_retracing, jit_compile,
                        follow_type_hints=bool(experimental_follow_type_hints))

    return decorate if func is None else decorate(func)



def _tensor_hinted(fn: Callable) -> tuple:
    """The parameters of `fn` annotated `Tensor` (runtime's, or spelled so in a string annotation), as
    (position or None, name, kind) — what `experimental_follow_type_hints` converts."""
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return ()
    hinted, position = [], 0
    for p in parameters:
        note = p.annotation
        if note is Tensor or (isinstance(note, str) and note.split(".")[-1] == "Tensor"):
            hinted.append((position if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)
                           else None, p.name, p.kind))
        position += p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    return tuple(hinted)


def _as_hinted(hinted: tuple, args: tuple, kwargs: dict) -> tuple:
    """`args` and `kwargs` with the values of the parameters in `hinted` converted to tensors."""
    args, kwargs = list(args), dict(kwargs)
    for position, name, kind in hinted:
        if kind is inspect.Parameter.VAR_POSITIONAL:
            args[position:] = [convert_to_tensor(a) for a in args[position:]]
        elif kind is inspect.Parameter.VAR_KEYWORD:
            kwargs = {k: convert_to_tensor(v) for k, v in kwargs.items()}
        elif position is not None and position < len(args):
            args[position] = convert_to_tensor(args[position])
        elif name in kwargs:
            kwargs[name] = convert_to_tensor(kwargs[name])
    return tuple(args), kwargs


def _user_frames(error: Exception) -> Exception:
    try:
        from autograph.errors import filter_traceback
    except ImportError:
        return error
    return filter_traceback(error)
