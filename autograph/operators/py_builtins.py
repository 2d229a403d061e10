"""Overloads of Python builtins that generated code calls through `converted_call`.

Each behaves exactly like the builtin on Python values and uses the backend's
version when an argument is a staged value. `converted_call` maps a call of a
builtin to its overload through `BUILTIN_OVERLOADS`.
"""
from __future__ import annotations

import builtins
import collections.abc
import operator
import sys
import warnings

from autograph.backends import backend_for, backend_for_any, registered
from autograph.backends.stacked_list import StackedList
from autograph.errors import StagingError, at_user_line
from autograph.operators import callers, side_effects
from autograph.operators.function_scope import tracing_failed
from autograph.operators.control_flow import if_exp
from autograph.operators.logical import staged_operands, truth
from autograph.operators.maybe import MaybeValue
from autograph.operators.strings import StagedText, contains, formatted, fstring, holds_text, reading_text


def len_(value):
    """`len(value)`; the backend's `len` for a staged value. (Of text formatted from a staged value,
    `strings.StagedText`, it is refused there: its length is known only when the graph runs.)"""
    backend = backend_for(value)
    if backend is not None and backend.len is not None:
        return backend.len(value)
    return builtins.len(value)


def range_(*args):
    """`range(...)`; the backend's `range` when a bound is staged."""
    backend = backend_for_any(args)
    if backend is None:
        return builtins.range(*args)
    return backend.need("range", "`range` with tensor bounds")(*args)


def enumerate_(iterable, start=0):
    """`enumerate(iterable, start)`; the backend's `enumerate` over a staged value."""
    backend = backend_for(iterable)
    if backend is None:
        return builtins.enumerate(iterable, start)
    return backend.need("enumerate", "`enumerate` over a tensor")(iterable, start)


def zip_(*iterables, **kwargs):
    """`zip(...)`; the backend's `zip` when one of the iterables is staged."""
    backend = backend_for_any(iterables)
    if backend is None:
        return builtins.zip(*iterables, **kwargs)
    _no_python_iterators(iterables, "zip")
    return backend.need("zip", "`zip` over tensors")(*iterables, **kwargs)


def _no_python_iterators(iterables, what: str) -> None:
    """A staged loop can't take items from a Python iterator or generator one at a time: it is consumed
    while tracing, not when the loop runs."""
    for value in iterables:
        if isinstance(value, collections.abc.Iterator):
            raise tracing_failed(StagingError(at_user_line(
                f"`{what}` of a Python iterator ({type(value).__name__}) with a tensor: the loop is staged, and a "
                "staged loop can't take the iterator's items one at a time when it runs. Make it a list "
                "(`list(it)`) or a tensor first, or loop over Python values only.")))


def abs_(value):
    """`abs(value)`: Python's, which calls the value's `__abs__` (tensors define it)."""
    return builtins.abs(value)


def _extreme(builtin, greater: bool):
    def extreme(*args, **kwargs):
        if not args or (len(args) > 1 and "default" in kwargs) or not set(kwargs) <= {"key", "default"}:
            return builtin(*args, **kwargs)      # Python's TypeError
        key = kwargs.get("key")
        what = f"{builtin.__name__}(...)"
        best = best_key = _NOTHING
        # CPython's loop: each item taken, its key computed and compared with the best so far in turn; the
        # new item wins only if it compares strictly greater (smaller), so the first of equal items is kept,
        # and a NaN compares false both ways. A comparison of staged values is staged: `b if b > a else a`.
        for item in (args[0] if len(args) == 1 else args):
            item_key = key(item) if key is not None else item
            if best is _NOTHING:
                best, best_key = item, item_key
                continue
            wins = item_key > best_key if greater else item_key < best_key
            if key is not None:
                best_key = if_exp(wins, lambda: item_key, lambda: best_key, what)
            best = if_exp(wins, lambda: item, lambda: best, what)
            best_key = best if key is None else best_key
        if best is _NOTHING:
            return builtin((), **kwargs)         # the default, or Python's ValueError for an empty iterable
        return best
    extreme.__name__ = f"{builtin.__name__}_"
    extreme.__doc__ = (f"`{builtin.__name__}(...)`: Python's loop over the items, whose comparisons of staged values "
                       "are staged (`b if b > a else a`): `max(x, 0)` of a traced scalar is chosen when the graph "
                       "runs, as Python chooses.")
    return extreme


_NOTHING = object()


