"""Values across staged statements: weak Python numbers, Python ints that never wrap around, shape
relaxation, predicates known at trace time (issue 14, "What to build" items 2 and 3).

Each test runs a program under `runtime.function` with tensor conditions and compares with Python's answer,
or checks the clear error where a graph can't give it."""
from __future__ import annotations

import re

import pytest

import autograph as ag
import runtime as tf
from autograph.errors import StagingError
from runtime.control_flow import ControlFlowError
from runtime.errors import InvalidArgumentError


# --- shape relaxation -----------------------------------------------------------------------------------------

def test_a_loop_variable_whose_shape_changes_is_relaxed_automatically():
    def f(n):
        x = tf.zeros([1, 2])
        i = 0
        while i < n:
            x = tf.concat([x, x], 0)
            i += 1
        return x

    traced = tf.function(f)
    assert traced(tf.constant(3)).shape == (8, 2)
    assert traced.get_concrete_function(tf.constant(3)).graph.outputs[0].shape.dims == (None, 2)


def test_shape_relaxation_grows_until_the_test_fails():
    @tf.function
    def f(x):
        while tf.shape(x)[0] < 10:
            x = tf.concat([x, x], 0)
        return x

    assert f(tf.constant([1, 2])).numpy().tolist() == [1, 2] * 8


def test_shape_invariants_still_fix_the_shape():
    def f(n):
        x = tf.zeros([1, 2])
        i = 0
        while i < n:
            ag.set_loop_options(shape_invariants=[(x, [1, 2])])
            x = tf.concat([x, x], 0)
            i += 1
        return x

    with pytest.raises(Exception, match=r"set_loop_options\(shape_invariants=\[\(x, \[None, 2\]\)\]\)"):
        tf.function(f)(tf.constant(3))


def test_raw_while_loop_keeps_tensorflow_shape_contract():
    @tf.function
    def f(x):
        return tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, tf.concat([x, x], 0)), (tf.constant(0), x))

    with pytest.raises(ControlFlowError, match="shape_invariants"):
        f(tf.ones([2]))


def test_a_python_int_takes_the_float_dtype_the_loop_gives_it():
    def f(n):
        s = 0
        for i in tf.range(n):
            s = s + tf.cast(i, tf.float32) * 0.5
        return s

    out = tf.function(f)(tf.constant(4))
    assert out.dtype == tf.float32 and float(out) == f(4) == 3.0


def test_a_python_int_meeting_only_python_numbers_does_not_wrap_at_int32():
    def f(n):
        s = 1
        i = 0
        while i < n:
            s = s * 3
            i += 1
        return s

    assert f(25) == 847288609443
    traced = tf.function(f)
    assert int(traced(tf.constant(5))) == 243            # fits int32: the dtype of a Python int
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"'s' started as a Python int.*3486784401.*int64"):
        traced(tf.constant(25))                          # never the int32 wrap-around 1180052131


def grow_a_tuple_and_a_dict(n):
    t = (1, 0.5, {"k": 2})
    i = 0
    while i < n:
        t = (t[0] * 1000, t[1] * 2, {"k": t[2]["k"] + i})
        i += 1
    return t


def test_a_python_int_inside_a_tuple_or_dict_the_loop_carries_does_not_wrap_at_int32():
    """`t[0]` was an int32 constant, not a Python int: four times `* 1000` gave -727379968, silently, where
    Python gives 10**12. Each number inside a tuple or dict is typed as a loop variable is."""
    traced = tf.function(grow_a_tuple_and_a_dict)
    first, half, inner = traced(tf.constant(3))
    assert (int(first), float(half), int(inner["k"])) == (10 ** 9, 4.0, 5) == (
        grow_a_tuple_and_a_dict(3)[0], grow_a_tuple_and_a_dict(3)[1], grow_a_tuple_and_a_dict(3)[2]["k"])
    assert first.dtype == tf.int32 and half.dtype == tf.float64   # a Python float: a double
    assert grow_a_tuple_and_a_dict(4)[0] == 10 ** 12
    with pytest.raises(InvalidArgumentError, match=r"'t\[0\]' started as a Python int.*1000000000000"):
        traced(tf.constant(4))


