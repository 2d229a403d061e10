"""The Python values a traced function reads from outside itself: its module's globals and its closure's cells,
and those of the user functions it refers to.

A graph holds such a value as it was while tracing (`k` in `return x * k` is a constant in the graph), so once
the program rebinds it (`k = 3`) the graph's answer is no longer Python's. TensorFlow keeps the graph and gives
the stale answer without a word; `Function` traces again instead, as it does for a new Python argument, and
says why in its retracing warning. What is compared, on every call, for each name read:
- the object it is bound to (`is`): rebinding a global, a closure's variable or a helper function is seen;
- for a Python scalar (int, float, bool, str, ...) equal values of the same type count as the same (0.0 and
  -0.0 do not).
A method's `self` is compared too, attribute by attribute, for the attributes its code names (`self.scale`,
`self.training`) and the code it calls does (its class's methods and properties it names, the lambdas in it,
the user functions it refers to, which may be given `self`; in its `__dict__` or its `__slots__`), but not the
objects they hold.
A change inside an object (`config["scale"] = 3`, an attribute of a global object) is not seen: the graph keeps
what it read while tracing, as in TensorFlow (docs/limitations.md). Comparing contents would trace again
whenever a function's own log (`traces.append(...)` while tracing, a `py_function`'s list) grows. Modules and
the functions and classes of libraries (`autograph.backends.library_module`) are not compared: rebinding them
is not something a program does between calls.
"""
from __future__ import annotations

import dis
import functools
import inspect
import types
import weakref
from typing import Optional

from autograph.backends import library_module

_SCALARS = (int, float, complex, str, bytes, bool, type(None))
_CALLABLES = (types.FunctionType, types.MethodType, functools.partial, types.BuiltinFunctionType)
_MISSING = object()


class Reads:
    """The values a trace read from outside the function (`of(fn)` after tracing); `changed()` names the first
    one the program has rebound since, or is None."""

    __slots__ = ("_entries",)

    def __init__(self, entries: list):
        self._entries = entries   # (a globals dict or a cell, the name or None, the value, a label)

    def changed(self) -> Optional[str]:
        for space, name, value, label in self._entries:
            now = space.get(name, _MISSING) if name is not None else _cell_value(space)
            if now is not value and not _same_scalar(now, value):
                return f"{label}: {_shown(value)} -> {_shown(now)}"
        return None


def _same_scalar(now, value) -> bool:
    """Equal Python scalars of one type; floats (and complex numbers) with the same signs of zero too (`1 / k`
    is inf for 0.0 and -inf for -0.0, which compare equal)."""
    if now.__class__ not in _SCALARS or now.__class__ is not value.__class__ or now != value:
        return False
    return now.__class__ not in (float, complex) or repr(now) == repr(value)


def of(fn) -> Optional[Reads]:
    """What `fn` and the user functions it refers to read from their globals and closures, as bound now; None
    if nothing is to be compared. A name one of them assigns (`global count; count += 1`, a `nonlocal`) is
    left out: it changes with the trace itself (what Python would do on each call happens while tracing)."""
    entries, seen, stored = [], {}, set()
    function, method = _unwrapped(fn)
    _visit(function, entries, seen, stored)
    if method is not None:
        methods = _methods(method)   # the method, and the methods and properties of its class it calls
        for called in methods:
            _visit(called, entries, seen, stored)
        _attributes(method, list(seen.values()), methods, entries)
    kept: dict = {}   # one entry for each global or cell, however many of the functions read it
    for entry in entries:
        kept.setdefault((id(entry[0]), entry[1]), entry)
    entries = [entry for key, entry in kept.items() if key not in stored]
    return Reads(entries) if entries else None


def _function_of(fn):
    """The Python function a method, a `functools.partial` or a wrapper (`runtime.function`'s) runs."""
    return _unwrapped(fn)[0]


def _unwrapped(fn) -> tuple:
    """The Python function `fn` runs (through a method, a `functools.partial`, a wrapper with `__wrapped__`, an
    object of the user's class with a `__call__`: `tf.function(model)`), and the first bound method on the way
    (None if none): its `self`'s attributes are compared."""
    method = None
    for _ in range(8):   # a few levels (a Mock has any attribute, at any depth)
        if isinstance(fn, types.FunctionType):
            return fn, method
        if isinstance(fn, types.MethodType):
            method = method or fn
            fn = fn.__func__
        elif isinstance(fn, functools.partial):
            fn = fn.func
        else:
            wrapped, call = getattr(fn, "__wrapped__", None), getattr(type(fn), "__call__", None)
            if wrapped is None and isinstance(call, types.FunctionType) and _compared(call):
                wrapped = types.MethodType(call, fn)
            fn = wrapped
    return fn, method


