"""The arithmetic of a Python number that a staged `if` or loop carries (a tensor marked as the number it holds,
runtime/ops/python_ints.py) is Python's, or a clear error at the user's line.

Before: `1.0 // 0.1` of a carried float was 10.0 (Python's is 9.0); `2.0 ** 1024` inf (Python raises
OverflowError); `int(f)` of a float outside int32 a wrong int; `~b` of a carried bool False (Python: -2) and its
arithmetic a dtype error; `s ** -1` of a carried int an error (Python: 0.5); `s + 2 ** 40` and `s < 2 ** 40` an
error without a line; `round(f)` and `math.trunc(f)` refused. (A carried Python float is still a float32, as in
TensorFlow: docs/limitations.md.)"""
import math
import re

import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError


def _carried(n, start):
    """`start`, carried by a staged loop (`n` a tensor): a marked Python number."""
    s = start
    for _ in range(n):
        s = s
    return s


def float_floor_division(n):
    s = _carried(n, 1.0)
    i = _carried(n, 1)
    return s // 0.1, divmod(s, 0.1)[0], i // 0.1, -7.5 // s, s % -1, 7.5 % -s


def rounded(n):
    a = _carried(n, 2.5)
    b = _carried(n, -3.7)
    return round(a), round(a + 1), round(-a), math.floor(b), math.ceil(b), math.trunc(b), int(b), isinstance(round(a), int)


def bools_as_ints(n):
    b = _carried(n, True)
    f = _carried(n, False)
    return b + b, ~b, ~f, -b, +b, abs(b), b * 3, b / 2, f + 1, b == 1, b < 2, b ** 2, b + 0.5, math.floor(b)


def bools_stay_bools(n):
    b = _carried(n, True)
    c = _carried(n, False)
    return b & c, b | c, b ^ True, b == c, not b, b != True  # noqa: E712 - Python's `!=` of a bool


def wide_ints(n):
    s = _carried(n, 5)
    return s < 2 ** 40, s == 2 ** 40, 2 ** 40 > s, s / 2 ** 40


def negative_powers(n):
    s = _carried(n, 2)
    b = _carried(n, True)
    return s ** -1, s ** -2, b ** -1, s ** 2


def inside_the_staged_statement(n):
    s = 0.0
    k = 0
    for _ in range(n):
        s = s + 0.25
        k = round(s * 10) + int(s) + (s // 0.1 > 0) + (s == 1) + ~(s > 2)
    return k, s


def double_power_past_its_range(n):
    s = _carried(n, 10)
    return float(s) ** 10, (float(s) ** 10) ** 31  # a double, as `float()` of a Python int is: 1e310 is past it


def _plain(value):
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, tf.Tensor):
        value = value.numpy()
    if isinstance(value, (np.ndarray, np.generic)):
        value = value.item()
    if isinstance(value, bytes):
        value = value.decode()
    return type(value).__name__, repr(value)


@pytest.mark.parametrize("fn", [float_floor_division, rounded, bools_as_ints, bools_stay_bools, wide_ints,
                                negative_powers, inside_the_staged_statement], ids=lambda f: f.__name__)
@pytest.mark.parametrize("jit_compile", [False, True])
def test_arithmetic_on_a_carried_python_number_gives_pythons_value_and_type(fn, jit_compile):
    got = tf.function(fn, jit_compile=jit_compile)(tf.constant(10))
    assert _plain(got) == _plain(fn(10))


def power_past_the_range(n):
    s = _carried(n, 2.0)
    return s ** 1024                                  # <- here: OverflowError in Python


def power_past_float32s_range(n):
    s = _carried(n, 10.0)
    return s ** 40                                    # <- here: 1e40 in Python, inf in float32


def power_past_a_doubles_range(n):
    s = _carried(n, 10)
    return (float(s) ** 10) ** 31                     # <- here: OverflowError in Python


def int_of_a_big_float(n):
    s = _carried(n, 3e9)
    return int(s)                                     # <- here: 3000000000 in Python


def round_of_a_big_float(n):
    s = _carried(n, 2.5e9)
    return round(s)                                   # <- here


def trunc_of_infinity(n):
    s = _carried(n, 1e38)
    return math.trunc(s * 10)                         # <- here: inf in float32 (in Python 1e39)


def int_of_a_program_float(x):
    return int(x * 1e10)                              # <- here: a tensor of the program's, and Python's int()


def wide_int_arithmetic(n):
    s = _carried(n, 5)
    return s + 2 ** 40                                # <- here


def int_zero_to_a_negative_power(n):
    s = _carried(n, 0)
    return s ** -1                                    # <- here: ZeroDivisionError in Python


def _line(fn) -> str:
    import inspect

    lines, start = inspect.getsourcelines(fn)
    return f"{__file__}:{start + next(i for i, text in enumerate(lines) if '# <- here' in text)}"


@pytest.mark.parametrize("fn, arg, says", [
    (power_past_the_range, 1, "past float32's range"),
    (power_past_float32s_range, 1, "start 's' as runtime.constant(..., runtime.float64)"),
    (power_past_a_doubles_range, 1, "past a double's range, where Python raises OverflowError"),
    (int_of_a_big_float, 1, "int() of a float tensor"),
    (round_of_a_big_float, 1, "round() of a float tensor"),
    (trunc_of_infinity, 1, "math.trunc() of a float tensor"),
    (int_of_a_program_float, 1.0, "outside int32 (or NaN or infinite)"),
    (wide_int_arithmetic, 1, "meets the Python int 1099511627776, which int32 cannot hold"),
    (int_zero_to_a_negative_power, 1, "0.0 is raised to a negative power"),
], ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("jit_compile", [False, True])
def test_where_the_graph_cannot_give_pythons_answer_it_raises_at_the_users_line(fn, arg, says, jit_compile):
    with pytest.raises(InvalidArgumentError, match=re.escape(says)) as caught:
        tf.function(fn, jit_compile=jit_compile)(tf.constant(arg))
    assert _line(fn) in str(caught.value)


def test_int_of_a_float_in_int32s_range_is_not_refused():
    def program(x):
        return int(x), int(-x), int(x * 0.0)

    got = tf.function(program)(tf.constant(2147483520.0))   # the largest float32 below 2 ** 31
    assert [int(v) for v in got] == [2147483520, -2147483520, 0]


# --- the program's own tensors keep TensorFlow's semantics ----------------------------------------------------

def test_a_programs_tensors_keep_tensorflows_semantics():
    def program(x, f, mask):
        return ~mask, f // 0.1, f * 1.0

    mask, quotient, same = tf.function(program)(tf.constant(2), tf.constant(1.0), tf.constant(True))
    assert bool(mask) is False                         # `~` of a bool tensor is logical not, as in TensorFlow
    assert float(quotient) == 10.0                     # TensorFlow's FloorDiv: floor(x / y)
    assert same.dtype == tf.float32


def test_a_programs_int_tensor_to_a_negative_power_stays_an_error():
    with pytest.raises(InvalidArgumentError, match="negative integer powers"):
        tf.function(lambda x: x ** -1)(tf.constant(2))


def test_jit_compile_gives_the_executors_signed_zero_of_float_modulo():
    def program(x):
        return x % 1.0, -x % -1.0

    for jit_compile in (False, True):
        a, b = tf.function(program, jit_compile=jit_compile)(tf.constant([-1.0, 2.0]))
        assert [repr(v) for v in a.numpy().tolist()] == ["0.0", "0.0"]
        assert [repr(v) for v in b.numpy().tolist()] == ["-0.0", "-0.0"]
