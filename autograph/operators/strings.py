"""f-strings: Python's on Python values; on staged ones, a str that the graph can also format when it runs.

`f"a{x!r:>8}b"` becomes `ag__.fstring('a', ag__.formatted(x, 'r', '>8'), 'b')`. Each `formatted` runs where
Python formats that field (after its value and its format spec are evaluated, before the next field's value), so
the calls and the `__format__`s happen in Python's order. A field whose value is staged is kept as a `Field`, and
`fstring` gives a `StagedText`: a str whose text is what Python's f-string gives while tracing (the symbolic
tensor, as TensorFlow writes it: what `print`, a `raise`'s message or a `message=` argument get), which also
keeps the fields. Where the framework converts it to a tensor (`tf.print`, a function's return value, an op's
input: runtime calls its `_as_tensor`), the backend's `format_string` makes a string formatted when the graph
runs, with the text the values would give as eager values (`f"{x:.2f}"` of a traced tensor is the number). A
backend without `format_string` keeps Python's f-string.
"""
from __future__ import annotations

import functools
import re
import string
from typing import Any, NamedTuple

from autograph.backends import any_staging, backend_for
from autograph.backends.stacked_list import StackedList
from autograph.errors import StagingError, UnsupportedCapabilityError, at_user_line
from autograph.operators.function_scope import tracing_failed
from autograph.operators.maybe import MaybeValue

_python_conversion = string.Formatter().convert_field   # `!s`, `!r`, `!a` (None: no conversion), as Python does


def _convert(value, conversion):
    """`value!conversion` as Python converts it; `i` (`%d`, `%i`, `%u`) the value itself, whose int the backend
    takes where it formats it."""
    return value if conversion == "i" else _python_conversion(value, conversion)


class Field(NamedTuple):
    """A replacement field of an f-string whose value is staged: formatted when the graph runs."""

    value: Any
    conversion: str     # '', 's', 'r' or 'a'; or 'i', `%d`'s (`%x`'s, `%c`'s, ...): the int of a number (a float's
    spec: str           # truncated by `%d`, refused by `%x`), formatted with the spec


class _Parts(list):
    """The parts of one field: a list, tuple or dict holding staged values, as its repr's text and `Field`s."""


def formatted(value, conversion: str = "", spec="") -> Any:
    """`{value!conversion:spec}`: Python's text, or a `Field` when the backend formats staged values (`_Parts`
    for a list, tuple or dict holding them, whose text is its items' reprs)."""
    if value.__class__ is MaybeValue:
        value = _read(value)
    if value.__class__ is StagedText and value._live():
        return value._parts(conversion, spec)
    backend = backend_for(value)
    if backend is not None:
        _refuse_a_stacked_list(value)
    if backend is not None and backend.format_string is not None:
        if spec.__class__ is not str:
            raise StagingError(at_user_line(
                "the format spec of an f-string field holding a tensor is itself made from a tensor; a graph "
                "can't choose the formatting while it runs. Make the spec a Python value."))
        return Field(value, conversion, spec)
    if backend is not None and spec:
        try:
            format(_convert(value, conversion or None), spec)
        except TypeError:       # the framework's traced value takes no spec (JAX's tracers, torch's FakeTensors)
            raise UnsupportedCapabilityError(at_user_line(
                f"a formatted field (f-string, str.format or %) with the format spec {spec!r} holds a traced "
                f"{backend.name} value, which takes no format spec, and the {backend.name} backend formats no "
                "strings when the graph runs. Format the value outside the traced function, or drop the spec."
            )) from None
    if backend is not None and (backend.is_staging is None or backend.is_staging()):
        return Field(value, conversion, spec)   # the traced value's text, which a `StagedText` keeps from use
    if conversion != "a" and not spec and value.__class__ in _CONTAINERS and any_staging():
        parts = _Parts()                # each item's repr is taken once, as Python's repr of the container does
        return parts if _repr_parts(value, parts, set()) else "".join(parts)
    return format(_convert(value, conversion or None), spec)


