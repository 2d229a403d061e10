"""Attributes and items that a staged `if` or loop assigns (`self.count`, `d['total']`).

The converter passes them to `if_stmt`, `while_stmt` and `for_stmt` as
`composites={'self.count': lambda: self}`: each one's name as the user wrote it,
with a function giving the object at the root of its chain. On Python values the
operators ignore them: Python's own `if` or loop updates the object, as the
user's code does. When a backend stages the statement, `read` finds each one's
current value, and the operator carries it after the variables, under its name:
the branch and body functions set it on its object when they start and read it
back when they end, and the result is set on the object after the statement.
"""
from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Composite:
    """`name` (`self.stats['n']`) is `key` of `owner` (`self.stats`): an attribute, or an item."""

    name: str
    owner: Any
    key: str | int
    is_attribute: bool

    def get(self):
        return getattr(self.owner, self.key) if self.is_attribute else self.owner[self.key]

    def set(self, value) -> None:
        if self.is_attribute:
            setattr(self.owner, self.key, value)
        else:
            self.owner[self.key] = value


# What reading a composite that is not there raises: an unbound root (`NameError`, and `UnboundLocalError`
# from `Undefined`), a missing attribute or key, an object that has no items.
_MISSING = (NameError, AttributeError, LookupError, TypeError)


def read(composites: dict[str, Callable[[], Any]]) -> list[tuple[Composite, Any]]:
    """Each composite that can be read now, with its value. One that can't (the attribute or key does not
    exist yet) is left out: the statement then runs as it would without it."""
    found = []
    for name, root in composites.items():
        try:
            owner = root()
            *path, (key, is_attribute) = _path(name)
            for step, attribute in path:
                owner = getattr(owner, step) if attribute else owner[step]
            composite = Composite(name, owner, key, is_attribute)
            found.append((composite, composite.get()))
        except _MISSING:
            continue
    return found


@functools.lru_cache(maxsize=256)
def _path(name: str) -> tuple[tuple[str | int, bool], ...]:
    """`self.stats['n']` -> (('stats', True), ('n', False)): the steps after the root, attribute or not."""
    node = ast.parse(name, mode="eval").body
    steps = []
    while not isinstance(node, ast.Name):
        if isinstance(node, ast.Attribute):
            steps.append((node.attr, True))
        else:
            steps.append((ast.literal_eval(node.slice), False))
        node = node.value
    return tuple(reversed(steps))
