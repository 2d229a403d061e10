"""runtime.cond and runtime.while_loop, eagerly and staged."""
import pytest

import runtime as tf
from runtime.control_flow import ControlFlowError


def test_cond_eager_runs_only_the_chosen_branch():
    ran = []
    out = tf.cond(tf.constant(True), lambda: ran.append("t") or 1, lambda: ran.append("f") or 2)
    assert out == 1 and ran == ["t"]


def test_cond_staged_records_one_op_and_runs_either_branch():
    @tf.function
    def f(p, x):
        return tf.cond(p, lambda: x * 2, lambda: x - 1)

    assert f(tf.constant(True), tf.constant(5)).numpy() == 10
    assert f(tf.constant(False), tf.constant(5)).numpy() == 4
    ops = [op.type for op in f.get_concrete_function(tf.constant(True), tf.constant(5)).graph.get_operations()]
    assert ops == ["Placeholder", "Placeholder", "Cond"]


def test_cond_branch_python_constant_takes_the_other_branchs_dtype():
    @tf.function
    def relu_like(p, x):
        return tf.cond(p, lambda: x, lambda: 0)

    assert relu_like(tf.constant(False), tf.constant(3.5)).numpy() == 0.0
    assert relu_like(tf.constant(False), tf.constant(3.5)).dtype == tf.float32


def test_nested_cond_with_captures_from_two_levels():
    @tf.function
    def f(p, q, x, y):
        return tf.cond(p, lambda: tf.cond(q, lambda: x + y, lambda: x * y), lambda: y - x)

    T, F = tf.constant(True), tf.constant(False)
    x, y = tf.constant(3), tf.constant(4)
    assert [f(a, b, x, y).numpy() for a, b in [(T, T), (T, F), (F, T)]] == [7, 12, 1]
    f.get_concrete_function(T, T, x, y).graph.lint()


def test_cond_branches_with_different_structures_name_the_users_line():
    @tf.function
    def f(p, x):
        return tf.cond(p, lambda: (x, x), lambda: x)

    with pytest.raises(ControlFlowError, match=r"test_control_flow.py:\d+: the two branches"):
        f(tf.constant(True), tf.constant(1))


def test_cond_branches_with_different_dtypes_are_an_error():
    @tf.function
    def f(p, x):
        return tf.cond(p, lambda: x, lambda: tf.constant(1.0))

    with pytest.raises(ControlFlowError, match="int32 in true_fn but float32 in false_fn"):
        f(tf.constant(True), tf.constant(1))


def test_while_loop_eager_is_a_python_loop():
    i, s = tf.while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s + i), (0, 0))
    assert (i, s) == (4, 6)


def test_while_loop_structure_mismatch_is_reported():
    @tf.function
    def f(p, x):
        return tf.while_loop(lambda a: p, lambda a: (a, a), [x])

    with pytest.raises(ControlFlowError, match="while_loop's body returns"):
        f(tf.constant(False), tf.constant(1))
