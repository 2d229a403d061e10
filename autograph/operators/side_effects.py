"""Changes to objects that exist before a staged statement: refused while it is traced.

Tracing runs both branches of an `if` on a tensor (and the body of a loop over tensors) once, whatever
the input. A change to an object that exists before the statement (`d.update(a=5)`, `l.insert(0, 9)`,
`del d[k]`, `setattr(o, 'v', 5)`, `l[1:2] = ...`) would then happen once, at trace time, on every path,
where Python makes it only on the path taken. The statement can't carry such a change (it carries
attribute stores, and item stores whose key is a constant or a variable it does not assign: composites.py),
so it refuses it, at the user's line.

The converter `side_effects` marks each change it can see as `ag__.mutating(d, 'd.update(...)')`, which
is `d`. A staged statement, while it is traced, holds the objects bound before it to the variables its
code reads (`staging`); `mutating` refuses those. An object made while the statement is traced (a new
list in a branch) can be changed freely.

A change no marked code makes (a function the statement calls that sets `self.count` or `d['k']` of an
object a variable of the statement holds) is found afterwards: `snapshot` keeps those objects' attributes
(a dict's or list's items, a set's elements) before the statement is traced, and `changed` names one that
differs after it and that the statement does not carry (shared.py `Shared.stage` refuses it, and `restore`
gives the objects back what they held). The objects are those the statement's variables hold and the globals
its code and the user's functions it calls read, however deep (shared.py `_helper_globals`). So is an
iterator that gave items while the statement was traced (`next(it)`, a Python loop over it): it would give
them once, at trace time, whatever the path or the number of iterations; and a writable buffer (a NumPy array,
a `bytearray`) whose contents changed (`a += 1` changes an array in place).
"""
from __future__ import annotations

import io
import operator
import re
import sys
import threading
import types
from collections import defaultdict, deque
from collections.abc import Iterator
from contextlib import contextmanager

from autograph import backends
from autograph.errors import StagingError, at_user_line
from autograph.operators.function_scope import is_converted, is_generated, tracing_failed


class _Staging(threading.local):
    # (construct, {id: object held}, aliased lists, names of the items it carries, (id(owner), key) of the
    # items it carries) of each statement being staged, innermost last
    frames: tuple = ()


_staging = _Staging()
_active = 0   # statements being staged, in all threads: what `mutating` checks first (a global is fast to read)


@contextmanager
def staging(construct: str, objects, aliased=()):
    """While a staged `construct` (e.g. "`if`") is traced: `objects`, bound before it to the variables its
    code reads, may not be changed; nor may the list a carried variable holds when that list is also another
    variable's (`aliased`: (current value of the variable, its name, the other name) for each). The statement
    carries such a variable as a new list (a copy, or the backend's list), which the other name would not see."""
    global _active
    held = {id(o): o for o in objects if _may_change(o) or _user_class(o)}
    outer = _staging.frames
    frame = (construct, held, list(aliased), set(), set())
    _staging.frames = (*outer, frame)
    _active += 1
    try:
        yield frame
    finally:
        _active -= 1
        _staging.frames = outer


def _may_change(value) -> bool:
    """Objects a marked change could be made to: not modules, classes or functions (`np.sort(x)`)."""
    return not isinstance(value, (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType,
                                  int, float, complex, str, bytes, bool, type(None)))


def _user_class(value) -> bool:
    """A class of the user's (not a builtin's or a framework's): the state it keeps in its attributes
    (`Registry.items.append(v)`) may not be changed either."""
    if not isinstance(value, type):
        return False
    module = value.__module__ or ""
    return module != "builtins" and not any(module == p or module.startswith(p + ".")
                                            for p in ("autograph", "numpy", *backends.owned_module_prefixes()))


def _changes_class_state(obj, what: str) -> bool:
    """`what` changes what the class `obj` holds: an object in one of its attributes (`K.items.append(...)`,
    `K.table[k] = ...`) or the attribute itself (`setattr(K, ...)`, `del K.x`); not `K.update(...)`, a
    method of the class's own that may change nothing."""
    return what.startswith(("del ", "setattr(", "delattr(")) or re.match(r"[^\W\d]\w*\.\w+[.\[]", what) is not None


