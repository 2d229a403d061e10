"""`if`, `while`, `for` and conditional expressions, decided by the values.

On Python values each operator runs the statement exactly as Python would.
When the condition (or the iterable) is a value a registered backend stages,
the operator hands the branch/body functions to that backend's `cond`,
`while_loop` or `for_loop`, after checking that every variable the statement
must carry is defined.

State conventions (docs/internals.md): branch and body functions take no
arguments (a `for` body takes the item) and return nothing; they assign the
variables they share with the function they are written in through
`nonlocal` (or `global`), so on Python values they are the user's own
statements, exceptions and closures included. `names` are the variables a
staged statement must carry (those read afterwards); the operator reads and
writes them through the functions' closure cells (`Shared`, shared.py). Internally, a
staged statement works on functions of explicit state — taking the variables
as arguments and returning the new state: the value itself for one variable,
a tuple for several, nothing for none — which is what backends see. A staged
statement also carries the attributes and items it assigns (`composites`,
composites.Carried),
after the variables.
"""
from __future__ import annotations

from collections.abc import Sequence

from autograph import verbosity
from autograph.backends import LoopState, backend_for
from autograph.errors import StagingError, at_user_line
from autograph.operators import composites as composite_state
from autograph.operators import maybe, staged_raise
from autograph.operators import variable_checks as checks
from autograph.operators.function_scope import tracing_failed
from autograph.operators.maybe import MaybeValue
from autograph.operators.placeholders import UnsetLoopState as _UnsetLoopState
from autograph.operators.placeholders import copied as _copied
from autograph.operators.placeholders import zeros_like
from autograph.operators.shared import Shared as _Shared
from autograph.operators.shared import as_tuple as _as_tuple
from autograph.operators.shared import result as _result
from autograph.operators.logical import staged_operands
from autograph.operators.staged_raise import BranchRaised, stage_if_raised
from autograph.operators.variables import Undefined, is_undefined


# --- if -------------------------------------------------------------------------------------------

def if_stmt(pred, true_fn, false_fn, names: tuple = (), composites=None, outer: tuple = ()) -> None:
    """`if pred:` — Python's if, or the backend's cond for a staged `pred` (`false_fn` None: no `else:`). `outer`: variables of an enclosing
    function or the module (`nonlocal`, `global`) that the statement assigns: a staged statement can't."""
    if pred.__class__ is bool or (backend := backend_for(pred)) is None:   # inlined: the hot Python path
        if pred.__class__ is MaybeValue:   # defined on some staged paths only: read (and checked) here
            return if_stmt(pred.read("if"), true_fn, false_fn, names, composites, outer)
        if pred:
            true_fn()
        elif false_fn is not None:
            false_fn()
        return
    if (known := _static_bool(backend, pred)) is not None:   # tracing knows it: only the live branch is traced
        if_stmt(known, true_fn, false_fn)
        return
    _check_no_outer(outer, "`if`", true_fn, false_fn)
    if verbosity.level >= 2:
        verbosity.staged("`if`", backend, names)
    shared = _Shared(names, (true_fn, false_fn), backend)
    shared.stage("`if`", lambda state: _staged_if(backend, pred, shared.function(true_fn), shared.function(false_fn),
                                          state, names, composites))


def _static_bool(backend, pred):
    """A staged condition's value when the backend knows it at trace time (`static_bool`), else None."""
    return None if backend.static_bool is None else backend.static_bool(pred)


def _staged_if(backend, pred, true_fn, false_fn, state: tuple, names: tuple, composites=None):
    """The backend's cond. Kept out of `if_stmt`: its closures would make every Python-path call
    allocate cells for the arguments they capture."""
    if composites and (carried := composite_state.Carried.read(composites, len(names), "`if`")):
        return carried.run(lambda: _staged_if(backend, pred, carried.body(true_fn), carried.body(false_fn),
                                              carried.state(state), carried.names(names)))
    if maybe.can_carry(backend):
        lift: set = set()
        while True:
            try:
                return _staged_if_carrying(backend, pred, true_fn, false_fn, state, names, lift)
            except _Relift as again:   # a slot the branch traced first gave a value is undefined in the other
                lift = lift | again.slots
    return _staged_if_filling(backend, pred, true_fn, false_fn, state, names)


