"""A `raise` on a path that a tensor condition chooses becomes a graph op that raises when that path runs.

Tracing runs every branch of a staged `if` and the body of a staged loop, whatever the input. When the
user's own `raise` statement (or an `assert` on a Python value that fails) ends a branch while it is traced,
the branch is not an error: the backend records an op (`Backend.raise_`) that raises a copy of the exception,
with a note naming the user's line, each time the graph runs that path; the branch's outputs on that path
are dead placeholders (`BranchRaised` tells the operator, operators/control_flow.py). Anything else raised
while tracing (autograph's and the frameworks' errors, an error of a Python operation) keeps its meaning:
it is raised while tracing (`raised_while_tracing`).

A `try` of the user's around the statement would catch the exception in Python; in the graph it is raised
after the function was traced, past that `try`. Where one of its `except` clauses could catch the
exception, the `raise` is refused with a StagingError at its line.
"""
from __future__ import annotations

import builtins
import dis
import linecache
import os
import sys

from autograph.errors import AutoGraphError, StagingError, _internal_module, internal_frame
from autograph.operators.function_scope import TRACING_NOTE, is_converted


staged = 0   # how many raises have been staged so far (`while_stmt` watches it: see _UNROLLED_RAISES there)


class BranchRaised(Exception):
    """Internal: the branch (or loop body) being traced ended with the user's `raise`, now an op of the
    graph; its outputs on that path are dead placeholders."""


def stage_if_raised(backend, error: Exception) -> None:
    """Raise BranchRaised when `error`, which ended a branch or loop body traced for `backend`, comes from a
    `raise` statement of the user's converted code, after recording it as an op that raises when the path
    runs; return (the caller raises `error` as it is) for any other error."""
    site = _raise_site(error)
    if site is None or backend is None:
        return
    filename, lineno, statement = site
    _refuse_inside_try(error, filename, lineno, statement)
    stage = backend.need("raise_", f"{_located(filename, lineno)}: {statement} in a branch (or loop body) of a "
                                   "statement on a tensor")
    stage(error, f"{_located(filename, lineno)}: (autograph) raised when the graph ran this {statement}, on a path "
                 "a tensor condition chose" + _source(filename, lineno))
    global staged
    staged += 1
    raise BranchRaised() from None


def _raise_site(error: Exception):
    """(file, line, "`raise`" or "`assert`") of the user's statement that raised `error`, or None when it
    comes from anything else."""
    if isinstance(error, AutoGraphError) or error.__class__ is BranchRaised:
        return None
    if any(TRACING_NOTE in note for note in getattr(error, "__notes__", ())):
        return None   # an inner staged expression (an `and` operand) raised it while tracing, on every path
    frames = []
    tb = error.__traceback__
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    if not frames:
        return None
    last = frames[-1]
    code = last.tb_frame.f_code
    if is_converted(code):
        where, statement = last, "`raise`"
    elif code is _assert_code() and len(frames) > 1 and is_converted(frames[-2].tb_frame.f_code):
        where, statement = frames[-2], "`assert`"
    else:
        return None
    if _instruction_at(code, last.tb_lasti) != "RAISE_VARARGS":
        return None
    return where.tb_frame.f_code.co_filename, where.tb_lineno, statement


def _assert_code():
    from autograph.operators.py_builtins import assert_stmt
    return assert_stmt.__code__


def _instruction_at(code, offset: int):
    for instruction in _instructions(code):
        if instruction.offset == offset:
            return instruction.opname
    return None


_INSTRUCTIONS: dict = {}


def _instructions(code) -> list:
    found = _INSTRUCTIONS.get(code)
    if found is None:
        found = _INSTRUCTIONS[code] = list(dis.get_instructions(code))
    return found


def _located(filename: str, lineno: int) -> str:
    return f"{filename}:{lineno}"


def _source(filename: str, lineno: int) -> str:
    line = linecache.getline(filename, lineno).strip()
    return f"\n    {line}" if line else ""


# --- a `try` around the statement --------------------------------------------------------------------------