def _visit(fn, entries: list, seen: dict, stored: set) -> None:
    if not isinstance(fn, types.FunctionType) or id(fn) in seen:
        return
    seen[id(fn)] = fn
    code, namespace = fn.__code__, fn.__globals__
    loaded, assigned_globals, assigned_free = _names(code)
    stored.update((id(namespace), name) for name in assigned_globals)
    cells = dict(zip(code.co_freevars, fn.__closure__ or ()))
    stored.update((id(cells[name]), None) for name in assigned_free if name in cells)
    for name in sorted(loaded):
        value = namespace.get(name, _MISSING)
        if value is not _MISSING and _compared(value):
            entries.append((namespace, name, value, f"global '{name}' of {fn.__qualname__}"))
            for function in _functions_of(value):
                _visit(function, entries, seen, stored)
    for name, cell in cells.items():
        value = _cell_value(cell)
        if value is not _MISSING and _compared(value):
            entries.append((cell, None, value, f"'{name}' of {fn.__qualname__}'s closure"))
            for function in _functions_of(value):
                _visit(function, entries, seen, stored)


def _functions_of(value) -> list:
    """The user functions a global or closure variable runs: a function's, a method's, ...; a class of the user's
    (or an object of one): those of its methods, properties, static and class methods (`Helper().apply(x)`)."""
    if not isinstance(value, type):   # an object of a class of the user's: its class's too (`helper.apply(x)`)
        cls = type(value)
        user = cls.__module__ and _compared(cls) and not issubclass(cls, _CALLABLES)
        return [_function_of(value), *(_functions_of(cls) if user else ())]
    members = [m for cls in value.__mro__ if _compared(cls) for m in vars(cls).values()]
    functions = [_function_of(m.fget) if isinstance(m, property) else
                 _function_of(m.__func__) if isinstance(m, (staticmethod, classmethod)) else
                 _function_of(m) if isinstance(m, types.FunctionType) or "__wrapped__" in getattr(m, "__dict__", ())
                 else None for m in members]   # a function; a `tf.function` of one (its `__wrapped__`)
    return [f for f in functions if f is not None][:64]


def _attributes(method: types.MethodType, functions: list, methods: list, entries: list) -> None:
    """The attributes of the method's `self` that the code of `functions` names (`self.scale`; the method's, the
    methods and properties of its class it calls, `self.helper(x)`, and the user's functions it calls, which may
    be given `self`), as bound now; but those that `methods` (its class's) set on `self`."""
    owner = method.__self__
    slots = {name for cls in type(owner).__mro__ for name in _slot_names(cls)}
    weak = hasattr(type(owner), "__weakref__")
    attributes = (_Slots(owner, slots) if weak else None) if slots else getattr(owner, "__dict__", None)
    if attributes is None:   # slots without weak references: a method's `Function` is not cached for it
        return
    named, assigned = set(), set()
    for fn in functions:
        named |= _attribute_names(fn.__code__)[0]
    for fn in methods:
        assigned |= _attribute_names(fn.__code__)[1]
    for name in sorted(named - assigned):
        value = attributes.get(name, _MISSING)
        if value is not _MISSING and _compared(value):
            entries.append((attributes, name, value, f"'self.{name}' of {method.__func__.__qualname__}"))


def _slot_names(cls) -> tuple:
    names = cls.__dict__.get("__slots__", ())
    return ((names,) if isinstance(names, str) else tuple(names)) if cls is not object else ()


class _Slots:
    """The attributes of an object whose class has `__slots__` (and maybe a `__dict__` too), read as a dict's
    `get`; it holds the object weakly (a method's `self`, which the bound `Function` is cached under)."""

    __slots__ = ("_owner", "_names")

    def __init__(self, owner, names: set):
        self._owner, self._names = weakref.ref(owner), names

    def get(self, name: str, default=None):
        owner = self._owner()
        if owner is None:
            return default
        if name in self._names:
            return getattr(owner, name, default)
        return getattr(owner, "__dict__", {}).get(name, default)


