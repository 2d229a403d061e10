"""autograph.backends.tensorflow: converted Python control flow inside tf.function, against TensorFlow's own
AutoGraph where it works and against Python where TensorFlow's AutoGraph refuses."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow", reason="TensorFlow is not installed (pip install -e '.[tensorflow]')")

import autograph as ag  # noqa: E402
from autograph.errors import StagingError  # noqa: E402
from tests.autograph.backends import _stacked_list_programs as _stacked  # noqa: E402
from tests.autograph.backends._programs import piecewise  # noqa: E402

function = ag.tensorflow.function


def _ops(concrete, op_type: str) -> int:
    return sum(op.type == op_type for op in concrete.graph.get_operations())


# --- what TensorFlow's own AutoGraph refuses ---------------------------------------------------------------

def doubling_until(x):
    while True:
        x = x * 2
        if tf.reduce_sum(x) > 100:
            break
    return x


def first_above(xs, k):
    for x in xs:
        if x > k:
            return x
    return -1


def test_while_true_with_a_tensor_break_which_tensorflows_autograph_refuses():
    with pytest.raises(NotImplementedError, match="condition of while loop started as non-Tensor"):
        tf.function(doubling_until)(tf.constant([1.0, 2.0]))
    out = function(doubling_until)(tf.constant([1.0, 2.0]))
    np.testing.assert_array_equal(out.numpy(), [64.0, 128.0])
    concrete = function(doubling_until).get_concrete_function(tf.TensorSpec([2], tf.float32))
    assert _ops(concrete, "While") + _ops(concrete, "StatelessWhile") == 1


def test_return_inside_a_loop_over_a_tensor_which_tensorflows_autograph_refuses():
    with pytest.raises(NotImplementedError, match="return statement cannot be placed inside this TensorFlow loop"):
        tf.function(first_above)(tf.constant([1, 2, 3, 4]), tf.constant(2))
    f = function(first_above)
    assert int(f(tf.constant([1, 2, 3, 4]), tf.constant(2))) == 3
    assert int(f(tf.constant([1, 2, 3, 4]), tf.constant(9))) == -1


def test_tf_function_of_a_converted_function_runs_our_conversion_without_warnings(capfd):
    out = tf.function(ag.convert(first_above))(tf.constant([5, 6]), tf.constant(5))
    assert int(out) == 6
    assert "closure mismatch" not in capfd.readouterr().err


# --- values across staged statements ------------------------------------------------------------------------

def accumulate(x, n):
    total = 0                   # a Python int that the loop makes a float32 tensor
    for i in range(n):
        total += tf.cast(i, tf.float32) * x
    return total


def test_a_python_number_takes_the_dtype_the_loop_gives_it():
    out = function(accumulate)(tf.constant(0.5), tf.constant(4))
    assert out.dtype == tf.float32 and float(out) == 3.0


def grow(n):
    values = tf.constant([0])
    i = 0
    while i < n:
        values = tf.concat([values, [i]], 0)
        i += 1
    return values


def test_a_shape_that_changes_in_a_loop_is_relaxed():
    np.testing.assert_array_equal(function(grow)(tf.constant(3)).numpy(), [0, 0, 1, 2])


def relu(x):
    if x > 0:
        y = x
    else:
        y = 0                   # a Python int: x's dtype on this path
    return y


def test_a_python_number_in_one_branch_takes_the_other_branchs_dtype():
    f = function(relu)
    out = f(tf.constant(-2.5, tf.float64))
    assert out.dtype == tf.float64 and float(out) == 0.0
    assert float(f(tf.constant(2.5, tf.float64))) == 2.5


def same_number_both_ways(x):
    if x > 0:
        k = 3
    else:
        k = 3
    return x * k


def test_a_number_both_branches_agree_on_stays_a_python_number():
    concrete = function(same_number_both_ways).get_concrete_function(tf.TensorSpec([], tf.int32))
    assert int(concrete(tf.constant(2))) == 6
    assert _ops(concrete, "If") + _ops(concrete, "StatelessIf") == 1


def label(x):
    name = "positive" if x > 0 else "not positive"
    return name


def test_strings_that_differ_between_branches_become_a_string_tensor():
    f = function(label)
    assert f(tf.constant(1)).numpy() == b"positive" and f(tf.constant(-1)).numpy() == b"not positive"


def collect(xs):
    out = [tf.constant(0)]
    for x in xs:
        if x > 2:
            break
        out.append(x * 10)
    return out


def test_a_list_appended_to_in_a_loop_is_a_tensor_array_stacked_after_it():
    np.testing.assert_array_equal(function(collect)(tf.constant([1, 2, 3, 4])).numpy(), [0, 10, 20])


def enumerate_zip(a, b):
    s = 0.0
    for i, (p, q) in enumerate(zip(a, b)):
        s += tf.cast(i, tf.float32) * p * q
    return s


def test_enumerate_of_a_zip_stops_at_the_shortest():
    out = function(enumerate_zip)(tf.constant([1.0, 2.0, 3.0]), tf.constant([1.0, 1.0]))
    assert float(out) == 2.0


# --- effects -------------------------------------------------------------------------------------------------

def test_print_of_a_tensor_prints_each_time_the_function_runs(capfd):
    def show(x):
        if x > 0:
            print("positive", x)
        return x

    f = function(show)
    for v in (1, -1, 2):
        f(tf.constant(v))
    assert capfd.readouterr().out.split("\n")[:2] == ["positive 1", "positive 2"]


def test_a_variable_assigned_in_a_staged_branch_changes_only_on_the_path_taken():
    v = tf.Variable(0)

    def bump(x):
        if x > 0:
            v.assign_add(x)
        return v.read_value()

    f = function(bump)
    f(tf.constant(3))
    f(tf.constant(-5))
    assert int(v.numpy()) == 3


def test_assert_on_a_tensor_fails_when_the_function_runs():
    def checked(x):
        assert x > 0, "x must be positive"
        return x

    f = function(checked)
    assert int(f(tf.constant(1))) == 1
    with pytest.raises(tf.errors.InvalidArgumentError, match="x must be positive"):
        f(tf.constant(-1))


# --- clear errors ---------------------------------------------------------------------------------------------

def test_branches_of_different_dtypes_name_the_variable():
    def mixed(x):
        if x > 0:
            y = tf.constant(1, tf.int32)
        else:
            y = tf.constant(1.0, tf.float32)
        return y

    with pytest.raises(StagingError, match="'y' is an int32 tensor of shape \\[\\] in one branch.*tf.cast"):
        function(mixed)(tf.constant(1))


def test_a_loop_variable_that_changes_dtype_is_named():
    def drift(n):
        v = tf.constant(1)
        i = 0
        while i < n:
            v = tf.cast(v, tf.float32) * 1.5
            i += 1
        return v

    with pytest.raises(StagingError, match="'v' changes dtype from int32 to float32"):
        function(drift)(tf.constant(3))


def test_a_variable_defined_on_one_path_is_a_clear_error():
    def one_path(x):
        if x > 0:
            y = 1
        return y

    with pytest.raises(StagingError, match="'y' is assigned in only one branch"):
        function(one_path)(tf.constant(1))


def test_the_autograph_option_of_tf_function_is_refused():
    with pytest.raises(ValueError, match="autograph=True"):
        function(relu, autograph=True)


# --- Python values ---------------------------------------------------------------------------------------------

def test_python_values_run_as_python():
    assert ag.convert(first_above)([1, 5, 9], 4) == 5
    assert function(accumulate)(0.5, 4).numpy() == 3.0     # tf.function traces Python numbers as constants


def test_import_autograph_does_not_import_tensorflow():
    code = textwrap.dedent("""
        import sys, autograph
        assert 'tensorflow' not in sys.modules
        print('ok')
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "ok", out.stderr


