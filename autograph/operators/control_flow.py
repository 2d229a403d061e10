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

import types
from collections.abc import Sequence

from autograph import verbosity
from autograph.backends import backend_for
from autograph.errors import StagingError, at_user_line
from autograph.operators import composites as composite_state
from autograph.operators import maybe
from autograph.operators import variable_checks as checks
from autograph.operators.function_scope import tracing_failed
from autograph.operators.maybe import MaybeValue
from autograph.operators.placeholders import copied as _copied
from autograph.operators.placeholders import zeros_like
from autograph.operators.shared import Shared as _Shared
from autograph.operators.shared import as_tuple as _as_tuple
from autograph.operators.shared import result as _result
from autograph.operators.logical import result_operand, staged_operands, truth
from autograph.operators.staged_raise import BranchRaised, stage_if_raised
from autograph.operators.variables import Undefined, is_undefined


def check_no_outer(outer: tuple, construct: str, *functions) -> None:
    """Refuse a staged statement that assigns `outer`: variables declared `global` or `nonlocal`, and attributes
    and items of an object that is not a variable of the function (`CFG['k']`, `STATS.calls`)."""
    if not outer:
        return
    name = outer[0]
    if not name.isidentifier():
        root = name.split(".")[0].split("[")[0]
        where = "" if "[" in name else next((w for fn in functions if fn is not None
                                             and (w := checks.assigned_at(fn, name))), "")
        raise tracing_failed(StagingError(at_user_line(
            f"`{name}` is assigned{where} inside this {construct} on a tensor, but '{root}' is not a variable of this "
            "function (a global, or a variable of an enclosing function). A staged statement carries the value "
            "as a tensor of the traced graph: the object would keep that tensor after the function returns, not "
            f"the value of each run. Keep the value in a variable of this function and return it (the caller can "
            f"set `{name}`), or keep it in a runtime.Variable.")))
    where = next((w for fn in functions if fn is not None and (w := checks.assigned_at(fn, name))), "")
    raise tracing_failed(StagingError(at_user_line(
        f"'{name}' is declared global or nonlocal and assigned{where} inside this {construct} on a tensor. A graph "
        f"can't assign a variable outside the function each time it runs. Return the value from the function "
        "instead (or keep it in a runtime.Variable).")))


# --- if -------------------------------------------------------------------------------------------

def if_stmt(pred, true_fn, false_fn, names: tuple = (), composites=None, outer: tuple = ()) -> None:
    """`if pred:` — Python's if, or the backend's cond for a staged `pred` (`false_fn` None: no `else:`). `outer`: variables of an enclosing
    function or the module (`nonlocal`, `global`) that the statement assigns: a staged statement can't."""
    if pred.__class__ is bool or (backend := backend_for(pred)) is None:   # inlined: the hot Python path
        if pred.__class__ is MaybeValue:   # defined on some staged paths only: read (and checked) here
            return if_stmt(truth(pred, "if"), true_fn, false_fn, names, composites, outer)
        if pred:
            true_fn()
        elif false_fn is not None:
            false_fn()
        return
    if (known := _static_bool(backend, pred)) is not None:   # tracing knows it: only the live branch is traced
        if_stmt(known, true_fn, false_fn)
        return
    check_no_outer(outer, "`if`", true_fn, false_fn)
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
        if not missing or not can_fill(backend):
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


def can_fill(backend) -> bool:
    return backend.probe is not None and backend.zeros_like is not None


def match_subject(subject, nested_class_patterns: bool = False):
    """The subject of a `match` statement: Python values only (patterns can't be staged). With a class pattern
    inside another pattern (`case (int(), _):`), no staged value inside it either: Python's isinstance would see
    the tensor where the program holds a Python number (or, in Python, an int where it holds a tensor)."""
    if (maybe := _maybe_in(subject)) is not None:   # `case None:` would test the carrier, not each path's value
        raise tracing_failed(StagingError(at_user_line(
            f"the subject of this `match` holds '{maybe.name}', which a staged `if` or loop leaves "
            f"{'None' if maybe.none else 'unassigned'} on some paths ({maybe.why}): which case matches is "
            "known only when the graph runs, and a `match` picks its case in Python. Write the cases as an "
            f"if/elif chain (`if {maybe.name} is None:` is staged).")))
    if subject.__class__ is not bool and backend_for(subject) is not None:
        raise tracing_failed(StagingError(at_user_line(
            "a `match` statement on a tensor can't be converted: its patterns compare with Python's `==` and "
            "`is`, which a staged tensor can't answer. Write the cases as an if/elif chain.")))
    if nested_class_patterns and (staged := _staged_in(subject, set())) is not None:
        raise tracing_failed(StagingError(at_user_line(
            f"a `case` of this `match` has a class pattern (`int()`, `float()`, ...) inside another pattern, and "
            f"the subject holds a tensor ({getattr(staged, 'name', type(staged).__name__)}): Python matches a class "
            "pattern with isinstance, which sees the tensor, not the number the program computes, so the `match` "
            "could choose a case that Python would not. Write the cases as an if/elif chain (autograph answers "
            "`isinstance` of a Python number a staged statement carries as Python does).")))
    return subject


_NOT_WALKED = (type, types.ModuleType, types.FunctionType, types.MethodType)   # no pattern reaches inside them


def _staged_in(value, seen: set):
    """A staged value inside `value` (its items, values, or an object's attributes, as patterns reach them)."""
    if value.__class__ is not bool and backend_for(value) is not None:
        return value
    if id(value) in seen:
        return None
    seen.add(id(value))
    if value.__class__ in (tuple, list):
        items = value
    elif value.__class__ is dict:
        items = value.values()
    else:
        items = () if isinstance(value, _NOT_WALKED) else getattr(value, "__dict__", {}).values()
    return next((found for item in items if (found := _staged_in(item, seen)) is not None), None)


def _maybe_in(subject):
    """A MaybeValue that is the subject or an item of a tuple subject (`match (v, w):`), or None."""
    if subject.__class__ is MaybeValue:
        return subject
    if subject.__class__ is tuple:
        return next((item for item in subject if item.__class__ is MaybeValue), None)
    return None


def match_guard(value):
    """The guard of a `case ... if guard:`: Python values only (Python picks the case)."""
    if value.__class__ is not bool and backend_for(value) is not None:
        raise tracing_failed(StagingError(at_user_line(
            "the guard of this `case` is a tensor: a `match` statement picks its case in Python, which can't "
            "read a staged value. Write the cases as an if/elif chain (`if subject == 3 and x > 0:`), which is "
            "staged.")))
    return value


def if_exp(pred, true_fn, false_fn, expr_repr: str = ""):
    """`a if pred else b`."""
    if pred.__class__ is bool or (backend := backend_for(pred)) is None:
        if pred.__class__ is MaybeValue:
            return if_exp(truth(pred, "if"), true_fn, false_fn, expr_repr)
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
    """An operand of a staged `a if c else b`: a variable defined (or not None) on some paths only is read, and
    checked where the graph takes it (`result_operand`)."""
    return result_operand(value, "the conditional expression `... if ... else ...`")


def _operand(backend, mine, other):
    """`mine()`, an operand of a staged conditional expression; where it ends with the user's `raise` (in a
    function it calls), now an op that raises when the graph takes this operand, a dead placeholder shaped
    like the other operand's value. If that can't be made (the other operand raises too), the error is raised
    while tracing."""
    try:
        return mine()
    except Exception as error:
        if not can_fill(backend):
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
