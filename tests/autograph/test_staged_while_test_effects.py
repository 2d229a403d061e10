"""A `while` test with effects (a Variable update, a print) runs once per evaluation in a staged loop, as Python
evaluates it: the evaluation that decided to stage the loop, made before it, is the first iteration's test, not
made a second time by the loop."""
import sys

import pytest

import runtime as tf

pytestmark = pytest.mark.jit_twin   # every graph also runs under jit_compile=True (tests/jit_twin.py)


def _counting_loop(limit, n=None):
    v = tf.Variable(0)

    @tf.function
    def f():
        i = tf.constant(0)
        while v.assign_add(1) < limit:
            i += 1
        return i, v.read_value()

    return [int(t) for t in f()]


def test_an_assign_add_in_the_test_counts_each_evaluation_once():
    assert _counting_loop(4) == [3, 4]   # Python and TensorFlow: (3, 4); it was (2, 4)


def test_a_test_false_at_once_is_evaluated_once():
    assert _counting_loop(0) == [0, 1]


def test_a_print_in_the_test_prints_once_per_evaluation(capfd):
    def check(i, n):
        tf.print("check", i, output_stream=sys.stdout)
        return i < n

    @tf.function
    def f(n):
        i = tf.constant(0)
        while check(i, n):
            i += 1
        return i

    assert int(f(tf.constant(2))) == 2
    assert capfd.readouterr().out == "check 0\ncheck 1\ncheck 2\n"


def test_a_loop_staged_after_python_iterations_and_a_nested_one():
    v = tf.Variable(0)

    @tf.function
    def after_python(n):
        i = 0
        while i < 2 or v.assign_add(1) < n:
            i += 1
        return i, v.read_value()

    assert [int(t) for t in after_python(tf.constant(5))] == [6, 5]

    @tf.function
    def nested(n):
        total = tf.constant(0)
        for _ in tf.range(n):
            v.assign(0)
            while v.assign_add(1) < 3:
                total += 1
        return total, v.read_value()

    assert [int(t) for t in nested(tf.constant(2))] == [4, 3]


def test_a_test_without_effects_keeps_the_plain_loop():
    @tf.function
    def f(n):
        i = tf.constant(0)
        while i < n:
            i += 1
        return i

    (loop,) = [op for op in f.get_concrete_function(tf.constant(3)).graph.get_operations() if op.type == "While"]
    assert int(f(tf.constant(3))) == 3 and loop.attrs["num_loop_vars"] == 1   # i: no flag
    assert not any(op.type == "Cond" for op in loop.attrs["cond_graph"].get_operations())


def test_a_test_that_only_reads_a_variable_keeps_the_plain_loop():
    v = tf.Variable(0)

    @tf.function
    def f():
        n = tf.constant(0)
        while v < 5:
            v.assign_add(2)
            n += 1
        return n

    (loop,) = [op for op in f.get_concrete_function().graph.get_operations() if op.type == "While"]
    assert int(f()) == 3 and loop.attrs["num_loop_vars"] == 1


def test_a_test_with_effects_carries_a_first_iteration_flag():
    v = tf.Variable(0)

    @tf.function
    def f():
        i = tf.constant(0)
        while v.assign_add(1) < 3:
            i += 1
        return i

    (loop,) = [op for op in f.get_concrete_function().graph.get_operations() if op.type == "While"]
    assert [op.type for op in loop.attrs["cond_graph"].get_operations()].count("Cond") == 1
