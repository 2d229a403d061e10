"""`runtime.print` and assertions: stateful ops that run on every call of a
function, in program order (Python's `print` runs only while tracing)."""
from __future__ import annotations

import pprint
import sys

import numpy as np

from autograph.errors import StagingError
from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops import python_ints
from runtime.ops.registry import Spec, apply, defop, wrap
from runtime.shape import TensorShape
from runtime.tensor import SymbolicTensor, Tensor, convert_to_tensor, is_staged_text


def format_value(value, summarize: int = -1, quote_scalar: bool = True) -> str:
    """A tensor's value as TensorFlow's print and `strings.format` write it: no commas, rows on lines of their
    own, floats to 9 significant digits (17 for float64), bools as 1 and 0, strings quoted and escaped (a scalar
    string as it is unless `quote_scalar`), and of each dimension longer than twice `summarize` (negative: no
    limit) the first and last `summarize` items around `...` (at most as many as the tensor has items, so an
    empty tensor's longer dimension is all `...`, as TensorFlow's)."""
    array = np.asarray(value)
    if array.ndim == 0:
        return _element(array[()], quote_scalar)
    return _nested(array, array.size if summarize < 0 else min(summarize, array.size), 0)


def _nested(array: np.ndarray, at_ends: int, depth: int) -> str:
    """The items of a dimension apart by a space if it is the last, else by as many line breaks as dimensions
    are inside it and an indent of one more space than `depth`."""
    if not isinstance(array, np.ndarray):   # an item
        return _element(array, True)
    spacing = " " if array.ndim == 1 else "\n" * (array.ndim - 1) + " " * (depth + 1)
    count = len(array)
    head = [_nested(array[i], at_ends, depth + 1) for i in range(min(at_ends, count))]
    tail = [_nested(array[i], at_ends, depth + 1) for i in range(max(at_ends, count - at_ends), count)]
    if count <= 2 * at_ends:
        return "[" + spacing.join(head + tail) + "]"
    # the spacing goes before `...` even with no item ahead of it, as TensorFlow's (an empty tensor: "[\n ...]")
    return "[" + spacing.join(head) + spacing + spacing.join(["...", *tail]) + "]"


def _element(item, quote: bool) -> str:
    if isinstance(item, bytes):
        return '"' + _escaped(item) + '"' if quote else item.decode("utf-8", "backslashreplace")
    if isinstance(item, np.bool_):
        return "1" if item else "0"
    if isinstance(item, np.floating):
        return _shortest_of(float(item), (15, 17) if item.dtype == np.float64 else (6, 9), item.dtype)
    return str(item)   # an integer; a complex number as NumPy writes it (TensorFlow writes "?")


def _shortest_of(number: float, precisions: tuple, dtype) -> str:
    """TensorFlow's float text: the shorter precision if it reads back as the same number, else the longer."""
    short, long = precisions
    text = f"{number:.{short}g}"
    kept = np.asarray(float(text)).astype(np.float32 if dtype != np.float64 else np.float64) == number
    return text if kept or number != number else f"{number:.{long}g}"


_ESCAPES = {ord("\n"): b"\\n", ord("\r"): b"\\r", ord("\t"): b"\\t", ord('"'): b'\\"', ord("'"): b"\\'",
            ord("\\"): b"\\\\"}


def _escaped(data: bytes) -> str:
    """C escapes for quotes, backslashes and control bytes; UTF-8 text as it is."""
    out = bytearray()
    for byte in data:
        if byte in _ESCAPES:
            out += _ESCAPES[byte]
        elif byte < 0x20 or byte == 0x7F:
            out += b"\\%03o" % byte
        else:
            out.append(byte)
    return out.decode("utf-8", "backslashreplace")


