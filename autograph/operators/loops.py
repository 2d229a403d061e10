"""`while` and `for`, decided by the values (control_flow.py has `if` and what both share).

On Python values each runs the loop exactly as Python would; when the test (or the iterable) is a value a
registered backend stages, the loop goes to that backend's `while_loop` or `for_loop`, carrying the variables
it must (the state conventions are control_flow.py's).
"""
from __future__ import annotations

from autograph import verbosity
from autograph.backends import LoopState, backend_for
from autograph.errors import StagingError, at_user_line
from autograph.operators import composites as composite_state
from autograph.operators import maybe, staged_raise
from autograph.operators import variable_checks as checks
from autograph.operators.control_flow import can_fill, check_no_outer
from autograph.operators.function_scope import tracing_failed
from autograph.operators.logical import truth
from autograph.operators.maybe import MaybeValue
from autograph.operators.placeholders import UnsetLoopState as _UnsetLoopState
from autograph.operators.shared import Shared as _Shared
from autograph.operators.shared import as_tuple as _as_tuple
from autograph.operators.shared import result as _result
from autograph.operators.staged_raise import BranchRaised
from autograph.operators.variables import Undefined, is_undefined

# --- while ------------------------------------------------------------------------------------

def while_stmt(test_fn, body_fn, names: tuple = (), opts=None, composites=None, outer: tuple = ()) -> None:
    """`while test:` — a Python loop while the test gives Python values; the rest of the loop is staged
    from the first iteration whose test is a staged value."""
    test = test_fn()
    ran = 0                   # iterations run in Python: they count towards `maximum_iterations`
    raised = 0                # of those, the ones in a row that staged a `raise` (a loop with no other exit?)
    while True:
        if test.__class__ is not bool and test.__class__ is MaybeValue:   # defined on some staged paths only
            test = truth(test, "while")
        if test.__class__ is not bool and (backend := backend_for(test)) is not None:
            check_no_outer(outer, "`while` loop", body_fn, test_fn)
            rest = _remaining(opts, ran)
            if rest is _OVER:
                return
            if verbosity.level >= 2:
                verbosity.staged("`while` loop", backend, names)
            shared = _Shared(names, (test_fn, body_fn), backend)
            shared.stage("`while` loop", lambda state: _staged_while(backend, shared.test(test_fn), shared.function(body_fn),
                                                     state, names, rest, composites, first_test=test))
            return
        if not test:
            return
        before = staged_raise.staged
        body_fn()
        ran += 1
        raised = raised + 1 if staged_raise.staged != before else 0
        if raised == _UNROLLED_RAISES:
            raise tracing_failed(StagingError(at_user_line(_unrolled_raises_message())))
        test = test_fn()


# A `while` whose test is a Python value runs in Python, so tracing unrolls it. When each iteration stages a
# `raise` on a tensor condition and the test stays true (`while True:` whose only exit is that raise), the
# unrolling never ends: after this many iterations in a row, the loop is refused instead of tracing forever.
_UNROLLED_RAISES = 1000


def _unrolled_raises_message() -> str:
    return (f"this `while` loop's test is a Python value that stays true, and each of its last {_UNROLLED_RAISES} "
            "iterations staged a `raise` on a tensor condition, which ends the loop only when the graph runs: "
            "tracing unrolls the loop and would never finish. Give the loop a tensor condition (`while not "
            "done:`, with `done` a tensor the body sets) or a `break` on the tensor condition, and raise after "
            "the loop.")


_OVER = object()


def _remaining(opts, ran: int):
    """The loop options for the staged rest of a loop that ran `ran` iterations in Python first: its
    `maximum_iterations` counts those; `_OVER` when they already reached it (the loop is over)."""
    limit = opts.get("maximum_iterations") if opts and ran else None
    if limit is None:
        return opts
    if isinstance(limit, int) and limit <= ran:
        return _OVER
    return {**opts, "maximum_iterations": limit - ran}    # a tensor limit: the framework's subtraction


