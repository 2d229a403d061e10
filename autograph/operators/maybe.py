"""A variable that a staged statement defines on some paths only: a placeholder and a flag.

    i = tf.constant(0)
    while i < n:          # staged: `y` is undefined before the loop and assigned by its body
        y = i * 2
        i += 1
    return y              # Python: UnboundLocalError when the loop ran zero times

A graph can't carry "unbound" (or `None` beside a tensor), so the staged statement carries `y` as a
`MaybeValue`: a placeholder of the type the body gives it (the backend's zeros) and a bool flag, true where
it was assigned. The check happens where the variable is READ, not after the statement: using a
`MaybeValue` in an operation (`y + 1`, `tf.reduce_sum(y)`, `y.shape`) emits the backend's `check_defined`
in the graph being built there, so it fails at run time only on the paths that read it, with the error
Python raises on that path (UnboundLocalError; TypeError for None in an operation). A load that only passes
it on (`z = y`, `return y`, `f(y)`, `del y`) is checked too, where it may be unassigned: the converter makes
it `ag__.ld(y)` (converters/unbound_loads.py), since Python raises at the load. A `MaybeValue` that
enters another staged statement is carried again as its (value, flag) pair (`_flatten`), and a framework's
function boundary turns a returned one into its value, `None`, or the error (`resolved`).

`none`: where the flag is false the variable is None (it was None before the statement, or a `return`
did not run: the function returns None), rather than unbound.
"""
from __future__ import annotations

import sys

from autograph.errors import StagingError, at_user_line
from autograph.operators.function_scope import tracing_failed
from autograph.operators.staged_raise import refuse_where_catchable
from autograph.operators.variables import MAYBE_TYPES, Undefined, UndefinedReturnValue


