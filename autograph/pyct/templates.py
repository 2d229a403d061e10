"""Code templates: write generated code as Python, substitute AST nodes.

    replace("target = ag__.ld(value)", target="x", value=some_node)

Placeholders are plain names in the template; a substitute may be a string
(a name), an AST node, or a list of statements (for a placeholder standing
alone as a statement, e.g. `body`). Loads and stores get the right context.
"""
from __future__ import annotations

import textwrap

import gast


_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def copy_tree(node):
    """A fresh copy of a gast tree (much faster than copy.deepcopy); annotations are shared."""
    cls = node.__class__
    if cls is list:
        return [copy_tree(n) for n in node]
    if not isinstance(node, gast.AST):
        return node
    new = cls.__new__(cls)
    attrs = new.__dict__
    for key, value in node.__dict__.items():
        if value.__class__ is list or isinstance(value, gast.AST):
            attrs[key] = copy_tree(value)
        elif key == "___ag_anno":
            attrs[key] = dict(value)
        else:
            attrs[key] = value
    return new


def _as_node(value, ctx, used: set):
    if isinstance(value, str):
        return gast.Name(id=value, ctx=ctx, annotation=None, type_comment=None)
    if isinstance(value, gast.AST):
        node = copy_tree(value) if id(value) in used else value  # copy only a second use
        used.add(id(value))
        if isinstance(node, (gast.Name, gast.Tuple, gast.List, gast.Attribute, gast.Subscript, gast.Starred)):
            _set_ctx(node, ctx)
        return node
    return value


def _set_ctx(node, ctx) -> None:
    node.ctx = ctx
    if isinstance(node, (gast.Tuple, gast.List)):
        for elt in node.elts:
            _set_ctx(elt, ctx)
    elif isinstance(node, gast.Starred):
        _set_ctx(node.value, ctx)


class _Replacer(gast.NodeTransformer):
    def __init__(self, replacements: dict):
        self.replacements = replacements
        self.used: set = set()

    def visit_Name(self, node):
        if node.id in self.replacements:
            return _as_node(self.replacements[node.id], node.ctx, self.used)
        return node

    def visit_Expr(self, node):
        if isinstance(node.value, gast.Name) and isinstance(self.replacements.get(node.value.id), list):
            stmts = self.replacements[node.value.id]
            if id(stmts) in self.used:
                stmts = copy_tree(stmts)
            self.used.add(id(stmts))
            return list(stmts)
        return self.generic_visit(node)

    def visit_FunctionDef(self, node):
        if node.name in self.replacements:
            node.name = self.replacements[node.name]
        return self.generic_visit(node)

    def visit_arguments(self, node):
        new_args = []
        for arg in node.args:
            value = self.replacements.get(arg.id)
            if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
                new_args += [gast.Name(id=v, ctx=gast.Param(), annotation=None, type_comment=None) for v in value]
            else:
                new_args.append(self.visit(arg))
        node.args = new_args
        return node


_parsed: dict[str, gast.Module] = {}


def _parse(template: str) -> gast.Module:
    """A fresh copy of the template's tree (each template is parsed once)."""
    tree = _parsed.get(template)
    if tree is None:
        tree = gast.parse(textwrap.dedent(template))
        for node in gast.walk(tree):  # generated code takes the location of what it replaces
            for attr in _LOCATION:
                if hasattr(node, attr):
                    setattr(node, attr, None)
        _parsed[template] = tree
    return copy_tree(tree)


def replace(template: str, **replacements) -> list:
    """The statements of `template` with placeholders replaced."""
    tree = _Replacer(replacements).visit(_parse(template))
    return tree.body


def replace_as_expression(template: str, **replacements):
    (stmt,) = replace(template, **replacements)
    return stmt.value
