"""`l.append(x)` and `l.pop()` statements become list operators, so a list used
as loop state can become the backend's tensor list.

Before:                          After:
    l.append(x)                      l = ag__.list_append(l, x)
    y = l.pop()                      l, y = ag__.list_pop(l)

On a Python list they do exactly what `append` and `pop` do (same object).
"""
from __future__ import annotations

import gast

from autograph.pyct import templates
from autograph.pyct.transformer import Base, Context


def _method_call(node, method: str):
    call = node
    return (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute) and call.func.attr == method
            and isinstance(call.func.value, gast.Name) and not call.keywords)


class ListTransformer(Base):
    statements_only = True   # it rewrites statements: expressions need no walk

    def visit_Expr(self, node):
        if _method_call(node.value, "append") and len(node.value.args) == 1:
            target = node.value.func.value.id
            if target in self.ctx.user_locals:
                return templates.replace("target = ag__.list_append(target, value)", target=target,
                                         value=node.value.args[0])
        return self.generic_visit(node)

    def visit_Assign(self, node):
        value = node.value
        if len(node.targets) == 1 and _method_call(value, "pop") and len(value.args) <= 1:
            target = value.func.value.id
            if target in self.ctx.user_locals:
                index = value.args[0] if value.args else gast.Constant(value=None, kind=None)
                return templates.replace("lst, out = ag__.list_pop(lst, index)", lst=target, out=node.targets[0],
                                         index=index)
        return self.generic_visit(node)


def transform(node, ctx: Context):
    return ListTransformer(ctx).transform(node)
