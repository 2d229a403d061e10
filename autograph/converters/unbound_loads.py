"""A load of a variable that may be unassigned there becomes `ag__.ld(name)`: Python raises at the load.

Before:                          After:
    if x > 0:                        ...
        y = x                        ag__.if_stmt(x > 0, if_true, None, ('y',))
    z = y                            z = ag__.ld(y)
    del y                            ag__.ld(y)
                                     del y

A staged `if` or loop that assigns `y` on some paths only leaves it a placeholder and a flag
(operators/maybe.py), checked where an operation uses it (`y + 1`). A load that only passes the value on
(`z = y`, `return y`, `f(y)`, `[y]`, a bare `y`, `del y`) used nothing: where the graph took a path that did
not assign `y`, it went on where Python raises UnboundLocalError at the load (or, inside a `try` whose
`except` catches it, the graph raised after the `except` could run). `ag__.ld` checks it at the load, as
Python does, and gives the plain value on; on Python values it is the value itself.

Only loads of the function's own variables that are not definitely assigned before their statement (the
`DEFINED_IN` annotations of pyct/liveness) are wrapped: the rest are always bound. Runs after the analysis,
before control_flow moves statements into branch and body functions. A nested `def` or class body is left
alone here: it is converted when it is called, and there each load of a free variable (the enclosing
function's) is `ag__.ld(k, free=True)`, since the enclosing function may have left it unassigned (Python's
error is then a NameError, "cannot access free variable").
"""
from __future__ import annotations

import gast

from autograph.pyct import anno, templates
from autograph.pyct.anno import Key
from autograph.pyct.transformer import Context, located

_BLOCKS = ("body", "orelse", "finalbody")
_HEADERS = {gast.If: ("test",), gast.While: ("test",), gast.For: ("iter",), gast.AsyncFor: ("iter",),
            gast.With: ("items",), gast.AsyncWith: ("items",), gast.Match: ("subject",)}


def transform(node: gast.FunctionDef, ctx: Context) -> gast.FunctionDef:
    if ctx.free_vars:   # a nested function's: the enclosing function may have left them unassigned
        node.body = _wrapped(node.body, set(ctx.free_vars), free=True)
    if ctx.node_types is None or ctx.node_types & _ANALYSED:
        node.body = _block(node.body, ctx)
    return node


_ANALYSED = {gast.If, gast.While, gast.For}   # what the definite-assignment analysis runs for (pipeline.py)


def _block(stmts: list, ctx: Context) -> list:
    out = []
    for stmt in stmts:
        out.extend(_statement(stmt, ctx))
    return out


def _statement(stmt, ctx: Context) -> list:
    defined = anno.get(stmt, Key.DEFINED_IN, None)
    if defined is None:   # not analysed (a statement the analysis does not reach): left as it is
        return [stmt]
    maybe = ctx.user_locals - defined - ctx.declared_global - ctx.declared_nonlocal
    if not maybe:
        _nested_blocks(stmt, ctx)
        return [stmt]
    cls = stmt.__class__
    if cls in (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef):
        if anno.get(stmt, Key.GENERATED):   # a hoisted operand function: part of the statement after it
            stmt.body = [_wrapped(s, maybe) for s in stmt.body]
            return [stmt]
        # what the statement evaluates now: decorators, defaults (bases and keywords of a class); not its body
        stmt.decorator_list = _wrapped(stmt.decorator_list, maybe)
        if cls is gast.ClassDef:
            stmt.bases, stmt.keywords = _wrapped(stmt.bases, maybe), _wrapped(stmt.keywords, maybe)
        else:
            stmt.args.defaults = _wrapped(stmt.args.defaults, maybe)
            stmt.args.kw_defaults = _wrapped(stmt.args.kw_defaults, maybe)
        return [stmt]
    if cls in _HEADERS:
        for field in _HEADERS[cls]:
            setattr(stmt, field, _wrapped(getattr(stmt, field), maybe))
        if cls is gast.Match:
            for case in stmt.cases:
                case.guard = _wrapped(case.guard, maybe)
        _nested_blocks(stmt, ctx)
        return [stmt]
    if cls is gast.Try or (hasattr(gast, "TryStar") and cls is gast.TryStar):
        for handler in stmt.handlers:
            handler.type = _wrapped(handler.type, maybe)
        _nested_blocks(stmt, ctx)
        return [stmt]
    if cls is gast.Delete:   # `del y` needs `y` bound: the check first, then the statement as written
        checks = [located(_load_check(t), t) for t in stmt.targets
                  if t.__class__ is gast.Name and t.id in maybe]
        return [*checks, _wrapped(stmt, maybe)]
    return [_wrapped(stmt, maybe)]


def _nested_blocks(stmt, ctx: Context) -> None:
    for field in _BLOCKS:
        block = getattr(stmt, field, None)
        if block and stmt.__class__ not in (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef):
            setattr(stmt, field, _block(block, ctx))
    for part in (*(getattr(stmt, "handlers", None) or ()), *(getattr(stmt, "cases", None) or ())):
        part.body = _block(part.body, ctx)


def _ld(load: gast.Name, free: bool = False):
    """`ag__.ld(y)` around the user's own Name node (which keeps its marks: a user's variable called `ag__`);
    `ag__.ld(y, free=True)` for a nested function's free variable."""
    call = templates.replace_as_expression("ag__.ld(name, free=True)" if free else "ag__.ld(name)", name="_")
    call.args = [load]
    return located(call, load)


def _load_check(target: gast.Name):
    load = gast.Name(id=target.id, ctx=gast.Load(), annotation=None, type_comment=None)
    load.__dict__.update(target.__dict__, ctx=gast.Load())   # its location and marks
    return gast.Expr(value=_ld(load))


def _wrapped(node, maybe: set, free: bool = False):
    """`node` with each load of a name in `maybe` as `ag__.ld(name)`; nested defs and classes left alone."""
    if node is None:
        return None
    if node.__class__ is list:   # (a None in it: a keyword-only parameter without a default)
        return [_Loads(maybe, free).visit(n) if n is not None else None for n in node]
    return _Loads(maybe, free).visit(node)


class _Loads(gast.NodeTransformer):
    def __init__(self, maybe: set, free: bool = False):
        self.maybe, self.free = maybe, free

    def visit_Name(self, node):
        if node.ctx.__class__ is not gast.Load or node.id not in self.maybe:
            return node
        if node.id == "ag__" and not anno.get(node, Key.USER_NAME):   # generated code's, not the user's `ag__`
            return node
        return _ld(node, self.free)

    def visit_Attribute(self, node):
        """A target (`box.x = v`, `d[k] = v`) is left as written: the converters after this one find the
        attributes and items a statement assigns from it (operators/composites.py)."""
        if node.ctx.__class__ is not gast.Load:
            return node
        return self.generic_visit(node)

    visit_Subscript = visit_Attribute

    def visit_FunctionDef(self, node):
        if anno.get(node, Key.GENERATED):   # a hoisted operand function: runs as part of its statement
            return self.generic_visit(node)
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef
