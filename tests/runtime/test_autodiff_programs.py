"""Gradients of small converted programs found wrong or failing by checking them against central finite
differences in float64: with the tape eagerly (Python control flow), inside a `tf.function`, and outside
one (the function's Call op differentiated)."""
import numpy as np
import pytest

import runtime as tf

F64 = tf.float64


def _finite_difference(f, x: float, eps: float = 1e-6) -> float:
    up, down = f(tf.constant(x + eps, F64)), f(tf.constant(x - eps, F64))
    return (float(up) - float(down)) / (2 * eps)


def _gradient(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


def _in_every_placement(f, x: float) -> dict:
    def tape_inside(v):
        return _gradient(f, v)
    return {"eager": _gradient(f, tf.constant(x, F64)),
            "tape inside": tf.function(tape_inside)(tf.constant(x, F64)),
            "tape outside": _gradient(tf.function(f), tf.constant(x, F64))}


def _assert_matches_finite_differences(f, x: float) -> None:
    expected = _finite_difference(tf.function(f), x)
    assert expected == pytest.approx(_finite_difference(f, x), rel=1e-6)
    for placement, got in _in_every_placement(f, x).items():
        assert float(got) == pytest.approx(expected, rel=1e-5), placement


def python_int_counter(x):
    i = 0                       # a Python int carried by the staged loop: its arithmetic is ExactInt32
    y = x
    while y < 100.0:
        i += 1
        y = y * x + tf.cast(i, F64)
    return y * tf.cast(i, F64)


@pytest.mark.parametrize("x", [1.5, 3.0, 200.0])
def test_a_python_int_counter_in_a_staged_loop_is_replayed_by_the_gradient(x):
    # the While's gradient replays its body; ExactInt32's attributes were named `op` and `name`, which
    # registry.apply takes itself (TypeError: apply() got multiple values for argument 'op')
    _assert_matches_finite_differences(python_int_counter, x)


# --- Variables assigned where a gradient rule would read them again --------------------------------------
# The rules of Cond, While and a function's Call read the Variables again when they run; those assigned
# are held as the values the forward pass read (tests/runtime/test_held_variables.py). A While's rule
# assigned again: the Variable ended at 12.4, not 4.6.

@pytest.mark.parametrize("construct", ["loop", "branch"])
def test_a_counter_assigned_before_a_read_of_another_variable_is_not_assigned_again_by_the_gradient(construct):
    w = tf.Variable(0.9, dtype=F64)
    counter = tf.Variable(0.0, trainable=False)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            y = x
            if construct == "loop":
                for _ in tf.range(3):
                    counter.assign_add(1.0)     # the read of w below comes after it in program order
                    y = y * w
            elif x > 0:
                counter.assign_add(1.0)
                y = y * w * w * w
        return tape.gradient(y, w)

    assert float(f(tf.constant(1.3, F64))) == pytest.approx(3 * 0.81 * 1.3)
    assert float(counter) == {"loop": 3.0, "branch": 1.0}[construct]    # the replays assigned again: 9.0, 2.0


def test_a_loop_that_assigns_a_variable_it_does_not_read_keeps_its_gradient_and_the_count():
    w = tf.Variable(0.9, dtype=F64)
    counter = tf.Variable(0.0, trainable=False)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in tf.range(3):
                y = y * w
                counter.assign_add(1.0)
        return tape.gradient(y, [w, x])

    dw, dx = f(tf.constant(1.3, F64))
    assert float(dw) == pytest.approx(3 * 0.81 * 1.3) and float(dx) == pytest.approx(0.729)
    assert float(counter) == 3.0


def _power_of_w(w):
    def f(x):
        y = x
        for _ in tf.range(3):
            y = y * w
        return y
    return f


@pytest.mark.parametrize("assign", [False, True])
def test_a_variable_assigned_after_the_loop_that_reads_it_tape_inside(assign):
    w = tf.Variable(0.9, dtype=F64)
    loop = _power_of_w(w)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            y = loop(x)
        if assign:
            w.assign(5.0)
        return tape.gradient(y, w)      # was 97.5 = 3 * 25 * 1.3 after the assignment, then a LookupError

    assert float(f(tf.constant(1.3, F64))) == pytest.approx(3 * 0.81 * 1.3)


@pytest.mark.parametrize("assign", [False, True])
def test_a_variable_assigned_after_the_function_that_reads_it_tape_outside(assign):
    w = tf.Variable(0.9, dtype=F64)
    f = tf.function(_power_of_w(w))
    with tf.GradientTape(persistent=True) as tape:
        y = f(tf.constant(1.3, F64))
    if assign:
        w.assign(5.0)
    assert float(tape.gradient(y, w)) == pytest.approx(3 * 0.81 * 1.3)


# --- a persistent tape asked inside its block ---------------------------------------------------------------

def cube_or_sine(x):
    if x > 0:
        y = x * x * x
    else:
        y = tf.sin(x) * x
    return y


def _second_derivative_with_one_persistent_tape(x):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = cube_or_sine(x)
        dy = tape.gradient(y, x)        # recorded by the tape itself, as TensorFlow does
    return tape.gradient(dy, x)


@pytest.mark.parametrize("x, expected", [(1.3, 6 * 1.3), (-0.6, 2 * np.cos(-0.6) + 0.6 * np.sin(-0.6))])
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "in a function"])
def test_a_persistent_tape_asked_inside_its_block_gives_second_derivatives(x, expected, traced):
    second = tf.function(_second_derivative_with_one_persistent_tape) if traced else \
        _second_derivative_with_one_persistent_tape
    assert float(second(tf.constant(x, F64))) == pytest.approx(expected)   # was None


