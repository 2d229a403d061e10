"""A chained comparison becomes the lazy `and` Python defines it as, each operand evaluated once.

Before:                          After:
    if 9 < y <= L[0]:                if ag__.chain_compare(9, '<', y, '<=', lambda: L[0]):
        ...                              ...

`a < b <= c` is `a < b and b <= c` with `b` evaluated once: `a` and `b` are always evaluated, in order,
so they are passed as values; `c` is evaluated only when `a < b` holds, so it is a function.
`chain_compare` goes through `ag__.and_`, so with a tensor `a < b` the rest is staged in a `Cond`,
where Python's `and` would call `bool()` on the tensor. A comparison with one operator is left alone:
the framework's operators handle it, except `x is None` and `x is not None`, which become
`ag__.is_none(x)` and `ag__.is_not_none(x)`: a variable a staged statement left None on some paths only is
a placeholder and a flag there (operators/maybe.py), which Python's `is` can't see; any other `a is b`,
which becomes `ag__.is_(a, b)`: between two different staged tensors it is refused (a staged statement gives
the variables it carries new tensors, so `y is x` after `if c: y = x + 1` is not known while tracing); and
`a in b` / `a not in b`, which become `ag__.in_(a, b)` / `ag__.not_in(a, b)` unless `a` is a constant or `b` a
display or a comprehension (`op in ("+", "-")` stays): a str `b` asked about text formatted from a staged value
would read the symbolic value's text (operators/strings.py), so that is refused.
"""
from __future__ import annotations

import gast

from autograph.converters.logical_expressions import Thunks
from autograph.pyct import templates
from autograph.pyct.transformer import Context

SYMBOLS = {gast.Eq: "==", gast.NotEq: "!=", gast.Lt: "<", gast.LtE: "<=", gast.Gt: ">", gast.GtE: ">=",
           gast.Is: "is", gast.IsNot: "is not", gast.In: "in", gast.NotIn: "not in"}


class ChainedComparisons(Thunks):
    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) == 1:
            return self._none_test(node)
        call = templates.replace_as_expression("ag__.chain_compare()")
        args = [node.left]
        for i, (op, operand) in enumerate(zip(node.ops, node.comparators)):
            args.append(gast.Constant(value=SYMBOLS[op.__class__], kind=None))
            args.append(operand if i == 0 else self.thunk(operand, "compare_operand"))
        call.args = args
        return call


    def _none_test(self, node):
        """`x is None` / `x is not None` as `ag__.is_none(x)` / `ag__.is_not_none(x)`: Python's `is` on Python
        values; on a variable a staged statement left None on some paths only, a staged bool (operators/maybe.py)."""
        op, right = node.ops[0], node.comparators[0]
        if isinstance(op, (gast.In, gast.NotIn)):
            return _in_test(node) if may_ask_a_str(node) else node
        if not isinstance(op, (gast.Is, gast.IsNot)):
            return node
        if _is_none(right):
            subject = node.left
        elif _is_none(node.left):
            subject = right
        else:
            name = "ag__.is_" if isinstance(op, gast.Is) else "ag__.is_not"
            return templates.replace_as_expression(f"{name}(a, b)", a=node.left, b=right)
        name = "ag__.is_none" if isinstance(op, gast.Is) else "ag__.is_not_none"
        call = templates.replace_as_expression(f"{name}(subject)", subject=subject)
        return call


# What the right operand of `in` can't be a str as: a display, a comprehension, a constant that is no str
_NO_STR = (gast.List, gast.Tuple, gast.Set, gast.Dict, gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)


def may_ask_a_str(node) -> bool:
    """Whether `a in b` (`not in`) may ask a str `b` about text formatted from a staged value `a`: neither `a` a
    constant nor `b` a display, a comprehension or a constant other than a str."""
    right = node.comparators[0]
    return not (isinstance(node.left, gast.Constant) or isinstance(right, _NO_STR)
                or isinstance(right, gast.Constant) and not isinstance(right.value, str))


def _in_test(node):
    """`a in b` / `a not in b` as `ag__.in_(a, b)` / `ag__.not_in(a, b)`: Python's, but text formatted from a staged
    value asked of a str is refused (operators/strings.py: str's code would read the symbolic value's text)."""
    name = "ag__.in_" if isinstance(node.ops[0], gast.In) else "ag__.not_in"
    return templates.replace_as_expression(f"{name}(a, b)", a=node.left, b=node.comparators[0])


def _is_none(node) -> bool:
    return isinstance(node, gast.Constant) and node.value is None


def transform(node, ctx: Context):
    return ChainedComparisons(ctx).transform(node)
