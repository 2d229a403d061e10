"""runtime.nn (runtime/ops/nn_ops.py): activations, softmax, losses and dropout against NumPy."""
import math

import numpy as np
import pytest

import runtime as tf
from gradcheck import check_gradient
from runtime.errors import InvalidArgumentError

RNG = np.random.default_rng(3)
_erf = np.vectorize(math.erf, otypes=[np.float64])
ALPHA, SCALE = 1.6732632423543772, 1.0507009873554805
ACTIVATIONS = {
    "relu": (tf.nn.relu, lambda x: np.maximum(x, 0)),
    "relu6": (tf.nn.relu6, lambda x: np.clip(x, 0, 6)),
    "leaky_relu": (lambda x: tf.nn.leaky_relu(x, alpha=0.3), lambda x: np.where(x > 0, x, 0.3 * x)),
    "elu": (tf.nn.elu, lambda x: np.where(x > 0, x, np.expm1(x))),
    "selu": (tf.nn.selu, lambda x: SCALE * np.where(x > 0, x, ALPHA * np.expm1(x))),
    "gelu": (tf.nn.gelu, lambda x: 0.5 * x * (1 + _erf(x / np.sqrt(2)))),
    "gelu_tanh": (lambda x: tf.nn.gelu(x, approximate=True),
                  lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))),
    "sigmoid": (tf.nn.sigmoid, lambda x: 1 / (1 + np.exp(-x))),
    "softplus": (tf.nn.softplus, lambda x: np.log1p(np.exp(x))),
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
@pytest.mark.parametrize("shape", [(), (0,), (2, 5)], ids=["scalar", "empty", "matrix"])
def test_activation_matches_numpy(name, shape):
    fn, reference = ACTIVATIONS[name]
    x = (RNG.normal(size=shape) * 4).astype(np.float32)
    out = fn(x)
    assert out.dtype == tf.float32 and out.shape == shape
    np.testing.assert_allclose(out.numpy(), reference(x.astype(np.float64)), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activation_gradient(name):
    x = RNG.normal(size=(2, 5)) * 4
    x = np.where(np.abs(x) < 0.05, 0.5, x)  # keep away from the kinks at 0 (and 6)
    x = np.where(np.abs(x - 6) < 0.05, 5.0, x)
    check_gradient(ACTIVATIONS[name][0], x)


def test_relu_keeps_integers_and_softplus_is_stable():
    assert tf.nn.relu([-2, 3]).numpy().tolist() == [0, 3]
    leaky = tf.nn.leaky_relu(tf.constant([-2, 3]))     # TensorFlow casts integers to float32 first
    assert leaky.dtype == tf.float32 and leaky.numpy().tolist() == pytest.approx([-0.4, 3.0])
    assert tf.nn.softplus(1000.0).numpy() == 1000.0 and tf.nn.softplus(-1000.0).numpy() == 0.0


def _np_softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("axis", [None, 0, -1])
def test_softmax_and_log_softmax_match_numpy(axis):
    x = RNG.normal(size=(3, 4)).astype(np.float32) * 30
    np_axis = -1 if axis is None else axis
    np.testing.assert_allclose(tf.nn.softmax(x, axis=axis).numpy(), _np_softmax(x.astype(np.float64), np_axis),
                               rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(tf.nn.log_softmax(x, axis=axis).numpy(),
                               np.log(_np_softmax(x.astype(np.float64), np_axis)), rtol=1e-5, atol=1e-5)
    check_gradient(lambda v: tf.nn.softmax(v, axis=axis), RNG.normal(size=(3, 4)))
    check_gradient(lambda v: tf.nn.log_softmax(v, axis=axis), RNG.normal(size=(3, 4)))


def test_softmax_edges():
    assert tf.nn.softmax(tf.zeros([2, 0])).shape == (2, 0)
    np.testing.assert_allclose(tf.nn.softmax([1000.0, 1000.0]).numpy(), [0.5, 0.5])
    with pytest.raises(InvalidArgumentError, match="rank"):
        tf.nn.softmax(1.0)


def test_cross_entropies_match_numpy():
    logits = RNG.normal(size=(4, 3)).astype(np.float32)
    labels = np.array([0, 2, 1, 2])
    one_hot = np.eye(3, dtype=np.float32)[labels]
    expected = -np.log(_np_softmax(logits.astype(np.float64), -1))[np.arange(4), labels]
    sparse = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    dense = tf.nn.softmax_cross_entropy_with_logits(labels=one_hot, logits=logits)
    np.testing.assert_allclose(sparse.numpy(), expected, rtol=1e-5)
    np.testing.assert_allclose(dense.numpy(), expected, rtol=1e-5)
    z = (RNG.uniform(size=(4, 3)) > 0.5).astype(np.float32)
    sig = tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=logits * 100)
    x = logits.astype(np.float64) * 100
    np.testing.assert_allclose(sig.numpy(), np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x))), rtol=1e-5,
                               atol=1e-6)
    assert tf.nn.sparse_softmax_cross_entropy_with_logits(labels=3, logits=[0.0, 0.0, 0.0, 0.0]).shape == ()


