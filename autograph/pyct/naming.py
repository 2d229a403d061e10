"""Unique, readable names for generated code."""
from __future__ import annotations

import gast

from autograph.pyct.activity import walk


class Namer:
    """Hands out names that clash neither with each other nor with the user's."""

    def __init__(self, taken: set[str]):
        self._taken = set(taken)
        self._next: dict[str, int] = {}  # per base, the first suffix not yet known to be taken

    @classmethod
    def for_tree(cls, node) -> "Namer":
        names = set()
        for n in walk(node):
            if n.__class__ is gast.Name:
                names.add(n.id)
            elif isinstance(n, (gast.FunctionDef, gast.ClassDef)):
                names.add(n.name)
        return cls(names)

    def new(self, base: str) -> str:
        # Names are only ever added, so every suffix below the remembered one is
        # still taken: resuming there keeps this O(1) per name (not O(names made)).
        n = self._next.get(base, 0)
        name = base if n == 0 else f"{base}_{n}"
        while name in self._taken:
            n += 1
            name = f"{base}_{n}"
        self._next[base] = n + 1
        self._taken.add(name)
        return name

    def reserve(self, name: str) -> None:
        self._taken.add(name)