def _refuse_inside_try(error: Exception, filename: str, lineno: int, statement: str) -> None:
    """A StagingError at the `raise` when an `except` clause of the converted code running this trace (the
    frames outside this one, up to the first frame of code that is neither converted nor autograph's or a
    framework's) could catch `error`."""
    def message(kind: str, around: str) -> str:
        return (f"{_located(filename, lineno)}: this {statement} of {type(error).__name__} is in a branch (or loop "
                f"body) of a statement on a tensor {around}. The graph raises it when that path runs, after "
                f"the function was traced, where that `{kind}` can't {'catch' if kind == 'except' else 'see'} "
                f"it. Raise it outside the `{'with' if kind == 'with' else 'try'}`, or set a flag in the "
                "branch (e.g. `failed = True`) and act on it after the statement."
                f"{_source(filename, lineno)}")
    refuse_where_catchable(error, message, sys._getframe(1))


def refuse_where_catchable(error: Exception, message, frame=None) -> None:
    """A StagingError, `message(kind, around)`, when an `except` clause (kind "except") or a user's `with`
    (kind "with") of the converted code running this trace could catch `error`, which the graph raises when
    it runs, past them: the frames from `frame` (the caller's by default) outward, up to the first frame of
    code that is neither converted nor autograph's or a framework's."""
    frame = frame or sys._getframe(1)
    while frame is not None:
        code = frame.f_code
        if is_converted(code):
            found = _catching_handler(frame, error)
            if found is not None:
                kind, line = found
                where = f"{os.path.basename(code.co_filename)}:{line}"
                around = {"except": f"inside a `try` whose `except` at {where} can catch it",
                          "finally": f"inside a `try` whose `finally:` at {where} may raise an exception of its "
                                     "own (which replaces this one in Python)",
                          "finally jump": f"inside the `try` at {where}, whose `finally:` leaves with a `return`, "
                                          "`break` or `continue` (which discards this exception in Python)",
                          "with": f"inside the `with` at {where}, whose context manager could suppress it"}[kind]
                raise StagingError(message(kind.split()[0], around))
        elif not internal_frame(frame):
            return
        frame = frame.f_back


def _catching_handler(frame, error: Exception):
    """("except", line) of an `except` clause around the instruction `frame` runs that could catch `error`
    (one whose types can't be worked out counts), ("with", line) of a `with` statement of the user's around
    it (its context manager may suppress it), or None. Follows the exception table from the innermost
    handler outward: a `finally:` block passes the exception on."""
    code = frame.f_code
    if not hasattr(dis, "_parse_exception_table"):   # Python 3.10: no exception table to follow
        return _any_handler(code)
    table = _exception_table(code)
    offset, seen = frame.f_lasti, set()
    while offset not in seen:
        seen.add(offset)
        target = next((entry.target for entry in table if entry.start <= offset < entry.end), None)
        if target is None:
            return None
        found = _handler_catching(frame, table, target, error)
        if found is not None:
            return found
        offset = target
    return None


def _any_handler(code):
    """Python 3.10 (its blocks are not visible from Python): ("except", line) of the first `try` or `with` of
    `code` other than the converted function's own `with ag__.FunctionScope(...)`, wherever it is."""
    setups = [ins for ins in _instructions(code) if ins.opname in ("SETUP_FINALLY", "SETUP_WITH", "SETUP_ASYNC_WITH")]
    if "FunctionScope" in code.co_names:
        first_with = next((ins for ins in setups if ins.opname == "SETUP_WITH"), None)
        setups = [ins for ins in setups if ins is not first_with]
    return ("except", setups[0].starts_line or code.co_firstlineno) if setups else None


def _exception_table(code) -> list:
    return dis._parse_exception_table(code)   # noqa: SLF001 - the table `dis` prints (3.11+)


_LOADS = frozenset({"LOAD_GLOBAL", "LOAD_NAME", "LOAD_FAST", "LOAD_DEREF", "LOAD_CLOSURE", "LOAD_CONST",
                    "LOAD_ATTR", "BUILD_TUPLE"})


