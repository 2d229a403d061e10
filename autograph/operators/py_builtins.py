"""Overloads of Python builtins that generated code calls through `converted_call`.

Each behaves exactly like the builtin on Python values and uses the backend's
version when an argument is a staged value.
"""
from __future__ import annotations

import builtins

from autograph.backends import backend_for, backend_for_any


def len_(value):
    backend = backend_for(value)
    if backend is not None and backend.len is not None:
        return backend.len(value)
    return builtins.len(value)


def range_(*args):
    backend = backend_for_any(args)
    if backend is None:
        return builtins.range(*args)
    return backend.need("range", "`range` with tensor bounds")(*args)


def print_(*args, **kwargs):
    backend = backend_for_any(args)
    if backend is None:
        return builtins.print(*args, **kwargs)
    return backend.need("print", "`print` of a tensor")(*args, **kwargs)


def assert_stmt(condition, message_fn=None):
    """`assert condition, message`."""
    backend = backend_for(condition)
    if backend is None:
        if not condition:
            raise AssertionError(message_fn()) if message_fn is not None else AssertionError()
        return None
    return backend.need("assert_", "`assert` on a tensor")(condition, message_fn)


BUILTIN_OVERLOADS = {builtins.len: len_, builtins.range: range_, builtins.print: print_}
