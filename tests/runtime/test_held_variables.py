"""Gradients through a Cond, a While or a function's Call whose graphs read a Variable that is assigned — in
the same body or branch, or after the op — use the values the forward pass read, as TensorFlow's do
(`runtime/ops/held_variables.py`). Checked against central finite differences in float64 (the Variable's
value before the program perturbed) and against `jax.grad` of the same program written without Variables.

Eagerly, Python runs the loops and branches and the tape records each read: these programs are about the
staged ones, with the tape inside a `tf.function` or outside it. Before, their gradients raised a
LookupError or, for a Variable the tape does not watch, read its later value."""
import numpy as np
import pytest

import runtime as tf

F64 = tf.float64
X, V0 = 1.3, 0.7


def assign_add_then_square(v):
    def program(x):
        y = tf.zeros_like(x)
        for _ in tf.range(3):
            v.assign_add(x)
            y = y + v * v
        return y

    def pure(v, x):
        y = 0.0
        for _ in range(3):
            v = v + x
            y = y + v * v
        return y
    return program, pure


def assigned_on_one_side(v):
    def program(x):
        if x > 0:
            a = v * x
            v.assign_add(x)
            y = a * v
        else:
            y = v * x
        return y

    def pure(v, x):
        return v * x * (v + x) if x > 0 else v * x
    return program, pure


def nested_loops(v):
    def program(x):
        y = x
        for _ in tf.range(2):
            v.assign_add(x)
            for _ in tf.range(2):
                y = y * v + x
                v.assign_sub(0.25)
        return y

    def pure(v, x):
        y = x
        for _ in range(2):
            v = v + x
            for _ in range(2):
                y = y * v + x
                v = v - 0.25
        return y
    return program, pure


def loop_with_a_branch_that_assigns(v):
    def program(x):
        y = x
        for i in tf.range(4):
            if i % 2 == 0:
                v.assign_add(x)
            y = y * v
        return y

    def pure(v, x):
        y = x
        for i in range(4):
            if i % 2 == 0:
                v = v + x
            y = y * v
        return y
    return program, pure


def branch_with_a_loop_that_assigns(v):
    def program(x):
        y = x
        if x > 0:
            for _ in tf.range(3):
                v.assign_add(x)
                y = y * v
        return y

    def pure(v, x):
        y = x
        if x > 0:
            for _ in range(3):
                v = v + x
                y = y * v
        return y
    return program, pure


def loop_while_the_variable_is_small(v):
    def program(x):
        y = x
        while v < 2.0:          # the loop's test reads it too
            v.assign_add(0.5)
            y = y * v * x
        return y

    def pure(v, x):
        y = x
        for _ in range(3):      # 0.7 -> 1.2 -> 1.7 -> 2.2, and the same near it
            v = v + 0.5
            y = y * v * x
        return y
    return program, pure


def loop_then_assigned(v):
    def program(x):
        y = x
        for _ in tf.range(3):
            y = y * v
        v.assign(5.0)           # after the While that read it
        return y

    def pure(v, x):
        return x * v ** 3
    return program, pure


def branch_then_assigned(v):
    def program(x):
        if x > 0:
            y = x * v * v
        else:
            y = x
        v.assign_add(x)         # after the Cond that read it
        return y

    def pure(v, x):
        return x * v * v if x > 0 else x
    return program, pure


PROGRAMS = [assign_add_then_square, assigned_on_one_side, nested_loops, loop_with_a_branch_that_assigns,
            branch_with_a_loop_that_assigns, loop_while_the_variable_is_small, loop_then_assigned,
            branch_then_assigned]


def _gradient(placement: str, program, v, x):
    """d program(x)/d v with the tape inside a tf.function (jit-compiled or not) or outside it."""
    if placement.startswith("tape outside"):     # a function that assigns is replayed op by op, also under jit
        f = tf.function(program, jit_compile=placement.endswith("jit_compile"))
        with tf.GradientTape() as tape:
            y = f(x)
        return tape.gradient(y, v)

    def inside(x):
        with tf.GradientTape() as tape:
            y = program(x)
        return tape.gradient(y, v)
    return tf.function(inside, jit_compile=placement == "tape inside, jit_compile")(x)