def _check_defined_before_loop(state, names, construct: str, backend=None, body_fn=None) -> None:
    fill = backend is not None and can_fill(backend)
    flags = backend is not None and maybe.can_carry(backend)   # variables: carried as MaybeValues
    for name, value in zip(names, state):
        if flags and name.isidentifier():   # (not an item or attribute: whether it exists is the object's
            continue                        # structure, which `len`, `in` and `get` see)
        if is_undefined(value) and not (fill and checks.fillable(name)):
            if checks.meaning(name) in ("retval_", "do_return"):
                raise StagingError(at_user_line(
                    f"a `return` inside this {construct} over tensors needs the returned value to have a "
                    "known type before the loop: assign the result to a variable defined before the loop, "
                    "`break`, and return it after the loop."))
            if not name.isidentifier():   # an attribute or item the loop creates (operators/composites.py)
                raise StagingError(at_user_line(
                    f"`{name}` is first set inside this {construct} over tensors{checks.assigned_at(body_fn, name)}: "
                    f"it does not exist before the loop{checks.not_own(name)}, and a loop over tensors carries it from one iteration "
                    f"to the next and past the loop, which needs a value of the right type before the loop. "
                    f"Set `{name}` before the loop (e.g. to 0 or a zero tensor of its type)."))
            raise StagingError(at_user_line(
                f"'{name}' must be defined before this {construct} over tensors, because its value is "
                f"carried from one iteration to the next or used after the loop; it is first assigned inside "
                f"the loop{checks.assigned_at(body_fn, name)}. Assign '{name}' an initial value of the right type "
                "before the loop."))


def _staged_while(backend, test_fn, body_fn, state, names, opts, composites=None, first_test=None):
    if composites and (carried := composite_state.Carried.read(composites, len(names), "`while` loop")):
        return carried.run(lambda: _staged_while(backend, carried.test(test_fn), carried.body(body_fn),
                                                 carried.state(state), carried.names(names), opts,
                                                 first_test=first_test))
    _check_defined_before_loop(state, names, "`while` loop", backend, body_fn)
    loop = backend.need("while_loop", "a `while` loop whose condition is a tensor")

    def run(kept, full, initial):
        def body(*s):
            return _pick(_iteration(body_fn, (), full(s)), names, kept, body_fn, s, backend)
        return loop(lambda *s: _tested(test_fn(*full(s))), body,
                    LoopState(tuple(names[i] for i in kept), initial, backend, first_test), dict(opts or {}))
    return _staged_loop(backend, run, state, names)


def _tested(test):
    """A staged loop's test: a variable defined on some paths only (None on others: false there) is read."""
    return truth(test, "while") if test.__class__ is MaybeValue else test


def _iteration(body_fn, lead: tuple, state: list):
    """`body_fn(*lead, *state)`, one iteration of a staged loop's body; where it ends with the user's `raise`
    (now an op that raises when the graph runs that path) the state it started with, a dead placeholder."""
    try:
        return body_fn(*lead, *state)
    except BranchRaised:
        return _result(tuple(state), len(state))


def _pick(out, names, kept: list, body_fn, carried: tuple, backend=None) -> tuple:
    """The carried slots of a staged loop body's result (`carried`: what the iteration started with).
    None may be left undefined (`del`), or change structure. A variable the loop carries as a MaybeValue
    stays one; one that the body leaves None or undefined on some path makes the loop start again, carrying
    it as one (`_Reloop`)."""
    values = list(_as_tuple(out, len(names)))
    for i, before in zip(kept, carried):
        name = names[i]
        if before.__class__ is MaybeValue:
            values[i] = _carried_on(before, values[i], name)
            continue
        if (template := _needs_flag(backend, before, values[i], name)) is not None:
            raise _Reloop({i: template})
        if values[i].__class__ is Undefined and not checks.fillable(name):
            raise StagingError(at_user_line(
                f"'{name}' is left undefined by this loop's body{checks.assigned_at(body_fn, name)} (deleted, "
                "or assigned only on some paths), but a loop over tensors carries it to the next iteration or "
                f"past the loop. Give '{name}' a value on every path through the body."))
        if not checks.fillable(name) and not _keeps_structure(before, values[i]):
            where = checks.assigned_at(body_fn, name)
            raise StagingError(at_user_line(
                f"'{name}' is {checks.describe(checks.structure(before))} when an iteration of this loop over tensors starts "
                f"but {checks.describe(checks.structure(values[i]))} when it ends" + (f" (assigned{where})" if where else "")
                + ". A loop variable must keep its structure from one iteration to the next."))
    return tuple(values[i] for i in kept)


