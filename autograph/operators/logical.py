"""`and`, `or`, `not`: lazy, with Python's short-circuit values on Python values.

A Python `bool` is tested inline before any backend lookup: generated code calls these once per
evaluation of the expression, so on Python values they should cost little more than the call.
"""
from __future__ import annotations

from autograph.backends import backend_for


def and_(a_fn, b_fn):
    """`a and b` as `and_(lambda: a, lambda: b)`."""
    a = a_fn()
    if a.__class__ is bool or (backend := backend_for(a)) is None:
        return b_fn() if a else a
    return backend.need("logical_and", "`and` on a tensor")(a, b_fn)


def or_(a_fn, b_fn):
    """`a or b` as `or_(lambda: a, lambda: b)`."""
    a = a_fn()
    if a.__class__ is bool or (backend := backend_for(a)) is None:
        return a if a else b_fn()
    return backend.need("logical_or", "`or` on a tensor")(a, b_fn)


def not_(a):
    """`not a`."""
    if a.__class__ is bool or (backend := backend_for(a)) is None:
        return not a
    return backend.need("logical_not", "`not` on a tensor")(a)
