"""The variables a statement's functions share with the function they are written in.

A branch or loop body function assigns the variables of the function it is
written in through `nonlocal` (or `global`); `Shared` reads and writes them
through the functions' closure cells (or the module's globals), so that a
staged statement can work on functions of explicit state (control_flow.py).
"""
from __future__ import annotations

import dis
import functools
import os
import sys
import types

from autograph.backends import backend_for, library_module
from autograph.errors import StagingError, at_user_line
from autograph.operators import side_effects, snapshots
from autograph.operators.function_scope import is_generated, raised_while_tracing, traced, tracing_failed
from autograph.operators.staged_raise import stage_if_raised
from autograph.operators.variables import UNBOUND, Undefined, cell_value, set_cell


def as_tuple(value, n: int) -> tuple:
    """A state function's result (the value for one variable, a tuple for several, None for none) as a tuple."""
    if n == 1:
        return (value,)
    return () if n == 0 else tuple(value)


def result(state: tuple, n: int):
    """The state as a state function returns it: the value itself for one variable, a tuple for several."""
    if n == 1:
        return state[0]
    return None if n == 0 else tuple(state)


_EMPTY = UNBOUND   # an unbound variable's value in a snapshot


class Shared:
    """The variables `names` as the statement's functions see them: a closure cell (the function declares
    the variable `nonlocal`) or a global of the function's module (`global`). A staged statement reads its
    state from them and writes the result back; an unbound variable reads as `Undefined`."""

    def __init__(self, names: tuple, functions: tuple, backend=None):
        self.names = names
        self.backend = backend   # the backend staging the statement: for a `raise` in its functions
        self.functions = [fn for fn in functions if fn is not None]
        self.slots = [self._slot(name) for name in names]

    def _slot(self, name: str):
        for fn in self.functions:
            code = fn.__code__
            if name in code.co_freevars:
                return fn.__closure__[code.co_freevars.index(name)]
        return _GlobalSlot(self.module, name)

    @property
    def module(self) -> dict:
        """The globals of the statement's module."""
        return self.functions[0].__globals__

    def read(self) -> tuple:
        return tuple(Undefined(name) if (value := slot_get(slot)) is _EMPTY else value
                     for name, slot in zip(self.names, self.slots))

    def write(self, values) -> None:
        for slot, value in zip(self.slots, values):
            slot_set(slot, _EMPTY if value.__class__ is Undefined else value)

    def function(self, fn, lead: int = 0):
        """`fn` (taking `lead` arguments) as a function of the state that returns the new state."""
        n = len(self.names)

        def with_state(*args):
            self.write(args[lead:])
            if fn is not None:   # an `if` without `else:`
                try:
                    traced(fn, *args[:lead])
                except Exception as error:
                    stage_if_raised(self.backend, error)   # the user's `raise`: BranchRaised, now an op
                    raise
            return result(self.read(), n)
        with_state.__wrapped__ = fn   # where `variable_checks.assigned_at` finds the user's assignments
        return with_state

    def test(self, fn):
        """A loop's test (or `extra_test`) as a function of the state. A staged loop's test can't assign the
        state (`while (n := n - 1) > 0`): the graph's test and body both start from the carried values."""
        if fn is None:
            return None

        def with_state(*args):
            self.write(args)
            written = [slot_get(slot) for slot in self.slots]
            out = traced(fn)
            for name, slot, value in zip(self.names, self.slots, written):
                if slot_get(slot) is not value:
                    raise StagingError(at_user_line(
                        f"the test of this loop over tensors assigns '{name}' (with `:=`). A staged loop's test "
                        f"can't change the loop's variables; assign '{name}' at the end of the body (and "
                        "before the loop) instead."))
            return out
        with_state.__wrapped__ = fn
        return with_state

    def _cells(self) -> list:
        """(name, cell) of every variable the statement's functions close over, and the functions they can
        call through those variables (a helper `def`ined in the function) close over."""
        found, seen, todo = [], set(), list(self.functions)
        while todo:
            fn = todo.pop()
            for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
                if id(cell) in seen:
                    continue
                seen.add(id(cell))
                found.append((name, cell))
                value = slot_get(cell)
                if value.__class__ is types.FunctionType and value.__closure__:
                    todo.append(value)
        return found

    def _globals_read(self, module: dict, variables: list) -> list:
        """(name, None, value) of each global of the statement's module that its functions read and do not
        carry (`OUT` of `OUT.append(i)`): an object the statement may not change, as a variable's; and of each
        global the methods of the objects its `variables` hold read (`__call__`, `__getattr__`)."""
        return _globals_of(self.functions, module, self.names, variables)

    def _assigned_here(self) -> set:
        """The variables the statement's own code assigns or deletes (its functions, and the functions the
        converters made inside them), as opposed to a function of the user's that it calls."""
        return set().union(*(_stored_names(fn.__code__) for fn in self.functions))

    def _aliased(self, state: tuple) -> list:
        """(current value, name, other name) for each carried variable holding a list that another variable
        of the function holds too (see operators/side_effects.py)."""
        lists = [i for i, value in enumerate(state) if value.__class__ is list]
        if not lists:
            return []
        variables = side_effects.caller_variables()
        found = []
        for i in lists:
            name, value = self.names[i], state[i]
            others = {**{n: v for n, v in zip(self.names, state)}, **variables}
            others.pop(name, None)
            other = (side_effects.holder(value, others) or side_effects.global_holder(value, self.module)
                     or side_effects.outer_holder(value))
            if other is not None:
                found.append((lambda slot=self.slots[i]: slot_get(slot), name, other))
        return found

    def stage(self, construct: str, staged) -> None:
        """Run `staged(state) -> new state` (the backend's cond or loop on the state functions) and set the
        variables to its result. Tracing runs the functions, which assign the shared variables: the other
        variables they assign (temporaries that nothing reads afterwards) get their values back after it,
        and all of them do if it raises. A variable a called function changed through `nonlocal` is refused,
        also when tracing then failed: a probe of the body leaves it holding a tensor of its throwaway graph,
        on which the rest of the trace fails (tools/fuzz, seed 71355)."""
        initial = self.read()
        before = [(name, cell, slot_get(cell)) for name, cell in self._cells()]
        module = self.module
        read = before + self._globals_read(module, before)
        own = {id(fn) for fn in self.functions}   # the branch and body functions: generated, not the user's state
        held = [value for value in _held(read, initial) if id(value) not in own]
        contents = snapshots.snapshot(_named(read, held))
        globals_before = dict(module)
        changed_elsewhere = failed = object_changed = frame = None
        try:
            with side_effects.staging(construct, held, self._aliased(initial)) as frame:
                out = as_tuple(staged(initial), len(self.names))
            object_changed = snapshots.changed(contents, frame[4], construct)
            if object_changed is None:
                object_changed = _global_changed(module, globals_before, self.names, construct)
        except Exception as error:   # past the user's own `except` clauses (see TracingFailed)
            failed = tracing_failed(raised_while_tracing(error, f"this {construct} on a tensor"))
            if frame is not None:   # a change it made first (a probe's tensor left in `self.total` by `acc(i)`)
                object_changed = snapshots.changed(contents, frame[4], construct)
        finally:
            carried, here = set(self.names), None
            for name, cell, value in before:
                if slot_get(cell) is not value:
                    slot_set(cell, value)
                    if name not in carried:
                        here = self._assigned_here() if here is None else here
                        if name not in here and changed_elsewhere is None:
                            changed_elsewhere = name
        if changed_elsewhere is not None:
            raise tracing_failed(StagingError(at_user_line(
                f"'{changed_elsewhere}' is changed by a function called inside this {construct} on a tensor (one "
                "that assigns it through `nonlocal`). Tracing runs every branch (or the loop body) once, whatever "
                f"the input, so that change can't follow the path the graph takes. Assign '{changed_elsewhere}' "
                "in the statement itself, from a value the function returns.")))
        if object_changed is not None:   # the refused trace leaves no change behind
            snapshots.restore(contents)
            _restore_globals(module, globals_before, self.names)
            raise tracing_failed(StagingError(at_user_line(object_changed)))
        if failed is not None:
            raise failed from None
        self.write(out)