class _Relift(Exception):
    """Internal: trace the staged statement again, carrying the variables in `slots` with a defined flag."""

    def __init__(self, slots: set):
        super().__init__(slots)
        self.slots = slots


def _staged_if_carrying(backend, pred, true_fn, false_fn, state: tuple, names: tuple, lift: set):
    """The backend's cond, where a variable (or the return value) that some branch leaves undefined or None
    and another defines is carried as a `MaybeValue` (operators/maybe.py). `lift`: slots known to need it."""
    n = len(names)
    functions = {"true": true_fn, "false": false_fn}
    raw: dict = {}        # each branch's values, as the user's code left them (traced, or probed)
    traced_: set = set()  # the branches traced for the cond (not only probed)
    unset: set = set()    # slots neither branch defines: kept out of the cond
    templates: dict = {}  # slot -> the MaybeValue (name, reasons) both branches' values become
    dead: set = set()     # branches that end with the user's `raise` (operators/staged_raise.py)
    where = maybe.location()

    def values_of(which: str) -> tuple:
        if which not in raw:   # learn the other branch's values in a throwaway trace
            try:
                raw[which] = _as_tuple(backend.probe(lambda: functions[which](*_copied(state))), n)
            except BranchRaised:
                dead.add(which)
                raw[which] = tuple(state)
        return raw[which]

    def dead_values(which: str) -> tuple:
        """A branch that ends with the user's `raise` (the graph raises there): placeholders like the other
        branch's values, or, if it raises too, the values the statement started with."""
        other = "false" if which == "true" else "true"
        theirs = values_of(other)
        if other in dead:
            return tuple(state)
        return tuple(_dead_value(backend, before, after, name) for before, after, name in zip(state, theirs, names))

    def slot(i: int, which: str, value):
        name, returned = names[i], checks.fillable(names[i])
        other = "false" if which == "true" else "true"
        if returned:   # `return y` reads `y`
            value = maybe.checked_return(value)
        k = maybe.kind(value, returned)
        if i not in lift and k == "value":
            return value
        if i not in templates:
            theirs = values_of(other)[i]
            kinds = {which: k, other: maybe.kind(theirs, returned)}
            values = {which: value, other: theirs}
            if not name.isidentifier() and "undefined" in kinds.values() and k != kinds[other]:
                return value   # an item or attribute made on some paths only: refused (checks.check_defined_after_if)
            if i not in lift:
                if kinds[other] == k == "undefined":
                    unset.add(i)
                    return value
                if kinds[other] == k == "none":
                    return None
                if other in traced_:   # it was traced as a plain value: trace both again, carrying this one
                    raise _Relift({i})
                lift.add(i)
            templates[i] = _template(backend, name, returned, kinds, values, where)
        if i in unset:
            return value
        template = templates[i]
        sample = next((v for v in (values_of("true")[i], values_of("false")[i])
                       if maybe.kind(v, returned) in ("value", "maybe")), None)
        return maybe.lifted(template, value, k, sample)

    def branch(fn, which):
        def run():
            # Each traced branch gets its own copy of a list it may append to: both branches run.
            try:
                out = _as_tuple(fn(*_copied(state)), n)
            except BranchRaised:   # the graph raises on this path: its values are never used
                dead.add(which)
                out = dead_values(which)
            raw[which] = out
            traced_.add(which)
            out = tuple(slot(i, which, v) for i, v in enumerate(out))
            kept = [i for i in range(n) if i not in unset]
            if which not in dead:
                checks.check_defined_after_if([out[i] for i in kept], [names[i] for i in kept], which,
                                        functions["false" if which == "true" else "true"], fn)
            lifted_out[which] = out
            if len(lifted_out) == 2:
                checks.check_same_structure(lifted_out["true"], lifted_out["false"], names, true_fn, false_fn)
            return tuple(out[i] for i in kept)
        return run

    lifted_out: dict = {}
    cond = backend.need("cond", "an `if` statement whose condition is a tensor")
    staged = iter(cond(pred, branch(true_fn, "true"), branch(false_fn, "false"), _KeptNames(names, unset)))
    return _result(tuple(state[i] if i in unset else next(staged) for i in range(n)), n)