def _carried_on(before: MaybeValue, after, name: str):
    """A loop variable carried as a MaybeValue, as an iteration leaves it (`after`)."""
    returned = checks.fillable(name)
    if returned:   # `return y` reads `y`
        after = maybe.checked_return(after)
    k = maybe.kind(after, returned)
    if k == "value":
        return before.with_value(after, True)
    if k == "maybe" and after.none == before.none:
        return before.with_value(after.value, after.defined)
    if k == "none" and before.none:
        return before.with_value(before.value, False)
    if k == "undefined" and not before.none:
        raise StagingError(at_user_line(
            f"'{name}' is deleted by this loop's body, which a loop over tensors can't carry to the next "
            f"iteration or past the loop. Don't `del {name}` inside the loop."))
    raise StagingError(at_user_line(
        f"'{name}' is None on some paths through this loop over tensors and unassigned on others; a graph carries "
        f"one of the two. Assign '{name} = None' before the loop."))


def _needs_flag(backend, before, after, name: str):
    """The MaybeValue a loop variable defined before the loop must be carried as, because an iteration leaves it
    None (or defined on some paths only): None if it needs none."""
    if backend is None or not maybe.can_carry(backend) or maybe.kind(before) != "value":
        return None
    if after.__class__ is MaybeValue:
        return after.with_value(None, None)
    if after is None:
        shown = "the return value" if checks.fillable(name) else name
        return MaybeValue(None, None, shown, f"the loop at {maybe.location()} set it to None", True, backend)
    return None


class _Reloop(Exception):
    """Internal: stage the loop again, carrying the variables of `templates` (slot -> MaybeValue) with a flag."""

    def __init__(self, templates: dict):
        super().__init__(templates)
        self.templates = templates


def _keeps_structure(before, after) -> bool:
    """Whether a loop variable kept its structure through an iteration. A Python list is the backend's to
    check: a backend without tensor lists carries it as it is, and may unroll a loop that grows it."""
    if before.__class__ is list and after.__class__ is list:
        return True
    return _loop_structure(before) == _loop_structure(after)


def _loop_structure(value):
    """The nesting a loop variable must keep: lists and tuples alike (a backend may carry one for the
    other), dicts by key, namedtuples by type; anything else (a tensor, a backend's list) is a leaf."""
    cls = value.__class__
    if cls is list or cls is tuple:
        return ("sequence", tuple(_loop_structure(v) for v in value))
    if cls is dict:
        return ("dict", tuple((k, _loop_structure(value[k])) for k in maybe.sorted_keys(value)))
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return (cls.__name__, tuple(_loop_structure(v) for v in value))
    return "."



def _staged_loop(backend, run, state, names):
    """Run a staged loop (`run(kept, full, initial)`), carrying only the slots in `kept`; `full(s)` rebuilds the whole
    state for the user's functions. A return value that no path of the body defines is left out of the
    loop, unset, like an `if` in which no branch returns."""
    was_list = [v.__class__ is list for v in state]
    state = _lists_to_backend(backend, state)
    unset: list = []
    while True:
        kept = [i for i in range(len(names)) if i not in unset]

        def full(carried, kept=kept, state=state):
            values = list(state)
            for i, v in zip(kept, carried):
                values[i] = v.inside_loop() if v.__class__ is MaybeValue else v
            return values
        try:
            out = run(kept, full, tuple(state[i] for i in kept))
            break
        except _UnsetLoopState as e:
            if unset:
                raise
            unset = [kept[j] for j in e.indices]
        except _Reloop as e:   # carry these variables with a defined flag from the start (operators/maybe.py)
            state = tuple(e.templates[i].with_value(v, True) if i in e.templates else v for i, v in enumerate(state))
    carried = iter(_stack_lists(backend, tuple(out), [was_list[i] for i in kept]))
    return _result(tuple(state[i] if i in unset else next(carried) for i in range(len(names))), len(names))


