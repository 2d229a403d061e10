"""`torch.compile` of converted functions: dynamo hands them to AOTAutograd, which traces them as export does.

Dynamo traces Python bytecode, and would trace autograph's dispatch code and
operators (type caches, locks, closures setting `nonlocal` variables) and
break the graph there. So each function `convert` returns is marked the way
`torch._dynamo.nonstrict_trace` marks a function: dynamo puts one opaque call
of it in its graph, and AOTAutograd traces that call with fake tensors while
`torch.compiler.is_compiling()` is true, which is the non-strict tracing that
`torch.export` does: the converted code's `if`/`while` on tensors become
`cond`/`while_loop` in the compiled graph, and `fullgraph=True` holds. Both the
converted function (called from compiled code, or a module's `forward`) and its
generated code (called by the converted function when dynamo compiles that
one's frame, as `torch.compile(fn)` does) are marked, and each converted function
gets its own copy of the dispatcher's code object, on which dynamo keeps its
compiled code and counts recompilations.

Importing dynamo costs about a second, so nothing is marked before the program
imports it (`torch.compile` and `torch.export` do): functions converted before
then are marked when `torch._dynamo` is imported, through a one-shot import hook.
"""
from __future__ import annotations

import importlib.abc
import importlib.util
import sys
import threading
import weakref
from typing import Callable

from autograph.errors import StagingError

_DYNAMO = "torch._dynamo"
_lock = threading.Lock()
_waiting: "weakref.WeakSet" = weakref.WeakSet()   # converted functions made before dynamo was imported
_ready = False                                     # dynamo is imported: mark at once


def mark_converted(fn) -> None:
    """The backend's `mark_converted`: let dynamo hand `fn` (and the generated code it runs) to AOTAutograd."""
    with _lock:
        if not _ready:
            _waiting.add(fn)
            return
    _mark(fn)


def _mark(fn) -> None:
    from torch._dynamo import trace_rules
    # Dynamo keeps compiled code, and counts recompilations against its limit (8), per code object; every
    # converted function runs the same dispatcher code (api.py): give each its own copy of it.
    fn.__code__ = fn.__code__.replace()
    generated, staged = getattr(fn, "generated", None), getattr(fn, "staged", None)
    if generated is not None and staged is not None:
        staged[0] = _checked(generated)      # what the dispatcher (api.py) runs while torch traces
    for target in (fn, generated, staged[0] if staged else None):
        if target is None:
            continue
        key = id(target)
        trace_rules._allowed_callable_ids.add(key)          # what nonstrict_trace does to the function it wraps
        trace_rules._nonstrict_trace_callable_ids.add(key)
        weakref.finalize(target, _unmark, key)             # an id is reused once its object is gone


# --- Python side effects under torch.compile ----------------------------------------------------------------
#
# torch.compile traces a converted function (non-strict, as torch.export does) and its compiled graph repeats only
# the tensor operations: a Python side effect (`self.n += 1`, `LOG.append(x)`, `self.acc = self.acc + x`, which
# rebinds a buffer that the traced call sees through a stand-in) is made while compiling, not on every call, and
# the module would keep its old buffer. Dynamo itself would replay them, but it does not trace converted code.
# So while torch.compile traces, the generated code runs under a check of the objects it can reach: its
# arguments (a module's attributes, parameters, buffers and submodules by identity; a list's, dict's or object's
# items), the globals it reads, and those of its module's globals it reads or assigns. A change is refused at
# the user's `def`; an in-place change of a tensor (`self.acc += x`, `self.acc.copy_(...)`) is in the graph.

def _checked(generated: Callable) -> Callable:
    """`generated`, refusing the Python side effects it makes while torch.compile traces it."""
    def staged(*args, **kwargs):
        if not _compile_tracing():
            return generated(*args, **kwargs)
        before = _state_of(generated, args, kwargs)
        out = generated(*args, **kwargs)
        what = _first_change(before)
        if what is not None:
            _restore(before)     # dynamo, without fullgraph=True, then runs the call eagerly: make it once
            raise StagingError(_side_effect_message(what, generated))
        return out
    staged.__name__, staged.__qualname__ = generated.__name__, generated.__qualname__
    return staged


def _compile_tracing() -> bool:
    import torch
    return torch.compiler.is_compiling() and not torch.compiler.is_exporting()


