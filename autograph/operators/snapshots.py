"""What the objects a staged statement can reach hold before it is traced, what changed after, and undoing it.

side_effects.py refuses the changes the converter marks (`ag__.mutating`); a change no marked code makes (a
function the statement calls that sets `self.count`, `d['k']`, a global's item, an iterator's position, a
buffer's contents) is found here: `snapshot` keeps what the objects hold before the statement is traced,
`changed` (and `what_changed`, for torch.compile) names the first difference after it, and `restore` gives
them back what they held once the change is refused.
"""
from __future__ import annotations

import functools
import io
import operator
import random
import types
import warnings
from collections import defaultdict, deque
from collections.abc import Iterator

from autograph import backends


def _may_change(value) -> bool:
    """Objects a marked change could be made to: not modules, classes or functions (`np.sort(x)`)."""
    return not isinstance(value, (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType,
                                  int, float, complex, str, bytes, bool, type(None)))


_MISSING = object()


def snapshot(bound: list) -> list:
    """What `bound` ((name, object) of the variables a staged statement reads) hold before it is traced: each
    object's attributes, or a dict's items, a list's items, a set's elements (one level, by identity); the
    contents of a buffer among those (a NumPy array in `s.buf` or `d['a']`: `s.buf += 1` changes it in place,
    also where the statement carries `s.buf`). And the attributes of a class, function or module of the user's
    among them (`Registry.count`, `log.calls`, another module's globals), of an object's class (`type(self).n`)
    and of the user's objects in an object's attributes (`STATE.inner.n`); a closure cell's value (a helper's
    `nonlocal n`)."""
    found, seen = [], set()
    todo = list(bound)
    while todo:
        name, obj = todo.pop(0)
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if obj.__class__ is types.CellType:   # a helper's closure variable (`nonlocal n` in a counter it made)
            found.append((name, obj, _CellValue((_cell_value(obj),))))
            continue
        if _user_namespace(obj):
            found.append((name, obj, _Namespace(_own_attributes(obj))))
            if not isinstance(obj, types.ModuleType):   # a class's or function's containers (`Registry.items`)
                todo += [(f"{name}.{key}", value) for key, value in found[-1][2].items()
                         if value.__class__ in (list, dict, set, deque) and id(value) not in seen]
            todo += [pair for pair in _streams_in(name, found[-1][2]) if id(pair[1]) not in seen]
            continue
        shared = _shared_generator(obj)
        if shared is not None:      # `random.random()`, `np.random.rand()`
            todo.append((name, shared))
            continue
        bound_to = _bound_to(name, obj)
        if bound_to:                # `add = log.append`, `inc = counter.inc`, `functools.partial(l.append)`
            todo += [pair for pair in bound_to if id(pair[1]) not in seen]
            continue
        if not _ours(obj):
            continue
        contents = _contents(obj)
        if contents is not None:
            found.append((name, obj, contents))
        elif isinstance(obj, io.IOBase):
            found.append((name, obj, _FilePosition(_file_position(obj))))
        elif isinstance(obj, Iterator):
            found.append((name, obj, _Position(_position(obj))))
        elif _random_generator(obj):
            found.append((name, obj, _GeneratorState(_generator_state(obj))))
            continue
        elif isinstance(obj, dict):   # a defaultdict too: reading a missing key adds it
            found.append((name, obj, dict(obj)))
        elif isinstance(obj, _SEQUENCES):
            found.append((name, obj, list(obj)))
        elif isinstance(obj, set):
            found.append((name, obj, set(obj)))
        elif _has_attributes(obj):
            found.append((name, obj, _Attributes(_attributes(obj))))
            if "." not in name:   # and its attributes' objects, one level down (`STATE.inner.n += 1`)
                todo += [(f"{name}.{key}", value) for key, value in found[-1][2].items()
                         if _user_object(value) and id(value) not in seen]
            if _user_namespace(obj.__class__):   # its class's attributes (`type(self).n += 1`)
                todo.append((f"type({name})", obj.__class__))
        else:
            continue
        found.extend(_buffers_in(name, found[-1][2]))
        todo += [pair for pair in _streams_in(name, found[-1][2]) if id(pair[1]) not in seen]
    return found