def _repr_parts(value, parts: list, seen: set) -> bool:
    """Append `repr(value)` to `parts`, each staged value in it a `Field` of its repr; False if none is staged."""
    cls = value.__class__
    if cls in _CONTAINERS and id(value) in seen:       # a container inside itself, as Python's repr shows it
        parts.append("...".join(_CONTAINERS[cls]))
        return False
    if cls is MaybeValue:
        value = _read(value)
    if value.__class__ is StagedText and value._live():
        parts.extend(value._parts("r", ""))
        return True
    if cls not in _CONTAINERS:
        backend = backend_for(value)
        if backend is not None:
            _refuse_a_stacked_list(value)
        if backend is not None and backend.format_string is not None:
            parts.append(Field(value, "r", ""))
            return True
        parts.append(repr(value))
        return False
    seen = seen | {id(value)}
    opening, closing = _CONTAINERS[cls]
    parts.append(opening)
    staged = False
    items = value.items() if cls is dict else [(None, item) for item in value]
    for i, (key, item) in enumerate(items):
        if i:
            parts.append(", ")
        if cls is dict:
            staged |= _repr_parts(key, parts, seen)
            parts.append(": ")
        staged |= _repr_parts(item, parts, seen)
    if cls is tuple and len(value) == 1:
        parts.append(",")
    parts.append(closing)
    return staged


_CONTAINERS = {list: ("[", "]"), tuple: ("(", ")"), dict: ("{", "}")}


def _refuse_a_stacked_list(value) -> None:
    """The text of a list a staged loop built is Python's list of its items' reprs (`[5, <tf.Tensor: ...>]`),
    whose number is known only when the graph runs and whose Python items the stacked tensor no longer tells
    apart: refused, rather than the stacked tensor's text."""
    if getattr(value, "is_stacked_list", False) or isinstance(value, StackedList):
        raise tracing_failed(StagingError(at_user_line(
            "the text (str, repr, format, an f-string) of a list that a loop over tensors built: Python's text is "
            "the list of its items' reprs, which the graph can't give (after the loop the list is one stacked "
            "tensor). Format the stacked tensor instead (`str(tf.stack(l))`), or its items one by one.")))


def holds_text(value) -> bool:
    """Whether `str(value)` (`repr`, `format`) goes through `formatted` while a framework stages values: a variable
    defined on some staged paths only, a list, tuple or dict (which may hold staged values), or text formatted
    from a staged value."""
    return (value.__class__ is MaybeValue or value.__class__ in _CONTAINERS and any_staging()
            or value.__class__ is StagedText and value._live())


def _read(value: MaybeValue):
    """The value of a variable a staged statement defines on some paths only (Python's UnboundLocalError when the
    graph runs a path where it is unassigned); refused where it is None on some paths: Python's text there, 'None',
    is not the value's, and a field formats one type."""
    if value.none and value.defined is not True:
        raise tracing_failed(StagingError(at_user_line(
            f"an f-string (or `str`, `repr`, `format`, `%`) formats '{value.name}', which is None on some paths "
            f"({value.why}) and a {type(value.value).__name__} on others: the text, 'None' or the value's, is known "
            f"only when the graph runs, and a formatted field holds one type. Format it where it is assigned, or "
            f"test `{value.name} is None` first and format the two texts in the branches.")))
    return value.read("an f-string")


def fstring(*parts):
    """The f-string of `parts` (strs and `Field`s): a str, or a `StagedText` when a field is staged."""
    if all(part.__class__ is str for part in parts):
        return "".join(parts)
    literals, fields, text = [], [], []
    for part in [p for part in parts for p in (part if part.__class__ is _Parts else (part,))]:
        if part.__class__ is Field:
            literals.append("".join(text))
            fields.append(part)
            text = []
        else:
            text.append(part)
    literals.append("".join(text))
    return StagedText(tuple(literals), tuple(fields))


def _refused_while_traced(operation: str, what: str):
    """str's `operation`, refused on a `StagedText` while the trace that made it lasts: it would answer from the
    symbolic value's text."""
    method = getattr(str, operation)

    def refused(self, *args):
        if not self._live():
            return method(self, *args)
        raise staged_text_refused(what, self)
    refused.__name__ = operation
    return refused


def staged_text_refused(what: str, text: StagedText) -> BaseException:
    backend = backend_for(text._fields[0].value)
    if backend.format_string is None:
        return tracing_failed(StagingError(at_user_line(
            f"{what} of text formatted from a traced {backend.name} value: Python would read the value's text, and "
            f"the {backend.name} backend formats no strings when the graph runs (the text here is the traced "
            "value's). Compare or measure the values themselves, or format a Python value.")))
    return tracing_failed(StagingError(at_user_line(
        f"{what} of text formatted from a staged value: the answer depends on the text the graph formats when it "
        "runs (the text while tracing is the symbolic value's). Compare it with `==` (staged), use the graph's "
        "string ops (runtime: tf.strings.*), or format a Python value.")))


