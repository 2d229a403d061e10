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
object a variable of the statement holds) is found afterwards (snapshots.py): `snapshot` keeps those objects'
attributes (a dict's or list's items, a set's elements) before the statement is traced, and `changed` names
one that differs after it and that the statement does not carry (shared.py `Shared.stage` refuses it, and
`restore` gives the objects back what they held). The objects are those the statement's variables hold and the globals
its code and the user's functions it calls read, however deep (shared.py `_helper_globals`). So is an
iterator that gave items while the statement was traced (`next(it)`, a Python loop over it): it would give
them once, at trace time, whatever the path or the number of iterations; and a writable buffer (a NumPy array,
a `bytearray`) whose contents changed (`a += 1` changes an array in place).
"""
from __future__ import annotations

import re
import sys
import threading
import types
from collections import deque
from contextlib import contextmanager

from autograph import backends
from autograph.errors import StagingError, at_user_line, internal_frame
from autograph.operators.function_scope import is_converted, is_generated, tracing_failed
from autograph.operators.snapshots import _may_change, _user_namespace


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


def inside_staged() -> bool:
    """Is a staged statement being traced in this thread (its branch or loop body running)?"""
    return bool(_active and _staging.frames)



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


def in_place(target, value, what: str):
    """`value`, which `what` (`'l += ...'`) adds in place to the object `target()` reads when that is a list, set,
    dict or deque (or the framework's list a staged loop carries a list as): refused, as `mutating` refuses
    it, while a statement that carries the list as a new one (or that the object was bound before) is staged.
    `target` is called only then (Python's `s.items += v` reads `s.items` once, and does so itself)."""
    if _active and _staging.frames:
        obj = target()
        if isinstance(obj, _CHANGED_IN_PLACE) or _tensor_list(obj):
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
    frame = sys._getframe(2)
    while frame is not None and not (is_converted(frame.f_code) and not is_generated(frame.f_code)):
        frame = frame.f_back   # up to the converted function itself: caller_variables has its variables
    while frame is not None:
        frame = frame.f_back
        if frame is not None and not internal_frame(frame):
            yield frame.f_code.co_name, frame.f_locals


def caller_variables() -> dict:
    """The variables of the converted function running the statement's operator, as its code and the
    branch and body functions it is inside (an outer loop's body, `is_generated`) see them, and those of the
    code that called it. Frames of autograph and of the registered frameworks (a backend's loop, which holds
    the carried state in a tuple of its own) are not the user's and are passed over."""
    found: dict = {}
    frame = sys._getframe(1)
    while frame is not None:
        if not internal_frame(frame):   # a backend's frames hold the state too
            generated = is_generated(frame.f_code)
            shared = frame.f_code.co_freevars if generated else ()   # not a body's own `itr`
            for name, value in frame.f_locals.items():
                if not generated or name in shared:
                    found.setdefault(name, value)
            if not generated:
                break
        frame = frame.f_back
    return found
