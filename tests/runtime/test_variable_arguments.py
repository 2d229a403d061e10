"""Variables passed to a tf.function as arguments: traced once per dtype, shape and trainability (and per which
arguments are the same Variable), as TensorFlow traces them, and each call reads and writes the Variables it
is given (the trace's graph is copied for other Variables, without running the Python function again).
The expected values and tracing counts are what TensorFlow 2.21 gives for the same programs."""
import numpy as np
import pytest

import runtime as tf


def test_one_trace_serves_every_variable_of_the_same_dtype_and_shape():
    traces = []

    @tf.function
    def double(v):
        traces.append(v.name)
        return v * 2

    a, b, c = tf.Variable(1.0), tf.Variable(2.0), tf.Variable([1.0, 2.0])
    assert [double(a).numpy().tolist(), double(b).numpy().tolist(), double(c).numpy().tolist(),
            double(a).numpy().tolist()] == [2.0, 4.0, [2.0, 4.0], 2.0]
    assert double.experimental_get_tracing_count() == 2 and len(traces) == 2


def test_updates_go_to_the_variable_passed_in_each_call():
    @tf.function
    def bump(v):
        v.assign_add(1.0)
        return v.read_value()

    a, b = tf.Variable(1.0), tf.Variable(10.0)
    assert [float(bump(a)), float(bump(b)), float(bump(a))] == [2.0, 11.0, 3.0]
    assert (float(a), float(b), bump.experimental_get_tracing_count()) == (3.0, 11.0, 1)


def test_the_same_variable_twice_is_traced_apart_from_two_variables():
    @tf.function
    def f(u, w):
        u.assign_add(1.0)
        return u + w

    a, b, c = tf.Variable(1.0), tf.Variable(10.0), tf.Variable(100.0)
    assert [float(f(a, b)), float(f(a, a)), float(f(b, c)), float(f(c, c))] == [12.0, 6.0, 111.0, 202.0]
    assert f.experimental_get_tracing_count() == 2
    assert (float(a), float(b), float(c)) == (3.0, 11.0, 101.0)


def test_trainability_is_part_of_the_key():
    f = tf.function(lambda v: v * 2)
    f(tf.Variable(1.0)), f(tf.Variable(2.0, trainable=False)), f(tf.Variable(3.0))
    assert f.experimental_get_tracing_count() == 2


def test_a_list_of_variables_is_traced_once_for_any_variables_in_it():
    f = tf.function(lambda vs: tf.add_n([v * 1 for v in vs]))
    a, b, c = tf.Variable(1.0), tf.Variable(2.0), tf.Variable(3.0)
    assert [float(f([a, b])), float(f([b, c])), float(f([c, a]))] == [3.0, 5.0, 4.0]
    assert f.experimental_get_tracing_count() == 1


def test_a_concrete_function_traced_for_one_variable_runs_on_another():
    f = tf.function(lambda u, x: u * x)
    a, b = tf.Variable(2.0), tf.Variable(3.0)
    concrete = f.get_concrete_function(a, tf.constant(1.0))
    assert float(concrete(a, tf.constant(5.0))) == 10.0
    assert float(concrete(b, tf.constant(5.0))) == 15.0


def test_control_flow_in_the_graph_uses_the_variable_passed():
    @tf.function
    def f(u, x):
        if x > 0:
            u.assign(x)
        else:
            for i in tf.range(3):
                u.assign_add(tf.cast(i, tf.float32))
        return u.read_value()

    a, b = tf.Variable(1.0), tf.Variable(10.0)
    assert [float(f(a, tf.constant(5.0))), float(f(b, tf.constant(-1.0))), float(f(a, tf.constant(-1.0)))] == \
        [5.0, 13.0, 8.0]
    assert f.experimental_get_tracing_count() == 1


def test_a_nested_function_updates_the_variables_the_outer_one_passes():
    @tf.function
    def inner(u):
        u.assign_add(1.0)
        return u * 2

    @tf.function
    def outer(u, w):
        return inner(u) + inner(w)

    a, b, c = tf.Variable(1.0), tf.Variable(10.0), tf.Variable(100.0)
    # TensorFlow 2.21 gives 410 for outer(c, c) too: the reads of the two inlined calls follow both updates
    assert [float(outer(a, b)), float(outer(b, c)), float(outer(c, c))] == [26.0, 226.0, 410.0]
    assert (float(a), float(b), float(c)) == (2.0, 12.0, 103.0)
    assert (inner.experimental_get_tracing_count(), outer.experimental_get_tracing_count()) == (1, 2)


def test_gradients_reach_the_variable_passed_inside_and_outside_the_function():
    @tf.function
    def inside(u, x):
        with tf.GradientTape() as tape:
            y = tf.cond(x > 0, lambda: u * x, lambda: u * u)
        return tape.gradient(y, u)

    a, b = tf.Variable(1.0), tf.Variable(3.0)
    assert [float(inside(a, tf.constant(2.0))), float(inside(b, tf.constant(-2.0)))] == [2.0, 6.0]

    f = tf.function(lambda u: u * 2)
    with tf.GradientTape() as tape:
        y = f(a) + f(b) * 3
    assert [float(g) for g in tape.gradient(y, [a, b])] == [2.0, 6.0]
    assert f.experimental_get_tracing_count() == 1


@pytest.mark.parametrize("jit_compile", [False, True])
def test_a_training_step_given_different_variables_trains_each(jit_compile):
    @tf.function(jit_compile=jit_compile)
    def step(w, x):
        with tf.GradientTape() as tape:
            loss = (w * x - 1.0) ** 2
        w.assign_sub(0.1 * tape.gradient(loss, w))
        return loss

    a, b = tf.Variable(1.0), tf.Variable(2.0)
    for _ in range(3):
        step(a, tf.constant(2.0)), step(b, tf.constant(1.0))
    np.testing.assert_allclose([float(a), float(b)], [0.504, 1.512], rtol=1e-5)
    assert step.experimental_get_tracing_count() == 1


def test_a_retrace_for_a_variable_of_another_shape_says_so():
    f = tf.function(lambda v: v * 2)
    f(tf.Variable(1.0)), f(tf.Variable([1.0]))
    assert f.last_retrace_reason == "v: float32 Variable of shape () -> float32 Variable of shape (1,)"