# --- iterating an eager tensor under a tape ------------------------------------------------------------------

def weighted_running_sum(x):
    s = tf.constant(0.0, F64)
    for v in x:                         # eagerly, EagerTensor.__iter__; in a function, a staged loop
        s = s * v + v * v
    return s


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "in a function"])
def test_a_loop_over_the_rows_of_a_watched_tensor_is_differentiated(traced):
    x = tf.constant([0.7, 1.3, -0.4], F64)
    f = tf.function(weighted_running_sum) if traced else weighted_running_sum
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    # s = (x0^2 x1 + x1^2) x2 + x2^2; eagerly the rows came from NumPy, unseen by the tape: None
    expected = [2 * 0.7 * 1.3 * -0.4, (0.7 ** 2 + 2 * 1.3) * -0.4, 0.7 ** 2 * 1.3 + 1.3 ** 2 + 2 * -0.4]
    np.testing.assert_allclose(tape.gradient(y, x), expected)


# --- what does not depend on the source -------------------------------------------------------------------

def constant_unless_positive(x):
    c = tf.constant(3.0, F64)
    if x > 0:
        c = c * 2.0
    return c


@pytest.mark.parametrize("placement", ["eager", "tape inside", "tape outside"])
def test_a_value_that_does_not_depend_on_the_source_has_no_gradient_in_every_placement(placement):
    got = _in_every_placement(constant_unless_positive, 1.5)[placement]
    assert got is None      # as TensorFlow; the function's Call rule gave zeros with the tape outside



def test_the_tape_outside_a_function_gives_none_or_zeros_for_what_its_outputs_do_not_depend_on():
    w = tf.Variable(2.0, dtype=F64)
    f = tf.function(lambda x: constant_unless_positive(x) * tf.stop_gradient(w))
    x = tf.constant(1.5, F64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
    assert tape.gradient(y, [x, w]) == [None, None]
    assert [float(g) for g in tape.gradient(y, [x, w], unconnected_gradients="zero")] == [0.0, 0.0]


# --- a loop variable whose shape changes ---------------------------------------------------------------------

def doubling_length(x):
    y = x[:1]
    for _ in tf.range(3):               # autograph relaxes y's shape to (None,)
        y = tf.reshape(tf.sin(tf.expand_dims(y, 1) * tf.stack([x[1], x[0]])), [-1])
    return tf.reduce_sum(y * y)


def test_a_loop_variable_that_changes_shape_is_differentiated():
    # the While's rule ran its own loops with shapes fixed: a ControlFlowError naming the user's tape line
    x0 = np.array([0.7, 1.3])
    eps = 1e-6
    expected = [(float(doubling_length(tf.constant(x0 + d))) - float(doubling_length(tf.constant(x0 - d)))) / (2 * eps)
                for d in np.eye(2) * eps]

    def tape_inside(x):
        return _gradient(doubling_length, x)
    for got in (tape_inside(tf.constant(x0)), tf.function(tape_inside)(tf.constant(x0)),
                _gradient(tf.function(doubling_length), tf.constant(x0))):
        np.testing.assert_allclose(got, expected, rtol=1e-6)
