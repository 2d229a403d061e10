"""A `try` with `except` clauses first lets through the errors that mean tracing failed, so that a handler
of the user's never takes them for an error of the code it guards; a `with` statement's context manager
may not swallow them either (`with ag__.context(manager):`, operators/exceptions.py).

Before:                          After:
    try:                             try:
        y = d[k] if x > 0 else 0         y = ...
    except KeyError:                 except ag__.tracing_errors:
        y = -1                           raise
                                     except KeyError:
                                         y = -1

`ag__.tracing_errors` are autograph's carrier of an error raised while a statement was staged (every
branch is traced, whatever the input: operators/function_scope.py, `TracingFailed`), autograph's own errors
(`StagingError`, a ValueError, raised where the code meets a staged value: `sum(range(n))` of a traced `n`)
and the errors each framework raises when Python meets a staged value (`OperatorNotAllowedInGraphError`).
On Python values the carrier and the frameworks' errors are never raised, and autograph's own are never the
code's. Runs first: the `try` statements that lowering jumps out of `finally:` adds catch everything on
purpose, to run the `finally:` code and raise again.
"""
from __future__ import annotations

import gast

from autograph.pyct import templates
from autograph.pyct.transformer import Base, Context, located


class ExceptTransformer(Base):
    statements_only = True   # it rewrites statements: expressions need no walk

    def visit_Try(self, node):
        self.generic_visit(node)
        if node.handlers:
            guard = templates.replace("try:\n    pass\nexcept ag__.tracing_errors:\n    raise")[0].handlers[0]
            node.handlers.insert(0, located(guard, node.handlers[0]))
        return node

    visit_TryStar = visit_Try

    def visit_With(self, node):
        self.generic_visit(node)
        for item in node.items:
            item.context_expr = located(templates.replace_as_expression("ag__.context(manager)",
                                                                        manager=item.context_expr),
                                        item.context_expr)
        return node


def transform(node, ctx: Context):
    return ExceptTransformer(ctx).transform(node)
