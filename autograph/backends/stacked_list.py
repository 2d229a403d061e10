"""A list a staged loop built, after the loop: one array of its items with a Python list's operators.

A backend carries a list that a staged loop appends to as one array (a preallocated buffer, a TensorArray)
and stacks it after the loop. Handed back bare, that array would answer Python's list operators with the
framework's elementwise ones, without an error: `l + other` added where Python concatenates, `l * 2`
doubled where Python repeats, `l[1:] + [x]` added `x` to every item, `l == other` compared items one by one.
`StackedList` keeps the list's meaning: a slice is a list, `+` with a list concatenates, `*` with an int
repeats, `==` with a list is one bool (equal lengths and items), `bool(l)` and `not l` test the length;
what Python refuses on a list (`l - 1`, `l + 1`) is a TypeError. A framework's functions take it as the
array (`__jax_array__`, `__tf_tensor__`). Each framework subclasses it with its few array primitives
(jax_lists.py, tensorflow.py).
"""
from __future__ import annotations

from typing import Optional

from autograph.errors import StagingError, at_user_line


class StackedList:
    """The list's items as one array, `rows` (items on the first axis)."""

    __slots__ = ("rows",)

    def __init__(self, rows):
        self.rows = rows

    # --- the framework's primitives (subclasses) -------------------------------------------------------

    def _length(self) -> Optional[int]:
        """The number of items if tracing knows it, else None."""
        raise NotImplementedError

    def _stack(self, items: list):
        """A non-empty Python list's items as rows of this list's dtype (an error if they can't be)."""
        raise NotImplementedError

    def _concat(self, a, b):
        raise NotImplementedError

    def _tile(self, times: int):
        raise NotImplementedError

    def _all_equal(self, other_rows):
        """One bool: `other_rows` has this list's length and items (rows of the same item shape)."""
        raise NotImplementedError

    def _item_shape(self, rows) -> Optional[tuple]:
        raise NotImplementedError

    def _elementwise_equal(self, other):
        """`self.rows == other` for an array `other`, or None when `other` is not the framework's array."""
        raise NotImplementedError

    def _not(self, value):
        raise NotImplementedError

    # --- Python's list --------------------------------------------------------------------------------

    def __len__(self) -> int:
        n = self._length()
        if n is None:
            raise StagingError(at_user_line(   # (not a TypeError, which the program's `except` could take)
                "len() of a list a staged loop built is known only when the graph runs; the converted code's "
                "len(l) gives it as a tensor."))
        return n

    def __bool__(self) -> bool:
        return len(self) > 0

    def __iter__(self):
        return iter(self.rows)

    def __getitem__(self, key):
        if isinstance(key, slice):
            return type(self)(self.rows[key])
        if isinstance(key, tuple):
            raise TypeError("list indices must be integers or slices, not tuple")   # as Python's
        return self.rows[key]

    def __add__(self, other):
        return type(self)(self._concat(self.rows, self._rows(other, "+")))

    def __radd__(self, other):
        return type(self)(self._concat(self._rows(other, "+"), self.rows))

    def __mul__(self, times):
        if not isinstance(times, int) or isinstance(times, bool):
            raise TypeError(f"can't multiply sequence by non-int of type {type(times).__name__!r}")
        return type(self)(self._tile(max(times, 0)))

    __rmul__ = __mul__

    def __eq__(self, other):
        elementwise = self._elementwise_equal(other)
        if elementwise is not None:
            return elementwise   # as a list of arrays compares with an array
        if not isinstance(other, (list, StackedList)):
            return False         # a list equals no tuple, number or string
        n, mine = (len(other) if isinstance(other, list) else other._length()), self._length()
        if n is not None and mine is not None and n != mine:
            return False         # lengths differ: Python's answer before it compares any item
        return self._all_equal(self._rows(other, "=="))   # (items it can't hold: an error, not a guess)

    def __ne__(self, other):
        equal = self.__eq__(other)
        return not equal if isinstance(equal, bool) else self._not(equal)

    __hash__ = None   # as a list's

    def copy(self) -> "StackedList":
        return self       # an array never changes: the copy may be the list itself

    def __repr__(self) -> str:
        return f"StackedList({self.rows!r})"

    def _rows(self, other, op: str):
        """`other` (a list, or a StackedList) as rows like this list's; a TypeError otherwise, as Python's
        `list + x` is."""
        if isinstance(other, StackedList):
            rows = other.rows
        elif isinstance(other, list):
            if not other:
                return self.rows[:0]
            rows = self._stack(other)
        else:
            raise TypeError(f'can only concatenate list (not "{type(other).__name__}") to list' if op == "+" else
                            f"unsupported operand for {op}: a list and {type(other).__name__}")
        mine, theirs = self._item_shape(self.rows), self._item_shape(rows)
        if mine is not None and theirs is not None and mine != theirs:
            raise StagingError(at_user_line(
                f"a list a staged loop built holds items of shape {mine}; joining items of shape {theirs} to it "
                "would give a list of two shapes, which one array can't hold."))
        return rows
