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

A lambda inside the comprehension that reads the variable (`[lambda v: v * z for z in x]`) reads the new name.
Converted code converts such a lambda again, from its source, when it calls it; the source says `z`, and the
lambda's closure holds `z_1`: so the renaming is remembered by the lambda's place in the file (`renamed_in`),
and its conversion renames the same names (otherwise the converted lambda would read another `z`, a global of
that name, silently). A lambda whose parameter is named like the variable has its own, and is left alone.
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
            _rename(comprehension, {name: ctx.new_name(name) for name in shared}, ctx.filename)
            everywhere = _name_counts(node)
    return node


def _name_counts(node) -> Counter:
    return Counter(n.id for n in gast.walk(node) if isinstance(n, gast.Name))


def _targets(comprehension) -> set:
    return {n.id for generator in comprehension.generators for n in gast.walk(generator.target)
            if isinstance(n, gast.Name)}


# (file, line, column) of a lambda inside a renamed comprehension -> the names renamed in its body
_lambda_renames: dict[tuple[str, int, int], dict[str, str]] = {}


def renamed_in(filename: str, node: gast.AST) -> dict[str, str]:
    """The names the conversion of the function around the lambda at `node` renamed in its body ({} if none)."""
    return _lambda_renames.get((filename, node.lineno, node.col_offset), {})


def rename_lambda(node: gast.FunctionDef, names: dict[str, str]) -> None:
    """Rename `names` in the body of a lambda's FunctionDef (parser), as the comprehension around it was."""
    for statement in node.body:
        _Renamer(names).visit(statement)


def _rename(comprehension, names: dict, filename: str) -> None:
    """Rename `names` everywhere in the comprehension's own scope: its element, targets, conditions and the
    iterables after the first (the first is evaluated in the enclosing function's scope)."""
    renamer = _Renamer(names, filename)
    first, *rest = comprehension.generators
    parts = [first.target, *first.ifs]
    for generator in rest:
        parts += [generator.target, generator.iter, *generator.ifs]
    parts += [comprehension.key, comprehension.value] if isinstance(comprehension, gast.DictComp) else [comprehension.elt]
    for part in parts:
        renamer.visit(part)


class _Renamer(gast.NodeVisitor):
    def __init__(self, names: dict, filename: str | None = None):
        self.names = names
        self.filename = filename

    def visit_Name(self, node: gast.Name) -> None:
        node.id = self.names.get(node.id, node.id)

    def visit_Lambda(self, node: gast.Lambda) -> None:
        args = node.args
        for default in args.defaults + [d for d in args.kw_defaults if d is not None]:
            self.visit(default)   # evaluated where the lambda is made
        own = {a.id for a in args.posonlyargs + args.args + args.kwonlyargs}
        own |= {a.id for a in (args.vararg, args.kwarg) if a is not None}
        inside = {old: new for old, new in self.names.items() if old not in own}
        if self.filename is not None and inside:
            _lambda_renames[(self.filename, node.lineno, node.col_offset)] = inside
        _Renamer(inside, self.filename).visit(node.body)
