"""Liveness and definite assignment on structured code, annotated once.

The converters lower `break`, `continue` and `return` to flags before this
runs, so the only control flow left is `if`, `while`, `for`, `with` and
`try`; on such structured code, live variables (backwards) and definitely
assigned variables (forwards) follow the syntax directly, with a fixed point
for loops. There is no need for a general control-flow graph, and each
function is analysed once, in time linear in its size (times the loop
nesting depth for the fixed points).

Annotations written (read by the control-flow converter):
- every statement: `LIVE_OUT`, `LIVE_IN`, `DEFINED_IN`;
- `If`: `Key.LIVE_IN` is the union of the branches' live-in sets and the test;
- `While`/`For`: `LIVE_IN` is the set live at the loop head (read by the
  test, the next iteration, or after the loop).
"""
from __future__ import annotations

import threading

import gast

from autograph.pyct import anno
from autograph.pyct.activity import pattern_names, reads, simple_reads, target_names, walk, writes
from autograph.pyct.anno import Key

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)


def analyse(fn_node: gast.FunctionDef, params: set[str]) -> None:
    """Annotate every statement of the function body."""
    _simple_facts.clear()
    _simple_facts.captured = _captured(fn_node)
    try:
        _live_block(fn_node.body, set())
        _defined_block(fn_node.body, set(params))
    finally:
        _simple_facts.clear()


class _Facts(threading.local):
    """What each simple statement writes and reads, found once per analysis: the fixed points of loops
    (nested ones especially) visit a statement several times."""

    def __init__(self):
        self.found: dict = {}
        self.captured: frozenset = frozenset()

    def clear(self) -> None:
        self.found = {}
        self.captured = frozenset()

    def get(self, stmt) -> tuple[set, set]:
        facts = self.found.get(stmt)
        if facts is None:
            facts = self.found[stmt] = (_definite_writes(stmt), simple_reads(stmt))
        return facts


def _definite_writes(stmt) -> set[str]:
    """The names `stmt` surely binds. A hoisted operand function (`def and_operand(): nonlocal x; return (x :=
    4) > 4`) binds its name only: its `:=` runs if and when the operator calls it (`and` may not), so it
    neither ends `x`'s liveness nor defines `x` (a loop's test that reads `x` first was taken to assign it, and
    the `if` around the loop did not carry `x`: the branch's trace read the first trace's value, fuzz seed 53794)."""
    if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
        return {stmt.name}
    return writes(stmt)


_simple_facts = _Facts()


# --- liveness (backwards) ---------------------------------------------------------------

def _captured(fn_node) -> frozenset:
    """The enclosing function's names that a nested `def` of the user's reads: live wherever the function may
    still call it (`def g(): return y` before `if c: y = 2` and `g()` after it: the staged `if` must carry `y`,
    or `g()` raised NameError where Python gives 2), taken as live everywhere."""
    names: set[str] = set()
    for node in walk(gast.Module(body=fn_node.body, type_ignores=[])):
        if node.__class__ in (gast.FunctionDef, gast.AsyncFunctionDef) and not anno.get(node, Key.GENERATED, False):
            args = node.args
            bound = {a.id for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
                     if a is not None}
            bound |= set().union(*(writes(stmt) for stmt in node.body))
            names |= set().union(*(reads(stmt) for stmt in node.body)) - bound
    return frozenset(names)


def _live_block(stmts, live_out: set) -> set:
    live = set(live_out)
    for stmt in reversed(stmts):
        live = _live_stmt(stmt, live)
    return live


