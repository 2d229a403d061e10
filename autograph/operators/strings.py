"""f-strings: Python's on Python values; a string the framework formats when the graph runs on staged ones.

`f"a{x!r:>8}b"` becomes `ag__.fstring('a', ag__.formatted(x, 'r', '>8'), 'b')`. Each `formatted` runs where
Python formats that field (after its value and its format spec are evaluated, before the next field's value), so
the calls and the `__format__`s happen in Python's order. A field whose value is staged is kept as a `Field`, and
`fstring` asks the value's backend for a string formatted when the graph runs: the text the value would give as an
eager value (runtime: `f"{x:.2f}"` of a traced tensor is the number, not `Tensor("x:0", ...)`, which is all a
string made while tracing could hold). A backend without `format_string` keeps Python's f-string.
"""
from __future__ import annotations

import re
import string
from typing import Any, NamedTuple

from autograph.backends import backend_for, backend_for_any
from autograph.errors import StagingError, at_user_line

_CONVERSIONS = {"s": str, "r": repr, "a": ascii}


class Field(NamedTuple):
    """A replacement field of an f-string whose value is staged: formatted when the graph runs."""

    value: Any
    conversion: str     # '', 's', 'r' or 'a'
    spec: str


def formatted(value, conversion: str = "", spec="") -> Any:
    """`{value!conversion:spec}`: Python's text, or a `Field` when the backend formats staged values."""
    backend = backend_for(value)
    if backend is not None and backend.format_string is not None:
        if spec.__class__ is not str:
            raise StagingError(at_user_line(
                "the format spec of an f-string field holding a tensor is itself made from a tensor; a graph "
                "can't choose the formatting while it runs. Make the spec a Python value."))
        return Field(value, conversion, spec)
    if conversion:
        value = _CONVERSIONS[conversion](value)
    return format(value, spec)


def fstring(*parts):
    """The f-string of `parts` (strs and `Field`s): a str, or the backend's staged string when a field is staged."""
    if all(part.__class__ is str for part in parts):
        return "".join(parts)
    literals, fields, text = [], [], []
    for part in parts:
        if part.__class__ is Field:
            literals.append("".join(text))
            fields.append(part)
            text = []
        else:
            text.append(part)
    literals.append("".join(text))
    return backend_for(fields[0].value).format_string(tuple(literals), tuple(fields))


_TOKEN = "\x00autograph field {}\x00"
_TOKENS = re.compile("\x00autograph field (\\d+)\x00")


class _StagedFormatter(string.Formatter):
    """`str.format` with the staged values' fields kept apart, as tokens in the text (see `str_format`)."""

    def __init__(self):
        self.fields: list[Field] = []

    def convert_field(self, value, conversion):
        if backend_for(value) is not None:
            return Field(value, conversion or "", "")
        return super().convert_field(value, conversion)

    def format_field(self, value, format_spec):
        if value.__class__ is not Field:
            return super().format_field(value, format_spec)
        if _TOKENS.search(format_spec):
            raise StagingError(at_user_line(
                "the format spec of a `str.format` field holding a tensor is itself made from a tensor; a graph "
                "can't choose the formatting while it runs. Make the spec a Python value."))
        self.fields.append(value._replace(spec=format_spec))
        return _TOKEN.format(len(self.fields) - 1)


def str_format(template: str, *args, **kwargs):
    """`template.format(*args, **kwargs)`: Python's, or as an f-string's (`fstring`) when an argument is staged and
    its backend formats staged strings."""
    backend = backend_for_any((*args, *kwargs.values()))
    if backend is None or backend.format_string is None or "\x00" in template:
        return template.format(*args, **kwargs)
    formatter = _StagedFormatter()
    text = formatter.vformat(template, args, kwargs)
    pieces = _TOKENS.split(text)          # text, field number, text, ...
    parts = [pieces[i] if i % 2 == 0 else formatter.fields[int(pieces[i])] for i in range(len(pieces))]
    return fstring(*parts)
