"""map_fn, scan, foldl, foldr and switch_case (test_against_tensorflow.py compares them with TensorFlow)."""
import numpy as np
import pytest

import runtime as tf

X = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])


@pytest.mark.parametrize("traced", [False, True])
def test_map_fn_scan_and_folds_eagerly_and_traced(traced):
    def run(x):
        return (tf.map_fn(lambda r: r * 2, x), tf.map_fn(tf.reduce_sum, x, fn_output_signature=tf.float32),
                tf.scan(lambda a, r: a + r, x), tf.scan(lambda a, r: a + r, x, reverse=True),
                tf.foldl(lambda a, r: a * 0.5 + r, x), tf.foldr(lambda a, r: a * 0.5 + r, x))
    out = [o.numpy() for o in (tf.function(run) if traced else run)(X)]
    x = X.numpy()
    np.testing.assert_allclose(out[0], x * 2)
    np.testing.assert_allclose(out[1], x.sum(1))
    np.testing.assert_allclose(out[2], np.cumsum(x, 0))
    np.testing.assert_allclose(out[3], np.cumsum(x[::-1], 0)[::-1])
    np.testing.assert_allclose(out[4], (x[0] * 0.5 + x[1]) * 0.5 + x[2])
    np.testing.assert_allclose(out[5], (x[2] * 0.5 + x[1]) * 0.5 + x[0])


def test_map_fn_gradient_and_a_tensor_length():
    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.map_fn(lambda r: r * r, x))
        return tape.gradient(y, x)
    np.testing.assert_allclose(f(X).numpy(), 2 * X.numpy())
    assert f(tf.zeros([0, 2])).shape == (0, 2)


def test_a_dtype_fn_does_not_declare_is_an_error_naming_the_signature():
    with pytest.raises(TypeError, match="fn_output_signature"):
        tf.map_fn(lambda r: tf.cast(r, tf.int32), X)
    with pytest.raises(ValueError, match="output structure"):
        tf.map_fn(lambda r: (r, r), X)
    with pytest.raises(TypeError, match="accumulator is float32"):
        tf.scan(lambda a, r: tf.cast(a, tf.int32), X)


@pytest.mark.parametrize("traced", [False, True])
def test_switch_case_picks_the_branch_or_the_default(traced):
    def run(i):
        return (tf.switch_case(i, [lambda: tf.constant(10), lambda: tf.constant(20)]),
                tf.switch_case(i, {0: lambda: tf.constant(1), 3: lambda: tf.constant(2)}, default=lambda: tf.constant(-1)))
    run = tf.function(run) if traced else run
    assert [int(v) for v in run(tf.constant(1))] == [20, -1]
    assert [int(v) for v in run(tf.constant(3))] == [20, 2]      # out of range: the last branch when no default
    assert [int(v) for v in run(tf.constant(0))] == [10, 1]


def test_switch_case_keys_with_a_gap_and_no_default_are_refused():
    # index 1 would have run the branch of key 3 (the last); TensorFlow refuses keys other than 0 to n-1
    with pytest.raises(ValueError, match=r"branch keys \[0, 3\] are not 0 to 1.*Pass default="):
        tf.switch_case(tf.constant(1), {0: lambda: tf.constant(10), 3: lambda: tf.constant(30)})


@pytest.mark.parametrize("traced", [False, True])
def test_case_takes_the_first_true_predicate_then_the_default(traced):
    def run(x):
        return (tf.case([(x > 5, lambda: tf.constant(1)), (x > 2, lambda: tf.constant(2))], default=lambda: tf.constant(3)),
                tf.case([(x > 5, lambda: tf.constant(1)), (x > 0, lambda: tf.constant(2))]))
    run = tf.function(run) if traced else run
    assert [int(v) for v in run(tf.constant(9))] == [1, 1]      # both true: the first
    assert [int(v) for v in run(tf.constant(3))] == [2, 2]
    assert int(run(tf.constant(1))[0]) == 3
    with pytest.raises(tf.errors.InvalidArgumentError, match="no predicate is true and there is no default"):
        run(tf.constant(-1))    # the last pair's function is no default for nothing true, as TensorFlow's


@pytest.mark.parametrize("traced", [False, True])
def test_case_exclusive_refuses_two_true_predicates(traced):
    def run(x):
        return tf.case([(x > 1, lambda: tf.constant(1)), (x > 2, lambda: tf.constant(2))], default=lambda: tf.constant(3),
                       exclusive=True)
    run = tf.function(run) if traced else run
    assert int(run(tf.constant(2))) == 1 and int(run(tf.constant(0))) == 3
    with pytest.raises(tf.errors.InvalidArgumentError, match="exclusive=True, but more than one predicate is true"):
        run(tf.constant(3))
    with pytest.raises(TypeError, match="a dict can't hold tensors"):
        tf.case({True: lambda: 1})


def test_while_loop_takes_tensorflows_back_prop_swap_memory_and_parallel_iterations():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        kept = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * x), (0, x))[1]
        stopped = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * x), (0, x), back_prop=False,
                                swap_memory=True, parallel_iterations=1)[1]
    assert float(kept) == float(stopped) == 16.0
    assert float(tape.gradient(kept, x)) == 32.0 and tape.gradient(stopped, x) is None