def _finite_difference(program, v, x, eps: float = 1e-6) -> float:
    f = tf.function(program)

    def at(value: float) -> float:
        v.assign(value)
        return float(f(x))
    return (at(V0 + eps) - at(V0 - eps)) / (2 * eps)


def _jax_gradient(pure, x: float) -> float:
    jax = pytest.importorskip("jax")
    with jax.enable_x64(True):
        return float(jax.grad(pure)(jax.numpy.float64(V0), x))


BRANCHES = [assigned_on_one_side, branch_then_assigned]   # no While: their gradients also lower to JAX
CASES = [(make, placement) for make in PROGRAMS
         for placement in ("tape inside", "tape outside", "tape outside, jit_compile")] + \
        [(make, "tape inside, jit_compile") for make in BRANCHES]


@pytest.mark.parametrize("x", [X, -0.6])
@pytest.mark.parametrize("make, placement", CASES, ids=lambda case: getattr(case, "__name__", case))
def test_the_gradient_uses_the_values_the_reads_saw(make, placement, x):
    if placement.endswith("jit_compile"):
        pytest.importorskip("jax")
    v = tf.Variable(V0, dtype=F64)
    program, pure = make(v)
    expected = _finite_difference(program, v, tf.constant(x, F64))
    assert _jax_gradient(pure, x) == pytest.approx(expected, rel=1e-6)
    v.assign(V0)
    got = _gradient(placement, program, v, tf.constant(x, F64))
    after = float(v)
    v.assign(V0)
    tf.function(program)(tf.constant(x, F64))
    assert after == pytest.approx(float(v), rel=1e-6)    # the gradient assigned nothing again
    jit = placement == "tape inside, jit_compile"
    assert float(got) == pytest.approx(expected, rel=1e-5 if jit else 1e-6)    # JAX computes float64 in 32 bits


def test_under_jit_compile_a_loops_gradient_with_variables_is_the_executors():
    pytest.importorskip("jax")
    v = tf.Variable(V0, dtype=F64)
    program, _ = assign_add_then_square(v)

    def f(x):
        with tf.GradientTape() as tape:
            y = program(x)
        return tape.gradient(y, v)

    # a While's gradient keeps its history in TensorArrays, lowered to JAX as buffers of the loop's trip count
    expected = tf.function(f)(tf.constant(X, F64))
    after = float(v)
    v.assign(V0)
    got = tf.function(f, jit_compile=True)(tf.constant(X, F64))
    assert float(got) == pytest.approx(float(expected), rel=1e-12)
    assert float(v) == pytest.approx(after, rel=1e-12)


def test_the_loop_of_the_issue_gives_tensorflows_gradient_and_leaves_the_variable_as_the_loop_did():
    v = tf.Variable(0.7, dtype=F64)
    program, _ = assign_add_then_square(v)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = program(x)
        return tape.gradient(y, [v, x])

    dv, dx = f(tf.constant(1.3, F64))
    assert float(dv) == pytest.approx(2 * (2.0 + 3.3 + 4.6))    # TensorFlow 2.x: 19.8 (was a LookupError)
    assert float(dx) == 0.0             # as TensorFlow's: no gradient passes through an assignment
    assert float(v) == pytest.approx(4.6)


def test_a_variable_assigned_after_the_function_that_reads_it():
    w = tf.Variable(0.9, dtype=F64)
    read_only = tf.function(lambda x: x * w * w * w)
    program, _ = loop_then_assigned(w)
    reads_then_assigns = tf.function(program)
    with tf.GradientTape(persistent=True) as tape:
        z = read_only(tf.constant(X, F64))          # one Call op, its gradient traced from the function's graph
        y = reads_then_assigns(tf.constant(X, F64))  # assigns w = 5 after its loop: replayed op by op
    w.assign(7.0)
    assert float(tape.gradient(z, w)) == pytest.approx(3 * 0.81 * X)   # was a LookupError
    assert float(tape.gradient(y, w)) == pytest.approx(3 * 0.81 * X)


def _scaled_power(s):
    def f(x):
        y = x
        for _ in tf.range(3):
            y = y * x * s
        return y
    return f


