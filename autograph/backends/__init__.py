"""The plug-in protocol: how a framework's staged values get its control flow.

A framework registers a `Backend`. The operators that converted code calls
ask `backend_for(value)`, which answers from a per-type cache, so plain
Python values cost one dict lookup. A backend claims only *staged* values
(symbolic tensors while tracing); eager tensors are not claimed, so an `if`
on one runs as Python.

Every capability is a plain function; one left as None raises
`UnsupportedCapabilityError` naming the construct and the framework. See
docs/backends.md for a walk-through.
"""
from __future__ import annotations

import importlib
import sys
import threading
import warnings
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from autograph.errors import UnsupportedCapabilityError


@dataclass(frozen=True)
class LoopState:
    """The variables a staged loop carries, as autograph hands them to a backend's `while_loop` and `for_loop`.

    `values` are their values before the loop; `names` the user's name of each, for messages: `x`, an attribute
    or item the loop sets (`self.count`, `d['total']`), or `retval_` for the function's return value when there
    is a `return` inside the loop. The loop's test and body take the values positionally and the body returns
    a tuple of new ones. `first_test`, when not None, is the value of the test that made autograph stage the
    loop, already computed before it as Python computes it: a backend whose test may have effects (a Variable's
    `assign_add`, a print) uses it for the first iteration rather than evaluating the test again."""

    names: tuple
    values: tuple
    backend: "Backend"
    first_test: Any = None

    def name(self, i: int) -> str:
        return self.names[i] if i < len(self.names) else f"loop variable {i}"

    def with_placeholders(self, step: Callable[[tuple], tuple]) -> "LoopState":
        """The state with a placeholder of the right type for each value the loop must carry but that is not
        defined yet (a return value before a `return` inside the loop, an empty list the body appends to, a
        variable that is None before the loop): `step(values) -> new values`, one iteration of the body on the
        state as the backend's loop carries it, is run once in the backend's `probe` to learn each type.
        Its values are the same when nothing needs a placeholder."""
        from autograph.operators.placeholders import define_loop_state   # operators import this module
        return LoopState(self.names, define_loop_state(self.backend, step, self.values, self.names), self.backend,
                         self.first_test)


@dataclass
class Backend:
    """What a framework supplies. `cond`'s branch functions return tuples of values; `while_loop` and
    `for_loop` get the carried variables as a `LoopState` and their functions take its values positionally
    and return tuples of new ones."""

    name: str
    staged_types: tuple = ()                                 # types whose values may be staged
    is_staged: Optional[Callable[[Any], bool]] = None        # refine per value (default: all of those types)
    modules: tuple = ()                                      # module prefixes never converted
    is_staging: Optional[Callable[[], bool]] = None          # is the framework tracing now? (None: maybe)
    # cond(pred, true_fn() -> tuple, false_fn() -> tuple, names) -> tuple; `names` are the user's names of the
    # tuples' values for messages (empty for an `x if c else y` or an `and`/`or`)
    cond: Optional[Callable] = None
    while_loop: Optional[Callable] = None  # while_loop(test(*s), body(*s) -> tuple, state: LoopState, opts) -> tuple
    # for_loop(iterable, body(item, *s) -> tuple, state: LoopState, extra_test(*s) or None, opts) -> tuple
    for_loop: Optional[Callable] = None
    range: Optional[Callable] = None       # range(*args) -> staged iterable; args as the user gave them (1 to 3)
    len: Optional[Callable] = None
    enumerate: Optional[Callable] = None   # enumerate(staged, start) -> staged iterable for `for_loop`
    zip: Optional[Callable] = None         # zip(*iterables) -> staged iterable for `for_loop`
    int: Optional[Callable] = None         # int(staged) -> staged integer value
    float: Optional[Callable] = None       # float(staged) -> staged float value
    logical_and: Optional[Callable] = None  # logical_and(a, b_fn) -> value (b_fn evaluated lazily)
    logical_or: Optional[Callable] = None
    logical_not: Optional[Callable] = None
    print: Optional[Callable] = None        # unset: `print` stays Python's (runs while tracing)
    # format_string(literals, fields) -> a staged string: an f-string whose fields (operators/strings.Field: value,
    # conversion, spec) hold staged values, formatted when the graph runs. Unset: Python's f-string
    format_string: Optional[Callable] = None
    # python_type(value) -> the Python types a staged value may hold, as a tuple ((int,), (float,), (bool,), or
    # (int, float) for a variable an int on some paths and a float on others), when a staged statement carries
    # a Python number or bool in it; None for the program's own tensors. What `isinstance` answers
    python_type: Optional[Callable] = None
    assert_: Optional[Callable] = None      # assert_(condition, message_fn)
    # raise_(error, note): a staged op that raises a copy of `error` (type, args, attributes) with the PEP 678
    # `note` each time it runs, ordered after the framework's earlier effects (a `raise` in a staged branch)
    raise_: Optional[Callable] = None
    list_from: Optional[Callable] = None    # a Python list -> the framework's tensor list
    list_types: tuple = ()                  # types of the framework's tensor lists
    list_append: Optional[Callable] = None
    list_pop: Optional[Callable] = None
    list_stack: Optional[Callable] = None   # the list after the loop: a stacked_list.StackedList (its operators)
    list_empty_like: Optional[Callable] = None  # list_empty_like(element) -> an empty tensor list of such elements
    # Values undefined on some path (a `return` inside a staged loop or in one branch of a staged `if`, an
    # empty list appended to in a staged loop) need a placeholder of the right type. With these two,
    # autograph learns the type by running a branch or loop body once in a throwaway trace:
    # Errors the framework raises when Python meets a staged value (`bool` of a symbolic tensor): raised in a
    # converted function, they pass its own `except` clauses (converters/exceptions.py)
    graph_errors: tuple = ()
    probe: Optional[Callable] = None        # probe(fn) -> fn()'s result, traced where nothing is kept
    zeros_like: Optional[Callable] = None   # zeros_like(value) -> a staged zero of value's type and shape
    # A function that may end without `return` on a path a staged value chooses (Python returns None there):
    # check_returned(did_return, message_fn) makes that path fail. None: `assert_(did_return, message_fn)`.
    check_returned: Optional[Callable] = None
    # check_defined(value, defined, error, message) -> value, failing with `error(message)` where the staged bool
    # `defined` is false when the graph runs. With it (and the two above), a variable that a staged statement
    # defines on some paths only is carried with a defined flag and checked where it is read
    # (operators/maybe.py); without it, such a variable is a StagingError.
    check_defined: Optional[Callable] = None
    # static_bool(pred) -> True/False when tracing already knows a staged condition's value (static shapes,
    # constants), else None: an `if` on it then runs as Python's, tracing only the branch it takes.
    static_bool: Optional[Callable] = None
    # mark_converted(fn): called once for each function `convert` returns (those made before the backend
    # registered too), for a framework whose tracer must be told how to treat converted code. The torch
    # backend has dynamo hand a converted function to AOTAutograd untraced (torch.py, "torch.compile").
    mark_converted: Optional[Callable] = None
    # leaving(value) -> value: a value leaving converted code while the framework stages: what the outermost
    # converted function running returns, and the arguments converted code gives a function autograph does not
    # convert (JAX gives them as bool arrays where it carried a Python bool as an int: jax_bools.py)
    leaving: Optional[Callable] = None
    extra: dict = field(default_factory=dict)

    def need(self, capability: str, construct: str) -> Callable:
        """The capability's function, or an `UnsupportedCapabilityError` naming `construct` and the framework."""
        fn = getattr(self, capability)
        if fn is None:
            raise UnsupportedCapabilityError(
                f"{construct} on {self.name} values is not supported: the {self.name} backend provides no "
                f"`{capability}`. Use Python values here, or the framework's own API.")
        return fn


