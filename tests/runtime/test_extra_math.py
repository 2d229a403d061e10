"""log1p, expm1, reciprocal, rsqrt, erf, reduce_logsumexp, clip_by_norm, clip_by_global_norm
(runtime/ops/extra_math.py) against NumPy."""
import math

import numpy as np
import pytest

import runtime as tf
from gradcheck import check_gradient, tape_gradient
from runtime.errors import InvalidArgumentError

RNG = np.random.default_rng(2)
_erf = np.vectorize(math.erf, otypes=[np.float64])
UNARY = {
    "log1p": (tf.math.log1p, np.log1p, lambda s: RNG.uniform(0.1, 2.0, s)),
    "expm1": (tf.math.expm1, np.expm1, lambda s: RNG.normal(size=s)),
    "reciprocal": (tf.math.reciprocal, np.reciprocal, lambda s: RNG.uniform(0.5, 2.0, s)),
    "rsqrt": (tf.math.rsqrt, lambda x: 1 / np.sqrt(x), lambda s: RNG.uniform(0.5, 2.0, s)),
    "erf": (tf.math.erf, _erf, lambda s: RNG.normal(size=s)),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("shape", [(), (0,), (2, 3)], ids=["scalar", "empty", "matrix"])
def test_unary_matches_numpy_and_keeps_dtype(name, shape):
    fn, reference, sample = UNARY[name]
    x = sample(shape).astype(np.float32)
    out = fn(x)
    assert out.dtype == tf.float32 and out.shape == shape
    np.testing.assert_allclose(out.numpy(), reference(x.astype(np.float64)), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_gradient(name):
    fn, _, sample = UNARY[name]
    check_gradient(fn, sample((2, 3)))


def test_unary_rejects_integers_and_handles_edges():
    with pytest.raises(InvalidArgumentError, match="floating"):
        tf.math.log1p(tf.constant([1, 2]))
    assert tf.math.reciprocal(0.0).numpy() == np.inf
    assert tf.math.rsqrt(0.0).numpy() == np.inf


@pytest.mark.parametrize("axis, keepdims", [(None, False), (0, False), (1, True), ((0, 1), False), (-1, False)])
def test_reduce_logsumexp_matches_numpy(axis, keepdims):
    x = RNG.normal(size=(3, 4)).astype(np.float32) * 50
    expected = np.log(np.sum(np.exp(x.astype(np.float64)), axis=axis, keepdims=keepdims))
    out = tf.reduce_logsumexp(x, axis=axis, keepdims=keepdims)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5)
    assert out.shape == np.shape(expected)


def test_reduce_logsumexp_is_stable_and_handles_edges():
    assert tf.math.reduce_logsumexp([1000.0, 1000.0]).numpy() == pytest.approx(1000 + np.log(2))
    assert tf.reduce_logsumexp([-np.inf, -np.inf]).numpy() == -np.inf
    assert tf.reduce_logsumexp(tf.constant(3.0)).numpy() == 3.0
    assert tf.reduce_logsumexp(tf.zeros([0])).numpy() == -np.inf
    check_gradient(lambda x: tf.reduce_logsumexp(x, axis=1), RNG.normal(size=(2, 3)))
    check_gradient(lambda x: tf.reduce_logsumexp(x, keepdims=True), RNG.normal(size=(2, 3)))


def test_clip_by_norm_matches_the_formula():
    t = np.array([[3.0, 4.0], [0.3, 0.4]], np.float32)
    np.testing.assert_allclose(tf.clip_by_norm(t, 1.0).numpy(), t / np.linalg.norm(t), rtol=1e-6)
    np.testing.assert_allclose(tf.clip_by_norm(t, 1.0, axes=[1]).numpy(), [[0.6, 0.8], [0.3, 0.4]], rtol=1e-6)
    np.testing.assert_array_equal(tf.clip_by_norm(tf.zeros([2]), 1.0).numpy(), [0.0, 0.0])
    check_gradient(lambda x: tf.clip_by_norm(x, 1.0), RNG.normal(size=(3,)) * 3)


def test_clip_by_global_norm():
    a, b = np.array([3.0], np.float32), np.array([[4.0]], np.float32)
    (ca, none, cb), norm = tf.clip_by_global_norm([a, None, b], 1.0)
    assert none is None and norm.numpy() == pytest.approx(5.0)
    np.testing.assert_allclose([ca.numpy()[0], cb.numpy()[0, 0]], [0.6, 0.8], rtol=1e-6)
    (unchanged,), _ = tf.clip_by_global_norm([a], 10.0)
    np.testing.assert_allclose(unchanged.numpy(), a)
    (forced,), used = tf.clip_by_global_norm([a], 1.0, use_norm=6.0)
    assert used.numpy() == 6.0 and forced.numpy()[0] == pytest.approx(0.5)


def _value_and_gradients(fn, *args):
    return fn(*[tf.constant(a) for a in args]).numpy(), tape_gradient(fn, *args)


# expected values and gradients: TensorFlow 2.21's
@pytest.mark.parametrize("fn, value, gradients", [
    (tf.math.xlogy, [0, 0, 2 * math.log(0.5), -np.inf], [[0, 0, math.log(0.5), -np.inf], [0, 0, 4, np.inf]]),
    (tf.math.xdivy, [0, 0, 4, np.inf], [[0, 0, 2, np.inf], [0, 0, -8, -np.inf]]),
])
def test_xlogy_and_xdivy_are_zero_where_x_is_with_zero_gradients(fn, value, gradients):
    got, grads = _value_and_gradients(fn, [0.0, 0.0, 2.0, 3.0], [0.0, 2.0, 0.5, 0.0])
    np.testing.assert_allclose(got, value, rtol=1e-6)
    for g, expected in zip(grads, gradients):
        np.testing.assert_allclose(g, expected, rtol=1e-6)   # no NaN from 0 * log(0) in the path not taken


def test_rint_rounds_halves_to_even():
    np.testing.assert_array_equal(tf.math.rint(tf.constant([0.5, 1.5, -2.5, 2.7])).numpy(), [0, 2, -2, 3])


@pytest.mark.parametrize("traced", [False, True])
def test_unsorted_segment_sum_drops_negative_ids_and_refuses_ids_past_the_count(traced):
    run = tf.function(tf.math.unsorted_segment_sum) if traced else tf.math.unsorted_segment_sum
    value, (grad,) = _value_and_gradients(lambda d: run(d, tf.constant([0, 2, -1, 0]), 3), [1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(value, [5, 0, 2])
    np.testing.assert_array_equal(grad, [1, 1, 0, 1])
    rows = run(tf.constant([[1, 2], [3, 4]]), tf.constant([1, 1]), 2)
    np.testing.assert_array_equal(rows.numpy(), [[0, 0], [4, 6]])
    with pytest.raises(InvalidArgumentError, match="not below num_segments=2"):
        run(tf.constant([1, 2]), tf.constant([0, 2]), 2)   # one past: not summed into the dropped ids' segment


@pytest.mark.parametrize("values, source, target, expected", [
    ([3e9, -3e9, 1.7, -1.7, float("inf")], "float32", "int32", [2147483520, -2147483648, 1, -1, 2147483520]),
    ([300.0, -5.0, 2.9], "float32", "uint8", [255, 0, 2]),
    ([1e300, -1e300, 1.5], "float64", "float32", [3.4028234663852886e+38, -3.4028234663852886e+38, 1.5]),
    ([70000, -70000, 3], "int32", "float16", [65504.0, -65504.0, 3.0]),
    ([2**40, -2**40, 5], "int64", "int32", [2147483647, -2147483648, 5]),
    ([-1, 300], "int32", "uint8", [0, 255]),
    ([2**63 - 1], "int64", "float32", [9.223372036854776e+18]),    # TensorFlow 2.21 gives -9.2e18 here
    ([3e9], "float32", "int64", [3000000000]),
])
def test_saturate_cast_clamps_to_the_targets_range_before_casting(values, source, target, expected):
    got = tf.saturate_cast(tf.constant(values, source), target)
    assert got.dtype.name == target and got.numpy().tolist() == expected
    assert tf.dtypes.saturate_cast(tf.constant(values, source), target).numpy().tolist() == expected


def test_saturate_cast_of_a_complex_value_keeps_the_real_part_and_refuses_bools():
    assert tf.saturate_cast(tf.constant([1 + 2j, 300 - 1j]), tf.uint8).numpy().tolist() == [1, 255]
    with pytest.raises(TypeError, match="a bool has no range"):
        tf.saturate_cast(tf.constant([True]), tf.int32)


def test_saturate_cast_passes_gradients_inside_the_range_only():
    x = tf.constant([100.0, 70000.0, -3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.saturate_cast(x, tf.float16)
    assert tape.gradient(y, x).numpy().tolist() == [1.0, 0.0, 1.0]