class StagedText(str):
    """An f-string with staged fields: as a str, Python's text while tracing; as a tensor (`_as_tensor`), the
    backend's string formatted when the graph runs. `+` with a str keeps the fields; other str methods give
    plain strs of the text."""

    def __new__(cls, literals: tuple, fields: tuple):
        text = literals[0] + "".join(_traced_text(field) + literal for field, literal in zip(fields, literals[1:]))
        self = super().__new__(cls, text)
        self._literals, self._fields, self._error, self._tensor = literals, fields, None, None
        format_string = backend_for(fields[0].value).format_string
        try:        # made here, where the f-string is (a graph runs only what its outputs need)
            self._tensor = format_string(literals, fields) if format_string is not None else None
        except StagingError as error:    # raised where the graph needs the string; its text serves elsewhere
            self._error = error
        return self

    def _live(self) -> bool:
        """Whether the trace that made it still lasts (after it, it is the str it was while tracing)."""
        backend = backend_for(self._fields[0].value)
        return backend is not None and (backend.is_staging is None or backend.is_staging())

    def _as_tensor(self, dtype=None):
        """The backend's string formatted when the graph runs; None once the trace that made it is over, or where
        the backend formats no strings (JAX, torch: the text is the traced value's)."""
        if not self._live() or self._tensor is None and self._error is None:
            return None
        if self._error is not None:
            raise self._error
        return self._tensor

    def _parts(self, conversion: str, spec: str) -> _Parts:
        """This text as a field of another f-string (`f"<{text}>"`, `'%s' % text`, `sep.join`): its literals and
        fields; `!r` quoted as Python's repr quotes it where the literals need no escapes (a field's text, a
        number's or a bool's, needs none); a format spec, which needs its length, refused."""
        quote = ""
        if conversion in ("r", "a"):
            if any(not literal.isprintable() or "'" in literal or "\\" in literal
                   or conversion == "a" and not literal.isascii() for literal in self._literals):
                raise staged_text_refused("repr() (or `!r`) of it, with quotes or escapes in its literal text,", self)
            quote = "'"
        if spec:
            raise staged_text_refused(f"the format spec {spec!r}", self)
        parts = _Parts([quote + self._literals[0]])
        for field, literal in zip(self._fields, self._literals[1:]):
            parts += [field, literal]
        parts[-1] += quote
        return parts

    def __bool__(self) -> bool:
        return True     # a field's text (a number's, a bool's, an array's) is never empty, nor then is the text

    def __add__(self, other):
        if other.__class__ is str:
            return StagedText(self._literals[:-1] + (self._literals[-1] + other,), self._fields)
        if isinstance(other, StagedText):
            return StagedText(self._literals[:-1] + (self._literals[-1] + other._literals[0],) + other._literals[1:],
                              self._fields + other._fields)
        return str.__add__(self, other)

    def __radd__(self, other):
        if other.__class__ is str:
            return StagedText((other + self._literals[0],) + self._literals[1:], self._fields)
        return NotImplemented

    def _compared(self, other, equal: bool):
        """`text == other` (`!=`) of a str, formatted text or a string tensor: staged, compared when the graph runs
        (the trace's text is the symbolic value's); of a value that is no str, never equal, as in Python."""
        if not self._live() or not isinstance(other, str) and backend_for(other) is None:
            return str.__eq__(self, other) if equal else str.__ne__(self, other)
        tensor = self._as_tensor()
        if tensor is None:          # a backend that formats no strings
            raise staged_text_refused("`==`" if equal else "`!=`", self)
        if isinstance(other, StagedText) and other._as_tensor() is not None:
            other = other._as_tensor()
        return tensor == other if equal else tensor != other

    def __eq__(self, other):
        return self._compared(other, True)

    def __ne__(self, other):
        return self._compared(other, False)

    # What the trace's text would answer, refused while the trace lasts (Python's after it)
    __hash__ = _refused_while_traced("__hash__", "hashing it (a dict key, a set item)")
    __len__ = _refused_while_traced("__len__", "len()")
    __contains__ = _refused_while_traced("__contains__", "`in`")
    __getitem__ = _refused_while_traced("__getitem__", "indexing or slicing")
    __iter__ = _refused_while_traced("__iter__", "iterating over it")
    __lt__ = _refused_while_traced("__lt__", "`<`")
    __le__ = _refused_while_traced("__le__", "`<=`")
    __gt__ = _refused_while_traced("__gt__", "`>`")
    __ge__ = _refused_while_traced("__ge__", "`>=`")
    __mul__ = _refused_while_traced("__mul__", "`*`")
    __rmul__ = _refused_while_traced("__rmul__", "`*`")
    __mod__ = _refused_while_traced("__mod__", "`%`")