def _global_changed(module: dict, before: dict, carried: tuple, construct: str) -> str | None:
    """The message refusing a global of the statement's module that a function it calls rebound (`global n;
    n += 1` in a helper) while it was traced: once, at trace time, on every path. None if none was."""
    for name in {**before, **module}:
        if module.get(name, _EMPTY) is not before.get(name, _EMPTY) and name not in carried and not (
                name.startswith("__") and name.endswith("__")):   # Python's own (`__warningregistry__`)
            return (f"the global '{name}' is changed by a function called inside this {construct} on a tensor (one "
                    "that assigns it through `global`). Tracing runs every branch (or the loop body) once, whatever "
                    "the input, so that change would be made once, when the function is traced, on every path. Have "
                    "the function return the new value and keep it in a variable of this function instead.")
    return None


def _restore_globals(module: dict, before: dict, carried: tuple) -> None:
    """Give the globals of `module` that a function the statement called rebound (`_global_changed`) their
    values of `before` back."""
    for name in [n for n in {**before, **module} if n not in carried and not (n.startswith("__") and n.endswith("__"))]:
        value = before.get(name, _EMPTY)
        if module.get(name, _EMPTY) is not value:
            slot_set(_GlobalSlot(module, name), value)


def _named(before: list, held: list) -> list:
    """(name, object) of each object in `held`, named by the first variable in `before` bound to it."""
    ids = {id(o) for o in held}
    found, seen = [], set()
    for name, _, value in before:
        if id(value) in ids and id(value) not in seen:
            seen.add(id(value))
            found.append((name, value))
    return found


