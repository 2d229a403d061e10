"""Errors raised by autograph. Each names the user's file and line and says what to do.

Every class also subclasses the matching builtin, so `except ValueError`
(or `TypeError`, `NotImplementedError`) catches it too.
"""
from __future__ import annotations

import linecache
import os
import sys
import sysconfig
import types
from typing import Optional


class AutoGraphError(Exception):
    """Base class of the errors autograph raises because of user code."""


class ConversionError(AutoGraphError, ValueError):
    """The function can't be converted, for a reason known from its source alone.

    For example a `yield` (generators can't be converted), an `async def`,
    or `set_loop_options` with a positional argument:

        def f(n):
            for i in range(n):
                yield i        # ConversionError: file.py:3:9: generators (`yield`) can't be converted; ...

    Fix: rewrite the construct as the message says, or mark the function with
    `autograph.do_not_convert` to run it unconverted.
    """

    def __init__(self, message: str, filename: str = "<unknown>", lineno: int = 0, col: int = 0):
        self.message, self.filename, self.lineno, self.col = message, filename, lineno, col
        super().__init__(_located(message, filename, lineno, col))


class SourceUnavailableError(AutoGraphError, ValueError):
    """The function's source can't be read (built-in, C extension, made by exec).

    `convert` calls such a function unconverted, with one warning; pass
    source-backed functions to convert their control flow.
    """


class StagingError(AutoGraphError, ValueError):
    """Control flow over a framework's tensors can't be staged as written.

    For example a variable set in only one branch of an `if` whose condition
    is a tensor and used after it, or a loop variable that changes dtype:

        if tf.reduce_sum(x) > 0:
            y = x            # StagingError: 'y' is set in only one branch ...
        return y

    Fix: give the variable a value before the `if` (or in both branches).
    """


class UnsupportedCapabilityError(AutoGraphError, NotImplementedError):
    """A framework's backend does not support a construct (e.g. no while loop)."""


class TracingFailed(BaseException):
    """Internal: carries an exception raised while a statement was being staged (a branch or loop body traced
    for a tensor condition) past the converted function's own `except` clauses, which would otherwise catch
    it as if the code had run: in the graph it would happen only on the path that runs, or (an autograph
    error) the statement can't be staged at all. The outermost converted function's scope raises the
    original exception again (operators/function_scope.py). A BaseException, like KeyboardInterrupt, so
    that `except Exception` lets it through."""

    def __init__(self, error: Exception):
        super().__init__(error)
        self.error = error


def _located(message: str, filename: str, lineno: int, col: int) -> str:
    text = f"{filename}:{lineno}:{col + 1}: {message}" if lineno else message
    line = linecache.getline(filename, lineno).rstrip() if lineno else ""
    return f"{text}\n    {line.strip()}" if line.strip() else text


def _internal_module(name: str) -> bool:
    from autograph import backends

    prefixes = ("autograph",) + backends.owned_module_prefixes()
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def internal_frame(frame) -> bool:
    """Whether `frame` runs autograph's or a registered framework's code, or code a framework made with
    `eval`/`exec` (torch's tracers call the functions they trace through such a lambda): no user's line."""
    name = frame.f_globals.get("__name__")
    if name is None:
        return frame.f_code.co_filename.startswith("<")
    return _internal_module(name)


_STDLIB = os.path.join(sysconfig.get_paths()["stdlib"], "")
_stdlib_files: dict = {}   # file name -> whether it is a module of Python's standard library


def _stdlib_frame(frame) -> bool:
    """Whether `frame` runs a module of Python's standard library (not one installed in site-packages):
    `string.Formatter.vformat` calling autograph's `format_field`, say."""
    filename = frame.f_code.co_filename
    found = _stdlib_files.get(filename)
    if found is None:
        parts = filename.split(os.sep)
        found = _stdlib_files[filename] = filename.startswith(_STDLIB) and not (
            "site-packages" in parts or "dist-packages" in parts)
    return found


def user_location(depth: int = 1) -> Optional[tuple[str, int]]:
    """(file, line) of the innermost frame outside autograph, the registered frameworks and Python's standard
    library.

    Converted code is compiled with the user's file and line numbers, so for an
    operator called from converted code this is the user's statement."""
    frame = sys._getframe(depth)
    while frame is not None:
        if not (internal_frame(frame) or _stdlib_frame(frame)):
            return frame.f_code.co_filename, frame.f_lineno
        frame = frame.f_back
    return None


def at_user_line(message: str) -> str:
    """`message` prefixed with the user's file:line and followed by the line's source."""
    where = user_location(2)
    if where is None:
        return message
    filename, lineno = where
    line = linecache.getline(filename, lineno).strip()
    return f"{filename}:{lineno}: {message}" + (f"\n    {line}" if line else "")


# --- tracebacks: the user's frames, not ours ----------------------------------------------------------

_filtering = True


def enable_traceback_filtering() -> None:
    """Show only the user's frames in tracebacks of errors raised through converted code (the default)."""
    global _filtering
    _filtering = True


def disable_traceback_filtering() -> None:
    """Show every frame, autograph's and the registered frameworks' included (for debugging autograph)."""
    global _filtering
    _filtering = False


def is_traceback_filtering_enabled() -> bool:
    return _filtering


def filter_traceback(error: BaseException) -> BaseException:
    """`error` with autograph's and the registered frameworks' frames removed from its traceback, as
    TensorFlow's error handling does; the traceback is left whole when filtering is disabled
    (`disable_traceback_filtering`) or when every frame is ours (a bug of ours: all of it is needed)."""
    if not _filtering:
        return error
    kept = []
    tb = error.__traceback__
    while tb is not None:
        if not internal_frame(tb.tb_frame):
            kept.append(tb)
        tb = tb.tb_next
    if not kept:
        return error
    filtered = None
    for tb in reversed(kept):
        filtered = types.TracebackType(filtered, tb.tb_frame, tb.tb_lasti, tb.tb_lineno)
    return error.with_traceback(filtered)