def _has_attributes(obj) -> bool:
    """An object with attributes of its own: a `__dict__`, or `__slots__` (a slotted class of the user's)."""
    return bool(_slots(obj.__class__)) or _instance_dict(obj) is not None


def _slots(cls) -> dict:
    """The `__slots__` of `cls` and its bases (of Python classes): name -> its descriptor, read without calling a
    `__getattr__` where a slot is unset."""
    found = {}
    for base in cls.__mro__[:-1]:
        slots = base.__dict__.get("__slots__", ())
        for slot in [slots] if isinstance(slots, str) else slots:
            if slot not in ("__dict__", "__weakref__") and slot not in found:
                found[slot] = base.__dict__.get(_mangled(base, slot))
    return {name: d for name, d in found.items() if d is not None}


def _mangled(cls, name: str) -> str:
    """A slot's attribute name as Python stores it (`__x` in class `C` is `_C__x`)."""
    return f"_{cls.__name__.lstrip('_')}{name}" if name.startswith("__") and not name.endswith("__") else name


def _slot_value(descriptor, obj):
    try:
        return descriptor.__get__(obj, obj.__class__)
    except AttributeError:
        return _MISSING


def _instance_dict(obj) -> dict | None:
    """`obj.__dict__`, or None: not asked of a slotted object without one (its `__getattr__` would run)."""
    if obj.__class__.__dictoffset__ or not _slots(obj.__class__):
        found = getattr(obj, "__dict__", None)
        return found if isinstance(found, dict) else None
    return None


def _attributes(obj) -> dict:
    """`obj`'s attributes: its `__dict__` and the slots that are set."""
    state = dict(_instance_dict(obj) or {})
    for slot, descriptor in _slots(obj.__class__).items():
        value = _slot_value(descriptor, obj)
        if value is not _MISSING:
            state[slot] = value
    return state


def _streams_in(name: str, items) -> list:
    """(`name.key` or `name[key]`, object) of each iterator, file or random number generator among `items` (the
    snapshot of an object's attributes, a dict's items or a list's): giving an item, reading or drawing changes
    them without changing `items` (`next(self.it)`, `d['f'].readline()`, `self.rng.random()`)."""
    pairs = items.items() if isinstance(items, dict) else enumerate(items) if items.__class__ is list else ()
    label = "{}.{}" if items.__class__ in (_Attributes, _Namespace) else "{}[{!r}]"
    return [(label.format(name, key), value) for key, value in pairs
            if isinstance(value, (Iterator, io.IOBase)) or _random_generator(value)]


class _GeneratorState(tuple):
    """What a random number generator's state was in a snapshot."""


def _random_generator(obj) -> bool:
    """Python's `random.Random` (and subclasses), NumPy's `Generator` and `RandomState`: their state is not in
    their attributes."""
    cls = obj.__class__
    return isinstance(obj, random.Random) or (
        (cls.__module__ or "").startswith("numpy.random") and cls.__name__ in ("Generator", "RandomState"))


def _shared_generator(obj):
    """The random number generator that the module `random` or `numpy.random` (or `numpy`) draws from; None for
    other objects."""
    if not isinstance(obj, types.ModuleType):
        return None
    return {"random": lambda: obj._inst, "numpy.random": lambda: obj.mtrand._rand,
            "numpy": lambda: obj.random.mtrand._rand}.get(obj.__name__, lambda: None)()


