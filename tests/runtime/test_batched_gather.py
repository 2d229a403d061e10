"""`tf.gather` and `tf.gather_nd` with `batch_dims`: each batch reads its own slices (checked against a loop
over the batches with NumPy, eagerly and traced), and their gradients reach the slices read."""
import numpy as np
import pytest

import runtime as tf

rng = np.random.default_rng(0)
P = rng.normal(size=(2, 3, 4, 5)).astype(np.float32)


def _gather_by_loop(params, indices, axis, batch_dims):
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    return np.stack([_gather_by_loop(p, i, axis - 1, batch_dims - 1) for p, i in zip(params, indices)])


GATHERS = [   # (indices, axis, batch_dims)
    (rng.integers(0, 3, size=(2, 6)), 1, 1), (rng.integers(0, 4, size=(2, 3, 2)), 2, 2),
    (rng.integers(0, 4, size=(2, 3)), 2, 1), (rng.integers(0, 5, size=(2, 7)), 3, 1),
    (rng.integers(0, 4, size=(2, 3, 2, 2)), 2, 2), (rng.integers(0, 3, size=(2,)), 1, 1),
]


@pytest.mark.parametrize("mode", ["eager", "traced"])
@pytest.mark.parametrize("case", range(len(GATHERS)))
def test_gather_with_batch_dims_reads_each_batchs_own_slices(mode, case):
    indices, axis, batch_dims = GATHERS[case]
    run = lambda p, i: tf.gather(p, i, axis=axis, batch_dims=batch_dims)  # noqa: E731
    got = (run if mode == "eager" else tf.function(run))(tf.constant(P), tf.constant(indices))
    np.testing.assert_array_equal(got.numpy(), _gather_by_loop(P, indices, axis, batch_dims))


def test_negative_batch_dims_and_axis_count_from_the_end():
    indices = rng.integers(0, 5, size=(2, 3, 4, 2))
    got = tf.gather(P, indices, axis=-1, batch_dims=-1)
    np.testing.assert_array_equal(got.numpy(), _gather_by_loop(P, indices, 3, 3))


@pytest.mark.parametrize("mode", ["eager", "traced"])
def test_gather_nd_with_batch_dims_indexes_within_each_batch(mode):
    rows = np.stack([rng.integers(0, 3, size=(2, 6)), rng.integers(0, 4, size=(2, 6))], -1)   # (2, 6, 2)
    run = lambda p, i: tf.gather_nd(p, i, batch_dims=1)  # noqa: E731
    got = (run if mode == "eager" else tf.function(run))(tf.constant(P), tf.constant(rows))
    expected = np.stack([[P[b][tuple(r)] for r in rows[b]] for b in range(2)])
    np.testing.assert_array_equal(got.numpy(), expected)


def test_the_gradient_of_a_batched_gather_adds_up_at_the_slices_read():
    indices = np.array([[0, 0, 2], [1, 1, 1]])
    params = tf.constant(P[:, :, 0, 0])   # (2, 3)
    with tf.GradientTape() as tape:
        tape.watch(params)
        y = tf.reduce_sum(tf.gather(params, indices, batch_dims=1))
    np.testing.assert_array_equal(tape.gradient(y, params).numpy(), [[2, 0, 1], [0, 3, 0]])


def test_a_batched_gather_nd_differentiates_inside_a_function_and_takes_an_unknown_batch():
    # (its reshapes had shapes known only when the graph ran: the tape's gather_nd rule refused them)
    x = tf.constant(np.arange(12.0).reshape(4, 3))

    @tf.function
    def grads(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.gather_nd(x, [[2], [0], [1], [1]], batch_dims=1) ** 2)
        return tape.gradient(y, x)
    assert grads(x).numpy().tolist() == [[0, 0, 4], [6, 0, 0], [0, 14, 0], [0, 20, 0]]
    unknown = tf.function(lambda x: tf.gather_nd(x, [[2], [0], [1], [1]], batch_dims=1),
                          input_signature=[tf.TensorSpec([None, 3], tf.float64)])
    assert unknown(x).numpy().tolist() == [2.0, 3.0, 7.0, 10.0]
