"""`tf.random.truncated_normal` and `tf.random.categorical`: their draws follow the distributions (checked on
20,000 seeded draws: bounds, moments, frequencies), reproducible under a seed, fresh on each call of a traced
function, with TensorFlow's shapes and dtypes."""
import math

import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError


def test_truncated_normal_stays_within_two_standard_deviations_with_the_truncated_moments():
    tf.random.set_seed(3)
    t = tf.random.truncated_normal([20000], mean=1.0, stddev=2.0).numpy()
    assert t.dtype == np.float32 and -3.0 <= t.min() and t.max() <= 5.0
    # the truncated distribution's standard deviation: σ * sqrt(1 - 2·2·φ(2) / (2Φ(2) - 1)) = 0.8796 σ
    phi2 = math.exp(-2) / math.sqrt(2 * math.pi)
    spread = 2.0 * math.sqrt(1 - 4 * phi2 / math.erf(2 / math.sqrt(2)))
    assert abs(t.mean() - 1.0) < 0.05 and abs(t.std() - spread) < 0.05


def test_categorical_draws_each_class_as_often_as_its_probability_and_never_an_impossible_one():
    tf.random.set_seed(3)
    drawn = tf.random.categorical(tf.math.log([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0]]), 20000)
    assert drawn.dtype == tf.int64 and drawn.shape == (2, 20000)
    freq = [np.bincount(row, minlength=3) / 20000 for row in drawn.numpy()]
    np.testing.assert_allclose(freq[0], [0.1, 0.2, 0.7], atol=0.015)
    assert freq[1][2] == 0.0 and abs(freq[1][0] - 0.5) < 0.015
    assert tf.random.categorical([[0.0, 1.0]], 3, dtype=tf.int32).dtype == tf.int32


def test_draws_are_reproducible_under_a_seed_and_fresh_on_each_traced_call():
    tf.random.set_seed(5)
    first = tf.random.truncated_normal([4]).numpy(), tf.random.categorical([[0.0, 0.0]], 8).numpy()
    tf.random.set_seed(5)
    again = tf.random.truncated_normal([4]).numpy(), tf.random.categorical([[0.0, 0.0]], 8).numpy()
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    f = tf.function(lambda: tf.random.truncated_normal([6]))
    assert not np.array_equal(f().numpy(), f().numpy())


def test_what_the_distributions_do_not_take_is_refused():
    with pytest.raises(InvalidArgumentError, match="floating dtype"):
        tf.random.truncated_normal([2], dtype=tf.int32)
    with pytest.raises(InvalidArgumentError, match="logits must be a matrix"):
        tf.random.categorical([0.0, 1.0], 2)
