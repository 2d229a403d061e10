"""Loads of the function's local variables become `ag__.ld(x)`, which raises
like Python's UnboundLocalError when the variable is not assigned on this path
(state variables can hold `ag__.Undefined` after a converted `if` or loop).

Before:                          After:
    d = a * b + c                    d = ag__.ld(a) * ag__.ld(b) + ag__.ld(c)

Generated loads of state that may legitimately be undefined (passing state
into an operator, returning it from a branch) are left as they are.
"""
from __future__ import annotations

import gast

from autograph.pyct import anno, templates
from autograph.pyct.anno import Key
from autograph.pyct.transformer import Base, Context


class VariableTransformer(Base):
    def visit_Name(self, node):
        if (isinstance(node.ctx, gast.Load) and node.id in self.ctx.user_locals
                and not anno.get(node, Key.RAW)):
            return templates.replace_as_expression("ag__.ld(var)", var=node.id)
        return node


def transform(node, ctx: Context):
    return VariableTransformer(ctx).transform(node)
