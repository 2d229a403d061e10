"""Exceptions in generated code: a `finally:` block that jumps discards the exception in flight; a `with`
does not swallow an error that means tracing failed."""
from __future__ import annotations

import sys

from autograph import backends


def caught_exception():
    """The exception being handled (inside an `except` clause of generated code: the one that runs a `finally:`
    block a jump leaves, converters/lowering.py), to raise again after the `finally:` code.

    Read this way, not bound with `except ... as e`: Python deletes that name when the clause ends, and
    a loop body that carries its variables would read it afterwards. An error meaning tracing failed (a staged
    value met where Python needs a value) is raised again at once: a `return`, `break` or `continue` in the
    `finally:` block would discard it, and tracing would go on as if the `try` body had run, to a wrong value.
    On Python values it is never raised."""
    error = sys.exc_info()[1]
    if isinstance(error, backends.tracing_errors()):
        raise error
    return error


def context(manager):
    """`with manager:` in converted code (converters/exceptions.py): the manager's own `__enter__` and
    `__exit__`, except that an exit that would swallow an error meaning tracing failed lets it through: a
    framework's error for Python meeting a staged value (`x.item()` on a JAX tracer, `bool` of a symbolic
    tensor) or autograph's carrier of a failed staging (`backends.tracing_errors()`). On Python values they
    are never raised; swallowed, tracing would go on as if the statement had run (`contextlib.suppress`)."""
    cls = type(manager)
    enter, exit_ = _special(cls, manager, "__enter__"), _special(cls, manager, "__exit__")
    if enter is None:
        raise TypeError(f"'{cls.__name__}' object does not support the context manager protocol")
    if exit_ is None:
        raise TypeError(f"'{cls.__name__}' object does not support the context manager protocol (missed __exit__ "
                        "method)")
    return _Context(enter, exit_)


def _special(cls, manager, name: str):
    """`manager.<name>` looked up as Python looks up a special method: on the type, bound by its descriptor
    (a staticmethod stays unbound), or None."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            attr = klass.__dict__[name]
            get = getattr(type(attr), "__get__", None)
            return attr if get is None else get(attr, manager, cls)
    return None


class _Context:
    __slots__ = ("_enter", "_exit")

    def __init__(self, enter, exit_):
        self._enter, self._exit = enter, exit_

    def __enter__(self):
        return self._enter()

    def __exit__(self, kind, error, traceback):
        swallowed = self._exit(kind, error, traceback)
        if swallowed and error is not None and isinstance(error, backends.tracing_errors()):
            return False
        return swallowed
