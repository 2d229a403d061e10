"""The converters, in the order they run. Each entry's comment says why it is there.

`convert_function(node, ctx)` runs them all on one gast FunctionDef.
"""
from __future__ import annotations

import gast

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

_LOOPS = {gast.While, gast.For}
_CONTROL = {gast.If, gast.While, gast.For}
# A step runs only when the function holds what it rewrites: most functions use few constructs, and
# each step is a walk of the whole function. `None`: always runs.
NEEDS = {
    directives.transform: ("set_loop_options",),
    break_statements.transform: {gast.Break, "loop else"},   # it also moves a loop's `else:` after the loop
    continue_statements.transform: {gast.Continue},
    asserts.transform: {gast.Assert},
    lists.transform: ("append", "pop"),
    call_trees.transform: {gast.Call},
    conditional_expressions.transform: {gast.IfExp},
    logical_expressions.transform: {gast.BoolOp, gast.UnaryOp},
    _analyse: _CONTROL,
    control_flow.transform: _CONTROL | {gast.Match},
}
# What lowering jumps may add: guards (`if`) and loop tests (`extra and test`); the tree is scanned again after them.
ADDS = {break_statements.transform: {gast.If, gast.BoolOp}, continue_statements.transform: {gast.If},
        return_statements.transform: {gast.If, gast.BoolOp}}

_SKIP = (gast.expr_context, gast.boolop, gast.operator, gast.unaryop, gast.cmpop)


def _scan(node) -> tuple[set, set]:
    """The node types in `node` (nested functions included) and the names and attributes it uses."""
    types, names = set(), set()
    stack = [node]
    while stack:
        n = stack.pop()
        cls = n.__class__
        types.add(cls)
        if cls is gast.Name:
            names.add(n.id)
        elif cls is gast.Attribute:
            names.add(n.attr)
        elif (cls is gast.While or cls is gast.For) and n.orelse:
            types.add("loop else")
        for field in n._fields:
            value = getattr(n, field, None)
            if value.__class__ is list:
                stack.extend(v for v in value if isinstance(v, gast.AST) and not isinstance(v, _SKIP))
            elif isinstance(value, gast.AST) and not isinstance(value, _SKIP):
                stack.append(value)
    return types, names


def convert_function(node, ctx: Context):
    types, names = _scan(node)
    for step in PIPELINE:
        need = NEEDS.get(step)
        if need is not None and not (need & types if isinstance(need, set) else names.intersection(need)):
            continue
        node = step(node, ctx)
        if step in ADDS:  # scan again: a `return` at the end of a function adds no `if`, and most returns are there
            types, names = _scan(node)
    return node
