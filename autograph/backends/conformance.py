"""A conformance kit for backends: pytest tests a framework runs against its own backend.

Each test is a small Python function with tensor-dependent control flow. It runs
twice: as plain Python on NumPy values (the reference: Python's semantics), and
converted by autograph and staged by the framework on its tensors. The staged
result must equal Python's, or, for the tests that say so, the staged call may
refuse with an exception; it must never give another value.

To run the kit against a backend, import its tests into a test module and give
it a `harness` fixture:

    import pytest
    from autograph.backends.conformance import *   # noqa: F401,F403 - the kit's tests
    from autograph.backends.conformance import Harness

    @pytest.fixture
    def harness():
        return Harness(stage=lambda fn, *args: my_framework.compile(autograph.convert(fn))(*args),
                       tensor=my_framework.asarray)

`stage(fn, *tensors)` runs the Python function `fn` converted and staged (traced
and run) on the framework's tensors, made by `tensor(numpy_value)`; results are
read back with `numpy.asarray` unless `numpy` is given. tests/autograph/backends/
test_conformance.py runs the kit on the runtime, JAX, PyTorch and TensorFlow.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import pytest


@dataclass
class Harness:
    """How the kit runs a function on a framework (see the module docstring)."""

    stage: Callable[..., Any]
    tensor: Callable[[np.ndarray], Any]
    numpy: Callable[[Any], np.ndarray] = np.asarray
    skips: dict = field(default_factory=dict)   # test name -> why this framework can't run it

    def check(self, fn, *args, may_refuse: bool = False) -> None:
        """Run `fn` in Python on NumPy `args` and staged on tensors: the same value, or (`may_refuse`) an error.
        Called from one of the kit's tests, which `skips` names."""
        name = sys._getframe(1).f_code.co_name
        if name in self.skips:
            pytest.skip(self.skips[name])
        values = [np.asarray(a) for a in args]
        try:
            expected = fn(*values)
            python_error = None
        except Exception as e:      # Python raises for these inputs: the staged call must raise too
            expected, python_error = None, e
        try:
            got = self.stage(fn, *(self.tensor(v) for v in values))
        except Exception as e:
            if python_error is not None or may_refuse:
                return
            raise AssertionError(f"{fn.__name__}{tuple(a.tolist() for a in values)}: Python gives {expected!r}, "
                                 f"the staged call raised {type(e).__name__}: {e}") from e
        if python_error is not None:
            raise AssertionError(f"{fn.__name__}{tuple(a.tolist() for a in values)}: Python raises "
                                 f"{type(python_error).__name__} ({python_error}); the staged call returned {got!r}")
        _assert_same(fn.__name__, expected, got, self.numpy)


def _assert_same(name: str, expected, got, to_numpy) -> None:
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(expected), (name, expected, got)
        for e, g in zip(expected, got):
            _assert_same(name, e, g, to_numpy)
        return
    value = to_numpy(got)
    if isinstance(expected, str):       # a framework may carry a string as a string tensor
        text = value.item() if isinstance(value, np.ndarray) else value
        assert (text.decode() if isinstance(text, bytes) else text) == expected, (name, expected, got)
        return
    np.testing.assert_allclose(np.asarray(value, dtype=np.float64), np.asarray(expected, dtype=np.float64),
                               rtol=1e-6, err_msg=name)


I32, F32 = np.int32, np.float32


# --- if ------------------------------------------------------------------------------------------------

def _if_assign(x):
    if x > 0:
        y = x * 2
    else:
        y = -x
    return y


def _if_return(x):
    if x > 0:
        return x * 3
    return x - 1


def _elif_numbers(x):
    if x > 10:
        r = 2
    elif x > 0:
        r = 1
    else:
        r = 0
    return r


def _if_expression(x):
    return x * 2 if x > 0 else x - 1


def _and_or_not(x):
    if x > 0 and x < 5 or not x != 7:
        r = x + 100
    else:
        r = x
    return r


def _and_or_values(x, y):
    return x and y, x or y, x and 5, x or 5


def _nested_if(x, y):
    if x > 0:
        if y > 0:
            z = x + y
        else:
            z = x - y
    else:
        z = y * 2
    return z


def _numbers_of_two_kinds(x):
    if x > 0:
        y = 1            # an int in one branch, a float in the other: a float tensor holds both
    else:
        y = 2.5
    return y, 0.5 if x > 1 else 2


@pytest.mark.parametrize("x", [F32(3), F32(0.5), F32(-2)])
def test_python_numbers_of_two_kinds_in_branches(harness, x):
    harness.check(_numbers_of_two_kinds, x)