@pytest.mark.parametrize("placement", ["tape inside", "tape outside"])
def test_a_variable_the_tape_does_not_watch_assigned_after_the_loop_that_reads_it(placement):
    s = tf.Variable(2.0, dtype=F64, trainable=False)
    power = _scaled_power(s)

    def program(x):
        y = power(x)
        s.assign(10.0)
        return y

    x = tf.constant(X, F64)
    if placement == "tape inside":
        @tf.function
        def gradient(x):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = program(x)
            return tape.gradient(y, x)
        got = gradient(x)
    else:
        f = tf.function(power)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        s.assign(10.0)
        got = tape.gradient(y, x)
    assert float(got) == pytest.approx(4 * X ** 3 * 8.0)     # d(x^4 s^3)/dx at s = 2; was 4000 x^3 at s = 10


def test_a_counter_the_loop_assigns_and_reads_gives_each_iteration_its_value():
    counter = tf.Variable(0.0, dtype=F64, trainable=False)

    def program(x):
        y = x
        for _ in tf.range(3):
            counter.assign_add(1.0)
            y = y * x * counter         # y = x^4 * 1 * 2 * 3
        return y

    @tf.function
    def gradient(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = program(x)
        return tape.gradient(y, x)

    assert float(gradient(tf.constant(X, F64))) == pytest.approx(4 * X ** 3 * 6)   # was a LookupError
    assert float(counter) == 3.0


def test_a_gradient_asked_in_a_loop_after_each_assignment_uses_the_value_the_branch_read():
    w = tf.Variable(0.9, dtype=F64)

    @tf.function
    def f(x):
        with tf.GradientTape(persistent=True) as tape:
            if x > 0:
                y = x * w * w
            else:
                y = x
        g = tf.zeros([], F64)
        for _ in tf.range(2):
            w.assign_add(1.0)
            g = g + tape.gradient(y, w)     # the Cond's rule read w after each assignment: 12.48
        return g

    assert float(f(tf.constant(X, F64))) == pytest.approx(2 * 2 * X * 0.9)   # was a LookupError
    assert float(w) == pytest.approx(2.9)


def test_the_second_derivative_through_a_loop_that_assigns():
    v = tf.Variable(V0, dtype=F64)
    program, pure = assign_add_then_square(v)

    @tf.function
    def second(x):
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = program(x)
            dv = inner.gradient(y, v)
        return outer.gradient(dv, v)

    assert float(second(tf.constant(X, F64))) == pytest.approx(2 * 3)    # d/dv of 2 sum(v + i x)
    jax = pytest.importorskip("jax")
    with jax.enable_x64(True):
        assert float(jax.grad(jax.grad(pure))(jax.numpy.float64(V0), X)) == pytest.approx(6.0)


def test_a_held_read_is_one_line_in_the_printed_gradient_graph():
    v = tf.Variable(V0, dtype=F64)
    program, _ = assigned_on_one_side(v)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            y = program(x)
        return tape.gradient(y, v)

    text = str(f.get_concrete_function(tf.TensorSpec([], F64)).graph)
    assert "HeldVariableRead" in text
    np.testing.assert_allclose(f(tf.constant(X, F64)), X * (V0 + X) + V0 * X)


def test_an_assignment_computed_from_the_variable_gives_tensorflows_gradients():
    v = tf.Variable([0.7, -0.3], dtype=F64)
    count = tf.Variable(0, dtype=tf.int32)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(x)
            for _ in tf.range(3):
                count.assign_add(1)
                v.assign(v * 0.5 + x)     # each read is a leaf: no gradient passes through the assignment
                y = y * tf.reduce_sum(v * v) * tf.cast(count, F64)
        return tape.gradient(y, [v, x])

    dv, dx = f(tf.constant([1.3, 0.2], F64))
    # TensorFlow 2.x (tf.function, the same program): [1891.25665559, 156.00642152], [423.98851295] * 2
    np.testing.assert_allclose(dv, [1891.25665559, 156.00642152])
    np.testing.assert_allclose(dx, [423.98851295, 423.98851295])
    np.testing.assert_allclose(v.numpy(), [2.3625, 0.3125])
    assert int(count) == 3
