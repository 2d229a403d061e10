"""Unique, readable names for generated code: the one name generator every converter uses.

A conversion makes one `Namer` from every name the user's function uses (its
locals and parameters, the globals and closure variables it reads, the names
of its nested functions and classes, import aliases, `global`/`nonlocal`
declarations, `match` captures), nested functions and lambdas included, so a
generated name never hides or overwrites one of the user's:

    namer = Namer(names_used(fn_node))
    namer.new("do_return")     # 'do_return', or 'do_return_1' when the user has a `do_return`
    namer.new("do_return")     # 'do_return_1' (or the next free suffix)

Converters reach it as `ctx.namer` (see `transformer.Context`, which also holds
the names every converter shares: `ctx.ag`, the module alias, and `ctx.fscope`).
"""
from __future__ import annotations

import gast

from autograph.pyct.activity import walk


def names_used(node) -> set[str]:
    """Every identifier `node` (a function, its nested scopes included) binds or reads."""
    names: set[str] = set()
    for n in walk(node):
        cls = n.__class__
        if cls is gast.Name:
            names.add(n.id)
        elif cls in (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef):
            names.add(n.name)
        else:
            names.update(bound_by(n))
    return names


def bound_by(n) -> tuple:
    """The names a node binds without a `Name` node: import aliases, global/nonlocal, match captures."""
    cls = n.__class__
    if cls is gast.alias:
        return (n.asname or n.name.partition(".")[0],)
    if cls is gast.Global or cls is gast.Nonlocal:
        return tuple(n.names)
    if cls in (gast.MatchAs, gast.MatchStar):
        return (n.name,) if n.name else ()
    if cls is gast.MatchMapping:
        return (n.rest,) if n.rest else ()
    return ()


class Namer:
    """Hands out names that clash neither with each other nor with the user's."""

    def __init__(self, taken: set[str]):
        self._taken = set(taken)
        self._next: dict[str, int] = {}  # per base, the first suffix not yet known to be taken

    @classmethod
    def for_tree(cls, node) -> "Namer":
        return cls(names_used(node))

    def new(self, base: str) -> str:
        """`base` itself if free, else `base_1`, `base_2`, ...; the name is taken from then on."""
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

    def taken(self, name: str) -> bool:
        return name in self._taken
