"""TensorArrays under `jit_compile=True` (runtime/lowering/jax_lists.py): each program run by the NumPy executor
and lowered to JAX gives the same values (loops' gradients, map_fn, scan, TensorArray ops, jacobians), the same
errors, or a clear LoweringError where XLA needs a size that is only known when the function runs."""
import numpy as np
import pytest

import runtime as tf
from runtime.errors import LoweringError

pytest.importorskip("jax")


def both(f, *args, **options):
    """f's results by the executor and under jit_compile=True, checked equal (dtypes, shapes, values)."""
    expected = tf.function(f, **options)(*args)
    got = tf.function(f, jit_compile=True, **options)(*args)
    flat_e, flat_g = tf.nest.flatten(expected), tf.nest.flatten(got)
    assert len(flat_e) == len(flat_g)
    for e, g in zip(flat_e, flat_g):
        assert e.dtype == g.dtype and e.shape == g.shape
        np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-5, atol=1e-6)
    return [e.numpy() for e in flat_e]


def gradient_of(loss):
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = loss(x)
        return y, tape.gradient(y, x)
    return f


# --- loops' gradients: the loop state kept per iteration ------------------------------------------------------

def test_the_gradient_of_a_for_over_a_constant_range():
    def loss(x):
        y = x
        for i in tf.range(3):
            y = y * x + tf.cast(i, tf.float32)
        return y
    y, dx = both(gradient_of(loss), tf.constant(2.0))
    assert (y, dx) == (20.0, 33.0)   # ((x*x + 0)*x + 1)*x + 2 = x**4 + x + 2, and its derivative 4x**3 + 1


def test_the_gradient_of_a_while_with_maximum_iterations_and_a_data_dependent_end():
    def loss(x):
        return tf.while_loop(lambda v: tf.reduce_sum(v) < 50.0, lambda v: v * 1.5 + x, [x],
                             maximum_iterations=10)[0]
    both(gradient_of(lambda x: tf.reduce_sum(loss(x))), tf.constant([1.0, 2.0]))


def test_the_gradient_of_nested_loops_and_a_break():
    def loss(x):
        y = tf.zeros_like(x)
        for i in tf.range(3):
            for j in tf.range(2):
                y = y + x * tf.cast(i + j, tf.float32)
            if tf.reduce_sum(y) > 100.0:
                break
        return tf.reduce_sum(y * y)
    both(gradient_of(loss), tf.constant([1.0, -2.0]))


def test_the_gradient_of_a_loop_whose_end_depends_on_data_needs_maximum_iterations():
    def loss(x):
        y = x
        while y < 50.0:
            y = y * 2.0
        return y

    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = loss(x)
        return tape.gradient(y, x)  # <- here

    assert tf.function(f)(tf.constant(3.0)).numpy() == 32.0
    with pytest.raises(LoweringError, match=r"(?s)trip count is not known.*"
                                            r"return tape.gradient\(y, x\)  # <- here.*maximum_iterations="):
        tf.function(f, jit_compile=True)(tf.constant(3.0))


def test_second_derivatives_through_a_loop():
    def f(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * x), [0, x])[1]
            dy = inner.gradient(y, x)
        return dy, outer.gradient(dy, x)
    assert both(f, tf.constant(2.0)) == [32.0, 48.0]


# --- map_fn, scan, foldl ---------------------------------------------------------------------------------------

def test_map_fn_scan_and_foldl_and_their_gradients():
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            mapped = tf.map_fn(lambda row: row * row * tf.reduce_sum(x), x)
            running = tf.scan(lambda a, row: a * 0.5 + row, x)
            folded = tf.foldl(lambda a, row: a * row, x, initializer=tf.ones([2]))
            loss = tf.reduce_sum(mapped) + tf.reduce_sum(running * running) + tf.reduce_sum(folded)
        return mapped, running, folded, tape.gradient(loss, x)
    both(f, tf.constant([[1.0, 2.0], [3.0, -1.0], [0.5, 2.0]]))


def test_scan_in_reverse_with_a_structure_and_an_int_output():
    def f(x):
        totals, counts = tf.scan(lambda a, row: (a[0] + row, a[1] + 1), x, initializer=(tf.zeros([2]), 0),
                                 reverse=True)
        as_int = tf.map_fn(lambda row: tf.cast(row[0], tf.int32), x, fn_output_signature=tf.int32)
        return totals, counts, as_int
    both(f, tf.constant([[1.0, 2.0], [3.0, -1.0]]))


