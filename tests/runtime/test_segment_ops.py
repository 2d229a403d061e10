"""Segment reductions and bincount against TensorFlow 2.21's values and gradients (written here: the tests
need no TensorFlow; tools/grad_probe.py, area segments, compares the same programs with it)."""
import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError

D = np.array([[1.0, 2.0], [3.0, -np.inf], [5.0, 6.0], [0.0, 1.0]], np.float32)
LOWEST, HIGHEST = float(np.finfo(np.float32).min), float(np.finfo(np.float32).max)
MODES = [lambda f: f, tf.function]

# name: (TensorFlow's segment_<name>(D, [0, 0, 2, 2]), its unsorted_segment_<name>(D, [0, -1, 2, 0], 4))
REDUCTIONS = {
    "sum": ([[4, -np.inf], [0, 0], [5, 7]], [[1, 3], [0, 0], [5, 6], [0, 0]]),
    "mean": ([[2, -np.inf], [0, 0], [2.5, 3.5]], [[0.5, 1.5], [0, 0], [5, 6], [0, 0]]),
    "max": ([[3, 2], [0, 0], [5, 6]], [[1, 2], [LOWEST] * 2, [5, 6], [LOWEST] * 2]),
    "min": ([[1, -np.inf], [0, 0], [0, 1]], [[0, 1], [HIGHEST] * 2, [5, 6], [HIGHEST] * 2]),
    "prod": ([[3, -np.inf], [1, 1], [0, 6]], [[0, 2], [1, 1], [5, 6], [1, 1]]),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", sorted(REDUCTIONS))
def test_segment_reductions_give_tensorflows_values_with_empty_segments(kind, mode):
    sorted_expected, unsorted_expected = REDUCTIONS[kind]
    got = mode(lambda d: [getattr(tf.math, f"segment_{kind}")(d, [0, 0, 2, 2]),
                          getattr(tf.math, f"unsorted_segment_{kind}")(d, tf.constant([0, -1, 2, 0]), 4)])(
        tf.constant(D))
    np.testing.assert_allclose(got[0].numpy(), sorted_expected)
    np.testing.assert_allclose(got[1].numpy(), unsorted_expected)


@pytest.mark.parametrize("mode", MODES)
def test_segment_gradients_share_ties_and_skip_zeros_as_tensorflows(mode):
    x, y = tf.constant([[1.0, 2.0], [3.0, 3.0], [5.0, 6.0], [0.0, 1.0]]), tf.constant([[2.0], [2.0], [1.0], [2.0]])

    def grads(x, y):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, y])
            top = tf.math.unsorted_segment_max(x * 1.0, [0, 0, 1, 0], 3)
            tied = tf.math.segment_max(y, [0, 0, 0, 0])
            prod = tf.math.segment_prod(x - 1.0, [0, 0, 1, 1])
        return [tape.gradient(top, x), tape.gradient(tied, y), tape.gradient(prod, x)]
    top, tied, prod = (g.numpy() for g in mode(grads)(x, y))
    # TensorFlow's: a max's gradient shared by its ties, a product's skipping the zero factor
    np.testing.assert_array_equal(top, [[0, 0], [1, 1], [1, 1], [0, 0]])
    np.testing.assert_allclose(tied.ravel(), [1 / 3, 1 / 3, 0, 1 / 3])
    np.testing.assert_array_equal(prod, [[2, 2], [0, 1], [-1, 0], [4, 5]])


@pytest.mark.parametrize("mode", MODES)
def test_bincount_gives_tensorflows_counts(mode):
    a, w = tf.constant([1, 1, 3]), tf.constant([0.5, 1.0, 2.0])
    got = mode(lambda a, w: [tf.math.bincount(a), tf.math.bincount(a, minlength=6, maxlength=2),
                             tf.math.bincount(a[:0]), tf.math.bincount(a, weights=w),
                             tf.math.bincount(tf.reshape(tf.concat([a, [0]], 0), [2, 2]), axis=-1)])(a, w)
    expected = [[0, 2, 0, 1], [0, 2], [], [0, 1.5, 0, 2], [[0, 2, 0, 0], [1, 0, 0, 1]]]
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g.numpy(), e)
    assert got[0].dtype == tf.int32 and got[3].dtype == tf.float32


def test_sorted_segment_ids_must_be_known_increasing_and_non_negative():
    with pytest.raises(InvalidArgumentError, match="non-negative and increasing"):
        tf.math.segment_sum(tf.constant(D), [1, 0, 2, 2])
    with pytest.raises(InvalidArgumentError, match="use math.unsorted_segment_sum with num_segments"):
        tf.function(lambda d, i: tf.math.segment_sum(d, i))(tf.constant(D), tf.constant([0, 0, 1, 1]))


def test_an_unsorted_segment_id_past_num_segments_and_a_negative_bin_raise():
    with pytest.raises(InvalidArgumentError, match="not below num_segments=3"):
        tf.math.unsorted_segment_max(tf.constant(D), [1, 0, 5, 2], 3)
    with pytest.raises(InvalidArgumentError, match="must be non-negative"):
        tf.math.bincount(tf.constant([1, -1]))
