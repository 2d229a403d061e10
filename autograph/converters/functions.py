"""The function itself: renamed `ag__<name>`, its body in a `FunctionScope`,
one exit through `fscope.ret` when it returns a value.

Before:                          After:
    def calc(a, b):                  def ag__calc(a, b):
        return a * b                     with ag__.FunctionScope('calc', 'fscope', ag__.ConversionOptions(recursive=True)) as fscope:
                                             do_return = False
                                             retval_ = ag__.UndefinedReturnValue()
                                             retval_ = ag__.ld(a) * ag__.ld(b)
                                             do_return = True
                                             return fscope.ret(retval_, do_return)
"""
from __future__ import annotations

import gast

from autograph.pyct import templates
from autograph.pyct.transformer import Context


def transform(node: gast.FunctionDef, ctx: Context) -> gast.FunctionDef:
    body = list(node.body)
    options = f"ag__.ConversionOptions(recursive={ctx.recursive!r})"
    scope = templates.replace(
        f"with ag__.FunctionScope(fn_name, scope_name, {options}) as fscope:\n    body",
        fn_name=gast.Constant(value=ctx.function_name, kind=None), scope_name=gast.Constant(value=ctx.fscope, kind=None),
        fscope=ctx.fscope, body=body)
    node.body = scope
    node.name = ctx.new_name(f"ag__{ctx.function_name}")
    node.decorator_list = []
    node.returns = None
    return node
