"""Seeds of random ops inside traced functions, as TensorFlow documents them (`tf.random.set_seed`): each op of a
traced function has a generator of its own, advanced on every call; eagerly, calls with one op seed share one."""
import numpy as np
import pytest

import runtime as tf


def _same(a, b) -> bool:
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


def test_two_ops_with_one_seed_in_a_function_draw_alike_and_advance_on_each_call():
    tf.random.set_seed(1234)

    @tf.function
    def foo():
        return tf.random.uniform([1], seed=1), tf.random.uniform([1], seed=1)

    (a1, b1), (a2, b2) = foo(), foo()
    assert _same(a1, b1) and _same(a2, b2) and not _same(a1, a2)    # TensorFlow: (A1, A1), then (A2, A2)


def test_eager_calls_with_one_seed_share_a_generator():
    tf.random.set_seed(1234)
    first, second = tf.random.uniform([1], seed=1), tf.random.uniform([1], seed=1)
    assert not _same(first, second)
    tf.random.set_seed(1234)
    assert _same(tf.random.uniform([1], seed=1), first)
    tf.random.set_seed(1234)
    assert _same(tf.function(lambda: tf.random.uniform([1], seed=1))(), first)


def test_functions_built_alike_draw_alike_without_op_seeds():
    tf.random.set_seed(1234)

    def pair():
        return tf.random.uniform([1]), tf.random.uniform([1])

    (fa, fb), (ga, gb) = tf.function(pair)(), tf.function(pair)()
    assert _same(fa, ga) and _same(fb, gb) and not _same(fa, fb)


def test_a_seeded_op_in_a_loop_draws_anew_on_each_iteration():
    tf.random.set_seed(5)

    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.float32, size=n)
        for i in tf.range(n):
            ta = ta.write(i, tf.random.uniform([], seed=7))
        return ta.stack()

    first = f(tf.constant(3)).numpy()
    assert len(set(first.tolist())) == 3 and not _same(first, f(tf.constant(3)))


def test_the_ops_of_two_branches_with_one_seed_start_alike():
    tf.random.set_seed(5)

    @tf.function
    def f(x):
        if x > 0:
            r = tf.random.uniform([], seed=1)
        else:
            r = tf.random.uniform([], seed=1)
        return r

    positive, negative = f(tf.constant(1)), f(tf.constant(-1))
    assert _same(positive, negative) and not _same(positive, f(tf.constant(1)))


# --- tf.random.Generator: one state, advanced by every draw ----------------------------------------

def test_a_generator_draws_anew_on_each_iteration_and_call_and_set_seed_leaves_it():
    g = tf.random.Generator.from_seed(1)

    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.float32, size=n)
        for i in tf.range(n):
            ta = ta.write(i, g.uniform([]))
        return ta.stack()

    first = f(tf.constant(3)).numpy()
    tf.random.set_seed(1)
    assert len(set(first.tolist())) == 3 and not _same(first, f(tf.constant(3)))


def test_a_generator_advances_only_on_the_branch_taken_and_shares_its_state_with_eager_draws():
    g, twin = tf.random.Generator.from_seed(3), tf.random.Generator.from_seed(3)

    @tf.function
    def f(x):
        if x > 0:
            r = g.normal([])
        else:
            r = tf.constant(0.0)
        return r

    f(tf.constant(-1))
    f(tf.constant(-1))
    assert _same(f(tf.constant(1)), twin.normal([]))
    assert _same(g.uniform([2]), twin.uniform([2]))   # eager draws go on from the function's


def test_a_generator_made_on_every_call_or_reset_inside_a_function_is_refused():
    @tf.function
    def fresh():
        return tf.random.Generator.from_seed(1).normal([])

    g = tf.random.Generator.from_seed(1)

    @tf.function
    def reset():
        g.reset_from_seed(2)
        return g.normal([])

    with pytest.raises(ValueError, match="creates a Variable each time it is traced"):
        fresh()
    with pytest.raises(RuntimeError, match="reset it outside the function"):
        reset()


# --- stateless draws: a function of their seed --------------------------------------------------------

def test_a_stateless_draw_is_the_same_on_every_iteration_call_and_eagerly():
    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.float32, size=n)
        for i in tf.range(n):
            ta = ta.write(i, tf.random.stateless_uniform([], seed=[1, 2]))
        return ta.stack()

    rows = f(tf.constant(3)).numpy()
    assert len(set(rows.tolist())) == 1 and _same(rows[0], tf.random.stateless_uniform([], seed=[1, 2]))
    assert not _same(tf.random.stateless_normal([3], seed=[4, 5]), tf.random.stateless_normal([3], seed=[4, 6]))


def test_a_stateless_draw_seeded_by_the_loop_index_differs_by_iteration_only():
    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.float32, size=n)
        for i in tf.range(n):
            ta = ta.write(i, tf.random.stateless_uniform([], seed=tf.stack([i, 0])))
        return ta.stack()

    first = f(tf.constant(3))
    assert len(set(first.numpy().tolist())) == 3 and _same(first, f(tf.constant(3)))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"seed must be a shape \[2\]"):
        tf.random.stateless_uniform([2], seed=[1])
