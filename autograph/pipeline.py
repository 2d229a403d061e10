"""The converters, in the order they run. Each entry's comment says why it is there.

`convert_function(node, ctx)` runs them all on one gast FunctionDef.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import gast

from autograph.converters import (asserts, break_statements, call_trees, comparisons, comprehensions,
                                  conditional_expressions, continue_statements, control_flow, directives, exceptions,
                                  functions, lists, logical_expressions, return_statements, side_effects)
from autograph.pyct import activity, liveness, naming
from autograph.pyct.transformer import Context


def _analyse(node, ctx: Context):
    liveness.analyse(node, ctx.params)
    return node


PIPELINE = [
    comprehensions.transform,           # before any code moves into branch and body functions
    directives.transform,               # loop options must be read before loops change shape
    exceptions.transform,               # before lowering jumps, whose own `except BaseException` must catch all
    break_statements.transform,         # jumps are lowered to flags, innermost loops first ...
    continue_statements.transform,
    return_statements.transform,        # ... and returns last, since they leave every enclosing loop
    lists.transform,                    # before call_trees, which would hide `l.append` in converted_call
    side_effects.transform,             # after lists (whose `l.append` is carried), before call_trees (as lists)
    call_trees.transform,               # before the rewrites below add calls of their own
    asserts.transform,                  # after call_trees: the calls in its message, made lazy, are converted
    conditional_expressions.transform,  # expressions become lazy operators (lambdas) ...
    comparisons.transform,              # chained comparisons before `and`/`or`: they are lazy `and`s and
                                        # their operands may hold `and`/`or`, which the next step converts
    logical_expressions.transform,
    _analyse,                           # ... then liveness and definite assignment, once, on structured code
    control_flow.transform,             # reads those annotations; needs every jump lowered
    functions.transform,                # last: wraps the finished body in the FunctionScope
]

_LOOPS = {gast.While, gast.For}
_CONTROL = {gast.If, gast.While, gast.For}
# A step runs only when the function holds what it rewrites: most functions use few constructs, and
# each step is a walk of the whole function. `None`: always runs.
NEEDS = {
    comprehensions.transform: {gast.ListComp, gast.SetComp, gast.DictComp},
    directives.transform: ("set_loop_options",),
    exceptions.transform: {gast.Try, gast.With, *([gast.TryStar] if hasattr(gast, "TryStar") else [])},
    break_statements.transform: {gast.Break, "loop else"},   # it also moves a loop's `else:` after the loop
    continue_statements.transform: {gast.Continue},
    asserts.transform: {gast.Assert},
    lists.transform: ("append", "pop"),
    side_effects.transform: [{gast.Delete, gast.AugAssign, activity.COMPOSITE_STORE}, tuple(side_effects.NAMES)],   # either
    call_trees.transform: {gast.Call},
    conditional_expressions.transform: {gast.IfExp},
    comparisons.transform: {"chained compare", "none test"},
    logical_expressions.transform: {gast.BoolOp, gast.UnaryOp},
    _analyse: _CONTROL,
    control_flow.transform: _CONTROL | {gast.Match},
}
# What lowering jumps may add: guards (`if`) and loop tests (`extra and test`); the statements are scanned again
# after them (see `_rescan`).
ADDS = {break_statements.transform: {gast.If, gast.BoolOp}, continue_statements.transform: {gast.If},
        return_statements.transform: {gast.If, gast.BoolOp}}

_SKIP = (gast.expr_context, gast.boolop, gast.operator, gast.unaryop, gast.cmpop)
_BINDS_WITHOUT_NAME = {gast.alias, gast.MatchAs, gast.MatchStar, gast.MatchMapping}


@dataclass
class Scan:
    """What one walk of a function (nested functions included) finds."""

    types: set = field(default_factory=set)     # node types, "loop else" for a loop with an `else:`,
                                                # "chained compare" for `a < b < c`, "none test"
                                                # for `x is None`, `x is not None` and `a is b`, and
                                                # activity.COMPOSITE_STORE
    ids: set = field(default_factory=set)       # the ids of Names
    attrs: set = field(default_factory=set)     # attribute names
    defs: set = field(default_factory=set)      # names of defs and classes
    declared: set = field(default_factory=set)  # names declared global or nonlocal
    bound: set = field(default_factory=set)     # other names bound without a Name: import aliases, match captures

    @property
    def used(self) -> set:
        """Every identifier of the function (what generated names must avoid: `naming.names_used`)."""
        return self.ids | self.defs | self.declared | self.bound

    @property
    def names(self) -> set:
        """The names and attributes used (what NEEDS looks for)."""
        return self.ids | self.attrs


def scan(node) -> Scan:
    found = Scan()
    types, ids, attrs = found.types, found.ids, found.attrs
    stack = [node]
    while stack:
        n = stack.pop()
        cls = n.__class__
        types.add(cls)
        if cls is gast.Name:
            ids.add(n.id)
        elif cls is gast.Attribute:
            attrs.add(n.attr)
            if n.ctx.__class__ is gast.Store:
                types.add(activity.COMPOSITE_STORE)
        elif cls is gast.Subscript and n.ctx.__class__ is gast.Store:
            types.add(activity.COMPOSITE_STORE)
        elif (cls is gast.While or cls is gast.For) and n.orelse:
            types.add("loop else")
        elif cls is gast.Compare and len(n.ops) > 1:
            types.add("chained compare")
        elif cls is gast.Compare and n.ops[0].__class__ in (gast.Is, gast.IsNot):
            types.add("none test")   # `x is None`, and `a is b` (comparisons.py)
        elif cls is gast.FunctionDef or cls is gast.ClassDef or cls is gast.AsyncFunctionDef:
            found.defs.add(n.name)
        elif cls is gast.Global or cls is gast.Nonlocal:
            found.declared.update(n.names)
        elif cls in _BINDS_WITHOUT_NAME:
            found.bound.update(naming.bound_by(n))
        values = n.__dict__
        for field_name in n._fields:
            value = values.get(field_name)
            if value.__class__ is list:
                stack.extend(v for v in value if isinstance(v, gast.AST) and not isinstance(v, _SKIP))
            elif isinstance(value, gast.AST) and not isinstance(value, _SKIP):
                stack.append(value)
    return found


def convert_function(node, ctx: Context, found: Scan | None = None):
    """Run the pipeline; `found` is `scan(node)` if the caller has it."""
    if found is None:
        found = scan(node)
    types, names = found.types, found.names
    ctx.node_types = types
    for step in PIPELINE:
        need = NEEDS.get(step)
        if need is not None and not _present(need, types, names):
            continue
        node = step(node, ctx)
        if step in ADDS:  # scan again: a `return` at the end of a function adds no `if`, and most returns are there
            types = _rescan(node, types)
            ctx.node_types = types
    return node


def _present(need, types: set, names: set) -> bool:
    """Whether the function holds what a step needs: a set of node types, a tuple of names, or a list of
    either (any of them)."""
    if isinstance(need, set):
        return bool(need & types)
    if isinstance(need, tuple):
        return bool(names.intersection(need))
    return any(_present(n, types, names) for n in need)


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _rescan(node, types: set) -> set:
    """`types` after lowering jumps: the statements' types as they are now, and the expressions' as they
    were, plus the `and` a loop exit adds to a `while` test and the `or` a jump in `finally:` adds (`do_return =
    do_return or do_return_before`, lowering.py). Lowering adds expressions of no other type a
    step looks for but calls of `ag__` (which call_trees leaves as they are), and removes only the code
    after a jump (a step that finds none of it left has nothing to do), so a walk of statements is enough."""
    now = {t for t in types if not (isinstance(t, type) and issubclass(t, gast.stmt))}
    stack = [node]
    while stack:
        n = stack.pop()
        cls = n.__class__
        now.add(cls)
        if (cls is gast.While and n.test.__class__ is gast.BoolOp) or (cls is gast.Assign
                                                                     and n.value.__class__ is gast.BoolOp):
            now.add(gast.BoolOp)
        for field_name in _BLOCKS:
            block = getattr(n, field_name, None)
            if block.__class__ is list:
                stack.extend(block)
    return now