def test_a_python_int_inside_a_tuple_takes_the_float_dtype_the_loop_gives_it():
    def f(x):
        t = (0, 1)
        i = 0
        while i < 3:
            t = (t[0] + x, t[1] * 2)
            i += 1
        return t

    total, doubled = tf.function(f)(tf.constant(2.5))
    assert (float(total), int(doubled)) == f(2.5) == (7.5, 8) and total.dtype == tf.float32


def test_python_numbers_combined_with_each_other_share_the_dtype_they_meet():
    def f(n):
        total = 0
        i = 0
        while i < n:
            total = total + i
            i += 1
        return total

    out = tf.function(f)(tf.constant(5))
    assert out.dtype == tf.int32 and int(out) == 10


def test_a_python_float_meets_float64():
    def f(xs):
        s = 0.0
        for x in xs:
            s = s + x
        return s

    out = tf.function(f)(tf.constant([1.0, 2.5], dtype=tf.float64))
    assert out.dtype == tf.float64 and float(out) == 3.5


def test_a_python_int_assigned_a_float_tensor_in_the_loop():
    def f(n):
        acc = 0
        for _ in tf.range(n):
            acc = tf.cast(acc, tf.float32) + 0.5
        return acc

    assert float(tf.function(f)(tf.constant(3))) == f(3) == 1.5


def test_a_python_int_too_big_for_the_dtype_it_meets_is_named():
    def f(n):
        s = 2 ** 40
        for i in tf.range(n):
            s = s + i
        return s

    with pytest.raises(StagingError, match=r"'s' starts as the Python int 1099511627776.*int32.*runtime.int64"):
        tf.function(f)(tf.constant(3))


@pytest.mark.parametrize("start", [1e-50, 1e39])
def test_a_python_float_past_float32s_range_is_carried_as_pythons_double(start):
    def f(n):
        s = start
        for _ in tf.range(n):
            s = s * 2
        return s

    assert float(tf.function(f)(tf.constant(3))) == f(3) == start * 8   # was 0.0 (1e-50) or inf (1e39) in float32


@pytest.mark.parametrize("start", [1e-50, 1e39])
def test_a_python_float_that_a_float32_tensor_it_meets_makes_0_or_inf_before_a_loop_is_named(start):
    def f(x):
        s = start
        for _ in tf.range(3):
            s = s * x
        return s > 0

    with pytest.raises(StagingError, match=rf"'s' starts as the Python float {re.escape(repr(start))}.*float32.*runtime.float64"):
        tf.function(f)(tf.constant(2.0))   # was 0.0 (1e-50) or inf (1e39), where Python keeps the number


@pytest.mark.parametrize("small, big", [(1e-50, 3e-50), (1e39, 2e39)])
def test_a_python_float_both_branches_give_is_carried_as_pythons_double(small, big):
    def f(x):
        s = small
        if x > 0:
            s = big
        return s / small

    assert float(tf.function(f)(tf.constant(1))) == f(1) == big / small   # was nan (0 / 0) or inf in float32


@pytest.mark.parametrize("small, big", [(1e-50, 3e-50), (1e39, 2e39)])
def test_a_python_float_that_the_other_branchs_float32_makes_0_or_inf_is_named(small, big):
    def f(x):
        s = small
        if x > 0:
            s = x * big
        return s / small

    with pytest.raises(ControlFlowError, match=r"'s' is the (Python )?float .*(as float32 it would be (0\.0|inf)|"
                                                  r"out of float32's range)"):
        tf.function(f)(tf.constant(1.0))


