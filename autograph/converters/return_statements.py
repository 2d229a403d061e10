"""Lower `return` to `do_return`/`retval_`, so the function has one exit.

Before:                          After:
    def f(x):                        def f(x):
        for i in x:                      do_return = False
            if i > 2:                    retval_ = ag__.UndefinedReturnValue()
                return i                 for i in x:            # extra test: not do_return
        return -1                            if i > 2:
                                                 retval_ = i
                                                 do_return = True
                                         if ag__.not_(do_return):
                                             retval_ = -1
                                             do_return = True

and the function ends with `return fscope.ret(retval_, do_return)`. A function that may end without a
`return` (Python returns None there) ends with `fscope.ret(retval_, do_return, may_fall_off=True)`
instead: where a tensor decides that it did, a graph has no None to return, and `ret` checks it.
"""
from __future__ import annotations

import gast

from autograph.converters import lowering
from autograph.pyct import templates
from autograph.pyct.transformer import Context


def transform(node: gast.FunctionDef, ctx: Context) -> gast.FunctionDef:
    probe = lowering.Jump(gast.Return, lambda r: [], "", crosses_loops=True)
    if not lowering.contains(node.body, probe):
        return node
    flag, value = ctx.new_name("do_return"), ctx.new_name("retval_")   # unless the user's code has them
    ctx.meanings.update({flag: "do_return", value: "retval_"})
    names = {"do_return": flag, "retval_": value, "fscope": ctx.fscope}

    def replace(ret: gast.Return) -> list:
        returned = ret.value if ret.value is not None else gast.Constant(value=None, kind=None)
        # the value first: when computing it raises (and an `except` handles it), the function has not returned
        return templates.replace("retval_ = returned\ndo_return = True", returned=returned, **names)

    jump = lowering.Jump(gast.Return, replace, flag, crosses_loops=True, ctx=ctx, value=value)
    may_fall_off = not lowering.always_jumps(node.body, jump)

    def on_loop(loop):
        if lowering.contains(loop.body, jump) or _assigns(loop.body, flag):
            lowering.add_loop_exit(loop, jump.guard_test())

    body = lowering.resolve_cancels(lowering.lower_block(node.body, jump, on_loop), gast.Return, flag,
                                    crosses_loops=True)
    ending = "fscope.ret(retval_, do_return, may_fall_off=True)" if may_fall_off else "fscope.ret(retval_, do_return)"
    node.body = (templates.replace("do_return = False\nretval_ = ag__.UndefinedReturnValue()", **names) + body
                 + templates.replace(f"return {ending}", **names))
    return node


def _assigns(stmts, name: str) -> bool:
    return any(isinstance(n, gast.Name) and n.id == name and isinstance(n.ctx, gast.Store)
               for s in stmts for n in gast.walk(s))
