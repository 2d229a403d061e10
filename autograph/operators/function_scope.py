"""The scope every converted function runs in."""
from __future__ import annotations

import inspect
import threading
from dataclasses import dataclass

from autograph import backends
from autograph.backends import backend_for
from autograph.errors import TracingFailed, at_user_line
from autograph.operators.variables import UndefinedReturnValue


@dataclass(frozen=True, init=False)
class ConversionOptions:
    """Options a function was converted with (recursive: convert the functions it calls).

    Every call of a converted function makes one (`ag__.ConversionOptions(recursive=True)`): equal
    options are one shared instance, looked up instead of initialised."""

    recursive: bool = True
    fallback: bool = False

    def __new__(cls, recursive: bool = True, fallback: bool = False) -> "ConversionOptions":
        key = (cls, recursive, fallback)
        shared = recursive.__class__ is bool and fallback.__class__ is bool   # (not 1 for True)
        if shared and key in _interned:
            return _interned[key]
        options = super().__new__(cls)
        object.__setattr__(options, "recursive", recursive)
        object.__setattr__(options, "fallback", fallback)
        return _interned.setdefault(key, options) if shared else options

    def __repr__(self) -> str:
        extra = ", fallback=True" if self.fallback else ""
        return f"ConversionOptions(recursive={self.recursive}{extra})"


_interned: dict = {}


class _Depth(threading.local):
    value = 0   # converted functions running in this thread, one inside another
    pending = None   # (error, level) a TracingFailed on its way out carries, and the level of the converted
                     # function whose frame it is in (given back if that function's code swallows it)
    managers: tuple = ()   # context managers to exit when the outermost converted function returns


_depth = _Depth()


class FunctionScope:
    """`with ag__.FunctionScope(name, 'fscope', options) as fscope:` — the
    context of one converted function; `fscope.ret(retval_, do_return)` gives
    its result (`may_fall_off=True`: the function may end without a `return`)."""

    __slots__ = ("name", "scope_name", "options")

    def __init__(self, function_name: str, scope_name: str, options: ConversionOptions):
        self.name = function_name
        self.scope_name = scope_name
        self.options = options

    def __enter__(self) -> "FunctionScope":
        _depth.value += 1
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        level = _depth.value
        _depth.value = level - 1
        if level == 1 and _depth.managers:
            managers, _depth.managers = _depth.managers, ()
            for manager in reversed(managers):
                manager.__exit__(None, None, None)
        pending = _depth.pending
        if exc_type is TracingFailed:
            if level == 1:
                _depth.pending = None
                error = exc.error
                raise error.with_traceback(error.__traceback__) from None
            if pending is not None:
                _depth.pending = (pending[0], level - 1)   # now in the caller's frame
        elif pending is not None and pending[1] == level:   # this function's code swallowed it (a `with`
            _depth.pending = None                           # whose exit returns True, a bare `except`)
            error = pending[0]
            raise error.with_traceback(error.__traceback__) from None
        if exc_type is NameError and _unbound_local(exc, tb):
            raise UnboundLocalError(f"cannot access local variable '{exc.name}' where it is not associated with a "
                                    "value").with_traceback(tb) from None
        return False

    def ret(self, value, did_return, may_fall_off: bool = False):
        if value.__class__ is UndefinedReturnValue or did_return is False:   # False: a `return` was cancelled by
            return None                                                      # an exception raised after it
        if may_fall_off and did_return.__class__ is not bool and (backend := backend_for(did_return)) is not None \
                and backend.probe is not None and backend.zeros_like is not None and backend.check_defined is None:
            # only a function with a path that ends without `return` (a function that returns on every path
            # has did_return true wherever it ends), under a backend that fills undefined return values with
            # zeros (see if_stmt), can get here with a path that did not return; other backends reject it while
            # tracing. A backend that checks reads (`check_defined`) carries the return value as a MaybeValue
            # instead, which is None where the function did not return (operators/maybe.py).
            self._check_returned(backend, did_return)
        return backends.leaving(value) if _depth.value == 1 and backends.any_leaving() else value

    def _check_returned(self, backend, did_return) -> None:
        """A tensor condition decided whether the function returned. Where it did not, Python would return
        None, which a graph can't return beside a tensor: that path is an error when it runs (the backend's
        assert), never a placeholder value; a backend whose asserts can't run in every trace (JAX) rejects
        the function while tracing instead (its `check_returned`)."""
        message = at_user_line(
            f"{self.name} ends without a `return` on a path that a tensor condition chooses; Python would return "
            f"None there, which a graph can't return beside a tensor. Return a value on every path (for "
            f"example a `return` at the end of {self.name}).")
        check = backend.check_returned or backend.need("assert_", "a function that returns on some tensor-chosen "
                                                                  "paths only")
        check(did_return, lambda: message)


def enter_until_outermost_returns(manager) -> bool:
    """Enter the context manager `manager` now, and exit it when the outermost converted function running in
    this thread returns (a backend's mode for the rest of a trace); False, entering nothing, outside one."""
    if not _depth.value:
        return False
    manager.__enter__()
    _depth.managers = (*_depth.managers, manager)
    return True


