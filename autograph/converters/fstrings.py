"""An f-string with fields, or a `%` on a str literal, becomes a call that formats staged values when the graph
runs (operators/strings.py).

Before:                              After:
    s = f"loss {loss:.3f}"               s = ag__.fstring('loss ', ag__.formatted(loss, '', '.3f'))
    t = "step %d" % i                    t = ag__.percent('step %d', i)

On Python values the result is Python's, formatted field by field in Python's order. An f-string (or `%`) given
straight to `print` or to a logger's method (`logging.info(f"...")`, `log.warning(...)`) stays as written: those
run while tracing, where the text of a staged value is the symbolic tensor itself (as TensorFlow prints it).
"""
from __future__ import annotations

import gast

from autograph.pyct import templates
from autograph.pyct.transformer import Base, Context

_CONVERSIONS = {-1: "", 115: "s", 114: "r", 97: "a"}
# Calls that run while tracing, whose f-string arguments keep Python's text
_TRACE_TIME_CALLS = {"print"}
_LOGGER_METHODS = {"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log"}


def _runs_while_tracing(func) -> bool:
    if isinstance(func, gast.Name):
        return func.id in _TRACE_TIME_CALLS
    return isinstance(func, gast.Attribute) and func.attr in _LOGGER_METHODS


def _is_percent(node) -> bool:
    left = node.left if isinstance(node, gast.BinOp) and isinstance(node.op, gast.Mod) else None
    return isinstance(left, gast.JoinedStr) or isinstance(left, gast.Constant) and isinstance(left.value, str)


class FStrings(Base):
    def visit_Lambda(self, node):
        return node   # converted when called, as call_trees leaves it

    def visit_Call(self, node):
        if not _runs_while_tracing(node.func):
            return self.generic_visit(node)
        node.func = self.visit(node.func)
        node.args = [arg if isinstance(arg, gast.JoinedStr) or _is_percent(arg) else self.visit(arg)
                     for arg in node.args]
        for keyword in node.keywords:
            keyword.value = self.visit(keyword.value)
        return node

    def visit_BinOp(self, node):
        """`'...' % args` (a str literal or an f-string on the left): `ag__.percent('...', args)`."""
        percent = _is_percent(node)
        self.generic_visit(node)
        if not percent:
            return node
        return templates.replace_as_expression("ag__.percent(text, args)", text=node.left, args=node.right)

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
