"""Lowering a jump (`return`, `break`, `continue`) to a flag, shared by the three converters.

Statements after a statement that may jump are guarded by `if not flag:`; when
one branch of an `if` always jumps, the statements that follow move into the
other branch instead, so no guard (and often no flag) is needed:

    if x > 0:                      if x > 0:
        return x          →            retval_ = x; do_return = True
    y = -x                         else:
    return y                           y = -x
                                       retval_ = y; do_return = True
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import gast

from autograph.pyct import anno, templates
from autograph.pyct.transformer import Context, block_or_pass, located

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda)
_LOOPS = (gast.While, gast.For, gast.AsyncFor)
_TRIES = (gast.Try, gast.TryStar)


@dataclass
class Jump:
    """How to lower one kind of jump."""

    kind: type                                  # gast.Return, gast.Break or gast.Continue
    replace: Callable[[gast.AST], list]         # the statements standing for the jump
    flag: str                                   # the flag's name (for guards)
    crosses_loops: bool                         # a return leaves enclosing loops too
    ctx: Context | None = None                  # names for a `finally:` that jumps, and errors
    guards_used: int = 0
    cancels: tuple = ()                         # flags a jump clears where it stands (see `_lower_try`)
    cancel_later: frozenset = frozenset()       # kinds of jumps lowered later that it clears (a placeholder)
    value: str = ""                             # a return's value variable (`retval_`), "" for other jumps

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
        # not a `with`: its context manager may suppress an exception raised before the jump, and the
        # code after the `with` then runs
    return False


def lower_block(stmts: list, jump: Jump, on_loop: Callable[[gast.AST], None] | None = None) -> list:
    """`stmts` with every jump of this kind replaced and what follows guarded."""
    out: list = []
    skip = 0
    for i, stmt in enumerate(stmts):
        if skip:   # part of a split `finally:` already handled with its `try`
            skip -= 1
            continue
        rest = stmts[i + 1:]
        if isinstance(stmt, jump.kind):
            replacement = [located(s, stmt) for s in jump.replace(stmt)]
            for flag in jump.cancels:   # a jump in `finally:` discards the pending jump of its `try`
                replacement += [located(s, stmt) for s in templates.replace("flag = False", flag=flag)]
            if jump.cancel_later:       # ... and those lowered later, by `resolve_cancels`
                placeholder = located(gast.Pass(), stmt)
                anno.set(placeholder, anno.Key.CANCEL_LATER, jump.cancel_later)
                replacement.append(placeholder)
            for s in replacement:   # for `_lowered_flags`, in a later pass
                anno.set(s, anno.Key.LOWERED_JUMP, jump.kind)
            out += replacement
            return out + _declarations(rest)
        follows = anno.get(stmt, anno.Key.FINALLY_FOLLOWS, 0)   # see below
        if not contains(stmt, jump) and not (follows and contains(rest[:follows], jump)):
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
                return out if moved else out + _declarations(rest)
        elif isinstance(stmt, _LOOPS):
            stmt.body = block_or_pass(lower_block(stmt.body, jump, on_loop))
            if on_loop is not None:
                on_loop(stmt)
            out.append(stmt)
        elif isinstance(stmt, _TRIES):
            out += _lower_try(stmt, jump, on_loop)
        elif isinstance(stmt, (gast.With, gast.AsyncWith)) and _exception_may_follow(stmt.body, jump):   # before lowering
            stmt.body = _cancelled_by_exception(lower_block(stmt.body, jump, on_loop), jump, stmt)
            out.append(stmt)
        else:
            for field in ("body", "orelse", "finalbody"):
                if getattr(stmt, field, None):
                    setattr(stmt, field, block_or_pass(lower_block(getattr(stmt, field), jump, on_loop)))
            for part in (*(getattr(stmt, "handlers", None) or ()), *(getattr(stmt, "cases", None) or ())):
                part.body = block_or_pass(lower_block(part.body, jump, on_loop))
            out.append(stmt)
        if follows:   # a `try` whose `finally:` an earlier pass split off: that code runs whatever the `try` did,
            # and a jump in it discards the `try`'s pending jumps, as one in `finally:` does (`_lower_try`)
            outer = jump.cancels, jump.cancel_later
            if contains(rest[:follows], jump):
                jump.cancels, jump.cancel_later = _lowered_flags(stmt, jump), _later_kinds(stmt, jump)
            try:
                out += lower_block(rest[:follows], jump, on_loop)
            finally:
                jump.cancels, jump.cancel_later = outer
            skip, rest = follows, rest[follows:]
        if rest:
            guard = gast.If(test=jump.guard_test(), body=lower_block(rest, jump, on_loop), orelse=[])
            out.append(located(guard, rest[0]))
            return out
    return out


def _lower_try(stmt, jump: Jump, on_loop) -> list:
    """A `try` whose blocks jump. A jump in the body skips the `else:` (a guard); a jump in `finally:`
    discards the exception in flight, as Python does: the exception is caught around the rest of the
    `try`, the `finally:` block runs after it, and the exception is raised again only if it did not jump.

        try:                            pending_ = None
            body                        try:
        finally:              →             body
            if c:                       except BaseException:
                return 1                    pending_ = ag__.caught_exception()
                                        if c:
                                            retval_ = 1
                                            do_return = True
                                        if pending_ is not None:
                                            if ag__.not_(do_return):
                                                raise pending_
    """
    final_jumps = bool(stmt.finalbody) and contains(stmt.finalbody, jump)
    cancels, later = (), frozenset()
    if final_jumps:
        cancels, later = _lowered_flags(stmt, jump), _later_kinds(stmt, jump)
    body_jumps = contains(stmt.body, jump)
    jumps_before = body_jumps or any(contains(part, jump) for part in (*stmt.handlers, *stmt.orelse))
    reset = _exception_may_follow(stmt.body, jump)
    stmt.body = block_or_pass(lower_block(stmt.body, jump, on_loop))
    for handler in stmt.handlers:
        handler.body = block_or_pass(lower_block(handler.body, jump, on_loop))
        if reset:   # the exception it handles was raised after a jump of the body, which it cancelled
            handler.body = [located(s, handler) for s in templates.replace("flag = False", flag=jump.flag)] \
                + [s for s in handler.body if not isinstance(s, gast.Pass)]
    if stmt.orelse:
        orelse = lower_block(stmt.orelse, jump, on_loop)
        if body_jumps:
            orelse = [located(gast.If(test=jump.guard_test(), body=orelse, orelse=[]), stmt.orelse[0])]
        stmt.orelse = orelse
    if not final_jumps:
        if stmt.finalbody:
            stmt.finalbody = block_or_pass(lower_block(stmt.finalbody, jump, on_loop))
        return [stmt]
    finalbody, stmt.finalbody = stmt.finalbody, []
    if not stmt.handlers and not stmt.orelse:
        inner = stmt.body
    else:
        inner = [stmt]
    pending = jump.ctx.namer.new("pending_")
    wrapped = templates.replace(
        "pending = None\ntry:\n    inner\nexcept BaseException:\n    pending = ag__.caught_exception()",
        pending=pending, inner=inner)
    reraise = templates.replace(
        "if pending is not None:\n    if test:\n        raise pending", pending=pending, test=jump.guard_test())
    (jump.cancels, jump.cancel_later), outer = (cancels, later), (jump.cancels, jump.cancel_later)
    try:
        lowered_final = lower_block(finalbody, jump, on_loop)
    finally:
        jump.cancels, jump.cancel_later = outer
    out = [located(s, stmt) for s in wrapped]
    if jumps_before:
        # the flag may be set by a jump of the `try` itself: `finally:` runs as if it were not (its own loops and
        # guards read the flag), and a jump of its own replaces the earlier one; without one, the earlier stands
        saved = jump.ctx.namer.new(f"{jump.flag}_before")
        out += [located(s, finalbody[0]) for s in templates.replace(
            "saved = flag\nflag = False", saved=saved, flag=jump.flag)]
        if jump.value:   # a `return` of `finally:` that a jump of its own cancels leaves the earlier value
            saved_value = jump.ctx.namer.new(f"{jump.value}before")
            out += [located(s, finalbody[0]) for s in templates.replace(
                "saved_value = value", saved_value=saved_value, value=jump.value)]
            reraise += templates.replace("if test:\n    value = saved_value", test=jump.guard_test(),
                                         value=jump.value, saved_value=saved_value)
        reraise += templates.replace("flag = flag or saved", saved=saved, flag=jump.flag)
    final = out[2:] + lowered_final + [located(s, finalbody[0]) for s in reraise]
    anno.set(out[1], anno.Key.FINALLY_FOLLOWS, len(final))
    return out[:2] + final


_JUMPS = (gast.Return, gast.Break, gast.Continue)


def _lowered_flags(stmt, jump: Jump) -> tuple:
    """The flags of the other jumps of `stmt`'s blocks that an earlier pass lowered (a `break`, when this is a
    `continue` in `finally:`): this jump, in `finally:`, discards them, as Python discards a pending jump."""
    flags: dict = {}
    for block in (stmt.body, stmt.orelse, *(h.body for h in stmt.handlers)):
        for n in _walk_statements(block):
            kind = anno.get(n, anno.Key.LOWERED_JUMP)
            if kind is not None and kind is not jump.kind and isinstance(n, gast.Assign) \
                    and isinstance(n.value, gast.Constant) and n.value.value is True:
                flags[n.targets[0].id] = None
    return tuple(flags)


def _later_kinds(stmt, jump: Jump) -> frozenset:
    """The kinds of the other jumps of `stmt`'s blocks that later passes lower (a `return`, when this is a
    `break` in `finally:`): this jump discards them too, through a placeholder `resolve_cancels` fills in."""
    blocks = (stmt.body, stmt.orelse, *(h.body for h in stmt.handlers))
    return frozenset(other for other in _JUMPS if other is not jump.kind and any(
        contains(block, Jump(other, lambda j: [], "", crosses_loops=other is gast.Return)) for block in blocks))


def resolve_cancels(stmts: list, kind: type, flag: str | None, crosses_loops: bool) -> list:
    """`stmts` (lowered for jumps of `kind`) with each placeholder of a jump in `finally:` that discards a
    `kind` jump made `flag = False` (nothing for a jump without a flag), as `lowering._later_kinds` arranged."""
    out = []
    for s in stmts:
        kinds = anno.get(s, anno.Key.CANCEL_LATER)
        if kinds is not None and kind in kinds:
            if flag is not None:
                out += [located(c, s) for c in templates.replace("flag = False", flag=flag)]
            rest = kinds - {kind}
            if rest:
                anno.set(s, anno.Key.CANCEL_LATER, rest)
                out.append(s)
            continue
        if not isinstance(s, _SCOPES) and (crosses_loops or not isinstance(s, _LOOPS)):
            for field in ("body", "orelse", "finalbody"):
                block = getattr(s, field, None)
                if isinstance(block, list) and block:
                    setattr(s, field, block_or_pass(resolve_cancels(block, kind, flag, crosses_loops)))
            for part in (*(getattr(s, "handlers", None) or ()), *(getattr(s, "cases", None) or ())):
                part.body = block_or_pass(resolve_cancels(part.body, kind, flag, crosses_loops))
        out.append(s)
    return out


def _exception_may_follow(stmts, jump: Jump) -> bool:
    """Whether a jump in `stmts` may be followed by an exception raised in them: the jump sits in a `try`
    with a `finally:` or in a `with`, whose exit runs after it. Such an exception cancels the jump, as in
    Python: a handler or a context manager that suppresses it carries on as if the jump had not happened."""
    return any((isinstance(n, _TRIES) and n.finalbody or isinstance(n, (gast.With, gast.AsyncWith)))
               and contains(n, jump) for n in _walk_statements(stmts))


def _cancelled_by_exception(body: list, jump: Jump, where) -> list:
    """`body` that clears the jump's flag when an exception leaves it (see `_exception_may_follow`)."""
    wrapped = templates.replace("try:\n    body\nexcept BaseException:\n    flag = False\n    raise", body=body,
                                flag=jump.flag)
    return [located(s, where) for s in wrapped]


def _declarations(stmts: list) -> list:
    """The `global` and `nonlocal` statements in `stmts`, code after a jump that never runs and is dropped: a
    declaration holds for the whole function wherever it stands, so it is kept (control_flow.py hoists it)."""
    return [s for s in _walk_statements(stmts) if isinstance(s, (gast.Global, gast.Nonlocal))]


def _walk_statements(stmts):
    stack = list(stmts)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _SCOPES):
            for field in _BLOCKS:
                block = getattr(node, field, None)
                if block.__class__ is list:
                    stack.extend(block)


def add_loop_exit(loop, test_expr) -> None:
    """Make `loop` stop when `test_expr` is false (before each iteration)."""
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
