"""An f-string with fields, or a `%` that may format a str, becomes a call that formats staged values when the graph
runs (operators/strings.py).

Before:                              After:
    s = f"loss {loss:.3f}"               s = ag__.fstring('loss ', ag__.formatted(loss, '', '.3f'))
    t = "step %d" % i                    t = ag__.percent('step %d', i)
    u = fmt % i                          u = ag__.mod(fmt, i)

On Python values the result is Python's, formatted field by field in Python's order; with a staged field, a str
of the text Python gives while tracing that the framework can also format when the graph runs (operators/strings.py).
"""
from __future__ import annotations

import gast

from autograph.pyct import templates
from autograph.pyct.transformer import Base, Context

_CONVERSIONS = {-1: "", 115: "s", 114: "r", 97: "a"}


def _is_percent(node) -> bool:
    """A `%` that may format a staged value into a str: a str literal or an f-string on the left
    (`ag__.percent`), or maybe a template in a variable (`_is_mod`)."""
    if not (isinstance(node, gast.BinOp) and isinstance(node.op, gast.Mod)):
        return False
    return (isinstance(node.left, gast.JoinedStr) or isinstance(node.left, gast.Constant)
            and isinstance(node.left.value, str) or _is_mod(node))


def _is_mod(node) -> bool:
    """`a % b` with no literal on either side, which may be a template in a variable (`fmt % x`): `ag__.mod`, which
    formats as `percent` where `a` is a str and is Python's `%` otherwise. One with a literal (`n % 2`) formats no
    staged value, and stays as written."""
    return not isinstance(node.left, (gast.Constant, gast.JoinedStr)) and not isinstance(node.right, gast.Constant)


class FStrings(Base):
    def visit_Lambda(self, node):
        return node   # converted when called, as call_trees leaves it

    def visit_BinOp(self, node):
        """`template % args`: `ag__.percent(template, args)`."""
        percent = _is_percent(node)
        literal = percent and not _is_mod(node)
        self.generic_visit(node)
        if not percent:
            return node
        return templates.replace_as_expression(f"ag__.{'percent' if literal else 'mod'}(text, args)", text=node.left,
                                               args=node.right)

    def visit_JoinedStr(self, node):
        if not any(isinstance(part, gast.FormattedValue) for part in node.values):
            return node
        parts = [self._part(part) for part in node.values]
        call = templates.replace_as_expression("ag__.fstring()")
        call.args = parts
        return call

    def _part(self, part):
        if not isinstance(part, gast.FormattedValue):
            return part
        if part.format_spec is None:
            spec = gast.Constant(value="", kind=None)
        else:
            spec = self.visit_JoinedStr(part.format_spec)
            if isinstance(spec, gast.JoinedStr):    # a constant spec: its text
                spec = gast.Constant(value="".join(p.value for p in spec.values), kind=None)
        call = templates.replace_as_expression("ag__.formatted()")
        call.args = [self.visit(part.value), gast.Constant(value=_CONVERSIONS[part.conversion], kind=None), spec]
        return call


def transform(node, ctx: Context):
    return FStrings(ctx).transform(node)