# --- regressions found by running small programs as Python and staged ----------------------------------------

def return_constant_at_third_step(n):
    i = 0
    while i < n:
        if i == 2:              # a probe on constants folded this `if` and missed the `return`: 0, not 7
            return 7
        i += 1
    return 0


def return_from_range_loop(n):
    for i in range(n):
        if i == 2:
            return "found", i
    return "none", -1


def test_a_return_behind_a_condition_the_first_iteration_fails_is_kept():
    f = function(return_constant_at_third_step)
    assert int(f(tf.constant(3))) == 7 and int(f(tf.constant(1))) == 0
    g = function(return_from_range_loop)
    text, i = g(tf.constant(4))
    assert text.numpy() == b"found" and int(i) == 2
    text, i = g(tf.constant(2))
    assert text.numpy() == b"none" and int(i) == -1


def test_and_or_give_an_operand_not_a_bool():
    f = function(lambda x, y: (x and y, x or y, x and 5, x or 5))
    assert [int(v) for v in f(tf.constant(3), tf.constant(4))] == [4, 3, 5, 3]     # was [True, True, True, True]
    assert [int(v) for v in f(tf.constant(0), tf.constant(4))] == [0, 4, 0, 5]
    assert float(function(lambda x: x or 2)(tf.constant(0.0))) == 2.0