def test_a_python_int_that_a_float32_would_round_is_named_in_a_branch_and_a_loop():
    def branch(x):
        y = tf.constant(0.5)
        if x > 0:
            y = 16777217
        return y

    def loop(n):
        s = 16777217
        for _ in tf.range(n):
            s = s + tf.constant(0.0)
        return s

    assert branch(1) == loop(0) == 16777217
    with pytest.raises(ControlFlowError, match=r"'y' is the Python int 16777217 .* float32 it would be 16777216\.0"):
        tf.function(branch)(tf.constant(1))   # was 16777216.0
    with pytest.raises(StagingError, match=r"'s' starts as the Python int 16777217 .* float32"):
        tf.function(loop)(tf.constant(0))   # was 16777216.0


def test_a_small_python_float_meeting_float64_is_carried():
    def f(xs):
        s = 1e-50
        for x in xs:
            s = s + x * 1e-50
        return s

    out = tf.function(f)(tf.constant([1.0, 2.0], dtype=tf.float64))
    assert out.dtype == tf.float64 and float(out) == pytest.approx(f([1.0, 2.0]))


def test_a_predicate_known_from_static_shapes_traces_only_the_live_branch():
    @tf.function
    def last(x):
        if tf.size(x) > 0:
            return x[-1]
        return tf.constant(-1.0)

    assert float(last(tf.constant([], dtype=tf.float32))) == -1.0
    assert float(last(tf.constant([1.0, 2.0]))) == 2.0
    ops = [op.type for op in last.get_concrete_function(tf.constant([1.0])).graph.get_operations()]
    assert "Cond" not in ops


def test_a_conditional_expression_on_a_known_predicate_traces_only_the_live_branch():
    @tf.function
    def first_or_zero(x):
        return x[0] if tf.shape(x)[0] > 0 else tf.constant(0.0)

    assert float(first_or_zero(tf.constant([], dtype=tf.float32))) == 0.0
    assert float(first_or_zero(tf.constant([4.0]))) == 4.0


def test_a_predicate_on_a_run_time_value_is_still_staged():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def last(x):
        if tf.size(x) > 0:
            return x[-1]
        return tf.constant(-1.0)

    assert float(last(tf.constant([], dtype=tf.float32))) == -1.0
    assert float(last(tf.constant([1.0, 2.0]))) == 2.0


# --- Python ints: int32 like runtime's constants, never a wrap-around -----------------------------------------

def graph_ops(fn, *args) -> list:
    """The op types of `fn`'s graph and of the graphs nested in its ops (branches, loop bodies)."""
    found, graphs = [], [fn.get_concrete_function(*args).graph]
    while graphs:
        for op in graphs.pop().get_operations():
            found.append(op.type)
            graphs += [v for v in op.attrs.values() if hasattr(v, "get_operations")]
    return found


def times_three(n):
    s = 1
    i = tf.constant(0)
    while i < n:
        s = s * 3
        i += 1
    return s


def test_the_issue_example_gives_python_answer_or_names_the_variable():
    assert times_three(25) == 847288609443                     # Python (and eager: `s` stays a Python int)
    traced = tf.function(times_three)
    assert int(traced(tf.constant(19))) == 3 ** 19               # fits int32
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"test_staged_weak_numbers.py:\d+: 's' started as a Python int.*reaches 3486784401"):
        traced(tf.constant(25))                                  # the graph used to give 1180052131


def test_a_python_int_returned_from_the_loop_agrees_with_int32_branches():
    # the control-flow fuzz generator's seed 1998: a Cond whose branches returned int64 (the loop's Python int)
    # and int32
    def f(a):
        z = 0
        for n in tf.range(a):
            z = z - 2
            if n > 2:
                return z
        return a

    traced = tf.function(f)
    assert [int(traced(tf.constant(k))) for k in (0, 2, 6)] == [f(k) for k in (0, 2, 6)] == [0, 2, -8]


