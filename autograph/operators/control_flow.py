"""`if`, `while`, `for` and conditional expressions, decided by the values.

On Python values each operator runs the statement exactly as Python would.
When the condition (or the iterable) is a value a registered backend stages,
the operator hands the branch/body functions to that backend's `cond`,
`while_loop` or `for_loop`, after checking that every variable the statement
must carry is defined.

State conventions (docs/internals.md): branch and body functions take the
state variables as arguments and return the new state — the value itself
for one variable, a tuple for several, nothing for none.
"""
from __future__ import annotations

import inspect

from autograph.backends import backend_for
from autograph.errors import StagingError, at_user_line
from autograph.operators.variables import is_undefined


def _as_tuple(value, n: int) -> tuple:
    if n == 1:
        return (value,)
    return () if n == 0 else tuple(value)


def _result(state: tuple, n: int):
    if n == 1:
        return state[0]
    return None if n == 0 else tuple(state)


def _staged(value):
    return None if value.__class__ is bool else backend_for(value)


# --- if -------------------------------------------------------------------------------------------

def if_stmt(pred, true_fn, false_fn, state: tuple, names: tuple):
    """`if pred:` — Python's if, or the backend's cond for a staged `pred`."""
    if pred.__class__ is bool or (backend := backend_for(pred)) is None:   # inlined: the hot Python path
        return true_fn(*state) if pred else false_fn(*state)
    n = len(names)
    outputs: dict = {}

    def branch(fn, which):
        def run():
            # Each traced branch gets its own copy of a list it may append to: both branches run.
            out = _as_tuple(fn(*[list(v) if v.__class__ is list else v for v in state]), n)
            _check_defined_after_if(out, names, which)
            outputs[which] = out
            if len(outputs) == 2:
                _check_same_structure(outputs["true"], outputs["false"], names)
            return out
        run.state_names = names          # for backends' messages about a variable (docs/backends.md)
        return run

    cond = backend.need("cond", "an `if` statement whose condition is a tensor")
    return _result(tuple(cond(pred, branch(true_fn, "true"), branch(false_fn, "false"))), n)


def _check_defined_after_if(values, names, which: str) -> None:
    for name, value in zip(names, values):
        if is_undefined(value):
            if name in ("retval_", "do_return"):
                raise StagingError(at_user_line(
                    f"this `if` on a tensor returns from the function in only one branch ({which} branch "
                    "does not). With a tensor condition both branches must return, or neither: add a "
                    "return to the other branch or assign a result variable and return it after the if."))
            raise StagingError(at_user_line(
                f"'{name}' is assigned in only one branch of this `if` on a tensor (the {which} branch "
                f"leaves it undefined) and is used afterwards. Assign '{name}' before the `if` or in both "
                "branches."))


def _structure(value):
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, tuple(_structure(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, _structure(v)) for k, v in value.items())))
    return "."


def _describe(structure) -> str:
    if structure == ".":
        return "a single value"
    kind, items = structure
    return f"a {kind} of {len(items)}"


def _check_same_structure(true_out, false_out, names) -> None:
    for name, a, b in zip(names, true_out, false_out):
        sa, sb = _structure(a), _structure(b)
        if sa != sb:
            what = "the function's return value" if name == "retval_" else f"'{name}'"
            raise StagingError(at_user_line(
                f"{what} has a different structure in the two branches of this `if` on a tensor "
                f"({_describe(sa)} vs {_describe(sb)}). With a tensor condition both branches must produce the "
                "same structure; return (or assign) values of the same shape on every path."))


def if_exp(pred, true_fn, false_fn, expr_repr: str = ""):
    """`a if pred else b`."""
    backend = _staged(pred)
    if backend is None:
        return true_fn() if pred else false_fn()
    cond = backend.need("cond", f"the conditional expression `{expr_repr}`")
    return cond(pred, lambda: (true_fn(),), lambda: (false_fn(),))[0]


# --- while ------------------------------------------------------------------------------------