def tracing_failed(error: Exception) -> BaseException:
    """What a staged statement raises for `error`: carried past the user's `except` clauses (TracingFailed)
    when a converted function is running, `error` itself when the operator was called directly."""
    if not _depth.value:
        return error
    _depth.pending = (error, _depth.value)   # raised in the converted function running at this level
    return TracingFailed(error)


def traced(fn, *args):
    """`fn(*args)`, the user's code of a branch, body or operand, called by a framework while it stages a
    statement: an exception a statement staged inside it carried past the user's `except` clauses is itself
    again here, for the framework's own handling and for the staging of this statement (`tracing_failed`)."""
    try:
        return fn(*args)
    except TracingFailed as carried:
        _depth.pending = None
        error = carried.error
        raise error.with_traceback(error.__traceback__) from None


# The code of the functions the converters made (branches, loop bodies, hoisted operands): they read the
# converted function's variables through `nonlocal`, where an unbound one raises NameError ("free variable").
_generated_code: set = set()


def is_generated(code) -> bool:
    """Whether `code` is a function the converters made (a branch, loop body or hoisted operand)."""
    return code in _generated_code


def note_generated(code, names, qualname: str):
    """`code` (the converted function, compiled) with the functions the converters made inside it (named
    `names`) remembered, and every function and class the user defines inside it given the `__qualname__` it
    has in the user's function (`f.<locals>.h`, not `ag__factory.<locals>.ag__f.<locals>.if_true.<locals>.h`)."""
    renamed = _renamed(code, frozenset(names), f"{qualname}.<locals>.")
    _note_converted(renamed)
    return renamed


# Every code object of converted functions (the function, the functions the converters made, and the user's own
# functions and classes defined inside it): where a `raise` statement of the user's converted code runs.
_converted_code: set = set()


def _note_converted(code) -> None:
    _converted_code.add(code)
    for const in code.co_consts:
        if const.__class__ is code.__class__:
            _note_converted(const)


def is_converted(code) -> bool:
    """Whether `code` is converted code (the user's statements, compiled by autograph)."""
    return code in _converted_code


_NEWLOCALS = inspect.CO_NEWLOCALS   # set for functions' code, not for a class body's


def _renamed(code, names: frozenset, prefix: str):
    """`code` with its nested code renamed: `prefix` is what a function or class defined directly in it is
    called under (`f.<locals>.`; a class's `C.`); a made function's contents belong to the scope it is in."""
    consts = []
    for const in code.co_consts:
        if const.__class__ is code.__class__:
            if const.co_name in names:
                const = _renamed(const, names, prefix)
                _generated_code.add(const)
            else:
                const = _renamed_user_code(const, names, prefix + const.co_name)
        consts.append(const)
    return code.replace(co_consts=tuple(consts))


def _renamed_user_code(code, names: frozenset, qualname: str):
    if code.co_flags & _NEWLOCALS:
        return _renamed(code, names, f"{qualname}.<locals>.").replace(co_qualname=qualname)
    # a class body: its `__qualname__` is a constant of its code
    old = code.co_qualname
    body = _renamed(code, names, f"{qualname}.")
    consts = tuple(qualname if const.__class__ is str and const == old else const for const in body.co_consts)
    return body.replace(co_consts=consts, co_qualname=qualname)


def _unbound_local(error: NameError, tb) -> bool:
    """Whether `error` is the read of an unbound variable of the converted function (running with `tb`'s
    first frame) in one of the functions the converters made: in the user's function, Python raises
    UnboundLocalError there, which is what the converted function raises too."""
    if tb is None or getattr(error, "name", None) not in tb.tb_frame.f_code.co_cellvars:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code in _generated_code


def raised_while_tracing(error: Exception, where: str) -> Exception:
    """`error`, raised by the user's code while `where` ("this `if` on a tensor") was being staged, with a
    note (PEP 678) that says so and why (autograph's and the frameworks' own errors are returned as they
    are): every branch and loop body is traced whatever the input, so it is raised even where Python would
    not raise it. It keeps its type, for the path where Python raises it too."""
    from autograph.errors import AutoGraphError
    if isinstance(error, AutoGraphError) or type(error).__module__.split(".")[0] in _FRAMEWORK_MODULES():
        return error
    if hasattr(error, "add_note") and not any(TRACING_NOTE in n for n in getattr(error, "__notes__", ())):
        error.add_note(at_user_line(
            f"{TRACING_NOTE} {where}: every branch (or loop body) of a statement on a tensor is traced, whether "
            "or not it runs for the input, so this is raised on every path. Check the value with the "
            "framework's assert (e.g. runtime.debugging.Assert), or move the code out of the statement."))
    return error


TRACING_NOTE = "(autograph) raised while tracing"


def _FRAMEWORK_MODULES() -> set:
    from autograph import backends
    return {prefix.split(".")[0] for prefix in backends.owned_module_prefixes()}
