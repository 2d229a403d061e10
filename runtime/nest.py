"""Nested structures (tuples, lists, dicts, namedtuples) flattened to leaves.

`flatten(structure)` lists the leaves depth-first (dict keys sorted);
`pack(structure, leaves)` builds the same structure around new leaves. Objects
with a `_flatten()`/`_unflatten(leaves)` pair (such as `TensorArray`) are
structures too, so they can be loop variables.
"""
from __future__ import annotations

from typing import Any


def is_sequence(value) -> bool:
    return isinstance(value, (tuple, list, dict)) or hasattr(value, "_flatten")


def flatten(structure) -> list:
    leaves: list = []
    _flatten_into(structure, leaves)
    return leaves


def _flatten_into(structure, leaves: list) -> None:
    if isinstance(structure, dict):
        for key in sorted(structure, key=repr):
            _flatten_into(structure[key], leaves)
    elif isinstance(structure, (tuple, list)):
        for item in structure:
            _flatten_into(item, leaves)
    elif hasattr(structure, "_flatten"):
        for item in structure._flatten():
            _flatten_into(item, leaves)
    else:
        leaves.append(structure)


def pack(structure, leaves) -> Any:
    """The structure of `structure` with `leaves` in place of its leaves."""
    it = iter(leaves)
    result = _pack(structure, it)
    if next(it, _END) is not _END:
        raise ValueError("pack: more leaves than the structure has places for.")
    return result


_END = object()


def _pack(structure, it):
    if isinstance(structure, dict):
        packed = {key: _pack(structure[key], it) for key in sorted(structure, key=repr)}
        return type(structure)((key, packed[key]) for key in structure)
    if isinstance(structure, (tuple, list)):
        items = [_pack(item, it) for item in structure]
        if isinstance(structure, tuple) and hasattr(structure, "_fields"):
            return type(structure)(*items)
        return type(structure)(items)
    if hasattr(structure, "_flatten"):
        n = len(flatten(structure._flatten()))
        return structure._unflatten([next(it) for _ in range(n)])
    return next(it)


def structure_repr(structure) -> str:
    """A short description of a structure's shape, for error messages."""
    if isinstance(structure, dict):
        return "{" + ", ".join(f"{k!r}: {structure_repr(v)}" for k, v in structure.items()) + "}"
    if isinstance(structure, tuple):
        inner = ", ".join(structure_repr(v) for v in structure)
        return f"({inner},)" if len(structure) == 1 else f"({inner})"
    if isinstance(structure, list):
        return "[" + ", ".join(structure_repr(v) for v in structure) + "]"
    if hasattr(structure, "_flatten"):
        return type(structure).__name__
    return "."


def same_structure(a, b) -> bool:
    if isinstance(a, dict) or isinstance(b, dict):
        return (isinstance(a, dict) and isinstance(b, dict) and sorted(a, key=repr) == sorted(b, key=repr)
                and all(same_structure(a[k], b[k]) for k in a))
    if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
        return (isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)) and len(a) == len(b)
                and all(same_structure(x, y) for x, y in zip(a, b)))
    if hasattr(a, "_flatten") or hasattr(b, "_flatten"):
        return type(a) is type(b)
    return True
