"""The arithmetic of a Python number that a staged `if` or loop carries (a tensor marked as the number it holds,
runtime/ops/python_ints.py) is Python's, or a clear error at the user's line.

Before: a carried Python float was a float32 (`0.1` added ten times gave 1.0000001, its text '0.10000000149011612',
`10.0 ** 40` inf); `1.0 // 0.1` was 10.0 (Python's is 9.0); `2.0 ** 1024` inf (Python raises OverflowError);
`int(f)` of a float outside int32 a wrong int; `~b` of a carried bool False (Python: -2) and its arithmetic a
dtype error; `s ** -1` of a carried int an error (Python: 0.5); `s + 2 ** 40` and `s < 2 ** 40` an error without
a line; `round(f)` and `math.trunc(f)` refused."""
import math
import re

import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError, LoweringError


def _carried(n, start):
    """`start`, carried by a staged loop (`n` a tensor): a marked Python number."""
    s = start
    for _ in range(n):
        s = s
    return s


def accumulated_tenths(n):
    s = 0.0
    for _ in range(n):
        s += 0.1
    return s, s == 1.0


def tenth_times_three(n):
    if n > 0:
        s = 0.1
    else:
        s = 0.2
    return s * 3, s * 3 == 0.30000000000000004, s % 0.03


def past_float32(n):
    s = _carried(n, 1e20)
    return s * s, s ** 2, 10.0 ** (s / 1e19) ** 2, s / 1e-300


def float_floor_division(n):
    s = _carried(n, 1.0)
    i = _carried(n, 1)
    return s // 0.1, divmod(s, 0.1), i // 0.1, -7.5 // s, s % -1, 7.5 % -s, s % 0.1


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
        s = s + 0.1
        k = round(s * 10) + int(s) + (s // 0.1 > 0) + (s == 1) + ~(s > 2)
    return k, s


def double_power(n):
    s = _carried(n, 10)
    return float(s) ** 10, (float(s) ** 10) ** 30, 10.0 ** 40


def test_the_text_of_a_carried_python_float_has_pythons_digits():
    def text(n):
        if n > 0:
            s = 0.1
        else:
            s = 0.2
        return f"{s}|{s * 3}|" + str(s + 0.2)

    assert tf.function(text)(tf.constant(1)).numpy().decode() == text(1) == "0.1|0.30000000000000004|0.30000000000000004"


def test_a_carried_python_float_is_a_double_and_meets_a_float32_tensor_in_its_dtype():
    def program(n):
        s = _carried(n, 0.1)
        return s, tf.constant([1.0, 2.0]) * s

    s, scaled = tf.function(program)(tf.constant(1))
    assert s.dtype == tf.float64 and float(s) == 0.1
    assert scaled.dtype == tf.float32 and scaled.numpy().tolist() == (np.float32([1.0, 2.0]) * np.float32(0.1)).tolist()


X = tf.constant([1.0, 2.0, 3.0])
V = tf.Variable(0.0)


def given_to_tensorflow_ops(n):
    s = _carried(n, 0.5)
    ta = tf.TensorArray(tf.float32, size=1).write(0, s)
    V.assign(s)
    return (ta.stack(), tf.stack([s, X[0]]), tf.where(X > 1.0, s, X), tf.concat([X, [s]], 0), tf.sqrt(s) * X,
            V.read_value(), tf.maximum(s, X), tf.ones([2]) * s)


def test_a_carried_python_float_given_to_a_tensorflow_op_takes_the_float32_a_python_float_would():
    """As `runtime.constant(0.5)` is float32, a carried Python float (a float64) given to an op beside float32
    tensors, or asked for as float32, is a float32 there: these programs raised dtype errors when the carried
    float first became a double."""
    got = tf.function(given_to_tensorflow_ops)(tf.constant(1))
    want = given_to_tensorflow_ops(1)
    assert [(g.dtype, g.numpy().tolist()) for g in got] == [(w.dtype, w.numpy().tolist()) for w in want]


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


@pytest.mark.parametrize("fn", [accumulated_tenths, tenth_times_three, past_float32, float_floor_division, rounded,
                                bools_as_ints, bools_stay_bools, wide_ints, negative_powers,
                                inside_the_staged_statement, double_power], ids=lambda f: f.__name__)
@pytest.mark.parametrize("jit_compile", [False, True])
def test_arithmetic_on_a_carried_python_number_gives_pythons_value_and_type(fn, jit_compile):
    got = tf.function(fn, jit_compile=jit_compile)(tf.constant(10))
    assert _plain(got) == _plain(fn(10))


def power_past_the_range(n):
    s = _carried(n, 2.0)
    return s ** 1024                                  # <- here: OverflowError in Python


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
    s = _carried(n, 1e308)
    return math.trunc(s * 10)                         # <- here: OverflowError in Python


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
    (power_past_the_range, 1, "past a double's range, where Python raises OverflowError"),
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


def laid_out_by_ops_that_ask_for_no_dtype(n):
    s = _carried(n, 0.5)
    return (tf.fill([3], s) * X, tf.reshape(s, [1]) + X[:1], tf.stack([tf.fill([3], s), X]),
            tf.concat([X, tf.reshape(s, [1])], 0), X - tf.expand_dims(s, 0))


def test_a_carried_python_float_that_an_op_only_lays_out_meets_float32_tensors_as_float32():
    """`tf.fill([3], s)` asks for no dtype: of a carried Python float (a double) it is a float64, which meets a
    float32 tensor as the float32 a Python float would have given (the same values: the op computes none)."""
    got = tf.function(laid_out_by_ops_that_ask_for_no_dtype)(tf.constant(1))
    want = laid_out_by_ops_that_ask_for_no_dtype(1)
    assert [(g.dtype, g.numpy().tolist()) for g in got] == [(w.dtype, w.numpy().tolist()) for w in want]


def test_a_float64_an_op_computes_from_a_carried_python_float_stays_a_dtype_error_beside_float32():
    """`tf.reduce_sum([s, s])` in float64 need not round as TensorFlow's float32 sum of a Python float would:
    beside a float32 tensor it stays the dtype error, at the line."""
    def program(n):
        s = _carried(n, 0.1)
        return tf.reduce_sum([s, s]) * X

    with pytest.raises(InvalidArgumentError, match="float64 and float32"):
        tf.function(program)(tf.constant(1))


def test_a_programs_float64_tensor_beside_a_float32_one_stays_a_dtype_error():
    with pytest.raises(InvalidArgumentError, match="float64 and float32"):
        tf.function(lambda x: tf.reshape(x, [1]) * X)(tf.constant(0.5, tf.float64))


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


def test_int_of_a_float_tensor_exports_to_onnx_as_its_cast():
    """ONNX has no run-time error: the check is left out, as a Python int's checked arithmetic wraps there."""
    pytest.importorskip("onnx")

    @tf.function
    def program(x):
        return int(x * 2.0)

    model = tf.onnx.export(program.get_concrete_function(tf.TensorSpec([], tf.float32)))
    assert "Cast" in [node.op_type for node in model.graph.node]


def test_a_variable_a_staged_statement_may_leave_unassigned_still_does_not_export_to_onnx():
    pytest.importorskip("onnx")

    @tf.function
    def program(x):
        if x > 0:
            y = x * 2.0
        return y

    with pytest.raises(LoweringError, match="check of a variable a staged statement may leave unassigned"):
        tf.onnx.export(program.get_concrete_function(tf.TensorSpec([], tf.float32)))