def _held(before: list, state: tuple) -> list:
    """The objects bound before a staged statement to the variables its code reads, which it may not change
    (operators/side_effects.py); but for the lists it carries, which it copies or makes the backend's lists,
    and a framework's values (a tensor's `add` or `sort` makes a new tensor; a tensor list it carries)."""
    carried = {id(v) for v in state if v.__class__ is list}
    return [value for _, _, value in before if id(value) not in carried and backend_for(value) is None]


def _stored_names(code) -> frozenset:
    """Names `code` stores or deletes as closure variables, with those the converters' functions nested in it
    store (see operators/function_scope.py), cached per code object."""
    found = _STORED.get(code)
    if found is None:
        names = {i.argval for i in dis.get_instructions(code) if i.opname in ("STORE_DEREF", "DELETE_DEREF")}
        for const in code.co_consts:
            if const.__class__ is code.__class__ and is_generated(const):
                names |= _stored_names(const)
        found = _STORED[code] = frozenset(names)
    return found


_STORED: dict = {}


def code_names(code, opnames: tuple, cache: dict) -> frozenset:
    """The names the instructions `opnames` of `code` take (`LOAD_GLOBAL`: the globals it reads), with those of
    the functions nested in it, cached per code object in `cache`."""
    found = cache.get(code)
    if found is None:
        names = {i.argval for i in dis.get_instructions(code) if i.opname in opnames}
        for const in code.co_consts:
            if const.__class__ is code.__class__:
                names |= code_names(const, opnames, cache)
        found = cache[code] = frozenset(names)
    return found


def _loaded_globals(code) -> frozenset:
    """Names `code` reads as globals, with those of the functions nested in it."""
    return code_names(code, ("LOAD_GLOBAL", "LOAD_NAME"), _LOADED)


_LOADED: dict = {}


def globals_read(functions: list) -> list:
    """(name, object) of each global the functions read, and of each global a helper of the user's they read
    reads (`_helper_globals`): what a staged `and`/`or` operand may not change."""
    functions = [fn for fn in functions if fn.__class__ is types.FunctionType]
    if not functions:
        return []
    variables = [(name, cell, cell_value(cell)) for fn in functions
                 for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ())]
    return [(name, value) for name, _, value in _globals_of(functions, functions[0].__globals__, (), variables)]


