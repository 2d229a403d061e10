"""`a if c else b` becomes `ag__.if_exp(c, lambda: a, lambda: b, 'a if c else b')`."""
from __future__ import annotations

import ast

import gast

from autograph.pyct import templates
from autograph.pyct.to_ast import to_ast
from autograph.pyct.transformer import Base, Context


class IfExpTransformer(Base):
    def visit_IfExp(self, node):
        text = ast.unparse(to_ast(node))
        self.generic_visit(node)
        return templates.replace_as_expression(
            "ag__.if_exp(test, lambda: body, lambda: orelse, text)", test=node.test, body=node.body,
            orelse=node.orelse, text=gast.Constant(value=text, kind=None))


def transform(node, ctx: Context):
    return IfExpTransformer(ctx).transform(node)
