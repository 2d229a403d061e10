"""`and`, `or`, `not`: lazy, with Python's short-circuit values on Python values.

A Python `bool` is tested inline before any backend lookup: generated code calls these once per
evaluation of the expression, so on Python values they should cost little more than the call.
"""
from __future__ import annotations


import operator
import types

from autograph import verbosity
from autograph.backends import backend_for
from autograph.errors import StagingError, at_user_line
from autograph.operators import side_effects, snapshots, strings
from autograph.operators.function_scope import raised_while_tracing, traced, tracing_failed
from autograph.operators.maybe import MaybeValue
from autograph.operators.shared import globals_read
from autograph.operators.variables import cell_value, set_cell


def and_(a_fn, b_fn):
    """`a and b` as `and_(lambda: a, lambda: b)`."""
    a = a_fn()
    if a.__class__ is bool or (backend := backend_for(a)) is None:
        if a.__class__ is MaybeValue:   # defined on some staged paths only: read (and checked) here
            if a.none:                  # None on the other paths, where `None and b` is None
                return a.with_value(and_(lambda: a.value, b_fn), a.defined)
            return and_(lambda: a.read("and"), b_fn)
        return b_fn() if a else a
    if verbosity.level >= 2:
        verbosity.staged("`and`", backend)
    return staged_operands(backend.need("logical_and", "`and` on a tensor"), "`and`", a, _never_none(b_fn, "and"),
                           watched=[b_fn])


def or_(a_fn, b_fn):
    """`a or b` as `or_(lambda: a, lambda: b)`."""
    a = a_fn()
    if a.__class__ is bool or (backend := backend_for(a)) is None:
        if a.__class__ is MaybeValue:
            if a.none:                  # None on the other paths, where `None or b` is b
                return _where_defined(a, lambda: or_(lambda: a.value, b_fn), b_fn, "... or ...")
            return or_(lambda: a.read("or"), b_fn)
        return a if a else b_fn()
    if verbosity.level >= 2:
        verbosity.staged("`or`", backend)
    return staged_operands(backend.need("logical_or", "`or` on a tensor"), "`or`", a, _never_none(b_fn, "or"),
                           watched=[b_fn])


def _never_none(b_fn, what: str):
    """The right operand of a staged `and`/`or`, whose value may be the result (`result_operand`)."""
    return lambda: result_operand(b_fn(), f"`... {what} ...`")


def result_operand(value, construct: str):
    """An operand whose value a staged `and`, `or` or conditional expression may give as its result: a variable
    that a staged statement left None (or unassigned) on some paths is checked where the graph takes it
    (MaybeValue.as_result: a StagingError where Python's result would be None; it raised a TypeError saying
    Python raises)."""
    return value.as_result(construct) if value.__class__ is MaybeValue else value


def and_test(a_fn, b_fn):
    """`a and b` as a test (`if a and b:`), where only its truth counts: on a Python `a`, False where `a` is
    false and else `b`, whose truth the test asks; so each operand's truth is asked once, as Python does. A
    staged `a` (or one defined on some staged paths only) is `and_`'s."""
    a = a_fn()
    if a.__class__ is bool or (a.__class__ is not MaybeValue and backend_for(a) is None):
        return b_fn() if a else False
    return and_(lambda: a, b_fn)


def or_test(a_fn, b_fn):
    """`a or b` as a test: True where a Python `a` is true, else `b`; as `and_test`."""
    a = a_fn()
    if a.__class__ is bool or (a.__class__ is not MaybeValue and backend_for(a) is None):
        return True if a else b_fn()
    return or_(lambda: a, b_fn)


def _where_defined(a: MaybeValue, defined_fn, none_fn, expr_repr: str):
    """`defined_fn()` on the paths where `a` is defined, `none_fn()` where it is None: a staged `x if c else y`
    on its flag."""
    from autograph.operators.control_flow import if_exp   # control_flow imports this module

    return if_exp(a.defined, defined_fn, none_fn, expr_repr)