def mutating(obj, what: str):
    """`obj`, about to be changed by `what` (`'d.update(...)'`): refused while a statement that `obj` was
    bound before is staged."""
    if _active and _staging.frames:
        _check(obj, what)
    return obj


def mutating_outer(obj, what: str):
    """`mutating` for an object a global or an enclosing function's variable holds (`OUT` of
    `OUT.append(i)`): refused the same way, with a message that says how to keep the change."""
    if _active and _staging.frames:
        _check(obj, what, outer=True)
    return obj


_CHANGED_IN_PLACE = (list, set, dict, bytearray, deque)


def in_place(obj, value, what: str):
    """`value`, which `what` (`'l += ...'`) adds to `obj` in place when `obj` is a list, set, dict or deque (or the
    framework's list a staged loop carries a list as): refused,
    as `mutating` refuses it, while a statement that carries the list as a new one (or that `obj` was bound
    before) is staged."""
    if _active and _staging.frames and (isinstance(obj, _CHANGED_IN_PLACE) or _tensor_list(obj)):
        _check(obj, what)
    return value


def _tensor_list(obj) -> bool:
    """A framework's list, as which a staged loop carries a Python list (`l += [x]` appends to it)."""
    backend = backends.backend_for(obj)
    return backend is not None and bool(backend.list_types) and isinstance(obj, backend.list_types)


def carrying(found) -> None:
    """The statement being staged carries these attributes and items ((composite, value) of each: `d[k]`,
    composites.py): storing them is not a change it refuses. One that holds a list another variable also
    holds (`keep = s.items`) is carried as a new list, which that variable would not see: changing it in
    place (`s.items += [x]`) is refused, as for a variable (`aliased` of `staging`)."""
    if not _staging.frames:
        return
    frame = _staging.frames[-1]
    variables = None
    for composite, value in found:
        frame[3].add(composite.name)
        frame[4].add((id(composite.owner), composite.key))
        if value.__class__ is list:
            variables = caller_variables() if variables is None else variables
            others = {name: v for name, v in variables.items() if v is not composite.owner}
            other = holder(value, others) or outer_holder(value)
            if other is not None:
                frame[2].append((composite.get, composite.name, other))


# --- changes no marked code made: a called function's --------------------------------------------------------

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
        elif isinstance(obj, dict):   # a defaultdict too: reading a missing key adds it
            found.append((name, obj, dict(obj)))
        elif isinstance(obj, _SEQUENCES):
            found.append((name, obj, list(obj)))
        elif isinstance(obj, set):
            found.append((name, obj, set(obj)))
        elif isinstance(getattr(obj, "__dict__", None), dict):
            found.append((name, obj, _Attributes(obj.__dict__)))
            if "." not in name:   # and its attributes' objects, one level down (`STATE.inner.n += 1`)
                todo += [(f"{name}.{key}", value) for key, value in obj.__dict__.items()
                         if _user_object(value) and id(value) not in seen]
            if _user_namespace(obj.__class__):   # its class's attributes (`type(self).n += 1`)
                todo.append((f"type({name})", obj.__class__))
        else:
            continue
        found.extend(_buffers_in(name, found[-1][2]))
    return found


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
    state = getattr(it, "__dict__", None)
    return tuple(state.items()) if isinstance(state, dict) else ()


def _same_position(old, new) -> bool:
    if old.__class__ is tuple or old.__class__ is _Position:
        return new.__class__ is tuple and len(old) == len(new) and all(map(_same_position, old, new))
    return old is new or (old.__class__ in (int, bool) and old == new)


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
            refill(obj.__dict__, old)
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
        elif old.__class__ is _Contents:
            if old != _contents(obj):
                return f"the contents of '{name}'"
        elif (what := _changed_item(name, obj, old, set())) is not None:
            return what
    return None


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
        new = obj.__dict__ if old.__class__ is _Attributes else _own_attributes(obj) if old.__class__ is _Namespace \
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