def test_and_of_a_bool_and_a_number_is_refused_not_a_bool():
    with pytest.raises(StagingError, match="the Python int 7 in one branch of `and`"):
        function(lambda x: x > 0 and 7)(tf.constant(3))


def test_a_python_int_beyond_int32_is_int64_not_truncated():
    def big(x):
        if x > 0:
            y = 2 ** 40          # was carried as int32: 0
        else:
            y = 1
        return y

    def count_from_big(n):
        s = 2 ** 40
        for _ in range(n):
            s += 1
        return s

    assert int(function(big)(tf.constant(1))) == 2 ** 40
    assert int(function(count_from_big)(tf.constant(2))) == 2 ** 40 + 2


def test_numbers_no_float32_holds_exactly_are_refused():
    def mixed(x):
        if x > 0:
            y = 16777217         # 2**24 + 1: float32 would make it 16777216
        else:
            y = 0.5
        return y

    with pytest.raises(StagingError, match="they would be a float32 tensor, which can't hold 16777217 exactly"):
        function(mixed)(tf.constant(1))


def test_a_python_float_the_other_branchs_float_dtype_makes_inf_or_zero_is_refused():
    def f16_or(x):
        if x > 0:
            y = x
        else:
            y = 1e5              # inf as a float16
        return y

    def small(x):
        if x > 0:
            y = 1e-50            # 0 as a float32
        else:
            y = 0.5
        return y

    with pytest.raises(StagingError, match="the Python float 100000.0 .*can't become float16"):
        function(f16_or)(tf.constant(1, tf.float16))
    with pytest.raises(StagingError, match="they would be a float32 tensor, which can't hold 1e-50 exactly"):
        function(small)(tf.constant(1))


def test_a_python_float_a_loop_would_carry_as_inf_is_refused():
    def tenths(n):
        s = 1e39                 # inf as a float32
        i = 0
        while i < n:
            s = s / 10
            i += 1
        return s

    with pytest.raises(StagingError, match="'s' is the Python float 1e\\+39 before this `while` loop"):
        function(tenths)(tf.constant(2))


def test_a_python_int_that_the_loop_makes_a_python_float_is_carried_as_float32():
    def halves(n):
        s = 0
        for _ in range(n):
            s = s + 0.5          # was TensorFlow's TypeError: AddV2 of int32 and float32
        return s

    assert float(function(halves)(tf.constant(3))) == 1.5


def test_enumerate_and_zip_over_an_empty_range_with_a_tensor_bound_give_no_items():
    def counted(n):
        t = 0
        for k, i in enumerate(range(2, n), 5):      # range(2, 0): was tf.range's InvalidArgumentError
            t = t * 7 + k - i
        for i, v in zip(range(n, 3), tf.constant([1, 2, 3])):
            t = t * 7 + i * v
        return t

    f = function(counted)
    assert [int(f(tf.constant(n))) for n in (-2, 0, 2, 5)] == [counted(n) for n in (-2, 0, 2, 5)]


def test_a_tensor_step_of_zero_fails_instead_of_looping_forever():
    def total(n, k):
        t = 0
        for i in range(0, n, k):
            t += i
        return t

    f = function(total)
    assert int(f(tf.constant(5), tf.constant(2))) == 6
    with pytest.raises(tf.errors.InvalidArgumentError, match="range\\(\\) arg 3 must not be zero"):
        f(tf.constant(5), tf.constant(0))


def test_branches_may_give_different_shapes_as_tf_cond_allows():
    def head_or_all(x):
        if x[0] > 0:
            y = x
        else:
            y = x[:1]
        return y

    assert tf.function(head_or_all)(tf.constant([-1, 2])).numpy().tolist() == [-1]    # TensorFlow's AutoGraph
    f = function(head_or_all)
    assert f(tf.constant([1, 2])).numpy().tolist() == [1, 2]
    assert f(tf.constant([-1, 2])).numpy().tolist() == [-1]


