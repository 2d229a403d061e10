"""Lower `continue`: the rest of the body runs only if no `continue` happened.

Before:                          After:
    for x in xs:                     for x in xs:
        if x < 0:                        if x < 0:
            continue                         pass
        total += x                       else:
                                             total += x

When one branch always continues, the rest of the body moves into the other
branch; otherwise a `continue_` flag guards it.
"""
from __future__ import annotations

import gast

from autograph.converters import lowering
from autograph.pyct import templates
from autograph.pyct.transformer import Base, Context, block_or_pass


class ContinueTransformer(Base):
    statements_only = True   # it rewrites statements: expressions need no walk

    def _visit_loop(self, node):
        node = self.generic_visit(node)
        probe = lowering.Jump(gast.Continue, lambda c: [], "", crosses_loops=False)
        if not lowering.contains(node.body, probe):
            return node
        flag = self.ctx.namer.new("continue_")
        jump = lowering.Jump(gast.Continue, lambda c: templates.replace("flag = True", flag=flag), flag, False, ctx=self.ctx)
        body = lowering.lower_block(templates.copy_tree(node.body), jump)  # one of the two is kept
        if jump.guards_used:
            node.body = templates.replace("flag = False", flag=flag) + lowering.resolve_cancels(
                body, gast.Continue, flag, crosses_loops=False)
        else:
            silent = lowering.Jump(gast.Continue, lambda c: [], flag, False)
            node.body = block_or_pass(lowering.resolve_cancels(lowering.lower_block(node.body, silent),
                                                               gast.Continue, None, crosses_loops=False))
        return node

    visit_While = _visit_loop
    visit_For = _visit_loop


def transform(node, ctx: Context):
    return ContinueTransformer(ctx).transform(node)
