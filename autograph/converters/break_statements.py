"""Lower `break` to a flag checked before each iteration.

Before:                          After:
    while i < n:                     break_ = False
        if x[i] == 0:                while ag__.and_(lambda: ag__.not_(break_), lambda: i < n):
            break                        if x[i] == 0:
        i += 1                               break_ = True
    else:                                else:
        found = False                        i += 1
                                     if ag__.not_(break_):
                                         found = False

A `for` loop gets `ag__.not_(break_)` as its extra test instead.
"""
from __future__ import annotations

import gast

from autograph.converters import lowering
from autograph.pyct import templates
from autograph.pyct.transformer import Base, Context, located


class BreakTransformer(Base):
    statements_only = True   # it rewrites statements: expressions need no walk

    def _visit_loop(self, node):
        node = self.generic_visit(node)
        probe = lowering.Jump(gast.Break, lambda b: [], "", crosses_loops=False)
        if not lowering.contains(node.body, probe):
            if not node.orelse:
                return node
            orelse, node.orelse = node.orelse, []
            return [node, *orelse]
        flag = self.ctx.namer.new("break_")
        jump = lowering.Jump(gast.Break, lambda b: templates.replace("flag = True", flag=flag), flag, False, ctx=self.ctx)
        node.body = lowering.lower_block(node.body, jump)
        lowering.add_loop_exit(node, templates.replace_as_expression("ag__.not_(flag)", flag=flag))
        init = templates.replace("flag = False", flag=flag)
        after = []
        if node.orelse:
            after = templates.replace("if ag__.not_(flag):\n    orelse", flag=flag, orelse=node.orelse)
            node.orelse = []
        return [*init, node, *[located(a, node) for a in after]]

    visit_While = _visit_loop
    visit_For = _visit_loop


def transform(node, ctx: Context):
    return BreakTransformer(ctx).transform(node)