_backends: tuple = ()                                # replaced whole, never mutated in place
_leaving: tuple = ()                                 # those of them with a `leaving`
_type_cache: dict[type, Optional[Backend]] = {}
_generation = 0                                       # bumped on every (un)registration
_lock = threading.Lock()

# Adapters shipped with autograph, imported only once their framework is: the top-level module
# name of a framework's types -> the adapter module, which registers the framework's backend.
LAZY_ADAPTERS = {"jax": "autograph.backends.jax", "jaxlib": "autograph.backends.jax",
                 "torch": "autograph.backends.torch", "tensorflow": "autograph.backends.tensorflow"}
_lazy_pending = frozenset(LAZY_ADAPTERS)              # frameworks whose adapter is not imported yet
_adapter_lock = threading.RLock()                     # held while an adapter imports: other threads wait
_loading: set = set()                                 # adapters being imported (re-entry from their import)


def _load_adapter(framework: str) -> None:
    """Import the adapter of `framework` (it registers itself); a broken adapter warns once."""
    global _lazy_pending
    with _adapter_lock:
        adapter = LAZY_ADAPTERS[framework]
        if framework not in _lazy_pending or adapter in _loading:
            return
        _loading.add(adapter)
        try:
            importlib.import_module(adapter)
        except ModuleNotFoundError as e:
            if e.name != adapter:                   # the adapter exists but something it needs does not
                _warn_broken(framework, adapter, e)
        except Exception as e:                      # never break Python semantics for other values
            _warn_broken(framework, adapter, e)
        finally:
            _loading.discard(adapter)
            _lazy_pending = _lazy_pending - {k for k, v in LAZY_ADAPTERS.items() if v == adapter}


def _warn_broken(framework: str, adapter: str, e: Exception) -> None:
    warnings.warn(f"autograph could not load its {framework} backend ({adapter}): {e!r}; "
                  f"{framework} values will not get converted control flow.", RuntimeWarning, stacklevel=4)


_lazy_watch: tuple = ("jax", "torch", "tensorflow")   # polled by any_staging (jaxlib comes with jax)


def _load_imported_adapters() -> None:
    """Load the adapter of every shipped framework that the program has imported by now."""
    global _lazy_watch
    for framework in [f for f in _lazy_watch if f in sys.modules]:
        _load_adapter(framework)
    _lazy_watch = tuple(f for f in _lazy_watch if f in _lazy_pending)


