"""List operations that become a backend's tensor lists when the list is staged."""
from __future__ import annotations

from autograph.backends import backend_for
from autograph.errors import StagingError, at_user_line
from autograph.operators.function_scope import tracing_failed
from autograph.operators import side_effects
from autograph.operators.side_effects import mutating


def list_append(target, value):
    """`target.append(value)`, returning the (possibly new) list."""
    backend = backend_for(target)
    if side_effects._active:   # refused in a staged statement that does not carry it (or an alias)
        mutating(target, ".append(...)")
    if backend is None:
        target.append(value)
        return target
    return backend.need("list_append", "`append` to a tensor list")(target, value)


def list_pop(target, *index):
    """`target.pop(*index)` (no index: `l.pop()`; `l.pop(None)` is Python's TypeError, `d.pop(None)` a key),
    returning (list, value)."""
    backend = backend_for(target)
    mutating(target, ".pop(...)")
    if backend is None:
        return target, target.pop(*index)
    return backend.need("list_pop", "`pop` from a tensor list")(target, *(index or (None,)))


def list_pop_in_place(target, *index):
    """`target.pop(*index)` inside a larger expression (`f(l.pop())`), which can't rebind `target`: Python's
    `pop` on a Python list (or any object), a clear error on a backend's tensor list."""
    if backend_for(target) is None:
        mutating(target, ".pop(...)")
        return target.pop(*index)
    raise tracing_failed(StagingError(at_user_line(
        "`pop` inside a larger expression, on a list that a loop over tensors carried: the list is a tensor "
        "list, which a `pop` must replace, and only a `pop` statement of its own can. Pop into a variable "
        "first (`x = l.pop()`), then use `x`.")))


def list_stack(target, opts=None):
    backend = backend_for(target)
    if backend is None:
        return target
    return backend.need("list_stack", "stacking a tensor list")(target)