max_ = _extreme(builtins.max, greater=True)
min_ = _extreme(builtins.min, greater=False)


def _staged_cast(builtin, capability: str):
    def cast(*args, **kwargs):   # the builtin's own arguments (`int('ff', base=16)`, `float()`)
        backend = backend_for(args[0]) if len(args) == 1 and not kwargs else None
        if backend is None:
            return builtin(*args, **kwargs)
        return backend.need(capability, f"`{builtin.__name__}()` of a tensor")(args[0])
    cast.__name__ = f"{builtin.__name__}_"
    cast.__doc__ = (f"`{builtin.__name__}(value)`; the backend's `{capability}` for a staged value "
                    f"(Python's `{builtin.__name__}` would need its concrete value).")
    return cast


int_ = reading_text(_staged_cast(builtins.int, "int"))
float_ = reading_text(_staged_cast(builtins.float, "float"))


def _formatting(builtin, conversion: str):
    def text(*args, **kwargs):   # the builtin's own arguments (`str(b, 'utf-8')`, `format(x, '.2f')`)
        if (kwargs or not 1 <= len(args) <= (2 if builtin is builtins.format else 1)
                or backend_for(args[0]) is None and not holds_text(args[0])):
            return builtin(*args, **kwargs)
        return fstring(formatted(args[0], conversion, *args[1:]))
    text.__name__ = f"{builtin.__name__}_"
    text.__doc__ = (f"`{builtin.__name__}(value)`: of a staged value, the f-string `f'{{value!{conversion}}}'` is "
                    "(operators/strings.py): formatted when the graph runs, where the graph takes it.")
    return text


str_ = _formatting(builtins.str, "s")
repr_ = _formatting(builtins.repr, "r")
format_ = _formatting(builtins.format, "")


def globals_():
    """`globals()`: the globals of the converted code that calls it (`ag__.callee(globals, fscope)()`), its
    module's; builtins' `globals` would give those of autograph's frame that calls it."""
    return sys._getframe(1).f_globals


def isinstance_(value, classinfo) -> bool:
    """`isinstance`: a passthrough (a staged value is an instance of its own type), but a Python number or bool
    that a staged statement carries is asked as the Python value it holds (the backend's `python_type`). A
    variable a staged statement defines on some paths only is asked about its value: where it is unassigned, the
    read raises Python's UnboundLocalError when the graph runs; where it is None and the answer differs, the
    answer depends on the path."""
    if value.__class__ is not MaybeValue:
        return _python_isinstance(value, classinfo)
    answer = _python_isinstance(value.value, classinfo)
    if value.defined is True or answer == builtins.isinstance(None, classinfo) and value.none:
        return answer
    if not value.none:
        value.read("isinstance")   # was the answer where Python's read of it raises
        return answer
    raise _path_dependent(value, "isinstance")


def _path_dependent(value: MaybeValue, builtin: str) -> BaseException:
    kinds = _python_types(value.value)
    kind = (kinds[0] if kinds else type(value.value)).__name__
    return tracing_failed(StagingError(at_user_line(
        f"`{builtin}({value.name}{', ...' if builtin == 'isinstance' else ''})`: '{value.name}' is None on some "
        f"paths ({value.why}) and {'an' if kind[0] in 'aeiou' else 'a'} {kind} on others, so the answer is known "
        f"only when the graph runs. Test `{value.name} is None` instead, which is staged.")))


def _python_types(value):
    """The Python types a staged value holds when a staged statement carries a Python number or bool in it, or
    a Python list (after a staged loop: a backend's `StackedList`)."""
    if isinstance(value, StackedList):
        return (list,)
    backend = backend_for(value)
    return backend.python_type(value) if backend is not None and backend.python_type is not None else None


def _python_isinstance(value, classinfo) -> bool:
    """A Python number a staged statement carries is an instance of its Python type, and still of the tensor's
    (`isinstance(v, tf.Tensor)` before converting `v` keeps working)."""
    kinds = _python_types(value)
    if kinds is None or builtins.isinstance(value, classinfo):
        return builtins.isinstance(value, classinfo)
    answers = {builtins.issubclass(kind, classinfo) for kind in kinds}
    if len(answers) == 1:
        return answers.pop()
    raise _either_type("isinstance", value, kinds)


