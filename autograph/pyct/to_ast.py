"""gast -> Python `ast`, filling in missing locations on the way: what `compile` needs, in one pass.

It replaces `transformer.fill_locations` followed by `gast.gast_to_ast` on the conversion path (two
walks of the converted function, the second through gast's generic visitor) and gives the same tree:
a node without a location takes its nearest located ancestor's line and column (and ends there).
"""
from __future__ import annotations

import ast

import gast

_CONTEXTS = {gast.Load: ast.Load(), gast.Store: ast.Store(), gast.Del: ast.Del(), gast.Param: ast.Load()}
# gast class -> (ast class, whether it has a location, its fields but `ctx`, whether it has `ctx`), or the function
# converting it
_plans: dict[type, object] = {}


def to_ast(node: gast.AST, line: int = 1, col: int = 0) -> ast.AST:
    """The Python `ast` of gast `node`; nodes without a location get their nearest located ancestor's."""
    return _convert(node, line, col)


def _plan(cls: type):
    context = _CONTEXTS.get(cls)
    if context is not None:
        plan = lambda node, line, col: context  # noqa: E731  (contexts are shared, as in `ast.parse`)
    else:
        plan = _SPECIAL.get(cls)
    if plan is None:
        target = getattr(ast, cls.__name__)
        fields = target._fields
        has_ctx = "ctx" in fields   # Attribute, Subscript, Tuple, ...: the context is looked up, not walked
        plan = (target, "lineno" in target._attributes, tuple(f for f in fields if f != "ctx"), has_ctx)
    _plans[cls] = plan
    return plan


def _convert(node, line: int, col: int):
    plan = _plans.get(node.__class__) or _plan(node.__class__)
    if plan.__class__ is not tuple:
        return plan(node, line, col)
    target, has_location, fields, has_ctx = plan
    new = target.__new__(target)
    attrs = new.__dict__
    old = node.__dict__         # a gast node's fields are all in its __dict__ (none has a class default)
    if has_location:            # what _locate does, inlined: this runs for most nodes
        own = old.get("lineno")
        if own is None:
            attrs["lineno"], attrs["col_offset"], attrs["end_lineno"], attrs["end_col_offset"] = line, col, line, col
        else:
            line, col = own, old.get("col_offset") or 0
            attrs["lineno"], attrs["col_offset"] = line, col
            attrs["end_lineno"], attrs["end_col_offset"] = old.get("end_lineno"), old.get("end_col_offset")
    AST = gast.AST
    for field in fields:
        value = old.get(field)
        if value.__class__ is list:
            value = [_convert(v, line, col) if isinstance(v, AST) else v for v in value] if value else []
        elif isinstance(value, AST):
            value = _convert(value, line, col)
        elif value is None and field == "type_params":      # Python 3.12+: a list, never None
            value = []
        attrs[field] = value
    if has_ctx:
        attrs["ctx"] = _CONTEXTS[old["ctx"].__class__]
    return new


def _name(node, line: int, col: int):
    """A Name, the most frequent node: `_convert` for it, without the loop over fields."""
    new = _ast_name_new(ast.Name)
    attrs = new.__dict__
    old = node.__dict__
    own = old.get("lineno")
    if own is None:
        attrs["lineno"], attrs["col_offset"], attrs["end_lineno"], attrs["end_col_offset"] = line, col, line, col
    else:
        attrs["lineno"], attrs["col_offset"] = own, old.get("col_offset") or 0
        attrs["end_lineno"], attrs["end_col_offset"] = old.get("end_lineno"), old.get("end_col_offset")
    attrs["id"] = old["id"]
    attrs["ctx"] = _CONTEXTS[old["ctx"].__class__]
    return new


_ast_name_new = ast.Name.__new__


def _locate(new, node, line: int, col: int) -> tuple[int, int]:
    own = getattr(node, "lineno", None)
    if own is None:
        new.lineno, new.col_offset, new.end_lineno, new.end_col_offset = line, col, line, col
        return line, col
    own_col = node.col_offset or 0
    new.lineno, new.col_offset = own, own_col
    new.end_lineno = getattr(node, "end_lineno", None)
    new.end_col_offset = getattr(node, "end_col_offset", None)
    return own, own_col