def _print(*values, template, sep, end, stream, summarize=-1):
    alone = len(template) == 1 and len(template[0]) == 1 and isinstance(template[0][0], tuple)
    parts = ["".join(format_value(values[p[1]], summarize, quote_scalar=not alone) if isinstance(p, tuple) else p
                     for p in one)
             for one in template]   # (TensorFlow quotes a string scalar, unless it is all that is printed)
    target = sys.stdout if stream == "stdout" else sys.stderr if stream == "stderr" else stream
    target.write(sep.join(parts) + end)
    return np.int32(0)


PRINT = defop("PrintV2", _print, lambda *v, **a: Spec(dtypes.int32, TensorShape(())), stateful=True)


def _is_tensor(value) -> bool:
    return isinstance(value, Tensor) or hasattr(value, "_as_tensor")


def _has_tensor(value) -> bool:
    if _is_tensor(value):
        return True
    if isinstance(value, dict):
        return any(_has_tensor(v) for v in value.values())
    return isinstance(value, (list, tuple)) and any(_has_tensor(v) for v in value)


def _template(value, tensors: list, top: bool = True) -> list:
    """The parts that print `value`: strings, and ("$", i) where tensors[i]'s value goes. As TensorFlow's
    `print_v2`: a string prints as it is, anything else as `pprint.pformat` writes it (sorted dict keys,
    lines wrapped at 80 columns), each tensor in it as its value."""
    if isinstance(value, str):
        return [value]
    if _is_tensor(value):
        tensors.append(convert_to_tensor(value))
        return [("$", len(tensors) - 1)]
    if not _has_tensor(value):
        return [pprint.pformat(value)]
    free = pprint.pformat(_with_slots(value, [], _Slot("")))
    slot = _Slot("{}")
    while slot.mark in free:    # a mark the text has nowhere else (TensorFlow's placeholder string)
        slot = _Slot(slot.mark + "0")
    first = len(tensors)
    pieces = pprint.pformat(_with_slots(value, tensors, slot)).split(slot.mark)
    parts: list = [pieces[0]]
    for i, piece in enumerate(pieces[1:]):
        parts += [("$", first + i), piece]
    return [p for p in parts if p != ""]


class _Slot:
    """Where a tensor's value goes in the text pprint makes of a structure."""

    def __init__(self, mark: str):
        self.mark = mark

    def __repr__(self) -> str:
        return self.mark