def _stack_lists(backend, out: tuple, was_list: list) -> tuple:
    """A Python list carried through a staged loop comes out as one stacked tensor."""
    if not any(was_list) or backend.list_stack is None:
        return out
    return tuple(backend.list_stack(v) if listed and isinstance(v, backend.list_types) else v
                 for v, listed in zip(out, was_list))


def _lists_to_backend(backend, state):
    """Python lists in a staged loop's state become the backend's tensor lists; an empty one stays a
    Python list when the backend can learn its element type (`define_loop_state`)."""
    if backend.list_from is None:
        return state
    keep_empty = can_fill(backend) and backend.list_empty_like is not None
    return tuple(backend.list_from(v) if isinstance(v, list) and (v or not keep_empty) else v for v in state)


# --- for ---------------------------------------------------------------------------------------

def for_stmt(iterable, body_fn, names: tuple = (), extra_test=None, opts=None, composites=None,
             outer: tuple = ()) -> None:
    """`for item in iterable:` — `extra_test()` (a lowered `break` or `return`) is checked before each
    iteration, and after the last one before the iterator is asked for another item, as Python's loop
    stops at a `break` without taking the next item."""
    if iterable.__class__ is MaybeValue:
        iterable = iterable.read("for")
    backend = backend_for(iterable)
    if backend is not None:
        check_no_outer(outer, "`for` loop", body_fn)
        _stage_for(backend, iterable, body_fn, names, extra_test, opts, composites)
        return
    if extra_test is None:
        for item in iterable:
            body_fn(item)
        return
    if not _go_on(extra_test, iterable, None, body_fn, names, opts, composites, outer):
        return
    for item in iterable:
        body_fn(item)
        if not _go_on(extra_test, iterable, item, body_fn, names, opts, composites, outer):
            return


def _go_on(extra_test, iterable, done, body_fn, names, opts, composites, outer=()) -> bool:
    """Whether a Python `for` goes on after the item `done` (None: before the first). When `extra_test`
    gives a staged value, the rest of the loop is staged here and the answer is False."""
    test = extra_test()
    if test.__class__ is bool:
        return test
    backend = backend_for(test)
    if backend is None:
        return bool(test)
    if not isinstance(iterable, range):
        raise tracing_failed(StagingError(at_user_line(
            "a `break` or `return` that depends on a tensor inside a loop over a Python iterable: the loop "
            "can't stop at run time. Loop over a tensor or a range instead (e.g. runtime.range) so the loop "
            "is staged.")))
    check_no_outer(outer, "`for` loop", body_fn)
    start = iterable.start if done is None else done + iterable.step
    remaining = _remaining(opts, len(range(iterable.start, start, iterable.step)))
    if remaining is _OVER:
        return False
    rest = backend.need("range", "a loop over a `range` that a tensor may stop")(start, iterable.stop, iterable.step)
    _stage_for(backend, rest, body_fn, names, extra_test, remaining, composites)
    return False


def _stage_for(backend, iterable, body_fn, names, extra_test, opts, composites) -> None:
    if verbosity.level >= 2:
        verbosity.staged("`for` loop", backend, names)
    shared = _Shared(names, (body_fn, extra_test), backend)
    shared.stage("`for` loop", lambda state: _staged_for(backend, iterable, shared.function(body_fn, lead=1), state, names,
                                           shared.test(extra_test), opts, composites))


def _staged_for(backend, iterable, body_fn, state, names, extra_test, opts, composites=None):
    if composites and (carried := composite_state.Carried.read(composites, len(names), "`for` loop")):
        return carried.run(lambda: _staged_for(backend, iterable, carried.body(body_fn, lead=1),
                                               carried.state(state), carried.names(names),
                                               carried.test(extra_test), opts))
    _check_defined_before_loop(state, names, "`for` loop", backend, body_fn)
    loop = backend.need("for_loop", "a `for` loop over a tensor")

    def run(kept, full, initial):
        def body(item, *s):
            return _pick(_iteration(body_fn, (item,), full(s)), names, kept, body_fn, s, backend)
        test = None if extra_test is None else (lambda *s: extra_test(*full(s)))
        return loop(iterable, body, LoopState(tuple(names[i] for i in kept), initial, backend), test,
                    dict(opts or {}))
    return _staged_loop(backend, run, state, names)
