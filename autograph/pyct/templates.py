"""Code templates: write generated code as Python, substitute AST nodes.

    replace("target = ag__.not_(value)", target="x", value=some_node)

Placeholders are plain names in the template; a substitute may be a string
(a name), an AST node, or a list of statements (for a placeholder standing
alone as a statement, e.g. `body`). Loads and stores get the right context.
"""
from __future__ import annotations

import textwrap

import gast

from autograph.pyct.nodes import KINDS, LEAF, kind_of


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


class _Replacer:
    """Builds a fresh copy of a template's tree with the placeholders replaced, in one walk (copying the
    template, then walking the copy to replace, took two). Fields are visited in order, so the first use
    of a substitute node is the node itself and later uses are copies."""

    def __init__(self, replacements: dict):
        self.replacements = replacements
        self.used: set = set()

    def copy(self, node):
        """The copy of template node `node`: a node, or a list of statements for a `body` placeholder."""
        cls = node.__class__
        if cls is gast.Name and node.id in self.replacements:
            return _as_node(self.replacements[node.id], node.ctx, self.used)
        if cls is gast.Expr and node.value.__class__ is gast.Name:
            stmts = self.replacements.get(node.value.id)
            if isinstance(stmts, list):
                if id(stmts) in self.used:
                    stmts = copy_tree(stmts)
                self.used.add(id(stmts))
                return list(stmts)
        if cls is gast.arguments:
            return self._arguments(node)
        new = cls.__new__(cls)
        attrs = new.__dict__
        attrs.update(node.__dict__)    # fields, and locations (None in a template)
        for key in cls._fields:        # then copies of the children (contexts and operators are shared)
            value = attrs[key]
            if value.__class__ is list:
                attrs[key] = self._copy_list(value)
            elif (KINDS.get(value.__class__) or kind_of(value.__class__)) != LEAF:
                attrs[key] = self.copy(value)
        if cls is gast.FunctionDef and new.name in self.replacements:
            new.name = self.replacements[new.name]
        return new

    def _copy_list(self, values: list) -> list:
        out = []
        for value in values:
            if (KINDS.get(value.__class__) or kind_of(value.__class__)) != LEAF:
                value = self.copy(value)
                if value.__class__ is list:
                    out.extend(value)
                    continue
            out.append(value)
        return out

    def _arguments(self, node):
        """Parameters: a placeholder may stand for a list of names."""
        new = gast.arguments.__new__(gast.arguments)
        new.__dict__.update({key: copy_tree(value) for key, value in node.__dict__.items() if key != "args"})
        new_args = []
        for arg in node.args:
            value = self.replacements.get(arg.id)
            if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
                new_args += [gast.Name(id=v, ctx=gast.Param(), annotation=None, type_comment=None) for v in value]
            else:
                new_args.append(self.copy(arg))
        new.args = new_args
        return new


_parsed: dict[str, gast.Module] = {}


def _parse(template: str) -> gast.Module:
    """The template's tree, parsed once: never modified, `_Replacer` copies it."""
    tree = _parsed.get(template)
    if tree is None:
        tree = gast.parse(textwrap.dedent(template))
        for node in gast.walk(tree):  # generated code takes the location of what it replaces
            for attr in _LOCATION:
                if hasattr(node, attr):
                    setattr(node, attr, None)
        _parsed[template] = tree
    return tree


def replace(template: str, **replacements) -> list:
    """The statements of `template` with placeholders replaced."""
    return _Replacer(replacements)._copy_list(_parse(template).body)


def replace_as_expression(template: str, **replacements):
    (stmt,) = replace(template, **replacements)
    return stmt.value
