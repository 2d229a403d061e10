"""Differences from TensorFlow 2.21 found by running the same programs under `import tensorflow as tf` and
`import runtime as tf` (fourteenth session, tools/grad_probe_cases_round14.py): `clip_by_global_norm` of tensors
whose global norm is inf or NaN, the gradient of `reduce_logsumexp` where its result rounds away log(n), and
`softsign`'s gradient at ±inf. TensorFlow's values are written here as literals (from TensorFlow 2.21), so no
test needs TensorFlow."""
import numpy as np
import pytest

import runtime as tf
from tests.runtime.test_gradients_round13 import _first_and_second

MODES = {"eager": lambda f: f, "function": tf.function, "jit": lambda f: tf.function(f, jit_compile=True)}
INF, NAN = np.inf, np.nan


def _value_and_gradient(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return y, tape.gradient(y, x)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_clip_by_global_norm_makes_every_entry_nan_when_the_global_norm_is_inf_or_nan(mode):
    clip = MODES[mode](lambda a, b: tf.clip_by_global_norm([a, b], 1.0))
    for big in (INF, NAN):
        (ca, cb), norm = clip(tf.constant([big, 1.0]), tf.constant([2.0]))
        np.testing.assert_array_equal(ca.numpy(), [NAN, NAN])
        np.testing.assert_array_equal(cb.numpy(), [NAN])
        np.testing.assert_array_equal(norm.numpy(), big)


def test_clip_by_global_norm_with_an_inf_use_norm_gives_nan_and_a_finite_one_scales():
    (forced,), used = tf.clip_by_global_norm([tf.constant([3.0, 4.0])], 1.0, use_norm=INF)
    np.testing.assert_array_equal(forced.numpy(), [NAN, NAN])
    (scaled,), _ = tf.clip_by_global_norm([tf.constant([3.0, 4.0])], 1.0, use_norm=10.0)
    np.testing.assert_allclose(scaled.numpy(), [0.3, 0.4], rtol=1e-6)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_reduce_logsumexp_gradient_is_the_softmax_even_where_its_result_rounds_away_log_n(mode):
    x = tf.constant([[1e30, 1e30], [INF, 1.0], [NAN, 2.0], [-INF, -INF], [1.0, 2.0]])
    value, gradient = MODES[mode](lambda v: _value_and_gradient(lambda a: tf.reduce_logsumexp(a, axis=1), v))(x)
    np.testing.assert_array_equal(value.numpy()[:4], np.float32([1e30, INF, NAN, -INF]))
    np.testing.assert_allclose(gradient.numpy(), [[0.5, 0.5], [NAN, 0.0], [NAN, NAN], [NAN, NAN],
                                                  [0.26894143, 0.7310586]], rtol=1e-6)


def test_reduce_logsumexp_gradient_over_all_axes_and_kept_axes_is_the_softmax():
    x = tf.constant([[3e30, 3e30], [3e30, 3e30]], tf.float32)
    np.testing.assert_allclose(_value_and_gradient(tf.reduce_logsumexp, x)[1].numpy(), [[0.25, 0.25], [0.25, 0.25]])
    kept = _value_and_gradient(lambda a: tf.reduce_logsumexp(a, axis=0, keepdims=True), x)[1]
    np.testing.assert_allclose(kept.numpy(), [[0.5, 0.5], [0.5, 0.5]])


@pytest.mark.parametrize("mode", sorted(MODES))
def test_softsign_gradient_is_tensorflows_and_zero_at_the_infinities(mode):
    x = tf.constant([INF, -INF, 0.0, 2.0, -2.0, 1e30, NAN])
    value, gradient = MODES[mode](lambda v: _value_and_gradient(tf.nn.softsign, v))(x)
    np.testing.assert_allclose(value.numpy(), [NAN, NAN, 0.0, 2 / 3, -2 / 3, 1.0, NAN], rtol=1e-6)
    np.testing.assert_allclose(gradient.numpy(), [0.0, 0.0, 1.0, 1 / 9, 1 / 9, 0.0, NAN], rtol=1e-6)


def test_softsign_is_one_op_in_both_namespaces_and_keeps_float16():
    assert tf.math.softsign is tf.nn.softsign
    assert tf.nn.softsign(tf.constant([1.0], tf.float16)).dtype == tf.float16
    graph = tf.function(tf.nn.softsign).get_concrete_function(tf.TensorSpec([2])).graph
    assert [op.type for op in graph.operations if op.type not in ("Placeholder", "Identity")] == ["Softsign"]


Z = np.array([[100.0, 0.0, -100.0], [1.0, 2.0, 3.0]], np.float32)
ONE_HOT = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]], np.float32)
# TensorFlow 2.21's (Keras 3) losses of softmax(Z) and sigmoid(Z): eagerly the probabilities are clipped to
# [1e-7, 1 - 1e-7]; inside a function the Softmax or Sigmoid op's input is taken as the logits
CATEGORICAL = {"eager": [16.118095, 1.407606], "function": [200.0, 1.407606]}
BINARY = {"eager": [10.917876, 1.496259], "function": [66.897713, 1.496259]}