def register_backend(backend: Backend) -> Backend:
    """Add (or replace, by name) a framework's backend. Thread-safe."""
    global _backends, _generation, _leaving
    with _lock:
        _backends = tuple(b for b in _backends if b.name != backend.name) + (backend,)
        _leaving = tuple(b for b in _backends if b.leaving is not None)
        _generation += 1
        _type_cache.clear()
    if backend.mark_converted is not None:
        for fn in list(_converted):
            backend.mark_converted(fn)
    return backend


_converted: "weakref.WeakSet" = weakref.WeakSet()   # every function `convert` made, for `mark_converted`


def note_converted(fn) -> None:
    """Called by `convert` for each function it returns: loads the adapters of the frameworks imported by now
    (so that theirs see `fn` before any tracer does) and lets every backend mark `fn`."""
    if _lazy_watch:
        _load_imported_adapters()
    _converted.add(fn)
    for backend in _backends:
        if backend.mark_converted is not None:
            backend.mark_converted(fn)


def unregister_backend(name: str) -> None:
    """Remove the backend called `name` (no error if there is none)."""
    global _backends, _generation, _leaving
    with _lock:
        _backends = tuple(b for b in _backends if b.name != name)
        _leaving = tuple(b for b in _backends if b.leaving is not None)
        _generation += 1
        _type_cache.clear()


def leaving(value):
    """`value`, leaving converted code (see `Backend.leaving`), as each backend's `leaving` gives it."""
    for backend in _leaving:
        value = backend.leaving(value)
    return value


def any_leaving() -> bool:
    """Does a registered backend have a `leaving`?"""
    return bool(_leaving)


def registered() -> list[Backend]:
    """The registered backends, in registration order."""
    return list(_backends)


def tracing_errors() -> tuple:
    """What a converted function's `except` clauses let through: autograph's carrier of a failed staging,
    autograph's own errors (a `StagingError` a backend raises where the user's code meets a staged value, such
    as `list(range(n))` of a traced `n`: a ValueError, which an `except ValueError:` would otherwise take for the
    code's own error) and every registered framework's `graph_errors` (see converters/exceptions.py)."""
    from autograph.errors import AutoGraphError, TracingFailed
    return (TracingFailed, AutoGraphError, *(e for b in _backends for e in b.graph_errors))


def owned_module_prefixes() -> tuple:
    """Module-name prefixes of every registered framework: `converted_call` never converts them."""
    return tuple(p for b in _backends for p in b.modules)


_LIBRARIES = ("autograph", "numpy", "gast", "builtins")
_framework_modules: dict = {}   # module name -> (registration generation, whether a registered framework owns it)


def framework_module(module: Optional[str]) -> bool:
    """Whether a registered framework owns the module (one of its `modules` prefixes); cached per module."""
    if not isinstance(module, str):
        return False
    generation, owned = _framework_modules.get(module, (None, False))
    if generation != _generation:
        owned = any(module == p or module.startswith(p + ".") for p in owned_module_prefixes())
        _framework_modules[module] = (_generation, owned)
    return owned


def library_module(module: Optional[str]) -> bool:
    """A module of the standard library, of autograph or NumPy, or of a registered framework: not the user's
    code (`converted_call` never converts its functions; its state is its own)."""
    if not module:
        return False
    top = module.split(".")[0]
    if top in sys.stdlib_module_names or top in _LIBRARIES:
        return True
    return any(module == p or module.startswith(p + ".") for p in owned_module_prefixes())


def _claims(backend: Backend, cls: type) -> bool:
    return issubclass(cls, backend.staged_types) or bool(backend.list_types) and issubclass(cls, backend.list_types)


def _lookup_type(cls: type) -> Optional[Backend]:
    framework = cls.__module__.partition(".")[0] if isinstance(cls.__module__, str) else ""
    if framework in _lazy_pending:
        _load_adapter(framework)
    generation, current = _generation, _backends
    found = next((b for b in current if _claims(b, cls)), None)
    with _lock:
        if generation == _generation:        # a registration in between would make this answer stale
            _type_cache[cls] = found
    return found


def backend_for(value) -> Optional[Backend]:
    """The backend that stages `value`, or None for a value with Python semantics."""
    cls = value.__class__
    try:
        backend = _type_cache[cls]
    except KeyError:
        backend = _lookup_type(cls)
    if backend is None or backend.is_staged is None or issubclass(cls, backend.list_types or ()):
        return backend
    return backend if backend.is_staged(value) else None


def any_staging() -> bool:
    """True while some registered framework may be staging (tracing) values."""
    if _lazy_watch:                                  # a shipped framework imported since the last call?
        modules = sys.modules
        for framework in _lazy_watch:
            if framework in modules:
                _load_imported_adapters()
                break
    for backend in _backends:
        if backend.is_staging is None or backend.is_staging():
            return True
    return False


def backend_for_any(values) -> Optional[Backend]:
    """The backend of the first staged value among `values`, if any."""
    for value in values:
        backend = backend_for(value)
        if backend is not None:
            return backend
    return None