def _dead_value(backend, before, after, name: str):
    """The value of a variable in a branch that ends with the user's `raise`, standing for `after` (the other
    branch's): `before` (its value on entry) when the other branch keeps it, a zero of its type, or else
    undefined (carried with a defined flag that is false there); None and undefined as they are."""
    if after is before or maybe.kind(after) in ("none", "undefined"):
        return after
    if maybe.kind(after) == "value":
        try:
            return zeros_like(backend, after)
        except (StagingError, TypeError, ValueError):
            pass
    return Undefined(name)


def _template(backend, name: str, returned: bool, kinds: dict, values: dict, where: str):
    """The MaybeValue that a variable some branch of the `if` at `where` leaves undefined (or None) becomes."""
    none = True if returned else maybe.absent_is_none(list(kinds.values()), list(values.values()))
    if none is None:
        raise StagingError(at_user_line(
            f"'{name}' is None on some paths through this `if` on a tensor and unassigned on others; a graph "
            f"carries one of the two. Assign '{name}' (for example `{name} = None`) before the `if`."))
    absent = [which for which, k in kinds.items() if k in ("undefined", "none")]
    if returned:
        why = "the function returns None on this path"
    elif absent and none:
        why = f"the `if` at {where} took its {absent[0]} branch, where it is None"
    elif absent:
        why = f"the `if` at {where} took its {absent[0]} branch, which leaves it unassigned"
    else:
        why = next(v.why for v in values.values() if v.__class__ is MaybeValue)
    shown = "the return value" if returned else name
    return MaybeValue(None, None, shown, why, none, backend)


def _staged_if_filling(backend, pred, true_fn, false_fn, state: tuple, names: tuple):
    """The backend's cond, for backends that can't check reads (`check_defined`): a return value undefined
    in one branch gets the other's zeros (`FunctionScope.ret` checks, with `do_return`, that it returned)."""
    n = len(names)
    outputs: dict = {}
    functions = {"true": true_fn, "false": false_fn}
    unset: set = set()   # return-value slots that neither branch defines: kept out of the cond
    dead: set = set()    # branches that end with the user's `raise` (operators/staged_raise.py)

    def other_outputs(which: str):
        """The other branch's outputs: traced already, or learned in a throwaway trace; None if it raises."""
        other = "false" if which == "true" else "true"
        if other in outputs:
            return None if other in dead else outputs[other]
        try:
            return _as_tuple(backend.probe(lambda: functions[other](*_copied(state))), n)
        except BranchRaised:
            return None

    def fill_returns(out: tuple, which: str) -> tuple:
        """A return value undefined in this branch gets a zero shaped like the other branch's."""
        missing = [i for i, (name, v) in enumerate(zip(names, out))
                   if checks.fillable(name) and is_undefined(v) and i not in unset]
        if not missing or not _can_fill(backend):
            return out
        known = other_outputs(which)   # this branch was traced first: the other's types from a probe
        unset.update(i for i in missing if known is None or is_undefined(known[i]))
        return tuple(zeros_like(backend, known[i]) if i in missing and i not in unset else v
                     for i, v in enumerate(out))

    def branch(fn, which):
        def run():
            # Each traced branch gets its own copy of a list it may append to: both branches run.
            try:
                out = _as_tuple(fn(*_copied(state)), n)
            except BranchRaised:   # the graph raises on this path: its outputs are never used
                dead.add(which)
                out = _dead_outputs(backend, state, names, other_outputs(which), unset)
            else:
                out = fill_returns(out, which)
                checks.check_defined_after_if([v for i, v in enumerate(out) if i not in unset],
                                        [name for i, name in enumerate(names) if i not in unset], which,
                                        functions["false" if which == "true" else "true"], fn)
            outputs[which] = out
            if len(outputs) == 2:
                checks.check_same_structure(outputs["true"], outputs["false"], names, true_fn, false_fn)
            return tuple(v for i, v in enumerate(out) if i not in unset)
        return run

    cond = backend.need("cond", "an `if` statement whose condition is a tensor")
    staged = iter(cond(pred, branch(true_fn, "true"), branch(false_fn, "false"), _KeptNames(names, unset)))
    return _result(tuple(state[i] if i in unset else next(staged) for i in range(n)), n)


