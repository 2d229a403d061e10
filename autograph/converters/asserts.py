"""`assert` becomes `ag__.assert_stmt`, the backend's assert for a tensor condition.

Before:                          After:
    assert x > 0, "x must be > 0"    ag__.assert_stmt(x > 0, lambda: 'x must be > 0')
"""
from __future__ import annotations

from autograph.pyct import templates
from autograph.pyct.transformer import Base, Context


class AssertTransformer(Base):
    statements_only = True   # it rewrites statements: expressions need no walk

    def visit_Assert(self, node):
        self.generic_visit(node)
        if node.msg is None:
            return templates.replace("ag__.assert_stmt(test)", test=node.test)
        return templates.replace("ag__.assert_stmt(test, lambda: msg)", test=node.test, msg=node.msg)


def transform(node, ctx: Context):
    return AssertTransformer(ctx).transform(node)