def in_(item, container) -> bool:
    """`item in container` (converters/comparisons.py): Python's; refused where `item` is text formatted from a
    staged value while its trace lasts and `container` a str, whose own code would read the symbolic value's text
    (`f"{x}" in "1.5 apples"` was always false). Text on the right of `in` refuses itself (`StagedText.__contains__`);
    in a list or tuple its `==` is staged, in a dict or set its hash refused."""
    if item.__class__ is StagedText and isinstance(container, str) and container.__class__ is not StagedText \
            and item._live():
        raise staged_text_refused("`in` on a str given it", item)
    if isinstance(container, str) and container.__class__ is not StagedText and backend_for(item) is not None:
        raise tracing_failed(StagingError(at_user_line(   # (str's own TypeError would pass for Python's)
            "`in` with a staged value on the left and a str on the right: a Python str that a staged `if` or loop "
            "carries is a string tensor, whose text the graph knows only when it runs, and str's own `in` would "
            "raise a TypeError (which an `except` could take for the program's). Use the framework's string ops "
            "(runtime.strings.regex_full_match), or test it before the staged statement.")))
    return item in container


def not_in(item, container) -> bool:
    """`item not in container`: `not` of `in_`'s answer, as Python's `not in` is."""
    return not in_(item, container)


def contains(container, item) -> bool:
    """`operator.contains(container, item)`: `item in container` (`in_`)."""
    return in_(item, container)


def method_of_staged_text(method, *args, **kwargs):
    """`text.find(...)`, `text.upper()`, ... of text formatted from a staged value, called by converted code:
    refused, as `len()` of it is (`StagedText.__len__`), where the graph formats the string: the answer, or the
    text a method makes (whose measures would follow), would be the trace's."""
    text = method.__self__
    if not text._live():
        return method(*args, **kwargs)
    raise staged_text_refused(f"str.{method.__name__}()", text)


def with_text_arguments(method, what: str = ""):
    """`method` (a str's method, `"1.5 kg".startswith`, or a str subclass, `Name`) for converted code: where an
    argument is text formatted from a staged value while its trace lasts, refused, as `text.find(...)` is
    (`method_of_staged_text`): str's C code would read the symbolic value's text (`"1.5 kg".startswith(f"{x}")`
    was always false, `"v=?".replace("?", f"{x}")` held `Tensor("x:0", ...)`). While nothing is traced no such
    text is live: `method` itself, with nothing added to the call."""
    if not any_staging():
        return method

    def call(*args, **kwargs):
        for arg in (*args, *kwargs.values()):
            if arg.__class__ is StagedText and arg._live():
                raise staged_text_refused(what or f"str.{method.__name__}() given it", arg)
        return method(*args, **kwargs)
    return call


def reading_text(builtin):
    """`builtin` (`int`, `float`, `complex`, `bytes`, `bytearray`, `ord`) for converted code: refused where an
    argument is text formatted from a staged value while its trace lasts, whose characters its C code would read
    (`int(f"{n}")` raised ValueError for `Tensor("n:0", ...)`, `bytes(f"{x}", "utf-8")` held its text)."""
    def call(*args, **kwargs):
        for arg in args:
            if arg.__class__ is StagedText and arg._live():
                raise staged_text_refused(f"{getattr(builtin, '__name__', 'builtin').rstrip('_')}() given it", arg)
        return builtin(*args, **kwargs)
    call.__name__ = getattr(builtin, "__name__", "call")
    call.__doc__ = builtin.__doc__
    return call


def _traced_text(field: Field) -> str:
    """Python's text for a staged field while tracing: the symbolic value (its spec, where it takes one)."""
    value = _convert(field.value, field.conversion or None)
    try:
        return format(value, field.spec)
    except (TypeError, ValueError):     # `{x:.2f}` of a symbolic tensor: Python's format can't take the spec
        return str(value)