def _live_stmt(stmt, live_out: set) -> set:
    if _simple_facts.captured:
        live_out = live_out | _simple_facts.captured
    anno.set(stmt, Key.LIVE_OUT, frozenset(live_out))
    if isinstance(stmt, gast.If):
        live_in = reads(stmt.test) | _live_block(stmt.body, live_out) | _live_block(stmt.orelse, live_out)
    elif isinstance(stmt, gast.While):
        live_in = _fixed_point(lambda head: live_out | reads(stmt.test) | _live_block(stmt.body, head),
                               live_out | reads(stmt.test))
        _live_block(stmt.orelse, live_out)
    elif isinstance(stmt, (gast.For, gast.AsyncFor)):
        extra = reads(anno.get(stmt, Key.EXTRA_TEST))
        targets = target_names(stmt.target)
        head = _fixed_point(lambda h: live_out | extra | (_live_block(stmt.body, h) - targets), live_out | extra)
        _live_block(stmt.orelse, live_out)
        anno.set(stmt, Key.LIVE_IN, frozenset(head))
        return head | reads(stmt.iter)
    elif isinstance(stmt, (gast.With, gast.AsyncWith)):
        bound = set().union(*(target_names(i.optional_vars) for i in stmt.items if i.optional_vars is not None))
        live_in = reads(gast.Tuple(elts=[i.context_expr for i in stmt.items], ctx=gast.Load())) | (
            _live_block(stmt.body, live_out) - bound)
    elif isinstance(stmt, gast.Match):
        # each case: its guard and body, less what its pattern binds, plus what the pattern reads (values,
        # classes); no case may match, so what is live after it is live before it too
        cases = set(live_out)
        for case in stmt.cases:
            bound = set().union(*(pattern_names(p) for p in walk(case.pattern)))
            cases |= ((_live_block(case.body, live_out) | reads(case.guard)) - bound) | reads(case.pattern)
        live_in = reads(stmt.subject) | cases
    elif isinstance(stmt, gast.Try):
        after_final = _live_block(stmt.finalbody, live_out)
        handlers_in = set().union(*(_live_block(h.body, after_final) | reads(h.type) for h in stmt.handlers))
        orelse_in = _live_block(stmt.orelse, after_final)
        live_in = _live_block(stmt.body, orelse_in | handlers_in | after_final) | handlers_in
    else:
        written, read = _simple_facts.get(stmt)
        live_in = (live_out - written) | read
    anno.set(stmt, Key.LIVE_IN, frozenset(live_in))
    return live_in


def _fixed_point(step, start: set) -> set:
    current = set(start)
    while True:
        following = step(current)
        if following <= current:
            return current
        current |= following


# --- definite assignment (forwards) --------------------------------------------------------

def _defined_block(stmts, defined: set) -> set:
    for stmt in stmts:
        defined = _defined_stmt(stmt, defined)
    return defined


def _defined_stmt(stmt, defined: set) -> set:
    anno.set(stmt, Key.DEFINED_IN, frozenset(defined))
    if isinstance(stmt, gast.If):
        return _defined_block(stmt.body, defined) & _defined_block(stmt.orelse, defined)
    if isinstance(stmt, gast.While):
        defined = defined - _unbound_in(stmt.body)   # a `del` in the body: unbound from the next iteration on
        _defined_block(stmt.body, defined)
        return _defined_block(stmt.orelse, defined)
    if isinstance(stmt, (gast.For, gast.AsyncFor)):
        defined = defined - _unbound_in(stmt.body)
        _defined_block(stmt.body, defined | target_names(stmt.target))
        return _defined_block(stmt.orelse, defined)
    if isinstance(stmt, (gast.With, gast.AsyncWith)):
        bound = set().union(*(target_names(i.optional_vars) for i in stmt.items if i.optional_vars is not None))
        return _defined_block(stmt.body, defined | bound)
    if isinstance(stmt, gast.Match):
        for case in stmt.cases:
            _defined_block(case.body, defined | set().union(*(pattern_names(p) for p in walk(case.pattern))))
        return defined - _unbound_in([stmt])   # no case may match (a `case _:` aside; conservatively, none is
                                                # assumed to), and one that ran may have deleted a name
    if isinstance(stmt, gast.Try):
        in_body = defined - _unbound_in(stmt.body)   # the body may stop anywhere: after a `del` in it, or not
        _defined_block(stmt.body, in_body)
        for handler in stmt.handlers:   # `except E as e` binds `e`, and unbinds it when the handler ends
            _defined_block(handler.body, in_body | ({handler.name.id} if handler.name is not None else set()))
        _defined_block(stmt.orelse, in_body)
        return _defined_block(stmt.finalbody, defined - _unbound_in([stmt]))
    if isinstance(stmt, _SCOPES):
        return defined | {stmt.name}
    if isinstance(stmt, gast.Delete):
        return defined - set().union(*(target_names(t) for t in stmt.targets if isinstance(t, gast.Name)))
    return defined | _simple_facts.get(stmt)[0]


def _unbound_in(stmts) -> set[str]:
    """The names a block may unbind: deleted (`del y`) or caught (`except E as e` unbinds `e` when its handler
    ends), anywhere in it but in nested functions and classes."""
    names: set[str] = set()
    for stmt in stmts:
        if isinstance(stmt, _SCOPES):
            continue
        if isinstance(stmt, gast.Delete):
            names |= set().union(*(target_names(t) for t in stmt.targets if isinstance(t, gast.Name)))
        for handler in getattr(stmt, "handlers", None) or ():
            names |= {handler.name.id} if handler.name is not None else set()
            names |= _unbound_in(handler.body)
        for case in getattr(stmt, "cases", None) or ():
            names |= _unbound_in(case.body)
        for field in ("body", "orelse", "finalbody"):
            names |= _unbound_in(getattr(stmt, field, None) or ())
    return names
