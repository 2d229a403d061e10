"""The framework-neutral half of staged iteration: `range` with a staged bound, `enumerate`, `zip`, `len`,
and a `for` over them as a loop over an index, or unrolled.

A framework subclasses `StagedRange`, `StagedEnumerate` (or `CountingEnumerate`,
which also takes a staged range) and `StagedZip` (its hints and how it gets a
tensor's rows) and supplies its `Primitives` (primitives.py); `index_walk`,
`index_test` and `index_body` then give the test and body of a `while` loop
over an integer index carried in front of the loop's state, which the
framework's `while_loop` runs (staging.loop). `staged_len` is `len` of all of
these (and of a list a staged loop built), `python_stop` a range's stop for a
framework's range op, `unrolled` a `for` run in Python where tracing knows the
number of rows.
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from autograph.backends.primitives import Primitives
from autograph.backends.stacked_list import StackedList
from autograph.errors import StagingError, at_user_line


def before_stop(i, stop, step, where):
    """Whether a range's counter `i` has not reached `stop` going by `step`: one comparison for a Python int
    step, both selected by the step's sign (with the framework's `where`) for a staged one."""
    if isinstance(step, int):
        return i < stop if step > 0 else i > stop
    return where(step > 0, i < stop, i > stop)


def python_stop(start, stop, step, prims: Primitives):
    """`stop`, or `start` where Python's range is empty because `stop` is on the wrong side of `start` for the
    step (`range(-3)`, `range(5, 2)`), for a framework's range op, which raises there: one bound for a Python
    int step, chosen by the step's sign (with the framework's `where`) for a staged one."""
    if isinstance(step, int):
        return prims.maximum(stop, start) if step > 0 else prims.minimum(stop, start)
    return prims.where(step > 0, prims.maximum(stop, start), prims.minimum(stop, start))


# --- range with a staged bound -------------------------------------------------------------------------

class StagedRange:
    """`range(*args)` with a staged bound, as a backend's `range` hook receives the user's one to three
    arguments; its `for_loop` iterates it. A framework subclasses it with `non_integer(bound)` (the name of a
    bound's non-integer dtype, or None) and the two hints below."""

    bound_kind = "staged"                             # the framework's word for the bound: "tensor", "traced"
    cast_hint = "Cast it to an integer."               # how to make a bound an integer, in this framework
    values_hint = "Use the framework's arange."       # how to get the range's values as a tensor

    def __init__(self, *args):
        if not 1 <= len(args) <= 3:
            raise TypeError(f"range expected 1 to 3 arguments, got {len(args)}")
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
        for bound in (start, stop, step):
            kind = "float" if isinstance(bound, float) else self.non_integer(bound)
            if kind is not None:
                raise StagingError(at_user_line(f"range() needs integers, got a {kind} bound. {self.cast_hint}"))
        if isinstance(step, int) and step == 0:
            raise ValueError("range() arg 3 must not be zero")
        if not isinstance(step, int):
            self.check_step(step)
        self.start, self.stop, self.step = start, stop, step

    def non_integer(self, bound) -> Optional[str]:
        return None

    def python_length(self) -> Optional[int]:
        """The number of items when every bound is a Python int (a range that a staged `break` stopped being a
        Python loop), else None."""
        if all(isinstance(b, int) for b in (self.start, self.stop, self.step)):
            return len(range(self.start, self.stop, self.step))
        return None

    def check_step(self, step) -> None:
        """Make a staged `step` of 0 fail when the program runs, as Python's ValueError (a loop `while i < stop`
        or `while i > stop` would run 0 times). A framework that can't check it at run time refuses it here."""
        raise StagingError(at_user_line(
            f"range() with a {self.bound_kind} step: Python raises ValueError for a step of 0, which this "
            "framework can't check when the program runs. Make the step a Python int."))

    def __iter__(self):
        raise StagingError(at_user_line(
            f"a range() with a {self.bound_kind} bound has no length while tracing, so it can only drive a `for` "
            f"loop (which the framework stages). {self.values_hint}"))

    # What Python does with a range but the range's loop can't: a StagingError, not the TypeError Python raises
    # for an object without the method (a user's `except TypeError` would take that for the code's own error),
    # nor a range that is always true
    def __reversed__(self):
        raise StagingError(at_user_line(
            f"reversed() of a range() with a {self.bound_kind} bound: write the reversed range's bounds "
            f"(range(stop - 1, start - 1, -1) for a step of 1). {self.values_hint}"))

    def __getitem__(self, index):
        raise StagingError(at_user_line(
            f"an item of a range() with a {self.bound_kind} bound: compute it from the bounds (start + i * step)."))

    def __contains__(self, value):
        raise StagingError(at_user_line(
            f"`in` a range() with a {self.bound_kind} bound: compare with its bounds (start <= x < stop)."))

    def __bool__(self):
        raise StagingError(at_user_line(
            f"the truth of a range() with a {self.bound_kind} bound: compare its bounds (start < stop)."))


# --- enumerate and zip over staged tensors --------------------------------------------------------------

def first_dimension(rows):
    """A tensor's first dimension as its `shape` gives it (a Python int where tracing knows it)."""
    return rows.shape[0]


class StagedRows:
    """What a backend's `enumerate` and `zip` hooks give for staged tensors, and its `for_loop` iterates:
    `tensors`, walked together along their first axis, and `item(i, rows)`, the loop's item from their rows
    at index `i`. A framework subclasses `StagedEnumerate` and `StagedZip` with `rows(value, what)`: `value` as
    a tensor of rows (a StagingError naming `what` for one that has none), and with `length(rows)` when its
    tensors' `shape[0]` is not their length, a Python int when tracing knows it."""

    tensors: tuple

    @staticmethod
    def rows(value, what: str):
        raise NotImplementedError

    length = staticmethod(first_dimension)

    def python_items(self):
        """The loop's items as Python iterates them, one per row (stopping at the shortest tensor), the index a
        Python int: for a `for` run unrolled, or a comprehension, where tracing knows the first dimensions."""
        return map(self.item, itertools.count(), zip(*self.tensors))


class StagedEnumerate(StagedRows):
    """`enumerate(tensor, start)`, or `enumerate(zip(...))`: items `(i + start, row)`."""

    def __init__(self, iterable, start=0):
        self.zipped = isinstance(iterable, StagedZip)
        self.tensors = iterable.tensors if self.zipped else (self.rows(iterable, "enumerate"),)
        self.start = start

    def item(self, i, rows):
        return i + self.start, tuple(rows) if self.zipped else rows[0]


class CountingEnumerate(StagedEnumerate):
    """`StagedEnumerate` that also takes a staged range, for a framework whose `for_loop` runs a range's loop:
    `enumerate(range(...), start)` is that loop, counting (`counted`; `counting` gives the range and the body),
    with the range's length; iterating it outside a `for` is the range's StagingError."""

    def __init__(self, iterable, start=0):
        self.range = iterable if isinstance(iterable, StagedRange) else None
        if self.range is None:
            super().__init__(iterable, start)
        else:
            self.zipped, self.tensors, self.start = False, (), start

    def __iter__(self):                     # outside a `for` statement (a comprehension): shapes are static
        if self.range is not None:
            return iter(self.range)         # a StagingError: the range has no length while tracing
        return self.python_items()

    def counted(self, body: Callable) -> Callable:
        """The body of a `for` over `enumerate(range(...))`, as the range's loop calls it with the range's `i`:
        called with `(count, i)`, count = (i - range start) // step + enumerate's start."""
        r = self.range

        def counted_body(i, *state):
            return body(((i - r.start) // r.step + self.start, i), *state)
        return counted_body


def counting(iterable, body: Callable) -> tuple:
    """The iterable and body a `for` runs: for an enumerate of a staged range, the range and the counted body."""
    if isinstance(iterable, CountingEnumerate) and iterable.range is not None:
        return iterable.range, iterable.counted(body)
    return iterable, body


class StagedZip(StagedRows):
    """`zip(a, b, ...)` with a staged tensor among them: tuples of rows, stopping at the shortest. With
    `strict=True`, lengths that tracing knows are checked, as Python checks them; others are refused."""

    def __init__(self, *iterables, strict: bool = False):
        self.tensors = tuple(self.rows(x, "zip") for x in iterables)
        if strict:
            lengths = [self.length(t) for t in self.tensors]
            if not all(isinstance(n, int) for n in lengths):
                raise StagingError(at_user_line(
                    "zip(..., strict=True) over tensors whose lengths are known only when the graph runs: drop "
                    "strict=True, or check the lengths with an assertion first."))
            for k, n in enumerate(lengths[1:], 2):
                if n != lengths[0]:
                    raise ValueError(f"zip() argument {k} is {'shorter' if n < lengths[0] else 'longer'} than "
                                     "argument 1")

    def item(self, i, rows):
        return tuple(rows)


def rows_and_item(iterable, rows: Callable) -> tuple:
    """The tensors a `for` over `iterable` walks together, and how to make its item from their rows at `i`."""
    if isinstance(iterable, StagedRows):
        return iterable.tensors, iterable.item
    return (rows(iterable, "iteration"),), lambda i, found: found[0]


def unrolled(iterable, body: Callable, state: tuple, limit: Optional[int]) -> tuple:
    """A `for` run in Python, `body(item, *state) -> new state` once per item (at most `limit` times), as a
    tracer runs a `for` over a tensor in unconverted code: a tensor's rows from iterating it, an enumerate's or
    a zip's items from their rows (`python_items`: enumerate's index a Python int)."""
    items = iterable.python_items() if isinstance(iterable, StagedRows) else iterable
    for item in itertools.islice(items, limit):
        state = tuple(body(item, *state))
    return state


def shortest(lengths: Sequence, minimum: Callable):
    """The least of `lengths`: a Python int when each is one, else through the framework's `minimum`."""
    return functools.reduce(
        lambda a, b: min(a, b) if isinstance(a, int) and isinstance(b, int) else minimum(a, b), lengths)


def range_length(r: StagedRange, prims: Primitives):
    """The number of items of a staged range, from its bounds (as Python's `len(range(...))`)."""
    start, stop, step = (prims.index(b) for b in (r.start, r.stop, r.step))
    return prims.maximum(0, (stop - start + step - prims.sign(step)) // step)


def staged_len(value, prims: Primitives, of_tensor: Callable):
    """`len(value)`: a staged range's (or an enumerate's of one) from its bounds, an enumerate's or a zip's its
    shortest tensor's, a list's
    that a staged loop built (stacked_list.py) its stacked rows', any other value's `of_tensor(value)` (the
    framework's, with its message for a 0-d tensor)."""
    if isinstance(value, CountingEnumerate) and value.range is not None:
        value = value.range
    if isinstance(value, StagedRange):
        return range_length(value, prims)
    if isinstance(value, StagedRows):
        return shortest([prims.length(t) for t in value.tensors], prims.minimum)
    if isinstance(value, StackedList):
        return prims.length(value.rows)
    return of_tensor(value)


@dataclass(frozen=True)
class IndexWalk:
    """A `for` as a loop over an integer index: from `start` by `step` while `in_range(i)`, the loop's item
    `item(i)` (a range's counter itself, or a row of each tensor)."""

    start: Any
    step: Any
    in_range: Callable
    item: Callable
    length: Any = None                    # the number of rows (None for a range)


def index_walk(iterable, prims: Primitives, rows: Callable) -> IndexWalk:
    """How a `for` walks a staged range, or a staged tensor's rows (or an enumerate's or a zip's): `rows(value,
    what)` is a value as a tensor of rows, as `rows_and_item` takes it."""
    if isinstance(iterable, StagedRange):
        start, stop, step = (prims.index(b) for b in (iterable.start, iterable.stop, iterable.step))
        return IndexWalk(start, step, lambda i: before_stop(i, stop, step, prims.where), lambda i: i)
    tensors, item_of = rows_and_item(iterable, rows)
    n = shortest([prims.length(t) for t in tensors], prims.minimum)
    return IndexWalk(0, 1, lambda i: i < n, lambda i: item_of(i, tuple(prims.row(t, i) for t in tensors)), n)


def index_test(walk: IndexWalk, extra_test: Optional[Callable], prims: Primitives) -> Callable:
    """The loop's test, `test(i, *state)`: the index in range, and then the `for`'s `extra_test(*state)` (its
    `break` or `return`), if it has one."""
    def test(i, *state):
        ok = walk.in_range(i)
        return ok if extra_test is None else prims.and_then(ok, lambda: extra_test(*state))
    return test


def index_body(walk: IndexWalk, body: Callable) -> Callable:
    """The loop's body, `step_body(i, *state) -> (next i, *new state)`: the `for`'s `body(item, *state)` on
    the item at `i`."""
    def step_body(i, *state):
        return (i + walk.step, *body(walk.item(i), *state))
    return step_body