def _with_slots(value, tensors: list, slot: _Slot):
    """`value` with each tensor replaced by `slot` (and appended to `tensors`, in the order pprint writes them:
    dicts by sorted key)."""
    if _is_tensor(value):
        tensors.append(convert_to_tensor(value))
        return slot
    if isinstance(value, dict):
        return {k: _with_slots(v, tensors, slot) for k, v in _sorted_items(value)}
    if isinstance(value, (list, tuple)) and _has_tensor(value):
        items = [_with_slots(v, tensors, slot) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    return value


def _sorted_items(mapping: dict) -> list:
    try:
        return sorted(mapping.items())      # TensorFlow's nest sorts dict keys
    except TypeError:
        return list(mapping.items())


def _merged(parts: list) -> tuple:
    """Adjacent strings of a structure's template joined, so `sep` only goes between top-level inputs."""
    out = []
    for part in parts:
        if isinstance(part, str) and out and isinstance(out[-1], str):
            out[-1] += part
        else:
            out.append(part)
    return tuple(out)


def print(*inputs, sep: str = " ", end: str = "\n", output_stream=None, summarize=3, name=None):  # noqa: A001
    """Print tensors and Python values when the op runs (on every call in a function). Lists, tuples and
    dicts print their tensors' values; `summarize` items at each end of a longer dimension (TensorFlow's
    default 3; None is 3, -1 prints everything)."""
    tensors, template = [], []
    for value in inputs:
        if is_staged_text(value):          # an f-string of traced tensors: its values
            value = convert_to_tensor(value)
        template.append(_merged(_template(value, tensors)))
    stream = "stderr" if output_stream is None or output_stream is sys.stderr else (
        "stdout" if output_stream is sys.stdout else output_stream)
    apply(PRINT, *tensors, template=tuple(template), sep=sep, end=end, stream=stream,
          summarize=3 if summarize is None else summarize, name=name)


def _raise(*values, error_type, args, slots, state, cause, note, texts=()):
    """A fresh copy of the program's exception (its type, `args` and attributes, made without calling its
    `__init__` again, as pickling would not), with `note` (PEP 678) saying which line raised it. The
    arguments that were tensors (at `slots`) are their values when the op runs, as eager tensors; those that were
    text formatted from traced tensors (`raise ValueError(f"bad {x}")`, at `texts`) the text formatted then."""
    args = list(args)
    for slot, value in zip(slots, values):
        args[slot] = np.asarray(value).item().decode() if slot in texts else wrap(value)
    error = error_type.__new__(error_type, *args)
    error.args = tuple(args)
    if state:
        error.__dict__.update(state)
    error.add_note(note)
    if cause is not None:   # `raise ... from cause`
        error.__cause__ = cause
    raise error


RAISE = defop("Raise", _raise, lambda *v, **a: Spec(dtypes.bool, TensorShape(())), stateful=True)


def raise_(error: BaseException, note: str, name=None):
    """Raise a copy of `error` (with `note`) when the op runs: a `raise` of the program's on a path that a tensor
    condition chooses (autograph stages it). Ordered with the other stateful ops, so an effect traced after it
    never runs first."""
    state = dict(error.__dict__) if getattr(error, "__dict__", None) else {}
    state.pop("__notes__", None)
    texts = tuple(i for i, arg in enumerate(error.args) if is_staged_text(arg) and arg._as_tensor() is not None)
    slots = tuple(i for i, arg in enumerate(error.args) if isinstance(arg, Tensor) or i in texts)
    args = tuple(None if i in slots else arg for i, arg in enumerate(error.args))
    return apply(RAISE, *(error.args[i]._as_tensor() if i in texts else error.args[i] for i in slots),
                 error_type=type(error), args=args, slots=slots, texts=texts, state=state, cause=error.__cause__,
                 note=note, name=name)


def is_raised_by_program(error: BaseException) -> bool:
    """Whether `error` is a program's own exception raised by a `Raise` op (to be shown as it is)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_code is _raise.__code__


# --- a variable defined on some paths only (autograph's MaybeValue): checked where it is read ---------

_CHECK_ERRORS = {"UnboundLocalError": UnboundLocalError, "TypeError": TypeError,
                 "InvalidArgumentError": InvalidArgumentError,   # (`int()` of a float outside int32)
                 "NameError": NameError,   # (a nested function's read of the enclosing function's variable)
                 "StagingError": StagingError}   # (a result Python gives as None: autograph's MaybeValue.as_result)


def _check_defined(value, defined, *, error, message):
    if not defined:
        raised = _CHECK_ERRORS[error](message)
        raised.raised_by_program = True   # the user's program's own error: the executor passes it on as it is
        raise raised
    return value


# stateful: never pruned, even where the value read is then unused (`z = z + r` with `z` overwritten), since
# Python raises at the read itself
CHECK_DEFINED = defop("CheckDefined", _check_defined, lambda value, defined, **a: Spec(value.dtype, value.shape),
                      stateful=True, doc="`value` where `defined`; else raises `error` (UnboundLocalError, NameError or TypeError) with "
                          "`message`: the read of a variable that a staged statement may have left unassigned.")


def check_defined(value, defined, error: type, message: str):
    """`value`, or (when the op runs with `defined` false) `error(message)`; a Python int (float, bool) if `value`
    holds one (runtime/ops/python_ints.py)."""
    value = convert_to_tensor(value)
    out = apply(CHECK_DEFINED, value, convert_to_tensor(defined), error=error.__name__, message=message)
    if isinstance(out, SymbolicTensor):
        python_ints.copy_mark(out.op.graph, value, out)
    return out
