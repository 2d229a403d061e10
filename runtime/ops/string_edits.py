"""`tf.strings.substr`, `regex_replace`, `regex_full_match` and `strip`: element by element on string tensors.

TensorFlow's regular expressions are RE2's, matched on UTF-8 text; here Python's `re` matches the decoded text
with `re.ASCII` (so `.` is one character, not one byte, and `\\d`, `\\w` are ASCII's, as RE2's are) and `$` is
the end of the text (Python's `$` also matches before a final newline, RE2's does not). RE2's rewrite (`\\0`
the match, `\\1`..`\\9` the groups, `\\\\` a backslash) is read as RE2 reads it. Patterns that only Python
accepts (look-arounds, back-references) are refused, as RE2 refuses them.
"""
from __future__ import annotations

import functools
import re

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops.registry import Spec, apply, broadcast_shapes, defop, unary_same
from runtime.ops.string_ops import _bytes, _strings
from runtime.tensor import convert_to_tensor


def _each(fn, *arrays) -> np.ndarray:
    """`fn` of each element of the broadcast `arrays` (bytes and numbers), as a bytes array."""
    arrays = np.broadcast_arrays(*[np.asarray(a) for a in arrays])
    out = [fn(*items) for items in zip(*[a.reshape(-1).tolist() for a in arrays])]
    return _bytes(np.array(out, dtype=object).reshape(arrays[0].shape)) if out else \
        np.zeros(arrays[0].shape, dtype="S1")


def _text(value: bytes) -> str:
    return value.decode("utf-8", "surrogateescape")