def _bound_to(name: str, obj) -> list:
    """(name, object) of what calling `obj` changes, where it is a method bound to an object (`log.append`,
    `counter.inc`, `rng.normal`: the object, named `name.__self__`) or a `functools.partial` (its function and
    arguments); [] for other objects."""
    if isinstance(obj, (types.MethodType, types.BuiltinMethodType)):
        owner = obj.__self__
        return [] if owner is None or isinstance(owner, types.ModuleType) else [(f"{name}.__self__", owner)]
    if isinstance(obj, functools.partial):
        return [(f"{name}.func", obj.func), *((f"{name}.args[{i}]", a) for i, a in enumerate(obj.args)),
                *((f"{name}.keywords[{k!r}]", v) for k, v in obj.keywords.items())]
    return []


def _generator_state(obj) -> tuple:
    """A random number generator's state, comparable with `==`."""
    if isinstance(obj, random.Random):
        return obj.getstate()
    return _comparable(obj.bit_generator.state if hasattr(obj, "bit_generator") else obj.get_state(legacy=False))


def _comparable(state):
    """NumPy's generator state (dicts of numbers and arrays) as nested tuples, an array as its bytes."""
    if isinstance(state, dict):
        return tuple((key, _comparable(value)) for key, value in state.items())
    return state.tobytes() if hasattr(state, "tobytes") else state


class _Namespace(dict):
    """The attributes of a class, a function or a module of the user's in a snapshot (`Registry.count`,
    `log.calls`, a helper module's `COUNT`), without Python's own (`__doc__`, `__warningregistry__`)."""


class _CellValue(tuple):
    """What a closure variable held in a snapshot (one item; `_EMPTY_CELL` when unbound)."""


_EMPTY_CELL = object()


def _cell_value(cell):
    try:
        return cell.cell_contents
    except ValueError:
        return _EMPTY_CELL


def _user_namespace(obj) -> bool:
    """A class, function or module of the user's code (not a library's: backends.library_module)."""
    if isinstance(obj, types.ModuleType):
        return not backends.library_module(obj.__name__)
    return isinstance(obj, (type, types.FunctionType)) and not backends.library_module(obj.__module__)


def _own_attributes(obj) -> dict:
    return {k: v for k, v in vars(obj).items() if not (k.startswith("__") and k.endswith("__"))}


def _user_object(value) -> bool:
    """An object of a user's class, whose attributes a helper may change (`STATE.inner.n += 1`)."""
    cls = value.__class__
    return (isinstance(getattr(value, "__dict__", None), dict) and not isinstance(value, (type, types.ModuleType,
            types.FunctionType)) and not backends.library_module(cls.__module__) and _ours(value))


def _ours(obj) -> bool:
    """An object whose changes the user's code makes: not a number or a function, nor a framework's."""
    return _may_change(obj) and backends.backend_for(obj) is None and not _framework_object(obj)


def _buffers_in(name: str, items) -> list:
    """(`name.key` or `name[key]`, buffer, its contents) of each writable buffer among `items` (the snapshot of
    an object's attributes, a dict's items or a list's)."""
    pairs = items.items() if isinstance(items, dict) else enumerate(items) if items.__class__ is list else ()
    found = []
    for key, value in pairs:
        contents = _contents(value) if _ours(value) else None
        if contents is not None:
            label = f"{name}.{key}" if items.__class__ in (_Attributes, _Namespace) else f"{name}[{key!r}]"
            found.append((label, value, contents))
    return found


class _Attributes(dict):
    """An object's attributes (its `__dict__`) in a snapshot."""


_SEQUENCES = (list, deque)


class _Contents(tuple):
    """What a mutable buffer (a NumPy array, a `bytearray`, an `array.array`) held in a snapshot: its format,
    shape and bytes."""


def _contents(obj) -> _Contents | None:
    """`obj`'s contents when it is a writable buffer (its `+=` changes it in place); None for other objects."""
    if obj.__class__ in (list, dict, set, deque):
        return None
    try:
        view = memoryview(obj)
    except (TypeError, ValueError, BufferError):   # not a buffer, or one of objects (a NumPy object array)
        return None
    with view:
        return None if view.readonly else _Contents((view.format, view.shape, view.tobytes()))


