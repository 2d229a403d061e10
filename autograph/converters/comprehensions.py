"""A comprehension's loop variable that shares its name with another variable of the function gets a name of
its own.

Before:                                   After:
    def f(x, z):                              def f(x, z):
        if x > sum([z * 2 for z in x]):           if x > sum([z_1 * 2 for z_1 in x]):
            x = z                                     x = z

Why: since Python 3.12 a list, set or dict comprehension runs inlined in the function that contains it
(PEP 709). The converted code moves the user's statements into branch and loop-body functions; when a
comprehension's loop variable `z` lands in such a function while a function nested in it reads the
function's own `z` (here, the `if`'s branch), CPython binds that `z` to the comprehension's and raises
`NameError: cannot access free variable 'z'` (CPython issue gh-121377, in 3.12 to 3.14). The user's own code
does not meet the bug; the nesting we add would. A comprehension's loop variable is local to it, so another
name changes nothing else (generator expressions are not inlined and keep their names).
"""
from __future__ import annotations

from collections import Counter

import gast

from autograph.pyct.transformer import Context

_INLINED = (gast.ListComp, gast.SetComp, gast.DictComp)


def transform(node: gast.FunctionDef, ctx: Context) -> gast.FunctionDef:
    everywhere = _name_counts(node)
    for comprehension in [n for n in gast.walk(node) if isinstance(n, _INLINED)]:
        inside = _name_counts(comprehension)
        outside = {name for name, count in everywhere.items() if count > inside.get(name, 0)}
        shared = sorted(_targets(comprehension) & outside)
        if shared:
            _rename(comprehension, {name: ctx.new_name(name) for name in shared})
            everywhere = _name_counts(node)
    return node


def _name_counts(node) -> Counter:
    return Counter(n.id for n in gast.walk(node) if isinstance(n, gast.Name))


def _targets(comprehension) -> set:
    return {n.id for generator in comprehension.generators for n in gast.walk(generator.target)
            if isinstance(n, gast.Name)}


def _rename(comprehension, names: dict) -> None:
    """Rename `names` everywhere in the comprehension's own scope: its element, targets, conditions and the
    iterables after the first (the first is evaluated in the enclosing function's scope)."""
    renamer = _Renamer(names)
    first, *rest = comprehension.generators
    parts = [first.target, *first.ifs]
    for generator in rest:
        parts += [generator.target, generator.iter, *generator.ifs]
    parts += [comprehension.key, comprehension.value] if isinstance(comprehension, gast.DictComp) else [comprehension.elt]
    for part in parts:
        renamer.visit(part)


class _Renamer(gast.NodeVisitor):
    def __init__(self, names: dict):
        self.names = names

    def visit_Name(self, node: gast.Name) -> None:
        node.id = self.names.get(node.id, node.id)
