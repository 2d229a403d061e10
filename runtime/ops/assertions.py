"""The text of TensorFlow's assertion errors (`tf.debugging.Assert` and the `assert_*` checks), written as
TensorFlow writes it: in a graph, `assertion failed: [a] [b] ...` with the first `summarize` values of each
input (its `Assert` kernel); eagerly, `Expected '...' to be true. Summarized data: ...` for `Assert`, and
`Condition x == y did not hold.` with the first values of `x` and `y` for the comparisons.
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError
from runtime.ops.logging_ops import _element, _escaped, format_value
from runtime.ops.registry import Spec, apply, context, defop
from runtime.shape import TensorShape
from runtime.tensor import Tensor, convert_to_tensor, is_staged_text


def _assert(condition, *data, message="", text_message=False, parts=None, summarize=3):
    if np.all(condition):
        return np.bool_(True)
    if parts is not None:           # runtime.debugging's checks: TensorFlow's text
        raise InvalidArgumentError(graph_message(parts, data, summarize), "Assert")
    if text_message:   # the message is text formatted from traced values: the first input, as formatted now
        message, data = np.asarray(data[0]).item().decode(), data[1:]
    shown = " ".join(format_value(d, quote_scalar=False) for d in data)
    text = f"{message}{': ' if message and shown else ''}{shown}"   # as given: `f"{x:>6}"` keeps its padding
    raise InvalidArgumentError(text if text.strip() else "assertion failed", "Assert")


ASSERT = defop("Assert", _assert, lambda *v, **a: Spec(dtypes.bool, TensorShape(())), stateful=True)


def assert_op(condition, data: list, message: str, name=None):
    """An `Assert` op whose error says `message` and then the values of `data` (a staged `assert` statement's,
    the runtime's own checks); a `message` formatted from traced values (`f"bad {x}"`) is formatted when the
    op runs, as a staged `raise`'s is, not shown with the symbolic tensors' text."""
    if is_staged_text(message) and message._as_tensor() is not None:
        return apply(ASSERT, condition, message._as_tensor(), *data, text_message=True, name=name)
    return apply(ASSERT, condition, *data, message=message, name=name)


def Assert(condition, data, summarize=None, name=None):  # noqa: N802 - TensorFlow's name
    """Raise InvalidArgumentError unless `condition` is true: eagerly at once, else when the op runs. The
    message shows each item of `data` (its first `summarize` values, 3 by default), as TensorFlow's does."""
    given = condition
    condition = convert_to_tensor(condition)
    if condition.dtype is not dtypes.bool:
        raise InvalidArgumentError(f"Assert: condition must be bool, got {condition.dtype.name}.", "Assert")
    if context.graph is None:
        if not np.all(condition.numpy()):
            values = [convert_to_tensor(d).numpy() for d in data]
            raise InvalidArgumentError(eager_message(given, values, summarize), "Assert")
        return None
    parts, values = [], []
    for d in data:
        if isinstance(d, Tensor) or is_staged_text(d):
            parts.append(len(values))
            values.append(convert_to_tensor(d))
        else:   # a Python value: its text now
            parts.append(graph_summary(np.asarray(d.encode() if isinstance(d, str) else d), summarize))
    return apply(ASSERT, condition, *values, parts=tuple(parts), summarize=3 if summarize is None else summarize,
                 name=name)


def comparison(compare, symbol: str, x, y, message, summarize, name):
    """`assert_equal` and the other element-wise comparisons of `x` and `y`."""
    from runtime.ops.math_ops import reduce_all
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype_hint=x.dtype)
    held = compare(x, y)
    if context.graph is None:
        if not np.all(held.numpy()):
            text = comparison_message(symbol, x.numpy(), y.numpy(), held.numpy(), message, summarize)
            raise InvalidArgumentError(text, "Assert")
        return None
    data = [f"Condition x {symbol} y did not hold element-wise:", f"x ({x.name}) = ", x, f"y ({y.name}) = ", y]
    return Assert(reduce_all(held), data if message is None else [message, *data], summarize, name)


def checked(held, data: list, summarize, name):
    """The check that `held` is all true, with an error made of `data` (text and tensors; `assert_positive`
    and the other checks against a value of TensorFlow's own text)."""
    from runtime.ops.math_ops import reduce_all
    if context.graph is None:
        if not np.all(held.numpy()):
            raise InvalidArgumentError(unary_eager_message([d if isinstance(d, str) else d.numpy() for d in data],
                                                           summarize), "Assert")
        return None
    return Assert(reduce_all(held), data, summarize, name)


def tensor_name(x: Tensor) -> str:
    """How a check's message names `x`: its name in a graph; eagerly its shape and dtype."""
    return f"shape={x.shape} dtype={x.dtype.name}" if context.graph is None else x.name


def message_prefix(message) -> str:
    """TensorFlow's `message.  ` ahead of a check's text (`+` keeps text formatted from traced values)."""
    if not message:
        return ""
    return message + ".  " if isinstance(message, str) else f"{message}.  "


def limit(summarize: Optional[int], size: int) -> int:
    """How many items a summary shows: `summarize` of them (TensorFlow's default 3; negative: all)."""
    summarize = 3 if summarize is None else summarize
    return size if summarize < 0 else min(summarize, size)


