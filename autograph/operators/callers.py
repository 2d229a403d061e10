"""Overloads of the library functions that find the line that called them by looking at the stack: `warnings.warn`
and `logging`'s `Logger.info` and the like.

Converted code calls a function through `converted_call`, a frame of autograph's between the user's statement
and the function: `warnings.warn("x")` named `converted_call`'s file and line, `logger.info` its function. These
overloads find the frame Python would have found (`stacklevel` frames up from the user's statement, counting the
functions autograph made for branches and loop bodies as part of the user's function) and report it.
"""
from __future__ import annotations

import logging
import sys
import warnings

from autograph.errors import _internal_module
from autograph.operators.function_scope import is_generated


def _user_frame(stacklevel: int, depth: int):
    """The frame `stacklevel` functions of the user's up from the converted code that called the overload
    (`depth` frames up from here): autograph's frames, and the branch and loop-body functions it made, are not
    counted. None if the stack is not that deep."""
    frame = sys._getframe(depth + 1)
    while frame is not None:
        if not _internal_module(frame.f_globals.get("__name__", "")) and not is_generated(frame.f_code):
            stacklevel -= 1
            if stacklevel <= 0:
                return frame
        frame = frame.f_back
    return None


def warn(message, category=None, stacklevel=1, source=None):
    """`warnings.warn`, reporting the user's line (see the module docstring)."""
    frame = _user_frame(stacklevel, 1)
    if frame is None:
        return warnings.warn(message, category, stacklevel, source)
    if isinstance(message, Warning):
        category = message.__class__
    module = frame.f_globals
    return warnings.warn_explicit(message, category or UserWarning, frame.f_code.co_filename, frame.f_lineno,
                                  module.get("__name__", "<string>"), module.setdefault("__warningregistry__", {}),
                                  module, source)


def _logging(method):
    """`method` (a Logger's, or the logging module's function) with the `stacklevel` that makes logging find
    the user's frame: logging counts the frames that are not its own, autograph's among them."""
    def call(*args, stacklevel=1, **kwargs):
        here = sys._getframe(0)
        target = _user_frame(stacklevel, 1)
        if target is None:
            return method(*args, stacklevel=stacklevel, **kwargs)
        frame, count = here, 0
        while frame is not None:
            count += not logging._is_internal_frame(frame)
            if frame is target:
                break
            frame = frame.f_back
        return method(*args, stacklevel=count, **kwargs)
    call.__name__ = call.__qualname__ = method.__name__
    call.__doc__ = method.__doc__
    return call


_LOGGING_NAMES = ("debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log")

CALLER_OVERLOADS = {
    **{getattr(logging.Logger, name): _logging(getattr(logging.Logger, name)) for name in _LOGGING_NAMES},
    **{getattr(logging, name): _logging(getattr(logging, name)) for name in _LOGGING_NAMES},
}
"""The library's Python functions (not builtins: those are `py_builtins.BUILTIN_OVERLOADS`) that converted code
calls through an overload."""