_TOKEN = "\x00autograph field {}\x00"
_TOKENS = re.compile("\x00autograph field (\\d+)\x00")


class _Pending(NamedTuple):
    """A `str.format` field's value and conversion, formatted by `formatted` once its spec is known."""

    value: Any
    conversion: str


class _StagedFormatter(string.Formatter):
    """`str.format` whose fields are formatted as an f-string's (`formatted`): those holding staged values are
    kept apart, as tokens in the text (see `str_format`)."""

    def __init__(self):
        self.fields: list = []

    def convert_field(self, value, conversion):
        if conversion not in (None, "s", "r", "a"):
            return super().convert_field(value, conversion)    # Python's error
        return _Pending(value, conversion or "")

    def format_field(self, value, format_spec):
        if _TOKENS.search(format_spec):
            raise StagingError(at_user_line(
                "the format spec of a `str.format` field is made from a tensor; a graph can't choose the "
                "formatting while it runs. Make the spec a Python value."))
        text = formatted(value.value, value.conversion, format_spec)
        if text.__class__ is str:
            return text
        self.fields.append(text)
        return _TOKEN.format(len(self.fields) - 1)


def str_join(separator: str, iterable):
    """`separator.join(iterable)`: Python's; an item that is a staged value (a Python str a staged `if` or loop
    carries is the backend's string tensor) is refused at the line, where Python's join would raise its
    TypeError naming no line of the user's. Join in the graph (runtime: tf.strings.join)."""
    items = iterable if iterable.__class__ in (list, tuple) else list(iterable)
    for i, item in enumerate(items):
        if item.__class__ is not str and not isinstance(item, str) and backend_for(item) is not None:
            raise tracing_failed(StagingError(at_user_line(
                f"str.join: item {i} is a staged value (a str a staged `if` or loop carries is a string tensor), "
                "whose text is known only when the graph runs. Join in the graph (runtime: "
                "tf.strings.join([...], separator=...)), or join Python strs.")))
    if separator.__class__ is str and any(item.__class__ is StagedText and item._live() for item in items):
        separator.join(items)         # Python's TypeError where an item is not a str
        parts = [item._parts("", "") if item.__class__ is StagedText and item._live() else item for item in items]
        return fstring(*[part for i, item in enumerate(parts) for part in ((separator, item) if i else (item,))])
    return separator.join(items)


def str_format(template: str, *args, **kwargs):
    """`template.format(*args, **kwargs)`: Python's, or, while a framework stages values, formatted field by field
    as an f-string is (`formatted`, `fstring`)."""
    if not any_staging() or "\x00" in template:
        return template.format(*args, **kwargs)
    return _staged_format(template, args, kwargs)


def str_format_map(template: str, mapping):
    """`template.format_map(mapping)`: as `str_format`, with the mapping itself (not a copy) giving the fields."""
    if not any_staging() or "\x00" in template:
        return template.format_map(mapping)
    return _staged_format(template, (), mapping)


def _staged_format(template: str, args, kwargs):
    formatter = _StagedFormatter()
    text = formatter.vformat(template, args, kwargs)
    if not formatter.fields:
        return text
    pieces = _TOKENS.split(text)          # text, field number, text, ...
    return fstring(*[pieces[i] if i % 2 == 0 else formatter.fields[int(pieces[i])] for i in range(len(pieces))])