def _handler_catching(frame, table: list, target: int, error: Exception):
    """What of the handler at `target` could catch `error` (see `_catching_handler`), or None: no clause
    catches it, or the handler is a `finally:` block (or the converted function's own `with`)."""
    instructions = _instructions(frame.f_code)
    index = next((i for i, ins in enumerate(instructions) if ins.offset == target), None)
    if index is None or instructions[index].opname != "PUSH_EXC_INFO" or index + 1 == len(instructions):
        return None
    if instructions[index + 1].opname == "WITH_EXCEPT_START":
        line = _users_with(instructions, table, target, frame)
        return None if line is None else ("with", line)
    if index + 2 < len(instructions) and {instructions[index + 1].opname, instructions[index + 2].opname} \
            == {"COPY", "BUILD_LIST"}:   # `except*` (COPY first on 3.11, BUILD_LIST first since 3.12)
        lines = [ins.positions.lineno for ins in instructions[index + 1:index + 3] if ins.positions]
        return "except", next((line for line in lines if line is not None), None)   # (its types not worked out)
    clause = _clause_catching(frame, instructions, index + 1, error)
    if clause is None and (line := _finally_raising(instructions, index + 1)) is not None:
        return "finally", line
    if clause is not None and _lowered_finally(instructions, index + 1):
        return "finally jump", clause
    return None if clause is None else ("except", clause)


def _lowered_finally(instructions: list, i: int) -> bool:
    """Whether the clause starting at instruction `i` is the `except BaseException: pending = ag__.caught_exception()`
    that a `finally:` holding a jump is lowered to (converters/lowering.py): the user wrote no `except` there."""
    return any(ins.argval == "caught_exception" for ins in instructions[i:i + 12])


def _users_with(instructions: list, table: list, target: int, frame=None):
    """The line of the `with` statement whose exit handler is at `target`, or None for the converted
    function's own `with ag__.FunctionScope(...)` and for a context manager made by autograph or a framework
    (`tf.GradientTape()`, `tf.name_scope(...)`: they never suppress an exception)."""
    start = min(entry.start for entry in table if entry.target == target)
    before = [ins for ins in instructions if ins.offset < start]
    enter = next((k for k in range(len(before) - 1, -1, -1) if before[k].opname == "BEFORE_WITH"), None)
    if enter is None:
        return None
    line = before[enter].positions.lineno if before[enter].positions else None
    if frame is not None and _frameworks_manager(frame, before, enter, line):
        return None
    k = enter
    while k >= 0 and (before[k].positions is None or before[k].positions.lineno in (line, None)):
        if before[k].argval == "FunctionScope":
            return None
        k -= 1
    return line


def _finally_raising(instructions: list, i: int):
    """The line of a `raise` or a call in the `finally:` block whose code (on the exception's path) starts at
    instruction `i`, or None: one that raises replaces the exception in flight, which the graph raises after
    tracing, past it (a call may: a staged statement, a helper). (A `finally:` that jumps is lowered to an `except BaseException`, see `_clause_catching`.)"""
    if i < len(instructions) and instructions[i].opname in _LOADS and any(
            ins.opname in ("CHECK_EXC_MATCH", "CHECK_EG_MATCH") for ins in instructions[i:i + 8]):
        return None   # except clauses, not a finally: block
    for ins in instructions[i:]:
        if ins.opname == "RERAISE":   # the end of the finally: block
            return None
        if ins.opname in ("RAISE_VARARGS", "CALL", "CALL_FUNCTION_EX"):   # a call may raise too (a staged
            return ins.positions.lineno if ins.positions else None          # statement, a helper): Python's
    return None                                                             # error would replace the graph's


def _frameworks_manager(frame, before: list, enter: int, line) -> bool:
    """Whether the `with` item entered at `before[enter]` calls a class or function of autograph's or a
    registered framework's modules (whose context managers don't suppress exceptions)."""
    start = enter
    while start > 0 and before[start - 1].positions is not None and before[start - 1].positions.lineno == line \
            and before[start - 1].opname not in ("BEFORE_WITH", "POP_TOP", "STORE_FAST", "STORE_NAME",
                                                 "STORE_DEREF", "STORE_GLOBAL"):
        start -= 1
    chain = [ins for ins in before[start:enter] if ins.opname != "PUSH_NULL"]
    value, rest = _resolved(frame, chain)
    from autograph.api import callee, converted_call
    from autograph.operators.exceptions import context
    if value is context:          # `ag__.context(manager)` (converters/exceptions.py): the manager inside
        value, rest = _resolved(frame, rest)
    if value is callee or value is converted_call:   # `ag__.callee(manager, fscope)(...)`: its first argument
        value, _ = _resolved(frame, rest)
    module = getattr(value, "__module__", None) or ""
    return value is not None and callable(value) and _internal_module(module)