def _either_type(builtin: str, value, kinds: tuple) -> BaseException:
    """The refusal where `python_type` gives two types whose answers differ."""
    numbers = [kind.__name__ for kind in (bool, int, float, complex) if kind in kinds]
    if len(numbers) == len(kinds):   # Python numbers of two types (int and float, bool and int)
        return tracing_failed(StagingError(at_user_line(
            f"`{builtin}(...)` of a variable that is a Python {numbers[0]} on some paths and "
            f"{'an' if numbers[1] == 'int' else 'a'} {numbers[1]} on others, which the staged `if` or loop that "
            "assigns it carries as one tensor: the answer is known only when the graph runs. Make it one type on "
            f"every path ({'1.0 for 1' if set(kinds) == {int, float} else 'int(b) for a bool b'}).")))
    array = next(kind for kind in kinds if kind not in (bool, int, float, complex))
    name = backend_for(value).name
    return tracing_failed(StagingError(at_user_line(
        f"`{builtin}(...)` of a value the {name} backend holds as an array, which may stand for a Python "
        f"{' or '.join(numbers)} (one a staged `if` or loop carries, or a Python scalar given to the traced "
        f"function) or be a {name} {array.__name__} (on other paths, or computed from one), and Python's answers "
        "differ. Ask before the staged statement, or ask its dtype (x.dtype).")))


def type_(*args, **kwargs):
    """`type(value)`: a Python number or bool a staged statement carries is of its Python type (the backend's
    `python_type`), as `isinstance` answers; text formatted from a staged value (strings.StagedText) is a str;
    any other value is of its own type."""
    if len(args) == 1 and not kwargs and args[0].__class__ is MaybeValue:
        value = args[0]
        if value.none and value.defined is not True:
            raise _path_dependent(value, "type")
        args = (value.read("type"),)
    kinds = _python_types(args[0]) if len(args) == 1 and not kwargs else None
    if kinds is None:
        return str if len(args) == 1 and args[0].__class__ is StagedText else builtins.type(*args, **kwargs)
    if len(kinds) == 1:
        return kinds[0]
    raise _either_type("type", args[0], kinds)


def print_(*args, **kwargs):
    """`print(...)`; the backend's `print` (run every time the graph runs) when an argument is staged and
    the backend stages `print`, and inside a branch or loop body being staged (a `print("here")` in a staged
    branch prints when that branch runs, as Python's; at trace time both branches would print; one with `file=`
    stays Python's, a trace-time message). A backend
    without a `print` capability (runtime, as TensorFlow) keeps Python's: it runs while tracing and shows the
    staged values themselves."""
    backend = backend_for_any(args)
    if backend is None and kwargs.get("file") is None and side_effects.inside_staged():
        backend = staging_printer()
    if backend is None or backend.print is None:
        return builtins.print(*args, **kwargs)
    return backend.print(*args, **kwargs)


def staging_printer():
    """In a branch or loop body being traced, where a `print` of Python values alone would run once, at trace
    time, on every path (both branches print): the staging backend with a `print` (it runs where the branch or
    iteration does, as Python's), or None."""
    for backend in registered():
        if backend.print is not None and backend.is_staging is not None and backend.is_staging():
            return backend
    return None


def assert_stmt(condition, message_fn=None):
    """`assert condition, message`; the message is built only when it is needed. On a tensor the backend
    builds it while tracing, whatever the condition: like an operand of `and`, it is checked not to change
    what exists before it (`assert x > 0, log(x)`), a change Python makes only when the assertion fails."""
    if condition.__class__ is MaybeValue:   # defined on some staged paths only (None on others: false there)
        condition = truth(condition, "assert")
    backend = backend_for(condition)
    if backend is None:
        if not condition:
            raise AssertionError(message_fn()) if message_fn is not None else AssertionError()
        return None
    assert_ = backend.need("assert_", "`assert` on a tensor")
    if message_fn is None:
        return assert_(condition, None)
    return staged_operands(assert_, "`assert`", condition, message_fn)


BUILTIN_OVERLOADS = {
    builtins.len: len_, builtins.range: range_, builtins.enumerate: enumerate_, builtins.zip: zip_,
    builtins.print: print_, builtins.abs: abs_, builtins.int: int_, builtins.float: float_,
    builtins.isinstance: isinstance_, builtins.globals: globals_, builtins.max: max_, builtins.min: min_,
    warnings.warn: callers.warn, builtins.str: str_, builtins.repr: repr_, builtins.format: format_,
    builtins.type: type_, operator.contains: contains,
    **{f: reading_text(f) for f in (builtins.complex, builtins.bytes, builtins.bytearray, builtins.ord)},
}