def not_(a):
    """`not a`."""
    if a.__class__ is bool or (backend := backend_for(a)) is None:
        if a.__class__ is MaybeValue:
            if a.none:                  # None on the other paths, where `not None` is True
                return _where_defined(a, lambda: not_(a.value), lambda: True, "not ...")
            return not_(a.read("not"))
        return not a
    if verbosity.level >= 2:
        verbosity.staged("`not`", backend)
    return backend.need("logical_not", "`not` on a tensor")(a)


def truth(value: MaybeValue, use: str):
    """A variable defined on some staged paths only, as the test of an `if`, a `while` or `a if c else b`: read
    (and checked: unbound raises where Python's does). Where it is None (`none`) the test is false, as Python's
    truth test of None is, not a TypeError: `not not value` is that staged bool on every path."""
    if not value.none:
        return value.read(use)
    return not_(not_(value))


def is_none(value):
    """`value is None`: a variable that a staged statement left None on some paths only (a MaybeValue) gives a
    staged bool, true on those paths."""
    if value.__class__ is not MaybeValue:
        return value is None
    return value.is_none()


def is_not_none(value):
    """`value is not None`, as `is_none`."""
    if value.__class__ is not MaybeValue:
        return value is not None
    return not_(value.is_none())


def is_(a, b) -> bool:
    """`a is b`. Between two different staged values it is refused: a staged statement gives the variables it
    carries new values (`y = x; if c: y = x + 1` leaves `y` a new tensor on both paths), so whether two
    variables hold one object can depend on the path the graph takes, which tracing does not know."""
    if a is b:
        return True
    if a.__class__ is MaybeValue and b is None or b.__class__ is MaybeValue and a is None:
        return is_none(a if b is None else b)   # `v is nothing` (nothing = None): answered on each path
    if (b is True or b is False) and _carried_bool(a) or (a is True or a is False) and _carried_bool(b):
        return a == b   # `flag is True` of a Python bool a staged statement carries: True is its only True
    if backend_for(a) is not None and backend_for(b) is not None:
        raise tracing_failed(StagingError(at_user_line(
            "`is` between two different tensors while they are staged: a staged `if` or loop gives the variables "
            "it carries new tensors on every path, so whether they are one object when the graph runs can't be "
            "told. Keep a Python flag of what you assigned (e.g. `changed = True` in the branch), or compare "
            "values (`tf.reduce_all(a == b)`).")))
    return False


def _carried_bool(value) -> bool:
    """Whether `value` is a staged value that stands for a Python bool a staged `if` or loop carries (the
    backend's `python_type`): Python's `is True` of it is its value, known when the graph runs. One that may be
    such a bool or an array (JAX keeps no record of which) is refused: the answers differ."""
    backend = backend_for(value)
    kinds = backend.python_type(value) if backend is not None and backend.python_type is not None else None
    if kinds and bool in kinds and len(kinds) > 1:
        raise tracing_failed(StagingError(at_user_line(
            "`is True` (or `is False`) of a value that may be a Python bool a staged `if` or loop carries, or an "
            "array of the framework's, which can't be told apart: for the bool, Python's answer is its value; "
            "for an array, False. Compare its value (`flag == True`), or keep a Python flag.")))
    return kinds == (bool,)


def is_not(a, b) -> bool:
    """`a is not b`, as `is_`."""
    return not_(is_(a, b))