def test_zip_and_enumerate_of_a_range_with_a_tensor_bound():
    def weighted(a, n):
        s = 0
        for i, y in zip(range(n), a):
            s += i * y
        for i, j in enumerate(range(1, n, 2)):
            s += 100 * i * j
        return s

    assert int(function(weighted)(tf.constant([1, 2, 3]), tf.constant(6))) == (0 + 2 + 6) + 100 * (0 + 3 + 10)


def test_an_append_of_another_dtype_is_refused_at_the_users_line():
    def mixed(n):
        out = [1]
        for _ in range(n):
            out.append(0.5)      # was TensorFlow's logged traceback, then an error when the graph ran
        return out

    with pytest.raises(StagingError, match="append of a float32 value to a list of int32 values"):
        function(mixed)(tf.constant(2))


def test_a_nested_list_the_loop_reassigns_is_carried_as_a_structure():
    def nested(n):
        rows = [[0, 1], [2]]     # was TensorFlow's "Inconsistent shapes" from a TensorArray of ragged rows
        for _ in range(n):
            rows = [[rows[0][0] + 1, rows[0][1]], [rows[1][0] * 2]]
        return rows

    assert tf.nest.map_structure(int, function(nested)(tf.constant(3))) == [[3, 1], [16]]


def test_a_list_of_mixed_numbers_is_carried_in_the_dtype_that_holds_them():
    def mixed(n):
        out = [1, 0.5]
        for _ in range(n):
            out.append(2)
        return out

    assert function(mixed)(tf.constant(2)).numpy().tolist() == [1.0, 0.5, 2.0, 2.0]


def test_shape_invariants_name_a_tensor_inside_a_loop_variable_or_one_the_loop_never_assigns():
    def doubling(n):
        state = (tf.zeros([1]), 0)
        fixed = tf.zeros([1])
        for _ in range(n):
            ag.set_loop_options(shape_invariants=[(state[0], tf.TensorShape([None])),   # was refused
                                                  (fixed, tf.TensorShape([None]))])     # TensorFlow ignores it
            state = (tf.concat([state[0], state[0]], 0), state[1] + 1)
        return tf.shape(state[0])[0], state[1]

    length, count = function(doubling)(tf.constant(2))
    assert (int(length), int(count)) == (4, 2)


def test_a_number_a_later_iteration_makes_a_float_is_carried_as_float32():
    def later(n):
        s = 0
        i = 0
        while i < n:
            if i > 0:            # Python's False on the first iteration's counter 0
                s = s + 0.5      # was TensorFlow's AddV2 TypeError: s carried as int32
            i += 1
        return s

    assert float(function(later)(tf.constant(3))) == 1.0


def test_an_elif_chain_with_python_numbers_traces_linearly(capsys):
    f = function(piecewise)
    values = (-1.0, 3.5, 9.0)
    got = [float(f(tf.constant(v))) for v in values]
    traces = capsys.readouterr().out.count("traced leaf")
    assert got == [piecewise(v) for v in values] == [0, 4, 18.0]
    assert 1 <= traces <= 2 * 10         # without the plan kept per `if` (staging.cond): 2 ** 10


def huge_or_x(x):
    if x > 0:
        y = 2 ** 2000         # no float32 holds it (numpy's conversion raised OverflowError out of the backend)
    else:
        y = x
    return y


def test_an_int_no_dtype_of_the_other_branch_holds_is_refused_naming_the_variable():
    with pytest.raises(StagingError, match="'y' is the Python int .* can't become float32"):
        function(huge_or_x)(tf.constant(1.0))


# --- after the loop: a list, with Python's list operators ------------------------------------------------

@pytest.mark.parametrize("name", sorted(_stacked.programs(_stacked.doubled_list)))
def test_a_list_a_staged_loop_built_keeps_pythons_meaning_after_the_loop(name):
    program = _stacked.programs(_stacked.doubled_list)[name]
    traced = function(program, input_signature=[tf.TensorSpec([None], tf.int32)])   # a loop over tensors
    assert _stacked.as_python(traced(tf.constant([1, 2, 3]))) == _stacked.as_python(program(np.array([1, 2, 3])))