class MaybeValue:
    """`value` where `defined` (a staged bool) is true; else unbound (or None, when `none`). `why` says,
    for messages, why it may not be defined ("the loop at f.py:6 ran zero times")."""

    __slots__ = ("value", "defined", "name", "why", "none", "backend", "why_inside")

    def __init__(self, value, defined, name: str, why: str, none: bool, backend, why_inside: str | None = None):
        self.value, self.defined = value, defined
        self.name, self.why, self.none, self.backend = name, why, none, backend
        self.why_inside = why_inside   # a loop's: the reason inside its body ("no earlier iteration assigned it")

    def __repr__(self) -> str:
        return f"MaybeValue({self.name!r}, {self.value!r}, defined={self.defined!r})"

    # -- carried by staged statements and function boundaries as a (value, flag) structure --------

    def _flatten(self) -> tuple:
        return (self.value, self.defined)

    def _unflatten(self, leaves) -> MaybeValue:
        """From the leaves of `_flatten()` flattened as frameworks flatten structures (tuples and lists in order,
        dicts by sorted key, objects with `_flatten`)."""
        leaves = iter(leaves)
        return self.with_value(_pack(self.value, leaves), next(leaves))

    def with_value(self, value, defined) -> MaybeValue:
        return MaybeValue(value, defined, self.name, self.why, self.none, self.backend, self.why_inside)

    def inside_loop(self) -> MaybeValue:
        """As the body of the loop that made it sees it (the loop's own reason is for reads after it)."""
        if self.why_inside is None:
            return self
        return MaybeValue(self.value, self.defined, self.name, self.why_inside, self.none, self.backend)

    # -- reads ------------------------------------------------------------------------------------

    def read(self, use: str = ""):
        """The value, checked in the graph being built: the error Python raises where it is not defined."""
        if self.defined is True:
            return self.value
        return self._checked(*self._error(use))

    def _checked(self, error: type, message: str):
        self._refuse_where_catchable(error, message)
        return _map(lambda v: self.backend.check_defined(v, self.defined, error, at_user_line(message)), self.value)

    def as_result(self, construct: str):
        """The value, as the operand a staged `and`/`or` or conditional expression (`construct`) gives as its
        result: where the graph takes this operand on a path where it is None, Python's result is None, which no
        graph value can be: a StagingError then, when the graph runs (a guarded `r if r is not None else 0`
        never takes it). Where it is unassigned, Python's error."""
        if not self.none or self.defined is True:
            return self.read()
        return self._checked(StagingError, (
            f"'{self.name}' is None on this path ({self.why}), and {construct} gives it as its result here: None, as "
            f"in Python, which a graph value can't be. Give '{self.name}' a tensor value on every path, or test "
            f"`{self.name} is None` first and assign in each branch."))

    def loaded(self, free: bool = False):
        """A load of the variable that passes it on (`z = y`, `return y`, `f(y)`; `ag__.ld`): checked as a read,
        since Python raises at the load; where the variable is None on some paths, None is a value to pass.
        `free`: the load is a nested function's, of the enclosing function's variable (Python's NameError)."""
        if self.none or self.defined is True:
            return self.value if self.defined is True else self
        if not free:
            return self.read()
        return self._checked(NameError, f"cannot access free variable '{self.name}' where it is not associated with "
                                        f"a value in enclosing scope: {self.why}.")

    def _refuse_where_catchable(self, error: type, message: str) -> None:
        """A StagingError where a `try` or `with` of the user's around this read could catch the error the
        graph raises when it runs (after tracing, past them)."""
        def refusal(kind: str, around: str) -> str:
            return at_user_line(
                f"this read of '{self.name}' raises {error.__name__} when the graph runs a path where it is "
                f"{'None' if self.none else 'unassigned'} ({self.why}), and it is {around}: the graph raises "
                f"after the function was traced, where that `{kind}` can't "
                f"{'catch' if kind == 'except' else 'see'} it. Assign '{self.name}' on every path before this "
                f"read (e.g. before the statement that may leave it {'None' if self.none else 'unassigned'}).")
        try:
            refuse_where_catchable(error(message), refusal, sys._getframe(2))
        except StagingError as refused:   # past the user's `except` and `with` (which could swallow it)
            raise tracing_failed(refused) from None

    def _error(self, use: str) -> tuple:
        if self.none:
            what = f" in `{use}`" if use else " as a value of the framework"
            return TypeError, (f"'{self.name}' is None on this path ({self.why}), and None can't be used{what} "
                               "(Python raises TypeError here).")
        return UnboundLocalError, (f"cannot access local variable '{self.name}' where it is not associated with "
                                   f"a value: {self.why}.")

    def is_none(self):
        """`x is None`, as a staged bool: where not defined, True if the variable is None there, else the read
        raises (UnboundLocalError) as Python's does."""
        not_ = self.backend.need("logical_not", "`is None` on a tensor")
        if self.none:
            return (not self.defined) if self.defined.__class__ is bool else not_(self.defined)
        if self.defined is True:
            return False
        error, message = self._error("is")
        self._refuse_where_catchable(error, message)
        return not_(self.backend.check_defined(self.defined, self.defined, error, at_user_line(message)))

    def resolved(self, context: str = ""):
        """At a function's output, on concrete values: the value, None, or the error Python raises."""
        if bool(self.defined):
            return _map(lambda v: v.resolved(context) if v.__class__ is MaybeValue else v, self.value)
        if self.none:
            return None
        error, message = self._error("")
        raise error(f"{message}{context}")

    def _as_tensor(self, dtype=None):   # runtime's conversion protocol (convert_to_tensor)
        return self.read()

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.read(f".{name}"), name)

    def __bool__(self):
        return bool(self.read("bool"))

    def __iter__(self):
        return iter(self.read("iter"))

    def __len__(self):
        return len(self.read("len"))

    def __getitem__(self, key):
        return self.read("[]")[key]

    def __array__(self, *args, **kwargs):
        import numpy as np
        return np.asarray(self.read("array"), *args, **kwargs)


def _operator(symbol: str, method: str, reflected: bool = False):
    if reflected:
        def op(self, other):
            return getattr(self.read(symbol), method)(other)
    else:
        def op(self, other):
            if self.none and other.__class__ is MaybeValue and not other.none:
                # Python loads both operands before it applies the operator: the right one's UnboundLocalError
                # comes before the TypeError of None in the operation
                other = other.read(symbol)
            return getattr(self.read(symbol), method)(_read(other, symbol))
    op.__name__ = method
    return op