def _losses(z):
    probabilities, sigmoids = tf.nn.softmax(z), tf.sigmoid(z)
    return [tf.keras.losses.categorical_crossentropy(ONE_HOT, probabilities),
            tf.keras.losses.sparse_categorical_crossentropy([2, 1], probabilities),
            tf.keras.losses.binary_crossentropy(ONE_HOT, sigmoids)]


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_keras_losses_of_softmax_and_sigmoid_outputs_use_their_logits_inside_functions_only(mode):
    categorical, sparse, binary = MODES[mode](_losses)(tf.constant(Z))
    np.testing.assert_allclose(categorical.numpy(), CATEGORICAL[mode], rtol=1e-5)
    np.testing.assert_allclose(sparse.numpy(), CATEGORICAL[mode], rtol=1e-5)
    np.testing.assert_allclose(binary.numpy(), BINARY[mode], rtol=1e-5)


def test_sparse_categorical_crossentropy_clips_probabilities_without_dividing_by_their_sum():
    p = tf.constant([[0.0, 1.0, 0.5], [2.0, 1.0, 1.0]])
    loss, gradient = _value_and_gradient(lambda q: tf.keras.losses.sparse_categorical_crossentropy([1, 0], q), p)
    np.testing.assert_allclose(loss.numpy(), [0.4054651, 1.0986123], rtol=1e-5)   # log(1.5), log(3): 2 clips to 1
    np.testing.assert_allclose(gradient.numpy(), [[0.0, 0.0, 0.6666666], [0.0, 0.0, 0.0]], atol=1e-6)


@tf.custom_gradient
def _square_with_a_looping_gradient(x):
    def grad(dy):
        acc = dy
        for _ in tf.range(3):     # staged: grad is converted, as f is (TensorFlow 2.21 converts neither: raises)
            acc = acc * 0.5 + x
        return acc
    return x * x, grad


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_custom_gradients_grad_fn_with_a_loop_on_tensors_is_converted_inside_a_function(mode):
    def gradient(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(_square_with_a_looping_gradient(x) * 2.0)
        return tape.gradient(y, x)
    got = MODES[mode](gradient)(tf.constant([0.5, -1.5]))
    np.testing.assert_allclose(got.numpy(), [1.125, -2.375])    # 2 * 0.5**3 + 1.75 * x


SEGMENT_DATA = [[-2.0, -1.0], [0.0, 1.0], [2.0, 3.0]]
# program -> (TensorFlow 2.21's gradient, and second derivative: the gradient of the gradient's sum)
SEGMENT_PRODUCTS = {
    "sorted": (lambda x: tf.math.segment_prod(x, [0, 1, 1]), [[1, 1], [2, 3], [0, 1]], [[0, 0], [1, 1], [1, 1]]),
    "unsorted": (lambda x: tf.math.unsorted_segment_prod(x, [0, 0, 1], 2),
                 [[0, 1], [-2, -1], [1, 1]], [[NAN, 1], [NAN, 1], [0, 0]]),
    "unsorted, a row dropped": (lambda x: tf.math.unsorted_segment_prod(x, [1, -1, 1], 3),
                                [[2, 3], [0, 0], [-2, -1]], [[1, 1], [NAN, 0], [1, 1]]),
    "sorted, one segment": (lambda x: tf.math.segment_prod(x, [0, 0, 0]),
                            [[0, 3], [-4, -3], [0, -1]], [[2, 4], [0, 2], [-2, 0]]),
    "unsorted, one segment": (lambda x: tf.math.unsorted_segment_prod(x, [0, 0, 0], 1),
                              [[0, 3], [-4, -3], [0, -1]], [[NAN, 4], [NAN, 2], [NAN, 0]]),
}


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("name", sorted(SEGMENT_PRODUCTS))
def test_segment_products_have_tensorflows_first_and_second_derivatives_at_a_zero_factor(name, mode):
    f, first, second = SEGMENT_PRODUCTS[name]
    _, g, h = MODES[mode](lambda x: _first_and_second(f, x))(tf.constant(SEGMENT_DATA))
    np.testing.assert_allclose(g.numpy(), first)
    np.testing.assert_allclose(h.numpy(), second, rtol=1e-6)


XDIVY_X = [-1.0, -1.0, 0.0, 0.0, 0.0, 0.5, 0.5, 2.0, 0.0]
XDIVY_Y = [-INF, INF, -INF, -1.0, 0.0, 0.0, 2.0, -1.0, NAN]
# TensorFlow 2.21's xdivy, its gradients and the gradients of 1.5 * sum(dx) - 0.5 * sum(dy): its rule's y**2
# meets 0 * inf where y is infinite or 0, so the second derivative in y is NaN there
XDIVY = ([0.0, 0.0, 0.0, 0.0, 0.0, INF, 0.25, -2.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, INF, 0.5, -1.0, 0.0],
         [0.0, 0.0, 0.0, 0.0, 0.0, -INF, -0.125, -2.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, INF, 0.125, 0.5, 0.0],
         [NAN, NAN, NAN, 0.0, 0.0, NAN, -0.4375, 0.5, NAN])


def _xdivy_derivatives(x, y):
    with tf.GradientTape() as outer:
        outer.watch([x, y])
        with tf.GradientTape() as inner:
            inner.watch([x, y])
            z = tf.math.xdivy(x, y)
        gx, gy = inner.gradient(z, [x, y])
        total = tf.reduce_sum(gx * 1.5) + tf.reduce_sum(gy * -0.5)
    return [z, gx, gy, *outer.gradient(total, [x, y])]


@pytest.mark.parametrize("mode", sorted(MODES))
def test_xdivy_has_tensorflows_first_and_second_derivatives_where_x_or_y_is_zero_or_infinite(mode):
    got = MODES[mode](_xdivy_derivatives)(tf.constant(XDIVY_X), tf.constant(XDIVY_Y))
    for result, expected in zip(got, XDIVY):
        np.testing.assert_allclose(result.numpy(), expected)