def _methods(method: types.MethodType) -> list:
    """The method's function and the user functions of its class (methods, properties, static and class methods)
    that its code names as attributes, and theirs in turn (a few dozen at most)."""
    cls, found, queue, seen = type(method.__self__), [], [_function_of(method)], set()
    while queue and len(found) < 64:
        fn = queue.pop()
        if not isinstance(fn, types.FunctionType) or id(fn) in seen or not _compared(fn):
            continue
        seen.add(id(fn))
        found.append(fn)
        for name in sorted(_attribute_names(fn.__code__)[0]):
            member = inspect.getattr_static(cls, name, None)   # the class's, not the instance's; no descriptor runs
            if isinstance(member, property):
                queue += [member.fget, member.fset]
            elif isinstance(member, (staticmethod, classmethod)):
                queue.append(member.__func__)
            elif member is not None:
                queue.append(_function_of(member))
    return found


@functools.lru_cache(maxsize=4096)
def _attribute_names(code: types.CodeType, owner: Optional[str] = None) -> tuple[frozenset, frozenset]:
    """The attribute names `code` (and the code nested in it) loads, and those it assigns or deletes on its first
    parameter (`owner` in nested code: `self`), not on other objects (`layer.training = self.training` leaves
    `self.training` compared)."""
    if owner is None:
        owner = code.co_varnames[0] if code.co_argcount else ""
    named, assigned = set(), set()
    instructions = list(dis.get_instructions(code))
    for i, ins in enumerate(instructions):
        if ins.opname in ("LOAD_ATTR", "LOAD_METHOD"):
            named.add(ins.argval)
        elif ins.opname in ("STORE_ATTR", "DELETE_ATTR") and _on_owner(instructions, i, owner):
            assigned.add(ins.argval)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            inner_named, inner_assigned = _attribute_names(const, owner)
            named |= inner_named
            assigned |= inner_assigned
    return frozenset(named), frozenset(assigned)


def _on_owner(instructions: list, i: int, owner: str) -> bool:
    """Whether the STORE_ATTR (DELETE_ATTR) at `i` sets an attribute of the variable `owner`: `owner.name = v`
    loads `owner` just before; `owner.name += v` loads it before `COPY 1; LOAD_ATTR name` and ends with a SWAP."""
    def loads_owner(ins) -> bool:
        if ins.opname in ("LOAD_FAST", "LOAD_DEREF", "LOAD_CLOSURE", "LOAD_FAST_CHECK"):
            return ins.argval == owner
        return ins.opname == "LOAD_FAST_LOAD_FAST" and ins.argval[-1] == owner   # Python 3.13's pair of loads

    name = instructions[i].argval
    if i > 0 and loads_owner(instructions[i - 1]):
        return True
    if i == 0 or instructions[i - 1].opname != "SWAP":
        return False
    for j in range(i - 2, 1, -1):   # the augmented assignment's load of the attribute
        if instructions[j].opname == "LOAD_ATTR" and instructions[j].argval == name:
            return instructions[j - 1].opname == "COPY" and loads_owner(instructions[j - 2])
    return False


@functools.lru_cache(maxsize=4096)   # a function traced again, or traced for several signatures
def _names(code: types.CodeType) -> tuple[frozenset, frozenset, frozenset]:
    """The global names `code` (and the code nested in it: lambdas, comprehensions, inner functions) loads,
    the global names it assigns or deletes (`global`), and the free variables it does (`nonlocal`). A variable
    of its own that a closure captures (`for k in ...: fns.append(lambda: k)`) is assigned as a cell too, but is
    neither: a global of the same name is still compared."""
    loaded, assigned_globals, assigned_free = set(), set(), set()
    for ins in dis.get_instructions(code):
        if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
            loaded.add(ins.argval)
        elif ins.opname in ("STORE_GLOBAL", "DELETE_GLOBAL"):
            assigned_globals.add(ins.argval)
        elif ins.opname in ("STORE_DEREF", "DELETE_DEREF") and ins.argval in code.co_freevars:
            assigned_free.add(ins.argval)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            inner = _names(const)
            loaded |= inner[0]
            assigned_globals |= inner[1]
            assigned_free |= inner[2]
    return frozenset(loaded), frozenset(assigned_globals), frozenset(assigned_free)


def _compared(value) -> bool:
    if isinstance(value, types.ModuleType):
        return False
    if isinstance(value, (types.FunctionType, type, types.BuiltinFunctionType)):
        module = value.__globals__.get("__name__") if isinstance(value, types.FunctionType) else None
        return not library_module(module or getattr(value, "__module__", None))   # (runtime's and autograph's too)
    return True


def _cell_value(cell):
    try:
        return cell.cell_contents
    except ValueError:   # an empty cell (a variable of the enclosing function not assigned yet)
        return _MISSING


def _shown(value) -> str:
    if value is _MISSING:
        return "unbound"
    text = repr(value) if value.__class__ in _SCALARS else f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "..."
