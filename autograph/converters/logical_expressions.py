"""`and`, `or` and `not` become lazy operators that keep Python's short-circuit
semantics on Python values and become logical ops on tensors.

Before:                          After:
    a and b or not c                 ag__.or_(lambda: ag__.and_(lambda: a, lambda: b), lambda: ag__.not_(c))

An operand that assigns with `:=` can't be a lambda (the name would be the
lambda's own): it becomes a function that shares the name through `nonlocal`,
defined just before the statement.

    if x > 0 and (c := x * 2) > 3:   def and_operand():
        ...                              nonlocal c
                                         return (c := x * 2) > 3
                                     if ag__.and_(lambda: x > 0, and_operand):
                                         ...
"""
from __future__ import annotations

import gast

from autograph.pyct import anno, templates
from autograph.pyct.anno import Key
from autograph.pyct.transformer import Base, Context, name


class Thunks(Base):
    """A transformer that turns expressions into functions called later (`thunk`), hoisting those that assign
    with `:=` to functions defined before the statement they are part of."""

    def __init__(self, ctx: Context):
        super().__init__(ctx)
        self.pending: list = []
        self.walrus = ctx.node_types is None or gast.NamedExpr in ctx.node_types

    def thunk(self, expr, base: str):
        """`lambda: expr`, or the name of a hoisted `def base(): nonlocal ...; return expr`."""
        targets = _walrus_targets(expr) if self.walrus else []
        if not targets:
            return _lambda(expr)
        fn_name = self.ctx.namer.new(base)
        fdef = gast.FunctionDef(
            name=fn_name, args=_no_args(), body=[gast.Nonlocal(names=targets), gast.Return(value=expr)],
            decorator_list=[], returns=None, type_comment=None, type_params=[])
        anno.set(fdef, Key.GENERATED, True)
        anno.set(fdef, Key.SHARED, frozenset(targets))   # what it writes, for the analyses (activity.writes)
        self.ctx.thunk_writes[fn_name] = frozenset(targets)
        self.ctx.generated_defs.add(fn_name)
        self.pending.append(fdef)
        return name(fn_name)

    def _visitor(self, cls: type):
        visitor = super()._visitor(cls)
        if not self.walrus or not issubclass(cls, gast.stmt) or cls in (gast.FunctionDef, gast.ClassDef):
            return visitor
        generic = self._generic

        def with_hoisted(node):
            outer, self.pending = self.pending, []
            if visitor is generic:
                generic(node)
                result = node
            else:
                result = visitor(node)
            hoisted, self.pending = self.pending, outer
            if not hoisted:
                return result
            return hoisted + (result if isinstance(result, list) else [result])
        self._visitors[cls] = with_hoisted
        return with_hoisted


class LogicalTransformer(Thunks):
    """`and`/`or` in a test (of an `if`, a `while`, a conditional expression or an `assert`, directly or under
    other `and`/`or`/`not`) become `ag__.and_test`/`or_test`: only their truth is used there, and Python asks
    each operand's truth once (`if a and b:` calls `a.__bool__` once; `and_` gives `a`, whose truth the `if`
    would ask again)."""

    def __init__(self, ctx: Context):
        super().__init__(ctx)
        self._tests: set = set()      # ids of the BoolOps that are tests

    def _mark_test(self, test) -> None:
        while test.__class__ is gast.UnaryOp and test.op.__class__ is gast.Not:
            test = test.operand
        if test.__class__ is gast.BoolOp:
            self._tests.add(id(test))
            for value in test.values:
                self._mark_test(value)

    def visit_If(self, node):
        self._mark_test(node.test)
        return self.generic_visit(node)

    visit_While = visit_If

    def visit_Call(self, node):
        """`ag__.if_exp(test, ...)` and `ag__.assert_stmt(test, ...)`, which earlier converters made."""
        func = node.func
        if func.__class__ is gast.Attribute and func.attr in ("if_exp", "assert_stmt") and node.args and \
                func.value.__class__ is gast.Name and func.value.id == "ag__" and not anno.get(func.value, Key.USER_NAME):
            self._mark_test(node.args[0])
        return self.generic_visit(node)

    def visit_BoolOp(self, node):
        and_op, or_op = ("ag__.and_test", "ag__.or_test") if id(node) in self._tests else ("ag__.and_", "ag__.or_")
        self.generic_visit(node)
        op, base = (and_op, "and_operand") if isinstance(node.op, gast.And) else (or_op, "or_operand")
        result = node.values[-1]
        for value in reversed(node.values[:-1]):
            result = templates.replace_as_expression(f"{op}(a, b)", a=self.thunk(value, base),
                                                     b=self.thunk(result, base))
        return result

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, gast.Not):
            return templates.replace_as_expression("ag__.not_(operand)", operand=node.operand)
        return node


def _walrus_targets(expr) -> list[str]:
    """The names `expr` assigns with `:=` in its own scope (a lambda inside it has its own)."""
    found: list[str] = []
    stack = [expr]
    while stack:
        n = stack.pop()
        if n.__class__ is gast.Lambda:
            continue
        if n.__class__ is gast.NamedExpr and n.target.id not in found:
            found.append(n.target.id)
        stack.extend(gast.iter_child_nodes(n))
    return found


def _no_args():
    return gast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                          defaults=[])


def _lambda(body):
    return gast.Lambda(args=_no_args(), body=body)


def transform(node, ctx: Context):
    return LogicalTransformer(ctx).transform(node)
