"""Nested structures (tuples, lists, dicts, namedtuples) flattened to leaves; also `tf.nest`.

`flatten(structure)` lists the leaves depth-first, a dict's in the order of its
sorted keys (as TensorFlow: {10: a, 9: b} flattens to [b, a]; keys that don't
sort together, such as 1 and "a", in the order of their reprs);
`pack(structure, leaves)` builds the same structure around new leaves. Objects
with a `_flatten()`/`_unflatten(leaves)` pair (such as `TensorArray`) are
structures too, so they can be loop variables. TensorFlow's names
(`map_structure`, `pack_sequence_as`, `assert_same_structure`, `is_nested`)
are defined on them.
"""
from __future__ import annotations

import collections
from typing import Any, Callable


def is_sequence(value) -> bool:
    return isinstance(value, (tuple, list, dict)) or hasattr(value, "_flatten")


is_nested = is_sequence


def sorted_keys(d: dict) -> list:
    """A dict's keys in flattening order: sorted, as TensorFlow sorts them, or by repr when they don't sort."""
    try:
        return sorted(d)
    except TypeError:
        return sorted(d, key=repr)


def flatten(structure) -> list:
    leaves: list = []
    _flatten_into(structure, leaves)
    return leaves


def _flatten_into(structure, leaves: list) -> None:
    if isinstance(structure, dict):
        for key in sorted_keys(structure):
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
    leaves = list(leaves)
    places = len(flatten(structure))
    if len(leaves) != places:
        raise ValueError(f"pack: the structure has {places} leaves, got {len(leaves)} values to put in them: "
                         f"{structure_repr(structure)}.")
    return _pack(structure, iter(leaves))


def pack_sequence_as(structure, flat_sequence, expand_composites: bool = False) -> Any:
    """TensorFlow's name for `pack`."""
    return pack(structure, flat_sequence)


def map_structure(func: Callable, *structures, check_types: bool = True, expand_composites: bool = False) -> Any:
    """`func` applied to the leaves of `structures` (which share one structure) at each place, in the first's
    structure."""
    if not structures:
        raise ValueError("map_structure needs at least one structure.")
    for other in structures[1:]:
        assert_same_structure(structures[0], other, check_types=check_types)
    return pack(structures[0], [func(*leaves) for leaves in zip(*(flatten(s) for s in structures))])


def assert_same_structure(nest1, nest2, check_types: bool = True, expand_composites: bool = False) -> None:
    """ValueError unless both have the same nesting; with `check_types`, TypeError unless their sequences are
    of the same types too (a list against a tuple), as TensorFlow's."""
    same = same_structure(nest1, nest2)
    if not same or check_types and not _same_types(nest1, nest2):
        error = ValueError if not same else TypeError
        raise error(f"The two structures don't have the same nested structure{'' if not same else ' types'}: "
                    f"{structure_repr(nest1)} and {structure_repr(nest2)}.")


def _same_types(a, b) -> bool:
    if isinstance(a, (tuple, list, dict)):
        items = (lambda v: [v[k] for k in sorted_keys(v)]) if isinstance(a, dict) else list
        return type(a) is type(b) and all(_same_types(x, y) for x, y in zip(items(a), items(b)))
    return True


_END = object()


def _pack(structure, it):
    if isinstance(structure, dict):
        packed = {key: _pack(structure[key], it) for key in sorted_keys(structure)}
        pairs = ((key, packed[key]) for key in structure)
        if isinstance(structure, collections.defaultdict):   # (its first argument is its default factory)
            return type(structure)(structure.default_factory, pairs)
        return type(structure)(pairs)
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
        return (isinstance(a, dict) and isinstance(b, dict) and sorted_keys(a) == sorted_keys(b)
                and all(same_structure(a[k], b[k]) for k in a))
    if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
        return (isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)) and len(a) == len(b)
                and all(same_structure(x, y) for x, y in zip(a, b)))
    if hasattr(a, "_flatten") or hasattr(b, "_flatten"):
        return type(a) is type(b)
    return True