class _KeptNames(Sequence):
    """The names of the values a staged `if` hands its backend: those of the slots not in `unset`, which grows
    while the first branch is traced (a slot that neither branch defines is left out of the cond)."""

    def __init__(self, names: tuple, unset: set):
        self._names, self._unset = names, unset

    def _kept(self) -> tuple:
        return tuple(name for i, name in enumerate(self._names) if i not in self._unset)

    def __getitem__(self, index):
        return self._kept()[index]

    def __len__(self) -> int:
        return len(self._names) - len(self._unset)

    def __repr__(self) -> str:
        return repr(self._kept())


def _dead_outputs(backend, state: tuple, names: tuple, live, unset: set) -> tuple:
    """The outputs of a branch that ends with the user's `raise` (the graph raises there, so they are never
    used): a value of the type the other branch gives (`live`), or, if it raises too, the values the
    statement started with (one undefined there stays out of the cond, in `unset`)."""
    if live is None:
        unset.update(i for i, v in enumerate(state) if is_undefined(v))
        return tuple(state)
    out = tuple(_placeholder(backend, before, after, name) for before, after, name in zip(state, live, names))
    unset.update(i for i, (name, v) in enumerate(zip(names, out)) if checks.fillable(name) and is_undefined(v))
    return out


def _placeholder(backend, before, after, name: str):
    """A dead value standing for `after` (the other branch's): `before` (the value on entry) when the other
    branch keeps it, else a zero of `after`'s type, else `before` if it is defined."""
    if after is before or is_undefined(after):
        return before
    try:
        return zeros_like(backend, after) if backend.zeros_like is not None else before
    except (StagingError, TypeError, ValueError):
        if is_undefined(before):
            raise StagingError(at_user_line(
                f"'{name}' is assigned in one branch of this `if` on a tensor, and the other branch ends with a "
                f"`raise`, so a placeholder stands for '{name}' there; none can be made for its value "
                f"({type(after).__name__}). Assign '{name}' before the `if`.")) from None
        return before


def _can_fill(backend) -> bool:
    return backend.probe is not None and backend.zeros_like is not None


def match_subject(subject):
    """The subject of a `match` statement: Python values only (patterns can't be staged)."""
    if subject.__class__ is not bool and backend_for(subject) is not None:
        raise tracing_failed(StagingError(at_user_line(
            "a `match` statement on a tensor can't be converted: its patterns compare with Python's `==` and "
            "`is`, which a staged tensor can't answer. Write the cases as an if/elif chain.")))
    return subject


def if_exp(pred, true_fn, false_fn, expr_repr: str = ""):
    """`a if pred else b`."""
    if pred.__class__ is bool or (backend := backend_for(pred)) is None:
        if pred.__class__ is MaybeValue:
            return if_exp(pred.read("if"), true_fn, false_fn, expr_repr)
        return true_fn() if pred else false_fn()
    if (known := _static_bool(backend, pred)) is not None:
        return true_fn() if known else false_fn()
    return _staged_if_exp(backend, pred, true_fn, false_fn, expr_repr)


def _staged_if_exp(backend, pred, true_fn, false_fn, expr_repr: str):
    if verbosity.level >= 2:
        verbosity.staged(f"`{expr_repr}`" if expr_repr else "a conditional expression", backend)
    cond = backend.need("cond", f"the conditional expression `{expr_repr}`")
    names = (expr_repr,) if expr_repr else ()   # a value's name in messages (and a Python int stays one)
    return staged_operands(lambda t, f: cond(pred, lambda: (_read(_operand(backend, t, f)),),
                                             lambda: (_read(_operand(backend, f, t)),), names)[0], "`if`/`else`",
                           true_fn, false_fn)


def _read(value):
    """An operand of a staged `a if c else b`: a variable defined on some paths only is read (and checked)."""
    return value.read() if value.__class__ is MaybeValue else value


