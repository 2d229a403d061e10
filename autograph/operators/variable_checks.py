"""What a staged statement checks about the variables it carries, with messages that name the user's lines.

Converted code keeps the user's line numbers, so the branch and body functions'
bytecode says where a variable is assigned (`assigned_at`); the generated
return value and flag are told apart from the user's variables (`meaning`).
"""
from __future__ import annotations

import dis
import os
import re
import types

from autograph.errors import StagingError, at_user_line
from autograph.operators.maybe import sorted_keys
from autograph.operators.variables import is_undefined


def meaning(name: str) -> str:
    """'retval_' and 'do_return' for the generated return value and flag, which are `retval__1`... when the
    user's code has a variable of that name (pyct/naming.py); any other name as it is."""
    match = GENERATED.match(name)
    return match.group(1) if match else name


GENERATED = re.compile(r"^(retval_|do_return)(?:_\d+)?$")


def fillable(name: str) -> bool:
    """Whether a variable may be undefined on some staged paths: the return value (`do_return` says whether
    it is real)."""
    return meaning(name) == "retval_"


def check_defined_after_if(values, names, which: str, other_fn=None, this_fn=None) -> None:
    for name, value in zip(names, values):
        if is_undefined(value):
            if meaning(name) in ("retval_", "do_return"):
                raise StagingError(at_user_line(
                    f"this `if` on a tensor returns from the function in only one branch ({which} branch "
                    "does not). With a tensor condition both branches must return, or neither: add a "
                    "return to the other branch or assign a result variable and return it after the if."))
            other = "false" if which == "true" else "true"
            if not name.isidentifier():   # an attribute or item the statement creates (operators/composites.py)
                raise StagingError(at_user_line(
                    f"`{name}` is set in only one branch of this `if` on a tensor (the {other} branch sets it"
                    f"{assigned_at(other_fn, name)}; the {which} branch does not), and it does not exist before "
                    f"the `if`{not_own(name)}. A graph can't create {kind(name)} on one path only: set `{name}` before the `if` "
                    f"(to a value of the same type), or in the {which} branch too."))
            raise StagingError(at_user_line(
                f"'{name}' is assigned in only one branch of this `if` on a tensor (the {other} branch assigns "
                f"it{assigned_at(other_fn, name)}; the {which} branch leaves it undefined"
                f"{assigned_at(this_fn, name)}) and is used "
                f"afterwards. Assign '{name}' before the `if` or in the {which} branch too."))


def not_own(name: str) -> str:
    """For an attribute: that one its class holds is not the object's own (Python sets the object's)."""
    return "" if name.endswith("]") else " (on the object itself: one its class holds is read through it, and a " \
        "store sets the object's own)"


def kind(name: str) -> str:
    """'an item' or 'an attribute', for the name of a composite (`d['k']`, `o.v`)."""
    return "an item" if name.endswith("]") else "an attribute"


def assigned_at(fn, name: str) -> str:
    """' at file.py:N' of `fn`'s assignments to `name` (converted code keeps the user's lines), or ''."""
    while hasattr(fn, "__wrapped__"):
        fn = fn.__wrapped__
    code = getattr(fn, "__code__", None)
    if code is None:
        return ""
    try:
        lines = store_lines(code, name)
    except (TypeError, ValueError, AttributeError):
        return ""
    where = os.path.basename(code.co_filename)
    return " at " + ", ".join(f"{where}:{line}" for line in lines) if lines else ""


def store_lines(code, name: str) -> list[int]:
    """Lines that store `name`: those of the innermost generated functions that do (a branch or body
    function stores a variable where the user assigns it; its caller only stores the operator's result).
    For an attribute (`self.count`), the lines that store an attribute of that name."""
    inner = sorted({line for const in code.co_consts if isinstance(const, types.CodeType)
                    for line in store_lines(const, name)})
    if inner:
        return inner
    if name.isidentifier():
        opnames, stored = ("STORE_FAST", "STORE_DEREF", "DELETE_FAST", "DELETE_DEREF", "STORE_GLOBAL"), name
    else:
        opnames, stored = ("STORE_ATTR",), name.rpartition(".")[2]
    return sorted({i.positions.lineno for i in dis.get_instructions(code)
                   if i.opname in opnames and i.argval == stored
                   and i.positions is not None and i.positions.lineno})


def structure(value):
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, tuple(structure(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple((k, structure(value[k])) for k in sorted_keys(value)))
    return "."


def describe(structure) -> str:
    if structure == ".":
        return "a single value"
    kind, items = structure
    if kind == "dict":                     # two dicts of one item differ in their keys
        return f"a dict with keys {[key for key, _ in items]}"
    return f"a {kind} of {len(items)}"


def check_same_structure(true_out, false_out, names, true_fn=None, false_fn=None) -> None:
    for name, a, b in zip(names, true_out, false_out):
        sa, sb = structure(a), structure(b)
        if sa != sb:
            what = "the function's return value" if meaning(name) == "retval_" else f"'{name}'"
            raise StagingError(at_user_line(
                f"{what} has a different structure in the two branches of this `if` on a tensor "
                f"({describe(sa)}{assigned_at(true_fn, name)} vs {describe(sb)}{assigned_at(false_fn, name)}). "
                "With a tensor condition both branches must produce the same structure; return (or assign) "
                "values of the same shape on every path."))
