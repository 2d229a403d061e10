"""`tf.gradients` in a traced function, `tf.recompute_grad` and `tf.autodiff.ForwardAccumulator` (runtime/
graph_gradients.py), with the values TensorFlow 2.21 gives (worked out by hand here; tools/grad_probe.py, area
apis, compares them with TensorFlow itself)."""
import numpy as np
import pytest

import runtime as tf

X = np.array([1.0, 2.0, 0.5], np.float32)
T = np.array([1.0, -0.5, 2.0], np.float32)


def test_gradients_in_a_function_sums_the_targets_and_honours_its_options():
    @tf.function
    def f(x):
        y = tf.reduce_sum(x ** 3)
        z = x * x
        return [tf.gradients(y, x), tf.gradients([y, z], [x], grad_ys=[tf.constant(2.0), tf.ones_like(x)]),
                tf.gradients(y + tf.reduce_sum(z), x, stop_gradients=[z]),
                tf.gradients(y, [x, tf.constant(1.0) + 0.0]),
                tf.gradients(y, [x, tf.constant(1.0) + 0.0], unconnected_gradients="zero"),
                tf.gradients(tf.gradients(y, x)[0], x)]
    plain, weighted, held, unconnected, zero, second = f(tf.constant(X))
    np.testing.assert_allclose(plain[0].numpy(), 3 * X ** 2)
    np.testing.assert_allclose(weighted[0].numpy(), 6 * X ** 2 + 2 * X)
    np.testing.assert_allclose(held[0].numpy(), 3 * X ** 2)   # z held: its 2x is not added
    assert unconnected[1] is None and float(zero[1]) == 0.0
    np.testing.assert_allclose(second[0].numpy(), 6 * X)


def test_gradients_eagerly_is_tensorflows_runtime_error():
    with pytest.raises(RuntimeError, match="not supported when eager execution is enabled"):
        tf.gradients(tf.constant(1.0), tf.constant(2.0))


@pytest.mark.parametrize("run", [lambda f: f, tf.function], ids=["eager", "function"])
def test_recompute_grad_gives_the_blocks_gradients_variables_included(run):
    w = tf.Variable([0.5, -1.0, 2.0])
    block = tf.recompute_grad(lambda a: tf.sin(a * w) * a)

    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(block(x))
        return tape.gradient(y, [x, w])
    dx, dw = run(f)(tf.constant(X))
    wv = w.numpy()
    np.testing.assert_allclose(dx.numpy(), np.cos(X * wv) * wv * X + np.sin(X * wv), rtol=1e-5)
    np.testing.assert_allclose(dw.numpy(), np.cos(X * wv) * X * X, rtol=1e-5)


@pytest.mark.parametrize("run", [lambda f: f, tf.function], ids=["eager", "function"])
def test_forward_accumulator_gives_jacobian_vector_products(run):
    def f(x, t):
        with tf.autodiff.ForwardAccumulator(x, t) as acc:
            outs = [tf.sin(x) * x, tf.sqrt(x), tf.reduce_max(x), tf.constant(1.0), tf.cast(x, tf.int32)]
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.reduce_sum(x ** 3)
            g = tape.gradient(y, x)
        return [acc.jvp(outs), acc.jvp(outs[3], unconnected_gradients="zero"), acc.jvp(g)]
    (trig, root, top, const, ints), zero, hvp = run(f)(tf.constant(X), tf.constant(T))
    np.testing.assert_allclose(trig.numpy(), (np.cos(X) * X + np.sin(X)) * T, rtol=1e-5)
    np.testing.assert_allclose(root.numpy(), T / (2 * np.sqrt(X)), rtol=1e-5)   # sqrt's rule: was 0 with u = 0
    assert float(top) == T[1] and const is None and ints is None and float(zero) == 0.0
    np.testing.assert_allclose(hvp.numpy(), 6 * X * T, rtol=1e-5)   # a Hessian-vector product


def test_forward_accumulator_wants_one_tangent_per_primal():
    with pytest.raises(ValueError, match="2 primals but 1 tangents"):
        tf.autodiff.ForwardAccumulator([tf.constant(1.0), tf.constant(2.0)], [tf.constant(1.0)])