def test_the_fuzz_seeds_that_reverted_int64_carrying_agree():
    # carrying Python ints as int64 made these generated programs fail: the control-flow generator's seed 1998
    # (above) and the Python-semantics generator's seed 3596 ("cannot compute with int64 and int32")
    from tools.fuzz import generator, pygen, pyrunner, runner

    assert runner.check(generator.generate(1998, staged=True), "abcd") is None
    assert pyrunner.check(pygen.generate(3596, tensor=True), pyrunner.MODES, True).finding is None


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")   # NumPy's, on the wrap-around
def test_an_int32_tensor_plus_a_python_int_keeps_tensorflow_arithmetic():
    def f(x, n):
        s = 0
        for _ in tf.range(n):
            s = s + x          # s meets the int32 tensor x: an int32 tensor, as in eager, wrapping as TF does
        return s

    ops = graph_ops(tf.function(f), tf.constant(1), tf.constant(2))
    assert "ExactInt32" not in ops and "AddV2" in ops
    assert int(tf.function(f)(tf.constant(2 ** 30), tf.constant(2))) == -2 ** 31


def _times_ten_in_a_branch(n):
    s = 1
    i = 0
    while i < n:
        if i % 2 == 0:
            s = s * 10
        i += 1
    return s


def _scaled_after_the_loop(n):
    s = 0
    for _ in tf.range(n):
        s += 100000
    return s * 1000


def _doubled_in_a_nested_loop(n):
    s = 1
    for _ in tf.range(n):
        for _ in tf.range(2):
            s = s * 2
    return s


def _below_int32_min(n):
    s = 0
    i = 0
    while i < n:
        s = s - 2 ** 30
        i += 1
    return s


@pytest.mark.parametrize("fn, fits, value, past, reached", [
    (_times_ten_in_a_branch, 9, 10 ** 5, 20, "'s' started as a Python int.*reaches 10000000000"),   # in a branch
    (_scaled_after_the_loop, 3, 300000000, 30, "'s' started as a Python int.*reaches 3000000000"),  # after the loop
    (_doubled_in_a_nested_loop, 15, 2 ** 30, 16, "'s' started as a Python int.*reaches 2147483648"),
    (_below_int32_min, 2, -2 ** 31, 3, "reaches -3221225472"),
], ids=lambda v: v.__name__.strip("_") if callable(v) else None)
def test_a_python_int_carried_by_a_loop_is_checked_wherever_it_overflows(fn, fits, value, past, reached):
    traced = tf.function(fn)
    assert int(traced(tf.constant(fits))) == fn(fits) == value
    with pytest.raises(tf.errors.InvalidArgumentError, match=reached):
        traced(tf.constant(past))


# A Python int that a staged `if` (not a loop) gives on both paths was a plain int32 after it: `n = 70000` in
# one branch, then `n * n`, gave 605032704 where Python gives 4900000000, silently.

def _squared_after_an_if(x):
    n = 1
    if x > 0:
        n = 70000
    return n * n


def _scaled_after_an_if_of_constants(x):
    n = 3
    if x > 0:
        n = 5
    return n * 500000000


def _squared_after_a_conditional_expression(x):
    r = 5 if x > 0 else 70000
    return r * r


def _squared_after_an_if_in_a_dict(x):
    d = {"a": 1, "b": 2}
    if x > 0:
        d = {"a": 1, "b": 70000}
    return d["b"] * d["b"]


@pytest.mark.parametrize("fn, fits, value, past, reached", [
    (_squared_after_an_if_in_a_dict, -1, 4, 1, "'d\\['b'\\]' started as a Python int"),   # named by its key
    (_squared_after_a_conditional_expression, 1, 25, -1, "'5 if x > 0 else 70000' started as a Python int"),
    (_squared_after_an_if, -1, 1, 1, "'n' started as a Python int, which a staged `if`.*reaches 4900000000"),
    (_scaled_after_an_if_of_constants, -1, 1500000000, 1, "'n' started as a Python int.*reaches 2500000000"),
], ids=lambda v: v.__name__.strip("_") if callable(v) else None)
def test_a_python_int_given_by_both_branches_of_an_if_is_checked(fn, fits, value, past, reached):
    traced = tf.function(fn)
    assert int(traced(tf.constant(fits))) == fn(fits) == value
    with pytest.raises(tf.errors.InvalidArgumentError, match=reached):
        traced(tf.constant(past))