class _Position(tuple):
    """What an iterator's `_position` was in a snapshot."""


class _FilePosition(tuple):
    """Where a file (or `io.StringIO`) was in a snapshot: `tell()`, or () where it can't say."""


def _file_position(f) -> tuple:
    try:
        return (f.tell(),)
    except (OSError, ValueError):   # not seekable (a pipe, sys.stdout), or closed
        return ()


_ITEMWISE = (map, filter, zip, enumerate)   # their state is that of the iterators they take items from


def _position(it) -> tuple:
    """Values that change when the iterator `it` gives an item: a generator's frame (where it stopped, its
    variables), the number of items a builtin iterator has left, the iterators a `map`, `zip`, `filter` or
    `enumerate` reads (and its count); an iterator of the user's class is its attributes (`__dict__`)."""
    if isinstance(it, types.GeneratorType):
        frame = it.gi_frame
        return (None,) if frame is None else (frame.f_lasti, *frame.f_locals.values())
    if it.__class__ in _ITEMWISE:
        return tuple(_position(v) if isinstance(v, Iterator) else v for v in it.__reduce__()[1])
    if it.__class__.__module__ == "builtins" and hasattr(it.__class__, "__length_hint__"):
        return (operator.length_hint(it),)
    if it.__class__.__module__ == "itertools":
        return _reduced(it)
    if it.__class__ is _CALLABLE_ITERATOR:     # `iter(f, sentinel)`: what `f` reads
        function = it.__reduce__()[1][0]        # `()` once it has stopped
        return (function, *_call_state(function))
    return tuple(_attributes(it).items()) if _has_attributes(it) else ()


_CALLABLE_ITERATOR = type(iter(int, 0))


def _call_state(function) -> tuple:
    """What a function `iter(function, sentinel)` calls changes: a bound method's object (a list's length, an
    object's attributes), a closure's variables."""
    owner = function.__self__ if isinstance(function, (types.MethodType, types.BuiltinMethodType)) else None
    if owner.__class__ in (list, dict, set, deque):
        return (len(owner),)
    if owner is not None and _has_attributes(owner) and not isinstance(owner, types.ModuleType):
        return tuple(_attributes(owner).items())
    return tuple(_cell_value(cell) for cell in getattr(function, "__closure__", None) or ())


def _reduced(it) -> tuple:
    """The state an `itertools` iterator (`count`, `cycle`, `islice`, `chain`, `tee`, ...) pickles: its counters,
    the iterators it reads (their positions), a list's length (`cycle`'s saved items); () where it pickles none
    (Python 3.14)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)    # Python 3.12 and 3.13 warn
            reduced = it.__reduce__()
    except TypeError:
        return ()
    return _flat(reduced[1:])


def _flat(value):
    if isinstance(value, Iterator):
        return _position(value)
    if value.__class__ is tuple:
        return tuple(_flat(v) for v in value)
    if value.__class__ is list:
        return (len(value),)
    if (value.__class__.__module__ or "") == "itertools":   # a `tee`'s shared buffer
        return (value, _reduced(value))
    return value


def _same_position(old, new) -> bool:
    if old.__class__ is tuple or old.__class__ is _Position:
        return new.__class__ is tuple and len(old) == len(new) and all(map(_same_position, old, new))
    return old is new or (old.__class__ in (int, bool, float, str) and old == new)


def _framework_object(obj) -> bool:
    """An object of a registered framework's own classes (a layer, a variable): its bookkeeping is its own."""
    module = type(obj).__module__ or ""
    return any(module == p or module.startswith(p + ".") for p in ("autograph", *backends.owned_module_prefixes()))


