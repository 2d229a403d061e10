"""`l.append(x)` and `l.pop()` statements become list operators, so a list used
as loop state can become the backend's tensor list.

Before:                          After:
    l.append(x)                      l = ag__.list_append(l, x)
    y = l.pop()                      l, y = ag__.list_pop(l)
    l.pop(i)                         l = ag__.list_pop(l, i)[0]
    total += l.pop()                 l, popped = ag__.list_pop(l)
                                     total += popped
    d[k] += l.pop()                  d[k] += ag__.list_pop_in_place(l)

    y = f(l.pop()) + 1               y = f(ag__.list_pop_in_place(l)) + 1

`return l.pop()` is covered too: return_statements has made it an assignment.
A `pop` inside a larger expression can't rebind the list: `list_pop_in_place`
is Python's `pop`, and a clear error on a tensor list.

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

    def visit_Expr(self, node):
        call = node.value
        if _method_call(call, "append") and len(call.args) == 1 and self._local(call):
            return templates.replace("target = ag__.list_append(target, value)", target=call.func.value.id,
                                     value=call.args[0])
        if self._pop(call):
            return templates.replace(f"lst = ag__.list_pop({_ARGS[len(call.args)]})[0]", lst=call.func.value.id,
                                     index=_index(call))
        return self.generic_visit(node)

    def visit_Assign(self, node):
        call = node.value
        if len(node.targets) == 1 and self._pop(call):
            return templates.replace(f"lst, out = ag__.list_pop({_ARGS[len(call.args)]})", lst=call.func.value.id,
                                     out=node.targets[0], index=_index(call))
        return self.generic_visit(node)

    def visit_AugAssign(self, node):
        call = node.value
        # only onto a variable: Python evaluates an item or attribute target (`l[-1] += l.pop()`,
        # `d[len(l)] += l.pop()`) before the pop, and a `pop` statement moved before it would change what it reads
        if self._pop(call) and isinstance(node.target, gast.Name):
            popped = self.ctx.namer.new("popped")
            node.value = templates.replace_as_expression("popped", popped=popped)
            return templates.replace(f"lst, popped = ag__.list_pop({_ARGS[len(call.args)]})", lst=call.func.value.id,
                                     popped=popped, index=_index(call)) + [node]
        return self.generic_visit(node)

    def visit_Call(self, node):
        """`l.pop(i)` inside a larger expression (the statements above take it whole)."""
        self.generic_visit(node)
        return _in_place(node) if self._pop(node) else node

    def visit_Lambda(self, node):
        return node   # converted when called, where `l` is not a local of its own

    def _pop(self, call) -> bool:
        return _method_call(call, "pop") and len(call.args) <= 1 and self._local(call)

    def _local(self, call) -> bool:
        """The list is a variable of the function, and the call's arguments don't rebind it (`l.append(l := [])`
        appends to the list `l` held before: rebinding `l` to the result after it would undo the `:=`)."""
        name = call.func.value.id
        return name in self.ctx.user_locals and not any(
            isinstance(n, gast.NamedExpr) and n.target.id == name for arg in call.args for n in gast.walk(arg))


def _in_place(pop_call):
    return templates.replace_as_expression(f"ag__.list_pop_in_place({_ARGS[len(pop_call.args)]})",
                                           lst=pop_call.func.value.id, index=_index(pop_call))


_ARGS = ("lst", "lst, index")   # `l.pop()` passes no index: `l.pop(None)` is Python's TypeError (a dict's key None)


def _index(pop_call):
    return pop_call.args[0] if pop_call.args else None


def transform(node, ctx: Context):
    return ListTransformer(ctx).transform(node)
