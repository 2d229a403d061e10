"""Round 13's leftovers of earlier rounds: text formatted from a traced value asked about by a str, a Python
bool a staged `if` carries counted as an int, and `%d` of a float tensor.

- `f"{x}" in "1.5 apples"` asks the plain str on the right, whose code read the trace's text (`Tensor("x:0",
  ...)`): always False (and `not in` always True). `in` and `not in` are now `ag__.in_` / `ag__.not_in`
  (converters/comparisons.py), which refuse such text on the left of a str; so are `operator.contains` and
  str's dunders called directly (`str.__eq__("1.5", text)`, `"1.5".__add__(text)`), and `int`, `float`,
  `complex`, `bytes`, `bytearray` and `ord` given it, which read the trace's text too (`int(f"{n}")` raised
  ValueError for `Tensor("n:0", ...)`).
- `b * 1.5` of a bool a staged `if` assigned (`b = True` in a branch) raised a dtype error where Python
  counts True as 1: a carried Python bool now meets numbers as Python's int does (runtime/ops/operators.py).
- `'%d' % x` of a float tensor raised Python's ValueError for `f"{x:d}"`, naming no line of the user's, where
  Python's `%d` truncates the float: it is now the int Python's `%d` takes; a spec the value can't take names
  the line.
"""
import operator
import re

import pytest

import autograph as ag
import runtime as tf
from autograph.errors import StagingError
from tests.autograph.generated_code import outcomes_agree
from tests.autograph.test_staged_language import outcome

# --- formatted text asked about by a str --------------------------------------------------------------------


def left_of_in(x):
    return f"{x}" in "1.5 apples"


def left_of_not_in(x):
    return f"{x}" not in "1.5 apples"


def in_a_staged_test(x):
    text = f"{x}"
    if text in "1.5 apples":
        return 1
    return 0


def str_of_it_in(x):
    return str(x) in "1.5 apples"


def operator_contains(x):
    return operator.contains("1.5 apples", f"{x}")


def dunder_contains(x):
    return "1.5 apples".__contains__(f"{x}")


def dunder_eq_through_the_class(x):
    return str.__eq__("1.5", f"{x}")


def dunder_eq_bound(x):
    return "1.5".__eq__(f"{x}")


def dunder_add(x):
    return "1.5".__add__(f"{x}")


def int_of_it(x):
    return int(f"{x:.0f}")


def float_of_it(x):
    return float(f"{x}")


def bytes_of_it(x):
    return bytes(f"{x}", "utf-8") == b"1.5"


ASKED = [left_of_in, left_of_not_in, in_a_staged_test, str_of_it_in, operator_contains, dunder_contains,
         dunder_eq_through_the_class, dunder_eq_bound, dunder_add, int_of_it, float_of_it, bytes_of_it]


@pytest.mark.parametrize("fn", ASKED, ids=lambda fn: fn.__name__)
def test_a_str_asked_about_text_formatted_from_a_traced_value_is_refused_at_the_users_line(fn):
    outcomes_agree(fn, (1.5, 2.0), outcome)
    with pytest.raises(StagingError) as info:
        tf.function(fn)(tf.constant(1.5))   # (was: False, or True for `not in`: the trace's text was asked)
    message = str(info.value)
    assert re.search(r"test_fidelity_round13_text_and_bools\.py:\d+: (`in` on a str|str\.__\w+__\(\)|\w+\(\)) given it "
                     r"of text formatted from a staged value", message), message


def in_a_tuple_of_strs(x):
    return f"{x}" in ("1.5", "2")


def test_formatted_text_in_a_tuple_is_compared_by_its_staged_equality():
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match=r"test_fidelity_round13_text_and_bools\.py"):
        tf.function(in_a_tuple_of_strs)(tf.constant(1.5))   # `==` of the text is a tensor: no Python bool


def in_of_python_values(x, items, text):
    return x in items, x not in items, str(x) in text, "a" in text


def test_in_of_python_values_is_pythons_in_converted_code():
    for args in [(2, [1, 2], "12"), (3, {1: 0}, "x"), (1, (1,), "ab")]:
        assert ag.convert(in_of_python_values)(*args) == in_of_python_values(*args)
    staged = tf.function(in_of_python_values)
    assert staged(2, [1, 2], "12") == (True, False, True, False)


