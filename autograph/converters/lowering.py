"""Lowering a jump (`return`, `break`, `continue`) to a flag, shared by the three converters.

Statements after a statement that may jump are guarded by `if not flag:`; when
one branch of an `if` always jumps, the statements that follow move into the
other branch instead, so no guard (and often no flag) is needed:

    if x > 0:                      if x > 0:
        return x          →            do_return = True; retval_ = x
    y = -x                         else:
    return y                           y = -x
                                       do_return = True; retval_ = y
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import gast

from autograph.pyct import templates
from autograph.pyct.transformer import block_or_pass, located

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda)
_LOOPS = (gast.While, gast.For, gast.AsyncFor)


@dataclass
class Jump:
    """How to lower one kind of jump."""

    kind: type                                  # gast.Return, gast.Break or gast.Continue
    replace: Callable[[gast.AST], list]         # the statements standing for the jump
    flag: str                                   # the flag's name (for guards)
    crosses_loops: bool                         # a return leaves enclosing loops too
    guards_used: int = 0

    def guard_test(self):
        self.guards_used += 1
        return templates.replace_as_expression("ag__.not_(flag)", flag=self.flag)


# The fields that hold statements (an ExceptHandler and a match_case hold their own `body`): a jump is a
# statement, so expressions need no search.
_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def contains(node_or_stmts, jump: Jump) -> bool:
    stack = list(node_or_stmts) if isinstance(node_or_stmts, list) else [node_or_stmts]
    while stack:
        node = stack.pop()
        if isinstance(node, jump.kind):
            return True
        if isinstance(node, _SCOPES) or isinstance(node, _LOOPS) and not jump.crosses_loops:
            continue
        for field in _BLOCKS:
            block = getattr(node, field, None)
            if block.__class__ is list:
                stack.extend(block)
    return False


def always_jumps(stmts, jump: Jump) -> bool:
    for stmt in stmts:
        if isinstance(stmt, jump.kind):
            return True
        if isinstance(stmt, gast.If) and always_jumps(stmt.body, jump) and always_jumps(stmt.orelse, jump):
            return True
        if isinstance(stmt, (gast.With, gast.AsyncWith)) and always_jumps(stmt.body, jump):
            return True
    return False


def lower_block(stmts: list, jump: Jump, on_loop: Callable[[gast.AST], None] | None = None) -> list:
    """`stmts` with every jump of this kind replaced and what follows guarded."""
    out: list = []
    for i, stmt in enumerate(stmts):
        rest = stmts[i + 1:]
        if isinstance(stmt, jump.kind):
            out += [located(s, stmt) for s in jump.replace(stmt)]
            return out
        if not contains(stmt, jump):
            out.append(stmt)
            continue
        if isinstance(stmt, gast.If):
            body_jumps, else_jumps = always_jumps(stmt.body, jump), always_jumps(stmt.orelse, jump)
            moved = bool(rest) and body_jumps != else_jumps
            if moved and body_jumps:
                stmt.orelse = stmt.orelse + rest
            elif moved:
                stmt.body = stmt.body + rest
            stmt.body = block_or_pass(lower_block(stmt.body, jump, on_loop))
            stmt.orelse = lower_block(stmt.orelse, jump, on_loop)
            out.append(stmt)
            if moved or body_jumps and else_jumps:
                return out
        elif isinstance(stmt, _LOOPS):
            stmt.body = block_or_pass(lower_block(stmt.body, jump, on_loop))
            if on_loop is not None:
                on_loop(stmt)
            out.append(stmt)
        else:
            for field in ("body", "orelse", "finalbody"):
                if getattr(stmt, field, None):
                    setattr(stmt, field, block_or_pass(lower_block(getattr(stmt, field), jump, on_loop)))
            for part in (*(getattr(stmt, "handlers", None) or ()), *(getattr(stmt, "cases", None) or ())):
                part.body = block_or_pass(lower_block(part.body, jump, on_loop))
            out.append(stmt)
        if rest:
            guard = gast.If(test=jump.guard_test(), body=lower_block(rest, jump, on_loop), orelse=[])
            out.append(located(guard, rest[0]))
            return out
    return out


def add_loop_exit(loop, test_expr) -> None:
    """Make `loop` stop when `test_expr` is false (before each iteration)."""
    from autograph.pyct import anno
    from autograph.pyct.anno import Key

    if isinstance(loop, gast.While):
        # `extra and test`, lowered to lazy `ag__.and_` later by logical_expressions, after call_trees
        # has routed the calls in the user's test through converted_call
        loop.test = gast.BoolOp(op=gast.And(), values=[test_expr, loop.test])
        located(loop.test, loop)
        return
    existing = anno.get(loop, Key.EXTRA_TEST)
    if existing is not None:
        test_expr = templates.replace_as_expression("ag__.and_(lambda: a, lambda: b)", a=existing, b=test_expr)
    anno.set(loop, Key.EXTRA_TEST, located(test_expr, loop))