def _operand(backend, mine, other):
    """`mine()`, an operand of a staged conditional expression; where it ends with the user's `raise` (in a
    function it calls), now an op that raises when the graph takes this operand, a dead placeholder shaped
    like the other operand's value. If that can't be made (the other operand raises too), the error is raised
    while tracing."""
    try:
        return mine()
    except Exception as error:
        if not _can_fill(backend):
            raise
        try:
            stage_if_raised(backend, error)
        except BranchRaised:
            failed = error
        else:
            raise
    try:
        return zeros_like(backend, backend.probe(lambda: _read(other())))
    except Exception:   # noqa: BLE001 - no placeholder: the error, raised while tracing as before
        raise failed from None


# --- while ------------------------------------------------------------------------------------

def while_stmt(test_fn, body_fn, names: tuple = (), opts=None, composites=None, outer: tuple = ()) -> None:
    """`while test:` — a Python loop while the test gives Python values; the rest of the loop is staged
    from the first iteration whose test is a staged value."""
    test = test_fn()
    ran = 0                   # iterations run in Python: they count towards `maximum_iterations`
    raised = 0                # of those, the ones in a row that staged a `raise` (a loop with no other exit?)
    while True:
        if test.__class__ is not bool and test.__class__ is MaybeValue:   # defined on some staged paths only
            test = test.read("while")
        if test.__class__ is not bool and (backend := backend_for(test)) is not None:
            _check_no_outer(outer, "`while` loop", body_fn, test_fn)
            rest = _remaining(opts, ran)
            if rest is _OVER:
                return
            if verbosity.level >= 2:
                verbosity.staged("`while` loop", backend, names)
            shared = _Shared(names, (test_fn, body_fn), backend)
            shared.stage("`while` loop", lambda state: _staged_while(backend, shared.test(test_fn), shared.function(body_fn),
                                                     state, names, rest, composites))
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
    fill = backend is not None and _can_fill(backend)
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
                    f"it does not exist before the loop, and a loop over tensors carries it from one iteration "
                    f"to the next and past the loop, which needs a value of the right type before the loop. "
                    f"Set `{name}` before the loop (e.g. to 0 or a zero tensor of its type)."))
            raise StagingError(at_user_line(
                f"'{name}' must be defined before this {construct} over tensors, because its value is "
                f"carried from one iteration to the next or used after the loop; it is first assigned inside "
                f"the loop{checks.assigned_at(body_fn, name)}. Assign '{name}' an initial value of the right type "
                "before the loop."))


def _staged_while(backend, test_fn, body_fn, state, names, opts, composites=None):
    if composites and (carried := composite_state.Carried.read(composites, len(names), "`while` loop")):
        return carried.run(lambda: _staged_while(backend, carried.test(test_fn), carried.body(body_fn),
                                                 carried.state(state), carried.names(names), opts))
    _check_defined_before_loop(state, names, "`while` loop", backend, body_fn)
    loop = backend.need("while_loop", "a `while` loop whose condition is a tensor")

    def run(kept, full, initial):
        def body(*s):
            return _pick(_iteration(body_fn, (), full(s)), names, kept, body_fn, s, backend)
        return loop(lambda *s: test_fn(*full(s)), body, LoopState(tuple(names[i] for i in kept), initial, backend),
                    dict(opts or {}))
    return _staged_loop(backend, run, state, names)


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
    keep_empty = _can_fill(backend) and backend.list_empty_like is not None
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
        _check_no_outer(outer, "`for` loop", body_fn)
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


def _check_no_outer(outer: tuple, construct: str, *functions) -> None:
    if outer:
        where = next((w for fn in functions if fn is not None and (w := checks.assigned_at(fn, outer[0]))), "")
        raise tracing_failed(StagingError(at_user_line(
            f"'{outer[0]}' is declared global or nonlocal and assigned{where} inside this {construct} on a tensor. A graph "
            f"can't assign a variable outside the function each time it runs. Return the value from the function "
            "instead (or keep it in a runtime.Variable).")))


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
    _check_no_outer(outer, "`for` loop", body_fn)
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