def _arg(node, line: int, col: int):
    """A parameter: gast spells it as a Name in the Param context."""
    if node is None:
        return None
    new = ast.arg.__new__(ast.arg)
    line, col = _locate(new, node, line, col)
    new.arg = node.id
    new.annotation = None if node.annotation is None else _convert(node.annotation, line, col)
    new.type_comment = node.type_comment
    return new


def _arguments(node, line: int, col: int):
    new = ast.arguments.__new__(ast.arguments)
    new.posonlyargs = [_arg(a, line, col) for a in node.posonlyargs]
    new.args = [_arg(a, line, col) for a in node.args]
    new.vararg = _arg(node.vararg, line, col)
    new.kwonlyargs = [_arg(a, line, col) for a in node.kwonlyargs]
    new.kw_defaults = [None if d is None else _convert(d, line, col) for d in node.kw_defaults]
    new.kwarg = _arg(node.kwarg, line, col)
    new.defaults = [_convert(d, line, col) for d in node.defaults]
    return new


def _except_handler(node, line: int, col: int):
    new = ast.ExceptHandler.__new__(ast.ExceptHandler)
    line, col = _locate(new, node, line, col)
    new.type = None if node.type is None else _convert(node.type, line, col)
    new.name = node.name.id if node.name is not None else None
    new.body = [_convert(s, line, col) for s in node.body]
    return new


_SPECIAL = {gast.arguments: _arguments, gast.ExceptHandler: _except_handler, gast.Name: _name}


# --- the other way: ast -> gast ---------------------------------------------------------------------------

_GAST_CONTEXTS = {ast.Load: gast.Load, ast.Store: gast.Store, ast.Del: gast.Del}
# ast class -> (gast class, its fields, the ast class's location attributes), or the function converting it
_from_plans: dict[type, object] = {}


def _from_plan(cls: type):
    context = _GAST_CONTEXTS.get(cls)
    if context is not None:
        plan = lambda node: context()  # noqa: E731
    else:
        plan = _FROM_SPECIAL.get(cls)
    if plan is None:
        target = getattr(gast, cls.__name__)
        plan = (target, target._fields, cls._attributes)
    _from_plans[cls] = plan
    return plan


def from_ast(node: ast.AST) -> gast.AST:
    """The gast of a Python `ast` node, locations included (what `gast.ast_to_gast` gives, faster)."""
    plan = _from_plans.get(node.__class__) or _from_plan(node.__class__)
    if plan.__class__ is not tuple:
        return plan(node)
    target, fields, attributes = plan
    new = target.__new__(target)
    attrs = new.__dict__
    AST = ast.AST
    for field in fields:
        value = getattr(node, field, None)
        if value.__class__ is list:
            value = [from_ast(v) if isinstance(v, AST) else v for v in value] if value else []
        elif isinstance(value, AST):
            value = from_ast(value)
        elif value is None and field == "type_params":
            value = []
        attrs[field] = value
    for attribute in attributes:
        value = getattr(node, attribute, None)
        if value is not None:
            attrs[attribute] = value
    return new


def _copy_location(new, node):
    for attribute in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
        value = getattr(node, attribute, None)
        if value is not None:
            setattr(new, attribute, value)
    return new


def _from_arg(node: ast.arg) -> gast.Name:
    annotation = None if node.annotation is None else from_ast(node.annotation)
    return _copy_location(gast.Name(node.arg, gast.Param(), annotation, node.type_comment), node)


def _from_except_handler(node: ast.ExceptHandler) -> gast.ExceptHandler:
    name = None if node.name is None else gast.Name(node.name, gast.Store(), None, None)
    new = gast.ExceptHandler(None if node.type is None else from_ast(node.type), name,
                             [from_ast(s) for s in node.body])
    return _copy_location(new, node)


def _from_name(node: ast.Name) -> gast.Name:
    return _copy_location(gast.Name(node.id, _GAST_CONTEXTS[node.ctx.__class__](), None, None), node)


_FROM_SPECIAL = {ast.arg: _from_arg, ast.ExceptHandler: _from_except_handler, ast.Name: _from_name}