def _resolved(frame, chain: list) -> tuple:
    """The object that the loads at the start of `chain` (a name, then attributes) give in `frame`, and the
    instructions after them; (None, []) when `chain` does not start with a name."""
    if not chain or chain[0].opname not in ("LOAD_GLOBAL", "LOAD_NAME", "LOAD_FAST", "LOAD_DEREF"):
        return None, []
    name = chain[0].argval
    namespaces = (frame.f_locals, frame.f_globals, vars(builtins))
    value = next((ns[name] for ns in namespaces if name in ns), None)
    k = 1
    while k < len(chain) and chain[k].opname in ("LOAD_ATTR", "LOAD_METHOD"):
        value = getattr(value, chain[k].argval, None)
        k += 1
    return value, [ins for ins in chain[k:] if ins.opname != "PUSH_NULL"]


def _clause_catching(frame, instructions: list, i: int, error: Exception):
    """The line of the first `except` clause, of those starting at instruction `i`, that could catch
    `error`, or None (none does, or the handler is a `finally:` block)."""
    clauses = 0
    while i < len(instructions):
        start = i
        while i < len(instructions) and instructions[i].opname in _LOADS:
            i += 1
        first = instructions[start]
        line = first.positions.lineno if first.positions else None
        if i < len(instructions) and instructions[i].opname == "CHECK_EXC_MATCH":
            if _may_match(frame, instructions[start:i], error):
                return None if _only_reraises(instructions, i + 3) else line
            clauses += 1
            jump = instructions[i + 1] if i + 1 < len(instructions) else None
            if jump is None or not jump.opname.startswith("POP_JUMP"):
                return line
            i = next((k for k, ins in enumerate(instructions) if ins.offset == jump.argval), len(instructions))
            continue
        if i < len(instructions) and instructions[i].opname == "CHECK_EG_MATCH":   # `except*`
            return line
        if start == i and first.opname == "POP_TOP":   # a bare `except:`
            return line
        if clauses and first.opname != "RERAISE":   # a clause whose types a call (or the like) computes
            return line
        return None   # `finally:` code, or the end of the clauses
    return None


def _only_reraises(instructions: list, i: int) -> bool:
    """Whether the clause body starting at instruction `i` (after its CHECK_EXC_MATCH, jump and POP_TOP) only sets
    variables to constants and raises the exception again (`flag = False; raise`, as lowering's clauses do):
    in the graph the exception leaves the function all the same."""
    while i < len(instructions) and instructions[i].opname in ("LOAD_CONST", "STORE_FAST", "STORE_DEREF", "NOP"):
        i += 1
    return i < len(instructions) and instructions[i].opname == "RAISE_VARARGS" and instructions[i].arg == 0


def _may_match(frame, loads: list, error: Exception) -> bool:
    """Whether the exception types that `loads` compute (names, attributes, tuples) include `error`'s;
    True when they can't be worked out."""
    stack: list = []
    try:
        for ins in loads:
            if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                name = ins.argval
                stack.append(frame.f_globals[name] if name in frame.f_globals else getattr(builtins, name))
            elif ins.opname in ("LOAD_FAST", "LOAD_DEREF", "LOAD_CLOSURE"):
                stack.append(frame.f_locals[ins.argval])
            elif ins.opname == "LOAD_CONST":
                stack.append(ins.argval)
            elif ins.opname == "LOAD_ATTR":
                stack.append(getattr(stack.pop(), ins.argval))
            else:   # BUILD_TUPLE
                count = ins.argval
                items = tuple(stack[len(stack) - count:]) if count else ()
                del stack[len(stack) - count:]
                stack.append(items)
        types = stack[-1]
        return isinstance(error, types)
    except Exception:   # noqa: BLE001 - unknown: assume it may catch it
        return True
