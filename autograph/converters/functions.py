"""The function itself: renamed `ag__<name>`, its body in a `FunctionScope`,
one exit through `fscope.ret` when it returns a value.

Before:                          After:
    def calc(a, b):                  def ag__calc(a, b):
        return a * b                     with ag__.FunctionScope('calc', 'fscope', ag__.ConversionOptions(recursive=True)) as fscope:
                                             do_return = False
                                             retval_ = ag__.UndefinedReturnValue()
                                             retval_ = a * b
                                             do_return = True
                                             return fscope.ret(retval_, do_return)

A variable that the branch and loop-body functions share through `nonlocal`
but that the function binds nowhere else is declared at the top of the scope,
without a value (`_declare_shared`):

    def pick(x):                     def ag__pick(x):
        if x > 0:                        with ag__.FunctionScope('pick', 'fscope', ...) as fscope:
            y = x                            y: ag__.Local
        else:                                ...
            y = 0                            def if_true():
        return y                                 nonlocal y
                                                 y = x
                                             ...
"""
from __future__ import annotations

import gast

from autograph.pyct import activity, anno, templates
from autograph.pyct.anno import Key
from autograph.pyct.transformer import Context, located, name


def transform(node: gast.FunctionDef, ctx: Context) -> gast.FunctionDef:
    body = _declare_shared(node, ctx) + list(node.body)
    anno.set(node, Key.GENERATED_DEFS, frozenset(ctx.generated_defs))
    options = f"ag__.ConversionOptions(recursive={ctx.recursive!r})"
    scope = templates.replace(
        f"with ag__.FunctionScope(fn_name, scope_name, {options}) as fscope:\n    body",
        fn_name=gast.Constant(value=ctx.function_name, kind=None), scope_name=gast.Constant(value=ctx.fscope, kind=None),
        fscope=ctx.fscope, body=body)
    node.body = scope
    node.name = ctx.new_name(f"ag__{ctx.function_name}")
    node.decorator_list = []
    return node


def _declare_shared(node: gast.FunctionDef, ctx: Context) -> list:
    """`y: ag__.Local` for each variable that a generated function (a branch, a loop body, a hoisted operand)
    shares through `nonlocal` but that the function binds nowhere else: it makes `y` a local of the
    function, unbound, so that `nonlocal y` has a variable to refer to (autograph/operators/variables.py)."""
    shared: dict[str, None] = {}
    for n in activity.walk(node):
        if n.__class__ is gast.FunctionDef and anno.get(n, Key.GENERATED):
            for stmt in n.body:
                if stmt.__class__ is gast.Nonlocal:
                    shared.update(dict.fromkeys(stmt.names))
    if not shared:
        return []
    unbound = set(shared) - activity.bound_in_scope(node.body) - ctx.params - ctx.declared_nonlocal
    return [located(_local(v), node) for v in shared if v in unbound]


def _local(var: str) -> gast.AnnAssign:
    annotation = gast.Attribute(value=name("ag__"), attr="Local", ctx=gast.Load())
    return gast.AnnAssign(target=name(var, gast.Store()), annotation=annotation, value=None, simple=1)
