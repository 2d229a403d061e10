"""The framework-neutral half of a backend's builtins: `and`/`or`, `print`'s format, placeholders.

A framework supplies its `Primitives`, the few operations these (and
iteration.py's staged `range`, `enumerate`, `zip` and `len`) are made of;
what is left in its adapter is what only it does (how it prints, which
values it carries, its errors).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from autograph.backends.staging import NUMBERS
from autograph.errors import StagingError, at_user_line


@dataclass(frozen=True)
class Primitives:
    """The framework's operations that the neutral builtins are made of (None: the backend does without the
    builtins that need it)."""

    # the backend's staged `if`: cond(pred, true_fn, false_fn, names, construct) -> tuple of the branch's values
    cond: Optional[Callable] = None
    where: Optional[Callable] = None      # where(pred, a, b): elementwise choice
    minimum: Optional[Callable] = None    # of two lengths, a tensor's or a Python int
    maximum: Optional[Callable] = None
    sign: Optional[Callable] = None
    index: Optional[Callable] = None      # a range's bound as the loop's integer (a tensor cast; a Python int as is)
    length: Optional[Callable] = None     # a tensor's first dimension, a Python int when tracing knows it
    row: Optional[Callable] = None        # row(tensor, i): its row at a staged index `i`
    # and_then(ok, rest) -> `ok` and `rest()` as a bool tensor, `rest` only traced where the framework can
    and_then: Optional[Callable] = None


def logical_and(prims: Primitives, a, b_fn: Callable):
    """`a and b` on a staged `a`: Python's value, `b` where `a` is true and `a` itself where it is not (on bool
    tensors, the logical and): the backend's staged `if`, so `b` runs only on the path that needs it. `x and 5`
    on an int32 `x` is 5 or `x`, as in Python, not a bool."""
    return prims.cond(a, lambda: (b_fn(),), lambda: (a,), (), "`and`")[0]


def logical_or(prims: Primitives, a, b_fn: Callable):
    """`a or b` on a staged `a`: `a` where it is true, else `b`, as `logical_and`."""
    return prims.cond(a, lambda: (a,), lambda: (b_fn(),), (), "`or`")[0]


def not_one_value(construct: str, tensor: str, reduce_hint: str, staged: str = "a traced condition") -> StagingError:
    """The error for a staged condition of more than one value (Python's truth test of an array is an error
    too): `tensor` is the condition in words ("a tensor of shape (2,)"), `reduce_hint` the framework's
    reductions, `staged` what the framework calls a staged condition."""
    return StagingError(at_user_line(f"the condition of {construct} is {tensor}; {staged} must be one value. "
                                     f"Reduce it with {reduce_hint}."))


def escape(text: str) -> str:
    """`text` as a format string that prints it: braces doubled."""
    return text.replace("{", "{{").replace("}", "}}")


def format_template(text) -> Optional[tuple[str, list]]:
    """Text formatted from traced values (autograph's `StagedText`: its `_literals` and `_fields`) as a format
    string and the values of its fields, for a framework that formats them when it reports an error (JAX's
    checkify): the literals with braces escaped, each field `{!conversion:spec}`. None for any other value."""
    fields = getattr(text, "_fields", None)
    if not isinstance(text, str) or fields is None:
        return None
    pieces = [escape(text._literals[0])]
    for field, literal in zip(fields, text._literals[1:]):
        conversion = f"!{field.conversion}" if field.conversion else ""
        pieces += ["{" + conversion + (f":{field.spec}" if field.spec else "") + "}", escape(literal)]
    return "".join(pieces), [field.value for field in fields]


def print_format(args: Sequence, sep: Optional[str], is_printed: Callable[[Any], bool]) -> tuple[str, list]:
    """`print(*args, sep=sep)` as a format string for the framework's print: `{}` for each argument it prints
    (`is_printed`: a tensor, or a structure of them), the others' text with braces escaped, joined by `sep`
    (None: a space); and the arguments for the `{}`s, in order."""
    parts, printed = [], []
    for arg in args:
        if is_printed(arg):
            parts.append("{}")
            printed.append(arg)
        else:
            parts.append(escape(str(arg)))
    return escape(" " if sep is None else sep).join(parts), printed


def zeros_like(value, is_tensor: Callable[[Any], bool], zeros: Callable):
    """A placeholder for `value` on the paths that leave it undefined (a `return` inside a staged loop): a
    Python number's zero, `zeros(value)` for a tensor (`is_tensor`), any other Python value itself (it must
    then be the same on every path)."""
    if isinstance(value, NUMBERS + (complex,)):
        return type(value)(0)
    return zeros(value) if is_tensor(value) else value