def _globals_of(functions: list, module: dict, carried=(), variables=()) -> list:
    """(name, None, value) of each global of `module` that the functions read, but those `carried`, and of each
    global a helper of the user's they read reads (`_helper_globals`), or a method of an object one of their
    `variables` (name, cell, value) holds does: the `__call__` of `counter(x)`, the `__getattr__` of `d.name`,
    which Python runs without the statement naming them."""
    names = set().union(*(_loaded_globals(fn.__code__) for fn in functions)).difference(carried)
    found = [(name, None, module[name]) for name in sorted(names) if name in module]
    attributes = set().union(*(_attributes_loaded(fn.__code__) for fn in functions))
    own = {id(cell) for _, cell, _ in variables}   # the statement's own variables: checked as such, not here
    reached = found + [v for v in variables if v[2] is not _EMPTY]
    return found + _helper_globals(reached, module, attributes, own)


def _helper_globals(found: list, module: dict, attributes: frozenset, own=frozenset()) -> list:
    """(name, None, object) of each global object that a function of the user's among `found` reads, or a
    function it reads does, however deep the calls go and in whichever of the user's modules it is: the log a
    helper appends to (`def log(v): LOG.append(v)`), the cache it fills (`CACHE[k] = v`), the object whose
    counter it bumps (`STATS.calls += 1`). A staged statement that calls the helper would make the change once,
    at trace time, on every path. A library's functions (the standard library's, NumPy's, a framework's) are
    not followed: their state is their own. A global of another module is named `module.NAME`. `attributes`:
    the names the statement reads as attributes (`log` of `helpers.log`); `own`: the ids of the closure cells
    of the statement's variables, which a nested function it calls shares and which are not followed here."""
    objects, seen = [], set()
    todo = [fn for _, _, value in found for fn in _reached(value, attributes)]
    while todo:
        fn = todo.pop()
        if id(fn) in seen or not _users(fn):
            continue
        seen.add(id(fn))
        namespace, code = fn.__globals__, fn.__code__
        prefix = "" if namespace is module else f"{namespace.get('__name__')}."
        if prefix and (other := sys.modules.get(prefix[:-1])) is not None:   # its `global COUNT; COUNT += 1`
            objects.append((prefix[:-1], None, other))
        for name in sorted(_loaded_globals(code)):
            value = namespace.get(name, _EMPTY)
            if value is not _EMPTY:
                todo += _reached(value, _attributes_loaded(code))
                objects.append((prefix + name, None, value))
        for name, cell in zip(code.co_freevars, fn.__closure__ or ()):   # a counter a factory made it with
            if id(cell) in own:
                continue
            value = slot_get(cell)
            objects.append((name, None, cell))
            if value is not _EMPTY:
                todo += _functions_of(value)
                objects.append((name, None, value))
        for name, value in _defaults(fn):   # `def add(v, acc=[])`: one list, made once, that every call shares
            todo += _functions_of(value)
            objects.append((name, None, value))
    return objects


def _defaults(fn) -> list:
    """(name, value) of each default of `fn`'s parameters, named as the parameter of `fn` (`add(acc=)`)."""
    code = fn.__code__
    positional = code.co_varnames[:code.co_argcount]
    found = [(f"{fn.__name__}({param}=)", value)
             for param, value in zip(positional[len(positional) - len(fn.__defaults__ or ()):], fn.__defaults__ or ())]
    return found + [(f"{fn.__name__}({param}=)", value) for param, value in (fn.__kwdefaults__ or {}).items()]


def _users(fn) -> bool:
    """`fn` is the user's code: not a library's by its module (backends.library_module), nor installed as a
    package (a framework not registered as a backend: its code is not followed)."""
    if library_module(fn.__module__):
        return False
    installed = _INSTALLED.get(fn.__code__.co_filename)
    if installed is None:
        installed = _INSTALLED[fn.__code__.co_filename] = any(
            part in ("site-packages", "dist-packages") for part in fn.__code__.co_filename.split(os.sep))
    return not installed


