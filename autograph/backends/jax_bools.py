"""Python bools that a staged `if` or loop carries under JAX: weakly typed ints, so that arithmetic is Python's.

Python's bool is an int: `True + True` is 2, `~True` is -2, `-True` is -1, `abs(True)` is 1. JAX's bool arrays
compute logically (`True + True` is True, `~True` is False) or refuse (`-`), and JAX has no hook on a tracer's
operators. So a Python bool that a staged statement carries is carried as the int 0 or 1, weakly typed (JAX's
default int), and the tracer that holds it is noted here (`note`):

- its arithmetic is the int's, which is Python's bool's (`s & False` is the int 0 where Python gives False: the
  same number);
- `if s:`, `while s:`, `not s` test it as the int (not zero); `not x` of a traced value is a Python bool
  too, so it is such an int, noted;
- `isinstance(s, bool)` and `type(s)` answer bool (the backend's `python_type`), `print(s)` shows True or False;
- the outermost converted function returns it as a bool array, and a function autograph does not convert (JAX's,
  `jnp.stack([found])`) gets it as one (`leaving`): `found = False; for x in xs: if x > t: found = True; return
  found` under `jax.jit` gives a bool, as JAX users expect of a flag.

A staged `if` gives a noted tracer for a variable both of whose branches give a Python bool (or a noted tracer);
a loop, for a variable that is one before it and after its body. A variable that a path makes a JAX bool (`found
= x > t`) is JAX's bool array after the statement, as it would be in Python after that path, and
computes as JAX's bools do; one that a path makes an int is an int (`python_type` refuses `isinstance(s,
bool)` there). Only a variable's own value is noted, not a bool inside a tuple or dict it holds.
"""
from __future__ import annotations

import weakref

import jax
import jax.numpy as jnp

_noted: dict = {}   # id(tracer) -> weakref to it, for the tracers holding a carried Python bool


def note(value) -> None:
    """Note `value`, a weakly typed 0-d int tracer, as holding a Python bool."""
    if isinstance(value, jax.core.Tracer):
        a = value.aval
        if a.shape == () and a.weak_type and a.dtype.kind in "iu":
            key = id(value)
            _noted[key] = weakref.ref(value, lambda ref, key=key: _noted.get(key) is ref and _noted.pop(key, None))


def is_noted(value) -> bool:
    """Does `value` hold a Python bool that a staged statement carried?"""
    ref = _noted.get(id(value))
    return ref is not None and ref() is value


def is_bool(value) -> bool:
    """A Python bool, or a tracer holding one."""
    return value.__class__ is bool or is_noted(value)


def as_shown(value):
    """A noted tracer as the bool array it stands for (for `print` and the value a function returns)."""
    return value.astype(bool) if is_noted(value) else value


def leaving(value):
    """The backend's `leaving`: what the outermost converted function returns, or the arguments converted code
    gives a function it does not convert (`jnp.stack([found])`), with noted tracers as bool arrays."""
    return _shown(value) if _noted else value


def _shown(value):
    """`value` with the noted tracers in it (through tuples, lists and dicts, which it rebuilds only where one
    is: not JAX's tree_map, which sorts a dict's keys) as bool arrays."""
    if value.__class__ in (tuple, list):
        items = [_shown(v) for v in value]
        return value if all(a is b for a, b in zip(items, value)) else value.__class__(items)
    if value.__class__ is dict:
        items = {k: _shown(v) for k, v in value.items()}
        return value if all(items[k] is v for k, v in value.items()) else items
    return as_shown(value)


def cond(run, pred, true_fn, false_fn, *rest):
    """`run(pred, true_fn, false_fn, *rest)` (a staged `if`), its outputs noted where both branches gave bools."""
    given: dict = {}

    def watched(fn, key):
        def branch():
            out = fn()
            given[key] = [is_bool(v) for v in out]
            return out
        return branch
    out = run(pred, watched(true_fn, True), watched(false_fn, False), *rest)
    for v, *bools in zip(out, given.get(True, ()), given.get(False, ())):
        if all(bools):
            note(v)
    return out


class Loop:
    """A staged loop's bools: `watch(fn, skip)` wraps its test or body (`skip` leading arguments before the
    values: the item of a `for`), noting the values it gets that were bools before the loop, and remembering
    which the body gives as bools; `after(out)` notes those of the loop's result."""

    def __init__(self, values):
        self.bools = [is_bool(v) for v in values]
        self.any = any(self.bools)
        self.given = self.bools

    def watch(self, fn, skip: int = 0, body: bool = False):
        if fn is None or not self.any:
            return fn

        def watched(*args):
            for v, b in zip(args[skip:], self.bools):
                if b:
                    note(v)
            out = fn(*args)
            if body:
                self.given = [is_bool(v) for v in out]
            return out
        return watched

    def after(self, out):
        if self.any:
            for v, b, g in zip(out, self.bools, self.given):
                if b and g:
                    note(v)
        return out


def from_array(b):
    """The Python bool a 0-d bool array makes (`not x` is one: Python's `not` gives a bool), as a noted int."""
    out = jnp.where(b, 1, 0)
    note(out)
    return out


def number_dtype(value):
    """The dtype a Python bool is carried in: JAX's default int (weakly typed: `_lift`)."""
    return jax.dtypes.canonicalize_dtype(jnp.int64)


# --- where a noted int meets an array by an operator, not a function: as the bool it stands for ---------------
#
# JAX gives a tracer's operators no hook, so its class's indexing and bitwise operators are wrapped (once, when
# this module is imported; with nothing noted they only look up an empty dict): an index holding a noted tracer,
# and a noted tracer beside a bool array in `&`, `|`, `^`, see the bool array it stands for. So `xs[found]` is
# JAX's answer for a traced bool (an error under `jax.jit`, as on a bool array) rather than row 1, and
# `found & mask` is a bool mask rather than an int array that would index rows.

def _as_bools(index):
    if index.__class__ is tuple:
        return tuple(as_shown(i) for i in index)
    return as_shown(index)


def _guard_getitem(original):
    def getitem(self, index):
        return original(self, _as_bools(index) if _noted else index)
    return getitem


def _guard_bitwise(original):
    def bitwise(self, other):
        if _noted and (is_noted(self) or is_noted(other)):
            self_bool = is_noted(self) and getattr(getattr(other, "dtype", None), "kind", "") == "b"
            other_bool = is_noted(other) and getattr(getattr(self, "dtype", None), "kind", "") == "b"
            if self_bool or other_bool:
                return original(as_shown(self), as_shown(other))
        return original(self, other)
    return bitwise


def _install() -> None:
    tracer = jax.core.Tracer
    if getattr(tracer.__getitem__, "_autograph_bools", False):
        return
    tracer.__getitem__ = _guard_getitem(tracer.__getitem__)
    for name in ("__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__"):
        setattr(tracer, name, _guard_bitwise(getattr(tracer, name)))
    tracer.__getitem__._autograph_bools = True


_install()