# A `%` conversion specifier: %[(key)][flags][width][.precision][length modifier]type
_PERCENT = re.compile(r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[#0\- +]*)(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d*))?"
                      r"[hlL]?(?P<type>[diouxXeEfFgGcrsa%])")


def percent(template, args):
    """`template % args`: Python's, or, where a value it formats is staged, the fields an f-string would have
    (`'%5.1f' % x` is `f'{x:>5.1f}'`), formatted when the graph runs."""
    if not _plain_template(template) or not any_staging():
        return template % args
    specs = list(_PERCENT.finditer(template))
    by_key = any(m["key"] is not None for m in specs)
    if by_key and not isinstance(args, dict):
        return template % args                # Python's error: a mapping is required
    values = [args] if by_key or args.__class__ is not tuple else list(args)
    if not any(_holds_staged(v, set()) for v in (args.values() if by_key else values)):
        return template % args
    if any(m["width"] == "*" or m["precision"] == "*" for m in specs):
        raise StagingError(at_user_line(
            "a `%` format with `*` widths formats a tensor; write it as an f-string (f'{x:>{width}}')."))
    parts, end, position = [], 0, 0
    for m in specs:
        parts.append(template[end:m.start()])
        end = m.end()
        if m["type"] == "%":
            parts.append("%")
            continue
        if by_key:
            value = args[m["key"]]
        elif position < len(values):
            value, position = values[position], position + 1
        else:
            return template % args            # Python's error: not enough arguments
        conversion, spec = _as_format_spec(m)
        python_spec = m.group(0)[1:] if m["key"] is None else m.group(0)[len(m["key"]) + 3:]   # without (key)
        parts.append(formatted(value, conversion, spec) if _holds_staged(value, set())
                     else ("%" + python_spec) % (value,))
    if not by_key and position != len(values):
        return template % args                # Python's error: not all arguments converted
    parts.append(template[end:])
    return fstring(*parts)


def _plain_template(template) -> bool:
    """A str, or a subclass's instance whose `%` is str's (`Template("%s") % x` formats as a str does)."""
    cls = template.__class__
    return cls is str or isinstance(template, str) and cls is not StagedText and cls.__mod__ is str.__mod__


# `left % right` with no literal on either side (converters/fstrings.py: `fmt % x`, `i % n`): `percent`, which
# formats where `left` is a str and is Python's `%` otherwise; its own name keeps the generated code readable
mod = percent


def _as_format_spec(m) -> tuple:
    """(conversion, format spec) of a `%` specifier: `%-8s` is ('s', '<8'), `%+05.1f` is ('', '+05.1f'), `%5d` is
    ('i', '>5d')."""
    flags, width, precision, kind = m["flags"], m["width"] or "", m["precision"], m["type"]
    numeric = kind not in "sra"
    align = "<" if "-" in flags and width else (">" if width and not (numeric and "0" in flags) else "")
    sign = ("+" if "+" in flags else " " if " " in flags else "") if numeric else ""
    spec = align + sign + ("#" if "#" in flags and numeric else "")
    spec += ("0" if numeric and "0" in flags and "-" not in flags and width else "") + width
    spec += "." + (precision or "0") if precision is not None else ""
    conversion = "i" if kind in "diuxXoc" else "" if numeric else kind     # `%d` of a float formats its int
    return conversion, spec + ({"i": "d", "u": "d"}.get(kind, kind) if numeric else "")


def _holds_staged(value, seen: set) -> bool:
    """Is `value`, or an item of a list, tuple or dict it is, staged? (Formatted as an f-string's field then: by
    the backend when the graph runs, or refused where the framework's traced value can't take the spec.)"""
    cls = value.__class__
    if cls in _CONTAINERS:
        if id(value) in seen:
            return False
        seen.add(id(value))
        items = [*value.keys(), *value.values()] if cls is dict else value
        return any(_holds_staged(item, seen) for item in items)
    return backend_for(value) is not None or cls is StagedText and value._live()


# What converted code calls for a str's methods (api.callee): the bound ones that format or join staged values,
# the same called through the class (`str.format(t, x)`), and a formatted text's, refused while its trace lasts
_STR_METHODS = {"format": str_format, "format_map": str_format_map, "join": str_join}


def str_method(method):
    """What to call for `method`, a method bound to a str (or a subclass's instance) or to text formatted from a
    staged value."""
    if method.__self__.__class__ is StagedText:
        return functools.partial(method_of_staged_text, method)     # `f"{x}".find("1")`: refused
    overload = _STR_METHODS.get(method.__name__)
    if overload is not None:                                        # `"{}".format(x)`, `Name("{}").format(x)`
        return functools.partial(overload, method.__self__)
    return with_text_arguments(method)                              # `"1.5 kg".startswith(f"{x}")`: refused


def _unbound_str_method(name: str):
    """`str.format(template, ...)` (`format_map`, `join`) called through the class: as the bound method is, where
    the first argument is a str; Python's method (its error, a StagedText's refusal) otherwise."""
    method, overload = getattr(str, name), _STR_METHODS[name]

    def call(self, *args, **kwargs):
        if self.__class__ is str:
            return overload(self, *args, **kwargs)
        if self.__class__ is StagedText:
            return method_of_staged_text(getattr(self, name), *args, **kwargs)
        return method(self, *args, **kwargs)
    return call


STR_FUNCTIONS = {getattr(str, name): _unbound_str_method(name) for name in _STR_METHODS}
