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
                and not anno.get(node, Key.RAW) and not self._generated_module(node)):
            return _ld(node)
        return node

    def _generated_module(self, node) -> bool:
        """A generated `ag__` while the user has a local `ag__` (renamed to `ctx.ag` at the end, see api)."""
        return node.id == "ag__" and self.ctx.ag != "ag__" and not anno.get(node, Key.USER_NAME)


def _ld(node: gast.Name) -> gast.Call:
    """`ag__.ld(name)`, built directly and at the location of `node`: this is the most frequent rewrite."""
    load = gast.Load()
    ag = gast.Name(id="ag__", ctx=load, annotation=None, type_comment=None)
    func = gast.Attribute(value=ag, attr="ld", ctx=load)
    arg = gast.Name(id=node.id, ctx=load, annotation=None, type_comment=None)
    call = gast.Call(func=func, args=[arg], keywords=[])
    line = getattr(node, "lineno", None)
    if line is not None:   # what `located` would give them, without its walk
        col = getattr(node, "col_offset", 0) or 0
        where = {"lineno": line, "col_offset": col, "end_lineno": getattr(node, "end_lineno", None) or line,
                 "end_col_offset": getattr(node, "end_col_offset", None) or col}
        for new in (call, func, ag, arg):
            new.__dict__.update(where)
    return call


def transform(node, ctx: Context):
    return VariableTransformer(ctx).transform(node)