def graph_summary(value, summarize: Optional[int]) -> str:
    """`value` as a graph's Assert writes it: its first items in row-major order, nested in brackets by
    dimension and apart by spaces, `...` where items were left out; strings as they are (C-escaped), bools
    as 1 and 0."""
    array = np.asarray(value)
    shown = limit(summarize, array.size)
    items = [_escaped(v) if isinstance(v, bytes) else _element(v, False) for v in array.reshape(-1)[:shown]]
    text = " ".join(items) if array.ndim == 0 else _dimension(array.shape, 0, iter(items), [0], shown)
    return text + ("..." if array.size > shown else "")


def _dimension(shape: tuple, dim: int, items, done: list, shown: int) -> str:
    """The items of dimension `dim` from the next of `items` (`done[0]` of them written so far): an inner
    dimension cut short ends in `...`; a row that would start past the last item shown is left out."""
    out = []
    if dim == len(shape) - 1:
        for _ in range(shape[dim]):
            if done[0] >= shown:
                return " ".join(out) + ("..." if dim else "")
            out.append(next(items))
            done[0] += 1
        return " ".join(out)
    text = ""
    for _ in range(shape[dim]):
        if done[0] < shown:
            text += "[" + _dimension(shape, dim + 1, items, done, shown) + "]"
    return text


def graph_message(parts: Sequence, values: Sequence, summarize: Optional[int]) -> str:
    """The message of a failing Assert op: each of `parts` (a constant's text, or the index of its value
    among `values`) in brackets."""
    shown = (part if isinstance(part, str) else graph_summary(values[part], summarize) for part in parts)
    return "assertion failed: " + " ".join(f"[{text}]" for text in shown)


def eager_summary(value, summarize: Optional[int]) -> str:
    """`value` as an eager Assert writes it: a scalar as NumPy's `str` of it; else its first items, flat,
    apart by commas, with `...` if some were left out."""
    array = np.asarray(value)
    shown = limit(summarize, array.size)
    if array.ndim == 0:
        return str(array[()]) if shown else ""
    items = [str(v) for v in array.reshape(-1)[:shown]]
    return ", ".join(items + (["..."] if shown < array.size else []))


def eager_message(condition, values: Sequence, summarize: Optional[int]) -> str:
    data = "\n".join(eager_summary(v, summarize) for v in values)
    return f"Expected '{condition!s}' to be true. Summarized data: {data}"


def comparison_message(symbol: str, x: np.ndarray, y: np.ndarray, held: np.ndarray, message: Optional[str],
                       summarize: Optional[int]) -> str:
    """An eager comparison's message (`assert_equal(x, y)` and the others): the condition, the first items
    that differ and their indices where `x` and `y` have one shape, and the first items of each."""
    lines = ([] if message is None else [message]) + [f"Condition x {symbol} y did not hold."]
    summarize = 3 if summarize is None else summarize
    if summarize:
        if x.shape == y.shape and x.ndim:
            failed = ~np.broadcast_to(held, x.shape)
            count = limit(summarize, int(failed.sum()))
            lines += [f"Indices of first {count} different values:", str(np.argwhere(failed)[:count]),
                      "Corresponding x values:", str(x[failed][:count]),
                      "Corresponding y values:", str(y[failed][:count])]
        for name, array in (("x", x), ("y", y)):
            count = limit(summarize, array.size)
            lines += [f"First {count} elements of {name}:", str(array.reshape(-1)[:count])]
    return "\n".join(lines)


def unary_eager_message(data: Sequence, summarize: Optional[int]) -> str:
    """An eager check's message made of its `data` (`assert_positive` and the others against zero): text as
    it is, a scalar as NumPy's `str` of it, a tensor as the list of its first items' text."""
    lines = []
    for item in data:
        if isinstance(item, str):
            lines.append(item)
            continue
        array = np.asarray(item)
        if array.ndim == 0:
            lines.append(str(array[()]))
        else:
            shown = limit(summarize, array.size)
            lines.append(str([str(v) for v in array.reshape(-1)[:shown]] + (["..."] if shown < array.size else [])))
    return "\n".join(lines)


def _comparison_check(op: str, symbol: str, name: str):
    """`assert_<name>(x, y, message=None, summarize=None, name=None)`: `x <symbol> y` element-wise."""
    def check(x, y, message=None, summarize=None, name=None):
        from runtime.ops import math_ops   # (math_ops converts its operands with this package's help)
        return comparison(getattr(math_ops, op), symbol, x, y, message, summarize, name)
    check.__name__ = check.__qualname__ = f"assert_{name}"
    check.__doc__ = f"Raise InvalidArgumentError unless x {symbol} y element-wise (TensorFlow's text)."
    return check


assert_equal = _comparison_check("equal", "==", "equal")
assert_none_equal = _comparison_check("not_equal", "!=", "none_equal")
assert_greater = _comparison_check("greater", ">", "greater")
assert_greater_equal = _comparison_check("greater_equal", ">=", "greater_equal")
assert_less = _comparison_check("less", "<", "less")
assert_less_equal = _comparison_check("less_equal", "<=", "less_equal")
