"""SGD (with momentum), Adam, RMSprop and Adagrad against NumPy transcriptions of Keras's formulas, eagerly and
traced; gradient clipping and weight decay (test_against_tensorflow.py compares all of them with Keras itself)."""
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


def numpy_rmsprop(w, lr, rho, momentum, eps, centered, steps):
    velocity, mom, average = np.zeros_like(w), np.zeros_like(w), np.zeros_like(w)
    for _ in range(steps):
        g = quadratic_grads(w)
        velocity = rho * velocity + (1 - rho) * g * g
        average = rho * average + (1 - rho) * g
        increment = lr * g / np.sqrt(velocity - average ** 2 + eps if centered else velocity + eps)
        mom = momentum * mom + increment
        w = w - (mom if momentum else increment)
    return w


def numpy_adagrad(w, lr, initial, eps, steps):
    accumulator = np.full_like(w, initial)
    for _ in range(steps):
        g = quadratic_grads(w)
        accumulator = accumulator + g * g
        w = w - lr * g / np.sqrt(accumulator + eps)
    return w


@pytest.mark.parametrize("traced", [False, True])
@pytest.mark.parametrize("momentum,centered", [(0.0, False), (0.5, False), (0.0, True), (0.3, True)])
def test_rmsprop_matches_keras_formula(traced, momentum, centered):
    opt = tf.keras.optimizers.RMSprop(0.05, rho=0.8, momentum=momentum, centered=centered)
    np.testing.assert_allclose(train(opt, 5, traced), numpy_rmsprop(W0, 0.05, 0.8, momentum, 1e-7, centered, 5),
                               rtol=1e-5)


@pytest.mark.parametrize("traced", [False, True])
def test_adagrad_matches_keras_formula(traced):
    opt = tf.keras.optimizers.Adagrad(0.2, initial_accumulator_value=1.0)
    np.testing.assert_allclose(train(opt, 5, traced), numpy_adagrad(W0, 0.2, 1.0, 1e-7, 5), rtol=1e-5)


def test_amsgrad_keeps_the_largest_second_moment():
    w = tf.Variable([1.0])
    opt = tf.keras.optimizers.Adam(0.1, amsgrad=True)
    for g in (10.0, 0.1):                 # the second moment falls; v_hat keeps the first one
        opt.apply_gradients([(tf.constant([g]), w)])
    slots = {v.name.split(":")[0].rsplit("/", 1)[-1]: float(v.numpy()[0]) for v in opt.variables()[2:]}
    assert slots["v_hat"] == pytest.approx(0.001 * 100) and slots["v"] < slots["v_hat"]


@pytest.mark.parametrize("traced", [False, True])
def test_clipping_then_weight_decay_then_the_update(traced):
    # Keras's order: the gradients are clipped, each variable shrinks by w * weight_decay * lr, then the step
    lr, wd = 0.1, 0.5
    for kwargs, clip in [({"clipnorm": 1.0}, lambda g: g * min(1.0, 1.0 / np.linalg.norm(g))),
                         ({"global_clipnorm": 1.0}, lambda g: g * min(1.0, 1.0 / np.linalg.norm(g))),
                         ({"clipvalue": 1.0}, lambda g: np.clip(g, -1.0, 1.0))]:
        opt = tf.keras.optimizers.SGD(lr, weight_decay=wd, **kwargs)
        expected = W0.copy()
        for _ in range(3):
            g = clip(quadratic_grads(expected))
            expected = expected - expected * wd * lr - lr * g
        np.testing.assert_allclose(train(opt, 3, traced), expected, rtol=1e-5, err_msg=str(kwargs))


def test_weight_decay_leaves_excluded_variables_alone_and_clip_options_are_exclusive():
    kept, decayed = tf.Variable([1.0], name="bias"), tf.Variable([1.0], name="kernel")
    opt = tf.keras.optimizers.SGD(0.1, weight_decay=0.5)
    opt.exclude_from_weight_decay(var_names=["bias"])
    opt.apply_gradients([(tf.constant([0.0]), kept), (tf.constant([0.0]), decayed)])
    assert float(kept.numpy()[0]) == 1.0 and float(decayed.numpy()[0]) == pytest.approx(0.95)
    with pytest.raises(ValueError, match="Only one of `clipnorm`"):
        tf.keras.optimizers.Adam(clipnorm=1.0, clipvalue=1.0)


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


def test_a_training_step_whose_optimizer_makes_slots_is_traced_twice_on_its_first_call_as_in_tensorflow():
    def tracing_count(optimizer) -> int:
        w = tf.Variable([1.0, -2.0])

        @tf.function
        def step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum((w * x - 3.0) ** 2)
            optimizer.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
            return loss

        for _ in range(3):
            step(tf.constant([1.0, 2.0]))
        return step.experimental_get_tracing_count()

    assert tracing_count(tf.keras.optimizers.Adam(0.1)) == 2       # slots made in the first trace
    assert tracing_count(tf.keras.optimizers.SGD(0.1)) == 1        # no slots