def membership(op, table, words):
    return op in ("+", "-"), 3 in table, op in words, op not in table


def test_only_an_in_that_may_ask_a_str_is_converted():
    code = ag.to_code(membership)
    assert "op in ('+', '-')" in code and "3 in table" in code
    assert "ag__.in_(op, words)" in code and "ag__.not_in(op, table)" in code


# --- a Python bool a staged `if` carries, counted as an int ---------------------------------------------------

def carried_bool(x):
    b = False
    if x > 0:
        b = True
    return b


def bool_times_float(x):
    b = carried_bool(x)
    return b * 1.5, 2.5 * b, b / 2, b + 1, b - 0.5, b ** 2, 2.0 ** b


def bool_unary(x):
    b = carried_bool(x)
    return -b, +b, abs(b), ~b, int(b), float(b)


def bool_compared_with_numbers(x):
    b = carried_bool(x)
    return b < 0.5, b == 1, b != 1.0, b >= 1


def bool_summed(x):
    b = carried_bool(x)
    return sum([b, b, 1]), b // 1, b % 2


def bool_with_bools(x):
    b = carried_bool(x)
    return b & True, b | False, b ^ True, b == True   # noqa: E712 - Python's bool equality is the point


def bool_a_loop_flips(x):
    b = False
    i = 0
    while i < x:
        b = not b
        i += 1
    return b * 1.5


@pytest.mark.parametrize("fn", [bool_times_float, bool_unary, bool_compared_with_numbers, bool_summed, bool_with_bools,
                                bool_a_loop_flips], ids=lambda fn: fn.__name__)
def test_a_python_bool_a_staged_statement_carries_meets_numbers_as_pythons_int(fn):
    traced = tf.function(fn)
    for x in (-3, 0, 2, 5):
        assert outcome(lambda: traced(tf.constant(x))) == outcome(lambda: fn(x)), x   # (was: a dtype error)


def bool_times_a_program_tensor(x):
    b = carried_bool(x)
    return b * tf.constant(1.5)


def test_a_carried_bool_beside_a_float_tensor_of_the_program_is_the_int_an_eager_bool_is():
    # an eager Python bool beside a number tensor is its int, as in TensorFlow (it was refused: so was this)
    for x in (-3, 2):
        eager = bool_times_a_program_tensor(x)
        traced = tf.function(bool_times_a_program_tensor)(tf.constant(x))
        assert traced.dtype == eager.dtype == tf.float32 and float(traced) == float(eager) == 1.5 * carried_bool(x)


def test_a_carried_bool_with_a_bool_in_a_logical_operator_stays_a_bool():
    r = tf.function(lambda x: carried_bool(x) & carried_bool(x - 1))(tf.constant(2))
    assert r.dtype == tf.bool and bool(r)


# --- `%` of a float tensor ------------------------------------------------------------------------------------

def percent_d(x):
    return "%d|%5i|%u|%+d|%05d|%-4d|" % (x, x, x, -x, x, x)


@pytest.mark.parametrize("value", [2.5, -2.5, 0.9, -0.9, 1e9])
def test_percent_d_of_a_float_tensor_is_the_int_pythons_percent_d_takes(value):
    assert tf.function(percent_d)(tf.constant(value)).numpy().decode() == percent_d(value)   # (was: ValueError)


def percent_x(x):
    return "%x|%c|%o|%X|%d" % (x, x, x, x, x)


def test_percent_x_and_c_of_an_int_tensor_are_pythons():
    assert tf.function(percent_x)(tf.constant(65)).numpy().decode() == percent_x(65) == "41|A|101|41|65"


def spec_d_of_a_float(x):
    return f"{x:d}"


def percent_x_of_a_float(x):
    return "%x" % x


def test_a_spec_a_float_tensor_cant_take_raises_pythons_error_at_the_users_line():
    with pytest.raises(ValueError, match=r"test_fidelity_round13_text_and_bools\.py:\d+: Unknown format code 'd' "
                                         "for object of type 'float'"):
        tf.function(spec_d_of_a_float)(tf.constant(2.5))   # (was: Python's message, naming no line)
    with pytest.raises(TypeError, match=r"test_fidelity_round13_text_and_bools\.py:\d+: %x format: an integer is "
                                        "required, not a float32 tensor"):
        tf.function(percent_x_of_a_float)(tf.constant(2.5))
