"""`and`, `or` and `not` become lazy operators that keep Python's short-circuit
semantics on Python values and become logical ops on tensors.

Before:                          After:
    a and b or not c                 ag__.or_(lambda: ag__.and_(lambda: a, lambda: b), lambda: ag__.not_(c))
"""
from __future__ import annotations

import gast

from autograph.pyct import templates
from autograph.pyct.transformer import Base, Context


class LogicalTransformer(Base):
    def visit_BoolOp(self, node):
        self.generic_visit(node)
        op = "ag__.and_" if isinstance(node.op, gast.And) else "ag__.or_"
        result = node.values[-1]
        for value in reversed(node.values[:-1]):
            result = templates.replace_as_expression(f"{op}(lambda: a, lambda: b)", a=value, b=result)
        return result

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, gast.Not):
            return templates.replace_as_expression("ag__.not_(operand)", operand=node.operand)
        return node


def transform(node, ctx: Context):
    return LogicalTransformer(ctx).transform(node)