_INSTALLED: dict = {}


def _reached(value, attributes: frozenset) -> list:
    """The functions code that reads `value` and the attributes `attributes` may run: those of a module it names
    (`helpers.log(v)`), else `_functions_of(value)`."""
    if value.__class__ is types.ModuleType:
        return [fn for attr in sorted(attributes) for fn in _functions_of(getattr(value, attr, None))]
    return _functions_of(value)


def _functions_of(value, depth: int = 2) -> list:
    """The functions that using `value` may run: a function (and the one it wraps: a `contextlib.contextmanager`
    or a decorator's), a bound method's or a `functools.partial`'s, a class's methods, properties and
    descriptors (a `with` statement runs `__enter__` and `__exit__`, `o.d` a descriptor's `__get__`, which its
    source never calls) and its metaclass's, those of an object's class, and those of the items of a list,
    tuple or dict (`handlers[k](v)`), `depth` containers deep."""
    cls = value.__class__
    if cls is types.FunctionType:
        wrapped = getattr(value, "__wrapped__", None)
        return [value, *([wrapped] if wrapped.__class__ is types.FunctionType else [])]
    if cls is types.MethodType:
        return _functions_of(value.__func__) + _functions_of(value.__self__, 0)
    if cls is functools.partial:
        return _functions_of(value.func) + [f for arg in value.args for f in _functions_of(arg, 0)]
    if cls in (list, tuple, dict):
        items = list(value.values() if cls is dict else value)[:_ITEMS]
        return [] if depth <= 0 else [f for item in items if item.__class__ not in _PLAIN
                                      for f in _functions_of(item, depth - 1)]
    classes = [value, type(value)] if isinstance(value, type) else [cls]   # a class: its metaclass's too
    return [fn for k in classes if not library_module(k.__module__) for c in k.__mro__
            if not library_module(c.__module__) for f in vars(c).values() for fn in _accessors(f)
            if fn.__class__ is types.FunctionType]


_ITEMS = 64   # the items of a container that are looked at
_PLAIN = frozenset({int, float, bool, str, bytes, type(None)})


def _accessors(attribute) -> tuple:
    """The functions a class attribute runs: a method's (a classmethod's, a staticmethod's) own, a property's
    getter, setter and deleter, a descriptor of the user's class's methods (`p.v` runs code of the user's,
    which its source never calls)."""
    if attribute.__class__ is property:
        return tuple(f for f in (attribute.fget, attribute.fset, attribute.fdel) if f is not None)
    function = getattr(attribute, "__func__", attribute)
    if function.__class__ is types.FunctionType or isinstance(attribute, type):
        return (function,)
    descriptor = type(attribute)
    if library_module(descriptor.__module__) or not hasattr(descriptor, "__get__"):
        return ()
    return tuple(f for c in descriptor.__mro__ if not library_module(c.__module__) for f in vars(c).values()
                 if f.__class__ is types.FunctionType)


def _attributes_loaded(code) -> frozenset:
    """Names `code` reads as attributes (`log` of `helpers.log`), with those of the functions nested in it."""
    return code_names(code, ("LOAD_ATTR", "LOAD_METHOD"), _ATTRIBUTES)


_ATTRIBUTES: dict = {}


class _GlobalSlot:
    __slots__ = ("namespace", "name")

    def __init__(self, namespace: dict, name: str):
        self.namespace, self.name = namespace, name


def slot_get(slot):
    if slot.__class__ is _GlobalSlot:
        return slot.namespace.get(slot.name, _EMPTY)
    return cell_value(slot)


def slot_set(slot, value) -> None:
    if slot.__class__ is not _GlobalSlot:
        set_cell(slot, value)
    elif value is _EMPTY:
        slot.namespace.pop(slot.name, None)
    else:
        slot.namespace[slot.name] = value
