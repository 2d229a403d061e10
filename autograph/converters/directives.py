"""`autograph.set_loop_options(...)` in a loop body becomes options of that loop.

Before:                                  After:
    while x < n:                             def loop_body(x): ...
        ag.set_loop_options(maximum_iterations=10)
        x += 1                               x = ag__.while_stmt(loop_test, loop_body, (x,), ('x',),
                                                                 {'maximum_iterations': 10})
"""
from __future__ import annotations

import gast

from autograph.pyct import anno
from autograph.pyct.anno import Key
from autograph.pyct.transformer import Base, Context, block_or_pass

_OPTIONS = {"maximum_iterations", "shape_invariants", "parallel_iterations", "swap_memory"}


def _is_directive(stmt) -> bool:
    call = getattr(stmt, "value", None)
    if not isinstance(stmt, gast.Expr) or not isinstance(call, gast.Call):
        return False
    func = call.func
    fname = func.attr if isinstance(func, gast.Attribute) else getattr(func, "id", None)
    return fname == "set_loop_options"


class DirectiveTransformer(Base):
    statements_only = True   # it rewrites statements: expressions need no walk

    def _visit_loop(self, node):
        self.generic_visit(node)
        kept = []
        for stmt in node.body:
            if not _is_directive(stmt):
                kept.append(stmt)
                continue
            if stmt.value.args:
                raise self.ctx.error("set_loop_options takes keyword arguments only", stmt)
            options = {}
            for kw in stmt.value.keywords:
                if kw.arg not in _OPTIONS:
                    raise self.ctx.error(f"unknown loop option {kw.arg!r}; use one of {sorted(_OPTIONS)}", stmt)
                options[kw.arg] = kw.value
            anno.set(node, Key.LOOP_OPTIONS, options)
        node.body = block_or_pass(kept)
        return node

    visit_While = _visit_loop
    visit_For = _visit_loop


def transform(node, ctx: Context):
    return DirectiveTransformer(ctx).transform(node)