def while_stmt(test_fn, body_fn, state: tuple, names: tuple, opts=None):
    """`while test:` — a Python loop while the test gives Python values."""
    n = len(names)
    test = test_fn(*state)
    backend = _staged(test)
    if backend is not None:
        return _staged_while(backend, test_fn, body_fn, state, names, opts)
    if n == 1:
        (value,) = state
        while test:
            value = body_fn(value)
            test = test_fn(value)
            if test.__class__ is not bool and backend_for(test) is not None:
                return _staged_while(backend_for(test), test_fn, body_fn, (value,), names, opts)
        return value
    while test:
        out = body_fn(*state)
        state = () if n == 0 else out
        test = test_fn(*state)
        if test.__class__ is not bool and backend_for(test) is not None:
            return _staged_while(backend_for(test), test_fn, body_fn, state, names, opts)
    return _result(state, n)


def _check_defined_before_loop(state, names, construct: str) -> None:
    for name, value in zip(names, state):
        if is_undefined(value):
            if name in ("retval_", "do_return"):
                raise StagingError(at_user_line(
                    f"a `return` inside this {construct} over tensors needs the returned value to have a "
                    "known type before the loop: assign the result to a variable defined before the loop, "
                    "`break`, and return it after the loop."))
            raise StagingError(at_user_line(
                f"'{name}' must be defined before this {construct} over tensors, because its value is "
                f"carried from one iteration to the next or used after the loop. Assign '{name}' an initial "
                "value of the right type before the loop."))


def _staged_while(backend, test_fn, body_fn, state, names, opts):
    _check_defined_before_loop(state, names, "`while` loop")
    n = len(names)
    state = _lists_to_backend(backend, state)
    loop = backend.need("while_loop", "a `while` loop whose condition is a tensor")
    body = _named(lambda *s: _as_tuple(body_fn(*s), n), names)
    out = loop(test_fn, body, tuple(state), dict(opts or {}))
    return _result(tuple(out), n)


def _named(fn, names):
    """Give a loop body the state variables' names as its signature, so a backend that reports
    loop variables by the body's parameter names (via `inspect.signature`) names the user's."""
    params = [name.replace(".", "_").replace("[", "_").replace("]", "") for name in names]
    if all(p.isidentifier() for p in params) and len(set(params)) == len(params):
        fn.__signature__ = inspect.Signature(
            [inspect.Parameter(p, inspect.Parameter.POSITIONAL_ONLY) for p in params])
    return fn


def _lists_to_backend(backend, state):
    if backend.list_from is None:
        return state
    return tuple(backend.list_from(v) if isinstance(v, list) else v for v in state)


# --- for ---------------------------------------------------------------------------------------

def for_stmt(iterable, body_fn, state: tuple, names: tuple, extra_test=None, opts=None):
    """`for item in iterable:` — `extra_test(*state)` is checked before each iteration."""
    backend = backend_for(iterable)
    if backend is not None:
        return _staged_for(backend, iterable, body_fn, state, names, extra_test, opts)
    n = len(names)
    if n == 1:
        (value,) = state
        for item in iterable:
            if extra_test is not None and not _python_test(extra_test(value)):
                break
            value = body_fn(item, value)
        return value
    for item in iterable:
        if extra_test is not None and not _python_test(extra_test(*state)):
            break
        out = body_fn(item, *state)
        state = () if n == 0 else out
    return _result(state, n)


def _python_test(value):
    if value.__class__ is not bool and backend_for(value) is not None:
        raise StagingError(at_user_line(
            "a `break` or `return` that depends on a tensor inside a loop over a Python iterable: the loop "
            "can't stop at run time. Loop over a tensor instead (e.g. runtime.range) so the loop is staged."))
    return value


def _staged_for(backend, iterable, body_fn, state, names, extra_test, opts):
    _check_defined_before_loop(state, names, "`for` loop")
    n = len(names)
    state = _lists_to_backend(backend, state)
    loop = backend.need("for_loop", "a `for` loop over a tensor")
    body = _named(lambda item, *s: _as_tuple(body_fn(item, *s), n), ("item_", *names))
    out = loop(iterable, body, tuple(state), extra_test, dict(opts or {}))
    return _result(tuple(out), n)