def staged_operands(staged, what: str, *args, watched=None):
    """`staged(*args)`, where the functions among `args` (or `watched`, the user's operands they call) are
    operands a backend traces in a branch. An operand that assigns a variable of the function (`:=`, made a
    `nonlocal` by the converter) would leave a value of that branch in it: that is refused, and the variable
    gets its value back. An exception raised while tracing them passes the user's `except` clauses
    (`tracing_failed`)."""
    watched = [fn for fn in args if callable(fn)] if watched is None else watched
    # and a function an operand calls that shares the function's variables (`nonlocal x` in a nested def)
    watched = list(watched) + [value for fn in watched for cell in (getattr(fn, "__closure__", None) or ())
                         if (value := cell_value(cell)).__class__ is types.FunctionType and value.__closure__
                         and value not in watched]
    cells = list({id(cell): cell for fn in watched for cell in (getattr(fn, "__closure__", None) or ())}.values())
    before = [cell_value(cell) for cell in cells]
    # the objects the operands read may not be changed (`l.append(1) if c else l.append(2)`): both operands are
    # traced, so Python's change on one path would be made on both (operators/side_effects.py)
    held = [value for value in before if backend_for(value) is None]

    def checked(fn):
        def run():
            out = traced(fn)
            _refuse_assignments(what, watched, cells, before)   # before the other operand reads the variable
            return out
        return run
    outer = globals_read(watched)   # a helper's log (`record(x)` in `a or record(x)`), its cache
    # and what the variables they read hold: `next(it)`, `r.random()`, `add(1)` of `add = log.append`
    contents = snapshots.snapshot(outer + _variables_read(watched))
    held += [value for _, value in outer if backend_for(value) is None]
    try:
        with side_effects.staging(what, held):
            out = staged(*[checked(fn) if callable(fn) else fn for fn in args])
        changed = snapshots.changed(contents, set(), what)
        if changed is not None:
            snapshots.restore(contents)
            raise _AssignedInOperand(StagingError(at_user_line(changed)))
        return out
    except _AssignedInOperand as refused:
        raise tracing_failed(refused.error) from None
    except Exception as error:   # past the user's own `except` clauses (see TracingFailed)
        raise tracing_failed(raised_while_tracing(error, f"{what} on a tensor")) from None


def _variables_read(functions: list) -> list:
    """(name, value) of each variable of the function that `functions` (operands made functions) read."""
    return [(name, cell_value(cell)) for fn in functions
            for name, cell in zip(fn.__code__.co_freevars, getattr(fn, "__closure__", None) or ())]


class _AssignedInOperand(Exception):
    """Raised out of an operand's trace: it assigned a variable of the function (`error` says which)."""

    def __init__(self, error: StagingError):
        super().__init__(str(error))
        self.error = error


def _refuse_assignments(what: str, watched: list, cells: list, before: list) -> None:
    """If an operand just traced assigned a variable of the function (a cell of `cells` no longer holds its value
    of `before`): the variables get their values back, and the operand's trace stops with the StagingError. Found
    after each operand: with `(z := z + 1) if c else z * z`, the second operand would read the first's graph value."""
    changed = [i for i, cell in enumerate(cells) if cell_value(cell) is not before[i]]
    if not changed:
        return
    cell = cells[changed[0]]   # found by identity: `==` on cells compares their contents, maybe tensors
    fn, index = next((fn, i) for fn in watched for i, c in enumerate(fn.__closure__ or ()) if c is cell)
    name = fn.__code__.co_freevars[index]
    for i in changed:
        set_cell(cells[i], before[i])
    raise _AssignedInOperand(StagingError(at_user_line(
        f"an operand of {what} on a tensor assigns '{name}' (with `:=`, or through a function it calls that "
        f"declares it `nonlocal`); with a tensor the operand becomes a "
        f"branch of a graph op, which can't assign a variable of the function. Assign '{name}' in a statement "
        "before the expression.")))




_COMPARISONS = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "is": operator.is_, "is not": operator.is_not,
    "in": strings.in_, "not in": strings.not_in,
}


def chain_compare(left, op: str, right, *rest):
    """`a < b <= c` as `chain_compare(a, '<', b, '<=', lambda: c)`: `a < b and b <= c` with `b` evaluated
    once, as Python defines it. The first two operands are always evaluated, in order, so they are values;
    each later one is a function, called only when the comparisons before it hold (through `and_`, so a
    tensor comparison stages the rest in a `Cond`)."""
    first = _COMPARISONS[op](left, right)
    if not rest:
        return first
    next_op, next_fn, *more = rest

    def compare_rest():
        return chain_compare(right, next_op, next_fn(), *more)
    if first.__class__ is bool or (backend := backend_for(first)) is None:
        return compare_rest() if first else first
    return staged_operands(backend.need("logical_and", "a chained comparison on a tensor"),
                           "a chained comparison", first, compare_rest, watched=(next_fn, *more[1::2]))