def changed(before: list, carried: set, construct: str) -> str | None:
    """The message refusing the first change since `snapshot` gave `before` (to an item or attribute that the
    statement does not carry, `carried`: (id(owner), key); to an array's contents; an iterator's items given
    out) made while this staged `construct` was traced; None if none."""
    for name, obj, old in before:
        if old.__class__ is _CellValue:
            if _cell_value(obj) is not old[0]:
                return (f"'{name}' is changed by a function called inside this {construct} on a tensor (one that "
                        "assigns it through `nonlocal`). Tracing runs every branch (or the loop body) once, whatever "
                        "the input, so that change would be made once, when the function is traced, on every path. "
                        "Have the function return the new value and keep it in a variable of this function instead.")
            continue
        if old.__class__ is _Position:
            if not _same_position(old, _position(obj)):
                return _iterator_message(name, construct)
            continue
        if old.__class__ is _FilePosition:
            if old != _file_position(obj):
                return _file_message(name, construct)
            continue
        if old.__class__ is _GeneratorState:
            if old != _generator_state(obj):
                return _generator_message(name, construct)
            continue
        if old.__class__ is _Contents:
            if old != _contents(obj):
                return _contents_message(name, obj, construct)
            continue
        if isinstance(obj, defaultdict) and (added := [k for k in obj if k not in old and (id(obj), k) not in carried]):
            return (f"`{name}[{added[0]!r}]` is added to the defaultdict '{name}' inside this {construct} on a "
                    "tensor (reading a missing key adds it, as does a function called there). Tracing runs every "
                    "branch (or the loop body) once, whatever the input, so the key would be added once, when the "
                    f"function is traced, on every path. Read it with `{name}.get({added[0]!r}, default)`, or set it "
                    "before the statement.")
        what = _changed_item(name, obj, old, carried)
        if what is not None:
            return (f"{what} is changed by a function called inside this {construct} on a tensor (the statement's "
                    "own code neither assigns it nor calls a method that changes it). Tracing runs every branch (or "
                    "the loop body) once, whatever the input, so that change would be made once, when the function "
                    "is traced, on every path. Make the change in the statement itself (`a.x = ...` or `d['k'] = "
                    "...`, which a staged statement carries), from a value the function returns.")
    return None


def restore(before: list) -> None:
    """Give the containers and objects of `before` (a `snapshot`) back what they held, after a change
    `changed` found is refused: the refused trace leaves no trace-time change behind (a cache entry, a log
    line). Buffers, iterators and files are left as they are. Compared by identity, as `changed` does (`==`
    on a tensor is a tensor)."""
    for _, obj, old in before:
        cls = old.__class__
        if cls is _Attributes:
            _restore_attributes(obj, old)
        elif cls is _Namespace:
            for key, value in _own_attributes(obj).items():
                if old.get(key, _MISSING) is not value:
                    setattr(obj, key, old[key]) if key in old else delattr(obj, key)
        elif cls is _CellValue and _cell_value(obj) is not old[0]:
            if old[0] is _EMPTY_CELL:
                del obj.cell_contents
            else:
                obj.cell_contents = old[0]
        elif cls is dict:
            refill(obj, old)
        elif cls is set:
            if len(obj) != len(old) or not all(any(a is b for b in old) for a in obj):
                obj.clear()
                obj.update(old)
        elif cls is list and (len(obj) != len(old) or any(a is not b for a, b in zip(obj, old))):
            obj[:] = old


def what_changed(before: list) -> str | None:
    """What the user would call the first change since `snapshot` gave `before` (`s.n`, `d['k']`, the length
    of 'l', the contents of 'a', the iterator 'it', the file 'f'); None if nothing changed."""
    for name, obj, old in before:
        if old.__class__ is _CellValue:
            if _cell_value(obj) is not old[0]:
                return f"the variable '{name}' of an enclosing function"
            continue
        if old.__class__ is _Position:
            if not _same_position(old, _position(obj)):
                return f"the iterator '{name}'"
        elif old.__class__ is _FilePosition:
            if old != _file_position(obj):
                return f"the position of the file '{name}'"
        elif old.__class__ is _GeneratorState:
            if old != _generator_state(obj):
                return f"the state of the random number generator '{name}'"
        elif old.__class__ is _Contents:
            if old != _contents(obj):
                return f"the contents of '{name}'"
        elif (what := _changed_item(name, obj, old, set())) is not None:
            return what
    return None