def test_cross_entropy_gradients_and_errors():
    labels = np.array([1, 0])
    check_gradient(lambda v: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=v),
                   RNG.normal(size=(2, 3)))
    check_gradient(lambda z, v: tf.nn.softmax_cross_entropy_with_logits(z, v), RNG.uniform(size=(2, 3)),
                   RNG.normal(size=(2, 3)))
    check_gradient(lambda z, v: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=v),
                   RNG.uniform(size=(2, 3)), RNG.normal(size=(2, 3)) + 0.5)
    with pytest.raises(InvalidArgumentError, match="outside the valid range"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[3], logits=[[0.0, 1.0, 2.0]])
    with pytest.raises(InvalidArgumentError, match="same shape"):
        tf.nn.softmax_cross_entropy_with_logits(labels=[1.0, 0.0], logits=[[1.0, 0.0]])


def test_l2_loss():
    x = RNG.normal(size=(3, 2)).astype(np.float32)
    assert tf.nn.l2_loss(x).numpy() == pytest.approx(np.sum(x ** 2) / 2, rel=1e-6)
    assert tf.nn.l2_loss(tf.zeros([0])).numpy() == 0.0
    check_gradient(tf.nn.l2_loss, RNG.normal(size=(3, 2)))


def test_dropout_zeroes_and_scales_reproducibly():
    tf.random.set_seed(7)
    x = tf.ones([1000])
    y = tf.nn.dropout(x, rate=0.25)
    assert np.all((y.numpy() == 0) | np.isclose(y.numpy(), 1 / 0.75))
    assert 0.15 < np.mean(y.numpy() == 0) < 0.35
    tf.random.set_seed(7)
    np.testing.assert_array_equal(tf.nn.dropout(x, rate=0.25).numpy(), y.numpy())
    np.testing.assert_array_equal(tf.nn.dropout(x, rate=0.0).numpy(), x.numpy())
    with pytest.raises(ValueError, match="rate"):
        tf.nn.dropout(x, rate=1.0)


def test_dropout_inside_a_function_with_an_unknown_batch():
    @tf.function(input_signature=[tf.TensorSpec([None, 4])])
    def f(x):
        return tf.nn.dropout(x, 0.5, noise_shape=[1, 4])

    out = f(tf.ones([3, 4])).numpy()
    assert out.shape == (3, 4) and (out == out[0]).all()


def _sparse_xent_derivatives(x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([2, 0]), logits=x)
                              * tf.constant([1.0, 3.0], x.dtype))
        g = inner.gradient(y, x)
        s = tf.reduce_sum(g * tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], x.dtype))
    return g, outer.gradient(s, x)


@pytest.mark.parametrize("staged", [False, True], ids=["eager", "function"])
def test_the_second_derivative_of_sparse_softmax_cross_entropy_is_tensorflows(staged):
    # the rule left out the gradient reaching the backprop output (the softmax minus the one-hot): zeros
    run = tf.function(_sparse_xent_derivatives) if staged else _sparse_xent_derivatives
    g, second = run(tf.constant([[1.5, -0.5, 2.0], [0.25, -1.0, 3.0]]))
    np.testing.assert_allclose(g.numpy(), [[0.359188, 0.048611, -0.407799], [-2.82279, 0.050771, 2.77202]],
                               rtol=1e-5)
    np.testing.assert_allclose(second.numpy(), [[-0.442884, -0.011327, 0.454211],     # TensorFlow 2.21's
                                                [-0.330484, -0.043914, 0.374396]], rtol=1e-5, atol=1e-6)


def test_the_second_derivative_of_sparse_softmax_cross_entropy_matches_finite_differences():
    x = RNG.normal(size=(2, 3))
    check_gradient(lambda v: _sparse_xent_derivatives(v)[0] * tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
                                                                           tf.float64), x)