@pytest.mark.parametrize("x", [F32(3), F32(-2)])
def test_if_assigns_a_variable(harness, x):
    harness.check(_if_assign, x)


@pytest.mark.parametrize("x", [F32(3), F32(-2)])
def test_if_returns(harness, x):
    harness.check(_if_return, x)


@pytest.mark.parametrize("x", [I32(20), I32(3), I32(-1)])
def test_elif_chain_of_python_numbers(harness, x):
    harness.check(_elif_numbers, x)


@pytest.mark.parametrize("x", [F32(2), F32(-2)])
def test_conditional_expression(harness, x):
    harness.check(_if_expression, x)


@pytest.mark.parametrize("x", [I32(3), I32(7), I32(9), I32(-1)])
def test_and_or_not(harness, x):
    harness.check(_and_or_not, x)


@pytest.mark.parametrize("x,y", [(I32(3), I32(4)), (I32(0), I32(4)), (I32(3), I32(0))])
def test_and_or_give_an_operand(harness, x, y):
    """`x and y` is `y` or `x` itself, not a bool (4, not True, for 3 and 4)."""
    harness.check(_and_or_values, x, y)


@pytest.mark.parametrize("x,y", [(F32(1), F32(2)), (F32(1), F32(-2)), (F32(-1), F32(2))])
def test_nested_if(harness, x, y):
    harness.check(_nested_if, x, y)


# --- while ---------------------------------------------------------------------------------------------

def _while_sum(n):
    i = 0
    s = 0
    while i < n:
        s += i
        i += 1
    return s


def _while_true_break(n):
    i = 0
    while True:
        i += 1
        if i * i > n:
            break
    return i


def _while_return(x):
    while x < 100:
        x = x * 2
        if x % 3 == 0:
            return -x
    return x


def _while_float_accumulator(x, n):
    i = 0
    total = 0
    while i < n:
        total += x
        i += 1
    return total


def _while_python_float_step(n):
    i = 0
    s = 0                # an int before the loop, a float after one iteration
    while i < n:
        s = s + 0.5
        i += 1
    return s, i


@pytest.mark.parametrize("n", [I32(0), I32(3)])
def test_python_int_becomes_python_float_in_loop(harness, n):
    harness.check(_while_python_float_step, n)


@pytest.mark.parametrize("n", [I32(0), I32(5)])
def test_while_loop(harness, n):
    harness.check(_while_sum, n)


@pytest.mark.parametrize("n", [I32(0), I32(10), I32(50)])
def test_while_true_with_break(harness, n):
    harness.check(_while_true_break, n)


@pytest.mark.parametrize("x", [I32(1), I32(5), I32(7)])
def test_return_inside_while(harness, x):
    harness.check(_while_return, x)


@pytest.mark.parametrize("n", [I32(0), I32(4)])
def test_python_number_becomes_float_in_loop(harness, n):
    harness.check(_while_float_accumulator, F32(0.5), n)


# --- for -----------------------------------------------------------------------------------------------

