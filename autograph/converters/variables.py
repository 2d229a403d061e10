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

from autograph.pyct import anno
from autograph.pyct.anno import Key
from autograph.pyct.transformer import Base, Context


class VariableTransformer(Base):
    def visit_Name(self, node):
        if (isinstance(node.ctx, gast.Load) and node.id in self.ctx.user_locals
                and not anno.get(node, Key.RAW)):
            return _ld(node.id)
        return node


def _ld(name: str) -> gast.Call:
    """`ag__.ld(name)`, built directly: this is the most frequent rewrite."""
    load = gast.Load()
    func = gast.Attribute(value=gast.Name(id="ag__", ctx=load, annotation=None, type_comment=None), attr="ld",
                          ctx=load)
    return gast.Call(func=func, args=[gast.Name(id=name, ctx=load, annotation=None, type_comment=None)],
                     keywords=[])


def transform(node, ctx: Context):
    return VariableTransformer(ctx).transform(node)