def _unary(symbol: str, method: str):
    def op(self):
        return getattr(self.read(symbol), method)()
    op.__name__ = method
    return op


def _read(value, use: str):
    return value.read(use) if value.__class__ is MaybeValue else value


_BINARY = {"+": "add", "-": "sub", "*": "mul", "/": "truediv", "//": "floordiv", "%": "mod", "**": "pow",
           "@": "matmul", "&": "and", "|": "or", "^": "xor", "<<": "lshift", ">>": "rshift"}
for _symbol, _name in _BINARY.items():
    setattr(MaybeValue, f"__{_name}__", _operator(_symbol, f"__{_name}__"))
    setattr(MaybeValue, f"__r{_name}__", _operator(_symbol, f"__r{_name}__", reflected=True))
def _equality(symbol: str, method: str):
    """`==` / `!=`, which Python answers on None too (`None == 4` is False): on a variable None on some paths,
    a staged bool that is that answer where it is None (not the TypeError of `<` or `+`)."""
    equal = symbol == "=="

    def op(self, other):
        backend = self.backend
        if not self.none or self.defined is True or other.__class__ is MaybeValue or \
                backend.logical_and is None or backend.logical_not is None or isinstance(self.value, (tuple, list)):
            return getattr(self.read(symbol), method)(_read(other, symbol))
        if other is None:   # `x == None`: true exactly where it is None
            return backend.logical_not(self.defined) if equal else self.defined
        compared = lambda: getattr(self.value, method)(other)   # noqa: E731 - read only where defined
        if equal:
            return backend.logical_and(self.defined, compared)
        return backend.logical_or(backend.logical_not(self.defined), compared)
    op.__name__ = method
    return op