def _contents_message(name: str, obj, construct: str) -> str:
    cls = obj.__class__
    kind = cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__.partition('.')[0]}.{cls.__name__}"
    article = "an" if kind[0] in "aeiou" else "a"
    return (f"the contents of '{name}' ({article} {kind}) are changed in place inside this {construct} on a "
            "tensor (an augmented assignment such as `a += 1`, an `out=` argument, or a function it calls). Tracing "
            "runs every branch (or the loop body) once, whatever the input, so the change would be made once, when "
            f"the function is traced, on every path. Make a new value instead (`{name} = {name} + 1`), which a "
            "staged statement carries.")


def _check(obj, what: str, outer: bool = False) -> None:
    for construct, held, aliased, carried, _ in reversed(_staging.frames):
        if id(obj) in held and not (what.endswith(" = ...") and what[:-6] in carried) and (
                not isinstance(obj, type) or _changes_class_state(obj, what)):
            message = _outer_message(what, construct) if outer else _message(what, construct)
            raise tracing_failed(StagingError(at_user_line(message)))
        for current, name, other in aliased:
            if current() is obj:
                local = other.startswith("'") and other.endswith("'")
                copy = f"{name} = list({other[1:-1]})" if local else f"{name} = list({name})"
                back = " and return it to the caller" if " of its caller " in other else ""
                raise tracing_failed(StagingError(at_user_line(
                    f"`{what}` changes the list '{name}', which is also {other} (the same list, before this "
                    f"{construct} on a tensor). The statement carries '{name}' as a new list, so {other} would "
                    f"not see the change Python makes to both. Copy the list before the statement (`{copy}`) and "
                    f"use '{name}' after it{back}, or keep the list in one place only.")))


def _message(what: str, construct: str) -> str:
    return (f"`{what}` changes an object that exists before this {construct} on a tensor. Tracing runs every "
            "branch (or the loop body) once, whatever the input, so the change would be made once, when the "
            f"function is traced, on every path, not on the path the input takes. {_fix(what)}")


def _outer_message(what: str, construct: str) -> str:
    name = re.match(r"(?:del |setattr\(|delattr\()?([^\W\d]\w*)", what).group(1)
    method = what.removesuffix("(...)").rpartition(".")[2]
    if method in ("append", "extend", "insert"):
        fix = ("Collect the values in a list of this function instead (`items = []` before the statement, "
               "`items.append(...)` in it), which a staged loop carries as a tensor list, and return it: the "
               f"caller can change '{name}' with the values the function gives.")
    else:
        fix = ("Keep the value in a variable of this function instead, which a staged statement carries, and "
               f"return it: the caller can change '{name}' with the value the function gives.")
    return (f"`{what}` changes '{name}', which is not a variable of this function (a global, or a variable of an "
            f"enclosing function), inside this {construct} on a tensor. Tracing runs every branch (or the loop "
            "body) once, whatever the input, so the change would be made once, when the function is traced, on "
            f"every path, not on the path the input takes nor once per iteration. {fix}")


def _fix(what: str) -> str:
    if what.startswith(("setattr(", "delattr(")):
        return ("Write the attribute by name (`o.name = value`): a staged statement carries an attribute it "
                "sets, and sets it after the statement on the path taken.")
    if what.startswith("del "):
        return ("Keep the item or attribute and set its value instead (a staged statement carries an item with "
                "a constant key, `d['k'] = v`), or move the `del` out of the statement.")
    if what.endswith(" = ...") and ":" in what:
        return ("Build a new list and assign it to the variable instead (`l = l[:1] + [7] + l[2:]`): a staged "
                "statement carries its variables.")
    if what.endswith(" = ..."):
        return ("Use a key the statement does not change (a constant, `d['total'] = v`, or a variable set "
                "before it, `d[key] = v`): a staged statement carries such an item. Or keep the value in a local "
                "variable.")
    method = what.removesuffix("(...)").rpartition(".")[2]
    if method in ("update", "setdefault"):
        return ("Set the items with constant keys instead (`d['a'] = 5`), which a staged statement carries, or "
                "assign a new dict to the variable (`d = {**d, 'a': 5}`).")
    if method in ("pop", "popitem", "clear", "remove", "discard", "popleft"):
        return ("Assign a new object without the item to the variable instead (`d = {k: v for k, v in "
                "d.items() if k != 'a'}`, `l = l[:-1]`), or move the change out of the statement.")
    return ("Assign a new object to the variable instead (`l = [9] + l`, `l = l + more`, `l = sorted(l)`): a "
            "staged statement carries its variables; or move the change out of the statement.")