def _state_of(generated: Callable, args: tuple, kwargs: dict) -> tuple:
    """What the objects `generated` can reach hold before the call: (modules, other objects, globals)."""
    import torch
    from autograph.operators import shared, snapshots

    code = generated.__code__
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    bound = [(names[i] if i < len(names) else f"argument {i + 1}", value) for i, value in enumerate(args)]
    bound += list(kwargs.items())
    modules = [(path, m, _module_state(m), _module_dicts(m)) for name, value in bound
               if isinstance(value, torch.nn.Module)
               for path, m in value.named_modules(prefix=name, remove_duplicate=True)]
    module = generated.__globals__
    read = [(name, value) for name, _, value in shared._globals_of([generated], module)]
    objects = snapshots.snapshot([pair for pair in bound + read if not isinstance(pair[1], torch.nn.Module)])
    global_names = _loaded_or_stored_globals(code)
    return modules, objects, (module, {name: module.get(name, _MISSING) for name in global_names})


_MISSING = object()


_MODULE_DICTS = ("_parameters", "_buffers", "_modules")


def _module_state(m) -> dict:
    """A module's attributes, parameters, buffers and submodules by name."""
    own = {k: v for k, v in vars(m).items() if k not in _MODULE_DICTS}
    return {**own, **m._parameters, **m._buffers, **m._modules}


def _module_dicts(m) -> dict:
    return {"__dict__": dict(vars(m)), **{name: dict(getattr(m, name)) for name in _MODULE_DICTS}}


def _loaded_or_stored_globals(code) -> frozenset:
    from autograph.operators import shared
    return shared.code_names(code, ("LOAD_GLOBAL", "STORE_GLOBAL", "DELETE_GLOBAL"), _GLOBALS_USED)


_GLOBALS_USED: dict = {}


def _first_change(before: tuple):
    """The first change since `_state_of` gave `before`, as the user would name it; None if none."""
    from autograph.operators import snapshots

    modules, objects, (module, global_values) = before
    for path, m, old, _ in modules:
        new = _module_state(m)
        for key in {**old, **new}:
            if old.get(key, _MISSING) is not new.get(key, _MISSING):
                return f"`{path}.{key}`"
    for name, old in global_values.items():
        if module.get(name, _MISSING) is not old:
            return f"the global '{name}'"
    return snapshots.what_changed(objects)


def _restore(before: tuple) -> None:
    """Undo the changes since `_state_of` gave `before`, where it can (not an iterator's or a file's)."""
    from autograph.operators import snapshots

    modules, objects, (module, global_values) = before
    for _, m, _, dicts in modules:
        for name, old in dicts.items():
            snapshots.refill(vars(m) if name == "__dict__" else getattr(m, name), old)
    for name, old in global_values.items():
        if old is _MISSING:
            module.pop(name, None)
        else:
            module[name] = old
    snapshots.restore(objects)


def _side_effect_message(what: str, generated: Callable) -> str:
    code = generated.__code__
    return (f"{code.co_filename}:{code.co_firstlineno}: {what} is changed by '{generated.__qualname__}' while "
            "torch.compile traces it. torch.compile traces a converted function once (non-strict, as torch.export "
            "does) and its compiled graph repeats only the tensor operations, so the change would be made once, "
            "while compiling, not on every call (a module would keep its old buffer). Change a tensor in place "
            "(`self.acc += x`, `self.acc.copy_(...)`), return the new value and assign it outside the converted "
            "function, or leave this function unconverted.")


def _unmark(key: int) -> None:
    from torch._dynamo import trace_rules
    trace_rules._allowed_callable_ids.remove(key)
    trace_rules._nonstrict_trace_callable_ids.remove(key)


def _dynamo_imported() -> None:
    global _ready
    try:
        from torch._dynamo import trace_rules
        trace_rules._allowed_callable_ids, trace_rules._nonstrict_trace_callable_ids   # noqa: B018
    except (ImportError, AttributeError):            # pragma: no cover - a torch without nonstrict_trace
        return                                       # dynamo then traces converted code itself
    import torch._dynamo
    from autograph import backends
    # Compiling a converted function's own frame (`torch.compile(fn)`), dynamo reads `any_staging()`: run it
    # rather than trace it (other frameworks' `is_staging` may not be traceable); it is true while compiling.
    torch._dynamo.assume_constant_result(backends.any_staging)
    with _lock:
        _ready = True
        waiting = list(_waiting)
        _waiting.clear()
    for fn in waiting:
        _mark(fn)


class _AfterImport(importlib.abc.MetaPathFinder):
    """Calls `then()` right after the module `name` is first imported, then leaves `sys.meta_path`."""

    def __init__(self, name: str, then: Callable[[], None]):
        self.name, self.then = name, then

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name or self not in sys.meta_path:     # another thread's import got here first
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
            run, then = spec.loader.exec_module, self.then

            def exec_module(module):
                run(module)
                then()
            spec.loader.exec_module = exec_module
        return spec


def watch_for_dynamo() -> None:
    """Mark converted functions from the moment dynamo is imported (now, if it is)."""
    if _DYNAMO in sys.modules:
        _dynamo_imported()
    else:
        sys.meta_path.insert(0, _AfterImport(_DYNAMO, _dynamo_imported))
