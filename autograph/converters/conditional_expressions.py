"""`a if c else b` becomes `ag__.if_exp(c, lambda: a, lambda: b, 'a if c else b')`.

A branch that assigns with `:=` becomes a function defined before the statement,
as in logical_expressions."""
from __future__ import annotations

import ast

import gast

from autograph.converters.logical_expressions import Thunks
from autograph.pyct import templates
from autograph.pyct.to_ast import to_ast
from autograph.pyct.transformer import Context


class IfExpTransformer(Thunks):
    def visit_IfExp(self, node):
        text = ast.unparse(to_ast(node))
        self.generic_visit(node)
        return templates.replace_as_expression(
            "ag__.if_exp(test, body, orelse, text)", test=node.test, body=self.thunk(node.body, "if_body"),
            orelse=self.thunk(node.orelse, "else_body"), text=gast.Constant(value=text, kind=None))


def transform(node, ctx: Context):
    return IfExpTransformer(ctx).transform(node)