def _encoded(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


# --- substr -------------------------------------------------------------------------------------

def _substr(x, pos, length, unit):
    def one(value: bytes, start: int, count: int) -> bytes:
        units = value if unit == "BYTE" else _text(value)
        size = len(units)
        if start > size or start < -size:
            raise InvalidArgumentError(f"Substr: pos {start} out of range for string b'{value.decode('utf-8', 'replace')}'"
                                       f" of length {size}.", "Substr")
        start = start + size if start < 0 else start
        if count < 0:   # (TensorFlow's: to the end in bytes, nothing in characters)
            count = size if unit == "BYTE" else 0
        piece = units[start:start + count]
        return piece if unit == "BYTE" else _encoded(piece)
    return _each(one, x, pos, length)


SUBSTR = defop("Substr", _substr, lambda x, pos, length, unit: Spec(
    dtypes.string, broadcast_shapes(broadcast_shapes(x.shape, pos.shape, "Substr"), length.shape, "Substr")))


def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002 - TensorFlow's names
    """`len` bytes (unit='BYTE') or characters (unit='UTF8_CHAR') of each string from `pos` (negative: from
    the end); a `pos` past either end is an error, a `len` past the end stops at it."""
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise InvalidArgumentError(f"Substr: unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}.", "Substr")
    x = _strings(input, "Substr")
    pos = convert_to_tensor(pos, dtype_hint=dtypes.int32)
    count = convert_to_tensor(len, dtype_hint=pos.dtype)
    if not (pos.dtype.is_integer and count.dtype.is_integer):
        raise InvalidArgumentError(f"Substr: pos and len must be integers, got {pos.dtype.name} and "
                                   f"{count.dtype.name}.", "Substr")
    return apply(SUBSTR, x, pos, count, unit=unit, name=name)


# --- regular expressions ----------------------------------------------------------------------

@functools.lru_cache(maxsize=256)
def compiled(pattern: str, op_name: str) -> re.Pattern:
    """`pattern` (RE2 syntax) as a Python pattern that matches what RE2 matches."""
    if re.search(r"\(\?<?[=!]|\\[1-9]|\(\?P[=>]|\(\?<\w", pattern):
        raise InvalidArgumentError(f"{op_name}: invalid pattern {pattern!r}: look-arounds, back-references and "
                                   "named groups in Python's form are not RE2 syntax (TensorFlow's).", op_name)
    try:
        return re.compile(_end_of_text(pattern), re.ASCII)
    except re.error as e:
        raise InvalidArgumentError(f"{op_name}: invalid pattern {pattern!r}: {e}.", op_name) from None


_SPACE = "\\t\\n\\f\\r "   # RE2's `\\s` (Python's also has `\\v`)


def _end_of_text(pattern: str) -> str:
    """`$` outside a character class as `\\Z` (RE2's `$` is the end of the text), unless the pattern sets the
    multi-line flag, where both mean the end of a line; `\\s` and `\\S` as RE2's classes."""
    multiline = re.match(r"\(\?[a-zA-Z]*m", pattern) is not None
    out, i, in_class = [], 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            escape = pattern[i:i + 2]
            if escape in ("\\s", "\\S"):
                if in_class and escape == "\\S":
                    raise re.error("\\S inside a character class (RE2's \\S holds \\v, Python's does not)")
                escape = _SPACE if in_class else f"[{'^' if escape == chr(92) + 'S' else ''}{_SPACE}]"
            out.append(escape)
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            j = i + 1 + (pattern[i + 1:i + 2] == "^")
            if pattern[j:j + 1] == "]":     # a `]` first in a class is one of its characters
                out.append(pattern[i:j + 1])
                i = j + 1
                continue
        elif c == "$" and not multiline:
            c = r"\Z"
        out.append(c)
        i += 1
    return "".join(out)


def _rewrite(rewrite: str, op_name: str):
    """RE2's rewrite as a function of a match: `\\0`..`\\9` the groups, `\\\\` a backslash."""
    parts, i = [], 0
    while i < len(rewrite):
        c = rewrite[i]
        if c == "\\":
            nxt = rewrite[i + 1:i + 2]
            if nxt.isdigit():
                parts.append(int(nxt))
            elif nxt == "\\":
                parts.append("\\")
            else:
                raise InvalidArgumentError(f"{op_name}: invalid rewrite {rewrite!r}: a backslash must be followed by "
                                           "a digit or a backslash.", op_name)
            i += 2
        else:
            parts.append(c)
            i += 1
    return lambda m: "".join(p if isinstance(p, str) else (m.group(p) or "") for p in parts)


def _regex_replace(x, pattern, rewrite, replace_global):
    regex = compiled(pattern, "RegexReplace")
    groups = [int(d) for d in re.findall(r"\\(\d)", rewrite.replace("\\\\", ""))]
    if groups and max(groups) > regex.groups:
        raise InvalidArgumentError(f"RegexReplace: the rewrite {rewrite!r} asks for group {max(groups)}, and the "
                                   f"pattern has {regex.groups}.", "RegexReplace")
    repl = _rewrite(rewrite, "RegexReplace")
    return _each(lambda value: _encoded(_replaced(regex, repl, _text(value), replace_global)), x)


def _replaced(regex: re.Pattern, repl, text: str, replace_global: bool) -> str:
    """RE2's replacement: as `regex.sub`, but an empty match where the previous match ended is no match (Python's
    `sub` replaces it: `x*` on "axb" gives "-a--b-" there, "-a-b-" in RE2)."""
    out, pos, last_end, count = [], 0, None, 0
    while pos <= len(text) and (replace_global or count == 0):
        m = regex.search(text, pos)
        if m is None:
            break
        out.append(text[pos:m.start()])
        if m.start() == m.end() == last_end:   # skip ahead one character
            out.append(text[m.start():m.start() + 1])
            pos = m.start() + 1
            continue
        out.append(repl(m))
        pos = last_end = m.end()
        count += 1
    out.append(text[pos:])
    return "".join(out)


REGEX_REPLACE = defop("StaticRegexReplace", _regex_replace, unary_same)


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """Each string with the matches of `pattern` (all, or the first) replaced by `rewrite`."""
    x = _strings(input, "RegexReplace")
    pattern, rewrite = _static_text(pattern, "pattern"), _static_text(rewrite, "rewrite")
    compiled(pattern, "RegexReplace")
    return apply(REGEX_REPLACE, x, pattern=pattern, rewrite=rewrite, replace_global=bool(replace_global), name=name)


def _regex_full_match(x, pattern):
    regex = compiled(pattern, "RegexFullMatch")
    return np.vectorize(lambda v: regex.fullmatch(_text(v)) is not None, otypes=[bool])(x).reshape(np.shape(x))


REGEX_FULL_MATCH = defop("StaticRegexFullMatch", _regex_full_match,
                         lambda x, pattern: Spec(dtypes.bool, x.shape))


def regex_full_match(input, pattern, name=None):  # noqa: A002
    """Whether each whole string matches `pattern`."""
    x = _strings(input, "RegexFullMatch")
    pattern = _static_text(pattern, "pattern")
    compiled(pattern, "RegexFullMatch")
    return apply(REGEX_FULL_MATCH, x, pattern=pattern, name=name)


def _static_text(value, what: str) -> str:
    """A pattern or rewrite given as a str, bytes or constant string tensor (TensorFlow's static ops)."""
    if hasattr(value, "numpy") and getattr(value, "dtype", None) is dtypes.string:
        try:
            value = value.numpy()
        except Exception:   # noqa: BLE001 - a symbolic tensor: its value is not known while tracing
            raise InvalidArgumentError(f"the {what} of a regular expression op must be known while tracing (a str "
                                       "or a constant), not a tensor computed in the function.", "RegexReplace") \
                from None
    if isinstance(value, (bytes, np.bytes_)):
        value = bytes(value).decode("utf-8")
    if not isinstance(value, str):
        raise TypeError(f"the {what} of a regular expression op must be a str, got {type(value).__name__}.")
    return value


# --- strip --------------------------------------------------------------------------------------

STRIP = defop("StringStrip", lambda x: _each(lambda v: v.strip(b" \t\n\v\f\r"), x), unary_same)


def strip(input, name=None):  # noqa: A002
    """Each string without the ASCII whitespace at its ends."""
    return apply(STRIP, _strings(input, "StringStrip"), name=name)