for _symbol, _name in {"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}.items():
    setattr(MaybeValue, f"__{_name}__", _operator(_symbol, f"__{_name}__"))
for _symbol, _name in {"==": "eq", "!=": "ne"}.items():
    setattr(MaybeValue, f"__{_name}__", _equality(_symbol, f"__{_name}__"))
for _symbol, _name in {"-": "neg", "+": "pos", "abs": "abs", "~": "invert"}.items():
    setattr(MaybeValue, f"__{_name}__", _unary(_symbol, f"__{_name}__"))


def _hash(self):
    """Python hashes the value (`r in {None}`, `d.get(r)`), which is known only when the graph runs: None on
    some paths, a tensor (unhashable) on the others. Refused at the user's line, where Python would answer."""
    if self.defined is True:
        return hash(self.value)
    raise tracing_failed(StagingError(at_user_line(
        f"'{self.name}' is {'None' if self.none else 'unassigned'} on some paths ({self.why}) and a value of the "
        "graph on the others: a set member or a dict key is found by its hash, which Python takes of the value, "
        f"known only when the graph runs. Test it first (`if {self.name} is None:`, or assign it on every path) "
        "and use it as a key only where it has a value.")))


MaybeValue.__hash__ = _hash
MAYBE_TYPES.append(MaybeValue)   # what `ag__.ld` checks


def _map(fn, value):
    if isinstance(value, (tuple, list)) and not hasattr(value, "_fields"):
        return type(value)(_map(fn, v) for v in value)
    if isinstance(value, dict):
        return {k: _map(fn, v) for k, v in value.items()}
    return fn(value)


def is_maybe(value) -> bool:
    return value.__class__ is MaybeValue


# --- what staged statements do with such variables (operators/control_flow.py) ---------------------------

def can_carry(backend) -> bool:
    """Whether `backend` carries variables defined on some paths only: it checks reads (`check_defined`) and
    makes placeholders (`probe`, `zeros_like`)."""
    return backend.check_defined is not None and backend.probe is not None and backend.zeros_like is not None


def kind(value, returned: bool = False) -> str:
    """'value', 'undefined', 'none' or 'maybe'. For the return value (`returned`), not having returned is
    None: the function returns None there."""
    cls = value.__class__
    if cls is MaybeValue:
        return "maybe"
    if cls is Undefined or cls is UndefinedReturnValue:
        return "none" if returned else "undefined"
    return "none" if value is None else "value"


def absent_is_none(kinds, values) -> bool | None:
    """Whether the variable is None (True) or unbound (False) where not defined, from its kinds on the paths
    that meet; None if both (a graph can't carry both with one flag)."""
    none = {k == "none" or (k == "maybe" and v.none) for k, v in zip(kinds, values) if k != "value"}
    return None if len(none) > 1 else none.pop() if none else False


def placeholder(backend, sample, name: str = ""):
    """Zeros of `sample`'s structure, types and shapes (a variable defined on some paths only)."""
    try:
        return _placeholder(backend, sample)
    except (TypeError, ValueError) as e:
        from autograph.errors import AutoGraphError, StagingError
        if isinstance(e, AutoGraphError):
            raise
        raise StagingError(at_user_line(
            f"'{name}' is defined on some paths through this statement on a tensor only, and its value there, "
            f"the {type(sample).__name__} {sample!r:.40}, can't be carried in a graph ({e}). Give '{name}' a value "
            "on every path, or use it only where it is defined.")) from None


def _placeholder(backend, sample):
    if sample.__class__ is MaybeValue:
        return _placeholder(backend, sample.value)
    if isinstance(sample, (tuple, list)) and not hasattr(sample, "_fields"):
        return type(sample)(_placeholder_item(backend, v) for v in sample)
    if isinstance(sample, dict):
        return {k: _placeholder_item(backend, v) for k, v in sample.items()}
    return backend.zeros_like(sample)


def _placeholder_item(backend, value):
    if value.__class__ is MaybeValue:
        return value.with_value(_placeholder(backend, value.value), False)
    return _placeholder(backend, value)


def lifted(template: MaybeValue, value, k: str, sample=None):
    """`value` (of kind `k`) as a `MaybeValue` with `template`'s name and reasons; `sample` is a value
    another path defines, for the placeholder."""
    if k == "value":
        return template.with_value(value, True)
    if k == "maybe":
        return template.with_value(value.value, value.defined)
    return template.with_value(placeholder(template.backend, sample, template.name), False)


def checked_return(value):
    """A value being returned, with the unbound variables in it read (`return y` reads `y`: Python raises
    there), so that the return value is None where not defined, never unbound."""
    if value.__class__ is MaybeValue:
        return value if value.none else value.read("return")
    if isinstance(value, (tuple, list)) and not hasattr(value, "_fields"):
        return type(value)(checked_return(v) for v in value)
    return value


def location() -> str:
    """'file.py:N' of the user's statement being staged."""
    import os
    from autograph.errors import user_location
    where = user_location(2)
    return f"{os.path.basename(where[0])}:{where[1]}" if where else "?"


def _leaves(structure) -> int:
    if isinstance(structure, dict):
        return sum(_leaves(v) for v in structure.values())
    if isinstance(structure, (tuple, list)):
        return sum(_leaves(v) for v in structure)
    if hasattr(type(structure), "_flatten"):
        return _leaves(structure._flatten())
    return 1


def sorted_keys(d: dict) -> list:
    """A dict's keys in the frameworks' flattening order: sorted (by repr where they don't sort together, as
    runtime.nest does)."""
    try:
        return sorted(d)
    except TypeError:
        return sorted(d, key=repr)


def _pack(structure, leaves):
    """`structure` with the next leaves of `leaves` in place of its own (the frameworks' nest order)."""
    if isinstance(structure, dict):
        packed = {key: _pack(structure[key], leaves) for key in sorted_keys(structure)}
        return type(structure)((key, packed[key]) for key in structure)
    if isinstance(structure, (tuple, list)):
        items = [_pack(v, leaves) for v in structure]
        return type(structure)(*items) if hasattr(structure, "_fields") else type(structure)(items)
    if hasattr(type(structure), "_flatten"):
        return structure._unflatten([next(leaves) for _ in range(_leaves(structure._flatten()))])
    return next(leaves)
