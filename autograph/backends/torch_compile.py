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
    for target in (fn, getattr(fn, "generated", None)):
        if target is None:
            continue
        key = id(target)
        trace_rules._allowed_callable_ids.add(key)          # what nonstrict_trace does to the function it wraps
        trace_rules._nonstrict_trace_callable_ids.add(key)
        weakref.finalize(target, _unmark, key)             # an id is reused once its object is gone


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