def test_a_jacobian_and_a_jacobian_of_map_fn():
    def f(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = tf.map_fn(lambda row: row * row * tf.reduce_sum(x), x)
            z = tf.sin(x) * x
        return tape.jacobian(y, x), tape.jacobian(z, x)
    jacobian, _ = both(f, tf.constant([1.0, 2.0, -1.0]))
    np.testing.assert_allclose(jacobian, [[5.0, 1.0, 1.0], [4.0, 12.0, 4.0], [1.0, 1.0, -3.0]])


# --- TensorArray operations ------------------------------------------------------------------------------------

def test_read_write_stack_gather_unstack_and_size():
    def f(x):
        ta = tf.TensorArray(tf.float32, size=3).unstack(x)
        out = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(3):
            out = out.write(i, ta.read(i) * 2.0 + ta.read(2 - i))
        grown = out.write(3, x[0])   # outside loops a write past the end grows the list
        return out.stack(), out.gather([2, 0]), out.size(), grown.size(), grown.stack()
    stacked, gathered, size, grown_size, _ = both(f, tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    np.testing.assert_allclose(gathered, stacked[[2, 0]])
    assert (size, grown_size) == (3, 4)


def test_a_python_list_appended_to_in_a_staged_loop():
    def f(x):
        out = []
        for i in tf.range(4):
            out.append(x * tf.cast(i, tf.float32))
        return tf.stack(out)
    both(f, tf.constant([1.0, 2.0]))


def test_a_tensor_array_in_a_branch_of_a_cond():
    def f(x):
        ta = tf.TensorArray(tf.float32, size=2)
        if tf.reduce_sum(x) > 0:
            ta = ta.write(0, x).write(1, x * 2.0)
        else:
            ta = ta.write(1, -x).write(0, x)
        return ta.stack()
    both(f, tf.constant([1.0, 2.0]))
    both(f, tf.constant([-1.0, -2.0]))


# --- the executor's errors, and jit_compile's own refusals -------------------------------------------------------

def _errors(f, *args):
    """The errors of the executor and of jit_compile=True on the same call."""
    found = []
    for jit in (None, True):
        with pytest.raises(Exception) as info:
            tf.function(f, jit_compile=jit)(*args)
        found.append(info.value)
    return found


def test_a_read_out_of_range_or_never_written_is_the_executors_error():
    def out_of_range(x, i):
        return tf.TensorArray(tf.float32, size=2).write(0, x).write(1, x).read(i)

    def never_written(x, i):
        return tf.TensorArray(tf.float32, size=3).write(0, x).read(i)

    for f, index in [(out_of_range, 5), (never_written, 2)]:
        executor, jit = _errors(f, tf.constant(1.0), tf.constant(index))
        assert type(jit) is type(executor) and str(jit) == str(executor)


def test_a_write_out_of_range_of_a_fixed_size_is_the_executors_error_also_in_a_loop():
    def f(x):
        ta = tf.TensorArray(tf.float32, size=2)
        for i in tf.range(3):
            ta = ta.write(i, x)
        return ta.stack()
    executor, jit = _errors(f, tf.constant(1.0))
    assert type(jit) is type(executor) and str(jit) == str(executor)


def test_a_write_past_the_rows_a_loop_was_given_is_a_lowering_error_not_a_lost_value():
    def f(x):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(3):
            ta = ta.write(2 * i, x)   # rows for one write per iteration: 3; index 4 needs 5
        return ta.read(4)
    assert tf.function(f)(tf.constant(1.0)).numpy() == 1.0
    with pytest.raises(LoweringError, match="went past the 3 rows"):
        tf.function(f, jit_compile=True)(tf.constant(1.0))


def test_a_list_appended_to_in_some_iterations_only_can_be_read_but_not_stacked():
    def f(x):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(4):
            if i % 2 == 0:
                ta = ta.write(ta.size(), x * tf.cast(i, tf.float32))
        return ta.read(1), ta.size()
    both(f, tf.constant(1.0))

    def g(x):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(4):
            if i % 2 == 0:
                ta = ta.write(ta.size(), x)
        return ta.stack()
    assert tf.function(g)(tf.constant(1.0)).shape == (2,)
    with pytest.raises(LoweringError, match="has 2 elements where the lowering gave it 4 rows"):
        tf.function(g, jit_compile=True)(tf.constant(1.0))
