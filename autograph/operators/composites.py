"""Attributes and items that a staged `if` or loop assigns (`self.count`, `d['total']`).

The converter passes them to `if_stmt`, `while_stmt` and `for_stmt` as
`composites={'self.count': lambda: self}`: each one's name as the user wrote it,
with a function giving the object at the root of its chain. On Python values the
operators ignore them: Python's own `if` or loop updates the object, as the
user's code does. When a backend stages the statement, `read` finds each one's
current value, and the operator carries it after the variables, under its name:
the branch and body functions set it on its object when they start and read it
back when they end, and the result is set on the object after the statement.

An item whose key is a variable the statement does not assign (`d[k]`) is passed as `{'d[k]': lambda: (d, k)}`:
the function gives the root and the key's value.

One the statement creates (`d['b'] = 1` in both branches, `d` having no 'b' yet) starts as `Undefined`: it
is carried like a variable first assigned in the statement (both branches of an `if` must create it; a loop
needs it before the loop), and a branch or body that starts from `Undefined` starts without it.
"""
from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from typing import Any, Callable

from autograph.operators.variables import Undefined


@dataclass(frozen=True)
class Composite:
    """`name` (`self.stats['n']`) is `key` of `owner` (`self.stats`): an attribute, or an item."""

    name: str
    owner: Any
    key: str | int
    is_attribute: bool

    def get(self):
        """Its value; `Undefined` when the object has no such attribute or key."""
        missing = AttributeError if self.is_attribute else KeyError
        try:
            return getattr(self.owner, self.key) if self.is_attribute else self.owner[self.key]
        except missing:
            return Undefined(self.name)

    def set(self, value) -> None:
        """Set it to `value`; `Undefined` removes it (if it is there)."""
        if value.__class__ is Undefined:
            self._remove()
        elif self.is_attribute:
            setattr(self.owner, self.key, value)
        else:
            self.owner[self.key] = value

    def _remove(self) -> None:
        if self.is_attribute:
            if hasattr(self.owner, self.key):
                delattr(self.owner, self.key)
        elif self.key in self.owner:
            del self.owner[self.key]


# What reading a composite that is not there raises: an unbound root (`NameError`, and `UnboundLocalError`
# from `Undefined`), a missing attribute or key, an object that has no items.
_MISSING = (NameError, AttributeError, LookupError, TypeError)


def read(composites: dict[str, Callable[[], Any]]) -> list[tuple[Composite, Any]]:
    """Each composite whose object exists now, with its value: `Undefined` for an attribute the object does
    not have or a key a mapping does not hold (the statement creates it). One whose object can't be reached
    (an unbound root, a missing step of the chain), or that can't be read otherwise (an index out of range),
    is left out: the statement then runs as it would without it."""
    found = []
    for name, root in composites.items():
        try:
            owner = root()
            *path, (key, is_attribute) = _path(name)
            if key is _KEYED:   # `d[k]`: `root` gives the root and the key's value
                owner, key = owner
                hash(key)
            for step, attribute in path:
                owner = getattr(owner, step) if attribute else owner[step]
            composite = Composite(name, owner, key, is_attribute)
            if not is_attribute and not _is_mapping(owner):
                owner[key]   # an index out of range is not created by a store: raises, and is left out
            found.append((composite, composite.get()))
        except _MISSING:
            continue
    return found


_KEYED = object()   # in a path: the last step's key is a variable (`d[k]`), whose value `root` gives


def _is_mapping(owner) -> bool:
    return isinstance(owner, dict) or (hasattr(owner, "keys") and hasattr(owner, "__delitem__"))


@functools.lru_cache(maxsize=256)
def _path(name: str) -> tuple[tuple[str | int, bool], ...]:
    """`self.stats['n']` -> (('stats', True), ('n', False)): the steps after the root, attribute or not."""
    node = ast.parse(name, mode="eval").body
    steps = []
    while not isinstance(node, ast.Name):
        if isinstance(node, ast.Attribute):
            steps.append((node.attr, True))
        elif node.slice.__class__ is ast.Name:
            steps.append((_KEYED, False))
        else:
            steps.append((ast.literal_eval(node.slice), False))
        node = node.value
    return tuple(reversed(steps))