# --- lists a staged statement carries that another variable holds too ---------------------------------

def holder(value, variables: dict) -> str | None:
    """How another of `variables` holds `value`: "'l'" (the same object), "an element of 'rows'" (one level
    down in a list, tuple, dict or object); None when none does."""
    for name, held in variables.items():
        if held is value:
            return f"'{name}'"
    for name, held in variables.items():
        cls = held.__class__
        if cls is list or cls is tuple:
            inside = held
        elif cls is dict:
            inside = held.values()
        elif isinstance(held, (types.ModuleType, type, types.FunctionType)) or not hasattr(held, "__dict__"):
            continue
        else:
            try:
                inside = vars(held).values()
            except TypeError:
                continue
        if any(element is value for element in inside):
            return f"an element of '{name}'"
    return None


def outer_holder(value) -> str | None:
    """How a function further up the stack than the converted function running the statement holds `value`
    ("'out' of its caller helper": the caller that passed the list in, or one of its callers); None when none
    does."""
    for function, variables in _outer_frames():
        other = holder(value, variables)
        if other is not None:
            return f"{other} of its caller {function}"
    return None


def may_outlive(value) -> bool:
    """An object a global could hold and keep after the function returns: not a number, string or tuple; a
    class, function or module only if it is the user's."""
    return (_may_change(value) and not isinstance(value, tuple)) or _user_namespace(value)


def global_holder(value, module: dict) -> str | None:
    """How a global of `module` (the statement's) holds `value` ("the global 'OUT'", "an element of the global
    'REG'"); None when none does."""
    found = holder(value, {name: held for name, held in module.items() if not name.startswith("__")})
    if found is None:
        return None
    return f"the global {found}" if found.startswith("'") else found.replace(" of '", " of the global '", 1)


def _outer_frames():
    """(function name, variables) of each frame of the user's above the converted function running the
    statement (frames of autograph and of the registered frameworks are passed over)."""
    machinery = ("autograph", *backends.owned_module_prefixes())
    frame = sys._getframe(2)
    while frame is not None and not (is_converted(frame.f_code) and not is_generated(frame.f_code)):
        frame = frame.f_back   # up to the converted function itself: caller_variables has its variables
    while frame is not None:
        frame = frame.f_back
        module = frame.f_globals.get("__name__", "") if frame is not None else "autograph"
        if not any(module == p or module.startswith(p + ".") for p in machinery):
            yield frame.f_code.co_name, frame.f_locals


def caller_variables() -> dict:
    """The variables of the converted function running the statement's operator, as its code and the
    branch and body functions it is inside (an outer loop's body, `is_generated`) see them, and those of the
    code that called it. Frames of autograph and of the registered frameworks (a backend's loop, which holds
    the carried state in a tuple of its own) are not the user's and are passed over."""
    found: dict = {}
    machinery = ("autograph", *backends.owned_module_prefixes())   # a backend's frames hold the state too
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if not any(module == p or module.startswith(p + ".") for p in machinery):
            generated = is_generated(frame.f_code)
            shared = frame.f_code.co_freevars if generated else ()   # not a body's own `itr`
            for name, value in frame.f_locals.items():
                if not generated or name in shared:
                    found.setdefault(name, value)
            if not generated:
                break
        frame = frame.f_back
    return found
