"""Loads of local variables, and placeholders for values not yet defined."""
from __future__ import annotations


class Undefined:
    """The value of a variable that has not been assigned on this path.

    Using it as a value raises UnboundLocalError, as Python does for the variable (`ld`, `bool`). Asking
    about it is answered the way Python's attribute protocol expects, so that `hasattr`, `getattr(u, name,
    default)`, `copy`, `pickle` and tracers that probe the values they are given (dynamo, pytree) work: a
    missing attribute is an AttributeError (naming the variable), and a copy is another `Undefined` of
    the same name."""

    __slots__ = ("symbol_name",)

    def __init__(self, symbol_name: str):
        self.symbol_name = symbol_name

    def __repr__(self) -> str:
        return f"Undefined({self.symbol_name!r})"

    def __reduce__(self):
        return Undefined, (self.symbol_name,)

    def __getattr__(self, name):
        # Called only for attributes it lacks; `symbol_name` is one while `copy` rebuilds an instance.
        if name == "symbol_name":
            raise AttributeError(name)
        raise AttributeError(f"'Undefined' object has no attribute '{name}': local variable "
                             f"'{self.symbol_name}' is used before it is assigned a value", name=name, obj=self)

    def __bool__(self):
        raise UnboundLocalError(f"local variable '{self.symbol_name}' is used before it is assigned a value")


class UndefinedReturnValue:
    """The return value of a function that has not returned yet."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UndefinedReturnValue()"


def ld(value, free: bool = False):
    """A load of a local variable that may be unassigned here: raises like Python when it is not assigned
    yet. A variable a staged statement assigned on some paths only (a `MaybeValue`) is checked here, in the
    graph being built, and its value given on: the graph raises UnboundLocalError on the paths that left it
    unassigned, as Python raises at the load (a None on some paths is a value, and is given on as it is).
    `free`: a nested function's load of the enclosing function's variable (Python's error is a NameError)."""
    cls = value.__class__
    if cls is Undefined:
        raise UnboundLocalError(
            f"local variable '{value.symbol_name}' is used before it is assigned a value (it is only "
            "assigned on some paths through the code above)")
    if cls in MAYBE_TYPES:
        return value.loaded(free)
    return value


MAYBE_TYPES: list = []   # operators/maybe.py's MaybeValue (which imports this module)


def is_undefined(value) -> bool:
    return value.__class__ is Undefined or value.__class__ is UndefinedReturnValue


class Local:
    """Only ever an annotation in generated code: `y: ag__.Local` declares `y` a local variable of the
    converted function without giving it a value (Python does not evaluate it), so that the branch and
    loop-body functions can share `y` through `nonlocal` while it stays unbound, as the user's `y` is."""


UNBOUND = object()   # what `cell_value` gives for a variable that has no value


def cell_value(cell):
    """The value in a closure cell (a variable shared through `nonlocal`), or UNBOUND."""
    try:
        return cell.cell_contents
    except ValueError:
        return UNBOUND


def set_cell(cell, value) -> None:
    """Give a closure cell `value`; UNBOUND unbinds the variable."""
    if value is not UNBOUND:
        cell.cell_contents = value
    elif cell_value(cell) is not UNBOUND:
        del cell.cell_contents
