"""The converters, in the order they run. Each entry's comment says why it is there.

`convert_function(node, ctx)` runs them all on one gast FunctionDef.
"""
from __future__ import annotations

from autograph.converters import (asserts, break_statements, call_trees, conditional_expressions,
                                  continue_statements, control_flow, directives, functions, lists,
                                  logical_expressions, return_statements, variables)
from autograph.pyct import liveness
from autograph.pyct.transformer import Context


def _analyse(node, ctx: Context):
    liveness.analyse(node, ctx.params)
    return node


PIPELINE = [
    directives.transform,               # first: loop options must be read before loops change shape
    break_statements.transform,         # jumps are lowered to flags, innermost loops first ...
    continue_statements.transform,
    return_statements.transform,        # ... and returns last, since they leave every enclosing loop
    asserts.transform,
    lists.transform,                    # before call_trees, which would hide `l.append` in converted_call
    call_trees.transform,               # before the rewrites below add calls of their own
    conditional_expressions.transform,  # expressions become lazy operators (lambdas) ...
    logical_expressions.transform,
    _analyse,                           # ... then liveness and definite assignment, once, on structured code
    control_flow.transform,             # reads those annotations; needs every jump lowered
    variables.transform,                # after control_flow, to see which loads are generated state
    functions.transform,                # last: wraps the finished body in the FunctionScope
]


def convert_function(node, ctx: Context):
    for step in PIPELINE:
        node = step(node, ctx)
    return node
