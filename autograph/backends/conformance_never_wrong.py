"""The conformance kit's tests (autograph/backends/conformance.py) of programs a graph can't always stage: a
variable defined on one path, a dtype that changes in a loop, a change made in an operand, a list used after
the loop that built it. A backend may refuse them with an exception; it must never give another value."""
from __future__ import annotations

import numpy as np
import pytest

I32, F32 = np.int32, np.float32


def _defined_on_one_path(x):
    if x > 0:
        y = x + 1
    return y


def _changes_dtype_in_loop(n):
    v = n * 0 + 1
    i = 0
    while i < n:
        v = v * 1.5
        i += 1
    return v


def _string_or_number(x):
    if x > 0:
        r = "positive"
    else:
        r = 0
    return r


def _append_in_conditional_expression(x):
    seen = []
    _ = seen.append(1) if x > 0 else seen.append(2)
    return len(seen)


def _append_in_and(x):
    seen = []
    _ = x > 0 and seen.append(1) is None
    return len(seen)


@pytest.mark.parametrize("x", [F32(1), F32(-1)])
def test_change_in_an_operand_is_never_a_wrong_value(harness, x):
    """Both operands are traced: Python's change on the path taken would be made on both (2, not 1)."""
    harness.check(_append_in_conditional_expression, x, may_refuse=True)
    harness.check(_append_in_and, x, may_refuse=True)


@pytest.mark.parametrize("x", [F32(1), F32(-1)])
def test_variable_defined_on_one_path_is_never_a_wrong_value(harness, x):
    harness.check(_defined_on_one_path, x, may_refuse=True)


@pytest.mark.parametrize("n", [I32(0), I32(3)])
def test_dtype_change_in_loop_is_never_a_wrong_value(harness, n):
    harness.check(_changes_dtype_in_loop, n, may_refuse=True)


@pytest.mark.parametrize("x", [F32(1), F32(-1)])
def test_string_or_number_is_never_a_wrong_value(harness, x):
    harness.check(_string_or_number, x, may_refuse=True)


def _for_else_defines(xs, t):
    for x in xs:
        if x > t:
            r = x
            break
    else:
        r = t * 0 - 1
    return r


@pytest.mark.parametrize("t", [F32(2.5), F32(5)])
def test_variable_defined_by_break_or_else_is_never_a_wrong_value(harness, t):
    """`r` is defined after the loop on every path (by the iteration that breaks, or by `else`), but not before
    it: a backend without `check_defined` may refuse it (the runtime gives Python's value)."""
    harness.check(_for_else_defines, np.array([1, 2, 3], dtype=F32), t, may_refuse=True)


def _list_after_loop(xs):
    out = []
    for x in xs:
        out.append(x * 2)
    joined = out[1:] + [10] + out * 2
    return len(joined), joined[2], joined[-1]


def test_list_built_in_a_loop_is_never_a_wrong_value(harness):
    """After the loop the list keeps Python's operators: a slice is a list, `+` concatenates, `* 2` repeats
    (a bare stacked array would add and double elementwise). `list_stack` should give a
    `stacked_list.StackedList`; a backend that keeps no lists may refuse."""
    harness.check(_list_after_loop, np.array([1, 2, 3], dtype=F32), may_refuse=True)


__all__ = sorted(name for name in dir() if name.startswith("test_"))