def _restore_attributes(obj, old: dict) -> None:
    """Give `obj` the attributes `old` (a snapshot's) back: its `__dict__`'s and its slots'."""
    slots, own = _slots(obj.__class__), _instance_dict(obj)
    if own is not None:
        refill(own, {k: v for k, v in old.items() if k not in slots})
    for slot, descriptor in slots.items():
        value = _slot_value(descriptor, obj)
        if slot not in old and value is not _MISSING:
            descriptor.__delete__(obj)
        elif slot in old and value is not old[slot]:
            descriptor.__set__(obj, old[slot])


def refill(target: dict, old: dict) -> None:
    """Make the dict `target` hold what `old` holds (in place)."""
    for key in [k for k in target if k not in old]:
        del target[key]
    target.update(old)


def _changed_item(name: str, obj, old, carried: set) -> str | None:
    """An attribute or item of `obj` (a set's elements, a list's length) that differs from `old` (its snapshot)
    and that the statement does not carry, as the user would write it (`a.x`, `d['k']`, `len(l)`); None if none."""
    if old.__class__ is set:
        return f"the set '{name}'" if obj != old else None
    sequence = old.__class__ is list
    if sequence:
        if len(obj) != len(old):
            return f"the length of '{name}'"
        keys = [i for i, (a, b) in enumerate(zip(old, obj)) if a is not b]
    else:
        new = _attributes(obj) if old.__class__ is _Attributes else _own_attributes(obj) if old.__class__ is _Namespace \
            else obj
        keys = [k for k in {**old, **new} if old.get(k, _MISSING) is not new.get(k, _MISSING)]
    for key in keys:
        if (id(obj), key) in carried or (sequence and (id(obj), key - len(obj)) in carried):
            continue
        return f"`{name}.{key}`" if old.__class__ in (_Attributes, _Namespace) else f"`{name}[{key!r}]`"
    return None


def _iterator_message(name: str, construct: str) -> str:
    return (f"the iterator '{name}' gives items inside this {construct} on a tensor (`next()`, or a Python loop "
            "over it). Tracing runs every branch (or the loop body) once, whatever the input, so it would give them "
            "once, when the function is traced, whatever the path or the number of iterations. Make it a list "
            "first (`items = list(it)`) and index it, or take the items outside the statement.")


def _file_message(name: str, construct: str) -> str:
    return (f"the file '{name}' is read or written inside this {construct} on a tensor (its position moved). "
            "Tracing runs every branch (or the loop body) once, whatever the input, so it would be read or written "
            "once, when the function is traced, whatever the path or the number of iterations. Read what you need "
            "before the statement (`lines = f.readlines()`) and write after it.")


def _generator_message(name: str, construct: str) -> str:
    return (f"the random number generator '{name}' draws numbers inside this {construct} on a tensor. Tracing runs "
            "every branch (or the loop body) once, whatever the input, so it would draw them once, when the "
            "function is traced, whatever the path or the number of iterations (and the graph would use those "
            "numbers on every call). Draw them with the framework's random ops (runtime: tf.random.uniform), or "
            "before the statement.")


def _contents_message(name: str, obj, construct: str) -> str:
    cls = obj.__class__
    kind = cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__.partition('.')[0]}.{cls.__name__}"
    article = "an" if kind[0] in "aeiou" else "a"
    return (f"the contents of '{name}' ({article} {kind}) are changed in place inside this {construct} on a "
            "tensor (an augmented assignment such as `a += 1`, an `out=` argument, or a function it calls). Tracing "
            "runs every branch (or the loop body) once, whatever the input, so the change would be made once, when "
            f"the function is traced, on every path. Make a new value instead (`{name} = {name} + 1`), which a "
            "staged statement carries.")