def _for_range(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


def _for_rows(xs):
    total = xs[0] * 0
    for row in xs:
        total = total + row
    return total


def _for_continue(n):
    s = 0
    for i in range(n):
        if i % 2 == 0:
            continue
        s += i
    return s


def _for_return(n, k):
    for i in range(n):
        if i * i > k:
            return i
    return -1


def _for_break_rows(xs):
    s = xs[0] * 0
    for x in xs:
        if x > 2:
            break
        s = s + x
    return s


def _enumerate_rows(xs):
    total = xs[0] * 0
    for i, x in enumerate(xs):
        if i == 1:
            continue
        total = total + x
    return total


def _zip_rows(a, b):
    s = a[0] * 0
    for p, q in zip(a, b):
        s = s + p * q
    return s


def _enumerate_zip(a, b):
    s = a[0] * 0
    for i, (p, q) in enumerate(zip(a, b), 1):
        if p > q or i == 3:
            continue
        s = s + p * q
    return s


def _zip_strict(a, b):
    s = a[0] * 0
    for p, q in zip(a, b, strict=True):
        s = s + p * q
    return s


def _nested_loops(n):
    s = 0
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            s += j
    return s


def test_enumerate_of_zip(harness):
    harness.check(_enumerate_zip, np.array([1, 5, 3], dtype=F32), np.array([4, 2, 6, 9], dtype=F32))


@pytest.mark.parametrize("m", [3, 4])
def test_zip_strict(harness, m):     # lengths 3 and 4: Python raises ValueError, so must the staged call
    harness.check(_zip_strict, np.array([1, 5, 3], dtype=F32), np.arange(m, dtype=F32), may_refuse=True)


@pytest.mark.parametrize("n", [I32(0), I32(6)])
def test_for_over_range(harness, n):
    harness.check(_for_range, n)


def test_for_over_rows(harness):
    harness.check(_for_rows, np.arange(12, dtype=F32).reshape(4, 3))


@pytest.mark.parametrize("n", [I32(0), I32(7)])
def test_for_with_continue(harness, n):
    harness.check(_for_continue, n)


@pytest.mark.parametrize("n,k", [(I32(10), I32(20)), (I32(3), I32(50))])
def test_return_inside_for(harness, n, k):
    harness.check(_for_return, n, k)


def test_for_with_break_over_rows(harness):
    harness.check(_for_break_rows, np.array([1, 2, 3, 4], dtype=F32))


def test_enumerate(harness):
    harness.check(_enumerate_rows, np.array([1, 2, 3, 4], dtype=F32))


def test_zip_stops_at_the_shortest(harness):
    harness.check(_zip_rows, np.array([1, 2, 3], dtype=F32), np.array([4, 5], dtype=F32))


@pytest.mark.parametrize("n", [I32(0), I32(4)])
def test_nested_loops_with_break(harness, n):
    harness.check(_nested_loops, n)


# --- more: floor division, flags, loop else, nested returns --------------------------------------------

def _floor_div_mod(x, n):
    q = x * 0
    r = x * 0
    i = 0
    while i < n:
        q = q + x // 3         # Python floors (-7 // 3 is -3) and takes the divisor's sign (-7 % 3 is 2)
        r = r + x % 3
        i += 1
    return q, r


def _found_flag(xs, t):
    found = False
    for x in xs:
        if x > t:
            found = True
    return found


def _while_continue(n):
    i = 0
    s = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        s += i
    return s


def _range_negative_step(n):
    s = 0
    for i in range(n, 0, -2):
        s += i
    return s


def _return_from_nested(n, k):
    for i in range(n):
        for j in range(n):
            if i * j > k:
                return i - j
    return -1


def _not_and_or_in_loop(xs):
    c = 0
    for x in xs:
        if not (x > 1 and x < 4) or x == 5:
            c += 1
    return c


def _while_else(n):
    i = 0
    while i < n:
        if i == 7:
            break
        i += 1
    else:
        i = -1
    return i


def _count_down(n):
    steps = 0
    while n > 0:
        n = n - 2 if n % 2 == 0 else n - 1
        steps += 1
    return steps, n


@pytest.mark.parametrize("x,n", [(I32(-7), I32(2)), (I32(8), I32(1))])
def test_floor_division_and_modulo(harness, x, n):
    harness.check(_floor_div_mod, x, n)


@pytest.mark.parametrize("t", [F32(2.5), F32(5)])
def test_bool_flag_set_in_loop(harness, t):
    harness.check(_found_flag, np.array([1, 2, 3], dtype=F32), t)


@pytest.mark.parametrize("n", [I32(0), I32(10)])
def test_while_with_continue(harness, n):
    harness.check(_while_continue, n)


@pytest.mark.parametrize("n", [I32(0), I32(7)])
def test_range_with_negative_step(harness, n):
    harness.check(_range_negative_step, n)


@pytest.mark.parametrize("n,k", [(I32(4), I32(5)), (I32(3), I32(50))])
def test_return_from_nested_loops(harness, n, k):
    harness.check(_return_from_nested, n, k)


def test_not_and_or_in_loop(harness):
    harness.check(_not_and_or_in_loop, np.array([0, 2, 5, 7], dtype=F32))


@pytest.mark.parametrize("n", [I32(3), I32(10)])
def test_while_else(harness, n):
    harness.check(_while_else, n)


@pytest.mark.parametrize("n", [I32(0), I32(9)])
def test_conditional_expression_in_while(harness, n):
    harness.check(_count_down, n)


from autograph.backends.conformance_never_wrong import *  # noqa: E402,F401,F403 - never silently wrong


def test_python_values_keep_python_semantics(harness):
    """A converted function on Python values runs as Python, whatever backends are registered."""
    from autograph.api import convert

    assert convert(_while_true_break)(10) == 4
    assert convert(_for_return)(10, 20) == 5
    assert convert(_if_expression)(-3) == -4


__all__ = ["Harness", *sorted(name for name in dir() if name.startswith("test_"))]
