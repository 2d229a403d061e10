"""Unique, readable names for generated code."""
from __future__ import annotations

import gast


class Namer:
    """Hands out names that clash neither with each other nor with the user's."""

    def __init__(self, taken: set[str]):
        self._taken = set(taken)

    @classmethod
    def for_tree(cls, node) -> "Namer":
        names = {n.id for n in gast.walk(node) if isinstance(n, gast.Name)}
        names |= {n.name for n in gast.walk(node) if isinstance(n, (gast.FunctionDef, gast.ClassDef))}
        return cls(names)

    def new(self, base: str) -> str:
        name, n = base, 0
        while name in self._taken:
            n += 1
            name = f"{base}_{n}"
        self._taken.add(name)
        return name

    def reserve(self, name: str) -> None:
        self._taken.add(name)
