"""SGD (with momentum) and Adam against NumPy transcriptions of Keras's formulas, eagerly and traced."""
import numpy as np
import pytest

import runtime as tf


def quadratic_grads(w):
    return 2 * w   # d/dw sum(w * w)


def numpy_sgd(w, lr, momentum, nesterov, steps):
    v = np.zeros_like(w)
    for _ in range(steps):
        g = quadratic_grads(w)
        v = momentum * v - lr * g
        w = w + (momentum * v - lr * g if nesterov else v)
    return w


def numpy_adam(w, lr, b1, b2, eps, steps):
    m, v = np.zeros_like(w), np.zeros_like(w)
    for t in range(1, steps + 1):
        g = quadratic_grads(w)
        m, v = m + (g - m) * (1 - b1), v + (g * g - v) * (1 - b2)
        w = w - lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t) * m / (np.sqrt(v) + eps)
    return w


def train(optimizer, steps, traced):
    w = tf.Variable([1.0, -2.0, 0.5])

    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w)
        optimizer.apply_gradients(zip(tape.gradient(loss, [w]), [w]))

    step = tf.function(step) if traced else step
    for _ in range(steps):
        step()
    return w.numpy()


W0 = np.array([1.0, -2.0, 0.5], np.float32)


@pytest.mark.parametrize("traced", [False, True])
@pytest.mark.parametrize("momentum,nesterov", [(0.0, False), (0.9, False), (0.9, True)])
def test_sgd_matches_keras_formula(traced, momentum, nesterov):
    opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=momentum, nesterov=nesterov)
    np.testing.assert_allclose(train(opt, 5, traced), numpy_sgd(W0, 0.1, momentum, nesterov, 5), rtol=1e-5)
    assert int(opt.iterations.numpy()) == 5


@pytest.mark.parametrize("traced", [False, True])
def test_adam_matches_keras_formula(traced):
    opt = tf.optimizers.Adam(learning_rate=0.05)
    np.testing.assert_allclose(train(opt, 6, traced), numpy_adam(W0, 0.05, 0.9, 0.999, 1e-7, 6), rtol=1e-5)
    assert {v.name.split(":")[0].rsplit("/", 1)[-1] for v in opt.variables()[2:]} == {"m", "v"}


def test_minimize_with_a_callable_loss_and_a_changed_learning_rate_seen_by_a_traced_step():
    w = tf.Variable(3.0)
    opt = tf.keras.optimizers.SGD(learning_rate=0.5)

    @tf.function
    def step():
        opt.minimize(lambda: w * w, [w])

    step()
    assert float(w.numpy()) == 0.0          # 3 - 0.5 * 6
    w.assign(1.0)
    opt.learning_rate = 0.25
    step()
    assert float(w.numpy()) == 0.5 and step.experimental_get_tracing_count() == 1


def test_none_gradients_are_skipped_and_all_none_is_an_error():
    a, b = tf.Variable(1.0), tf.Variable(2.0)
    opt = tf.optimizers.SGD(1.0)
    opt.apply_gradients([(tf.constant(1.0), a), (None, b)])
    assert float(a.numpy()) == 0.0 and float(b.numpy()) == 2.0
    with pytest.raises(ValueError, match="No gradients"):
        opt.apply_gradients([(None, b)])
    with pytest.raises(ValueError, match="tape"):
        opt.minimize(tf.constant(1.0), [a])
