"""List operations that become a backend's tensor lists when the list is staged."""
from __future__ import annotations

from autograph.backends import backend_for


def list_append(target, value):
    """`target.append(value)`, returning the (possibly new) list."""
    backend = backend_for(target)
    if backend is None:
        target.append(value)
        return target
    return backend.need("list_append", "`append` to a tensor list")(target, value)


def list_pop(target, index=None):
    """`target.pop(index)`, returning (list, value)."""
    backend = backend_for(target)
    if backend is None:
        value = target.pop() if index is None else target.pop(index)
        return target, value
    return backend.need("list_pop", "`pop` from a tensor list")(target, index)


def list_stack(target, opts=None):
    backend = backend_for(target)
    if backend is None:
        return target
    return backend.need("list_stack", "stacking a tensor list")(target)
