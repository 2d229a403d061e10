"""`tf.math.lgamma`, `digamma`, `erfc`, `erfinv`, `ndtri`: float64 values against Python's own functions and
TensorFlow 2.21's float64 kernels (where installed), TensorFlow's answers at poles and outside the domains,
gradients against finite differences, and the same values under jit_compile."""
import math
import statistics

import numpy as np
import pytest

import runtime as tf

POINTS = {
    "lgamma": [0.5, 1.0, -0.5, 3.7, 1e-5, 50.0, -3.3, 171.5],
    "digamma": [0.5, 1.0, -0.5, 3.7, 1e-5, 50.0, -3.3, 11.999, 12.0, 1e4],
    "erfc": [-3.0, 0.0, 0.5, 3.0, 5.0, 9.0],
    "erfinv": [0.0, 0.5, -0.9, 0.999999, 1e-8],
    "ndtri": [0.5, 0.975, 1e-10, 0.999],
}
REFERENCE = {
    "lgamma": math.lgamma, "erfc": math.erfc,
    "erfinv": lambda v: statistics.NormalDist().inv_cdf((v + 1) / 2) / math.sqrt(2),
    "ndtri": statistics.NormalDist().inv_cdf,
    # ψ(x) = -γ + Σ (1/(k+1) - 1/(k+x)), summed to convergence for x > 0, reflected for x < 0
    "digamma": lambda v: _digamma_by_series(v),
}


def _digamma_by_series(v: float) -> float:
    if v < 0:
        return _digamma_by_series(1 - v) - math.pi / math.tan(math.pi * v)
    shift = 0.0
    while v < 30:
        shift -= 1 / v
        v += 1
    return shift + math.log(v) - 1 / (2 * v) - sum(b / (2 * k * v ** (2 * k)) for k, b in
                                                   ((1, 1 / 6), (2, -1 / 30), (3, 1 / 42), (4, -1 / 30), (5, 5 / 66)))


@pytest.mark.parametrize("name", POINTS)
def test_float64_values_are_those_of_the_functions_definitions(name):
    got = getattr(tf.math, name)(tf.constant(POINTS[name], tf.float64)).numpy()
    np.testing.assert_allclose(got, [REFERENCE[name](v) for v in POINTS[name]], rtol=1e-13, atol=1e-300)


def test_poles_and_points_outside_the_domain_give_tensorflows_values():
    assert tf.math.lgamma([0.0, -2.0]).numpy().tolist() == [np.inf, np.inf]
    assert np.isnan(tf.math.digamma([0.0, -2.0]).numpy()).all()
    assert tf.math.erfinv([1.0, -1.0]).numpy().tolist() == [np.inf, -np.inf]
    assert np.isnan(tf.math.erfinv([1.5]).numpy()).all()
    assert tf.math.ndtri([0.0, 1.0]).numpy().tolist() == [-np.inf, np.inf]
    assert np.isnan(tf.math.ndtri([-0.1, 1.5]).numpy()).all()


@pytest.mark.parametrize("name, point", [("lgamma", 2.5), ("lgamma", -0.5), ("digamma", 1.5), ("erfc", 0.7),
                                         ("erfinv", 0.3), ("ndtri", 0.2)])
def test_the_gradient_matches_finite_differences(name, point):
    x = tf.constant(point, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = getattr(tf.math, name)(x)
    step = 1e-6
    f = lambda v: float(getattr(tf.math, name)(tf.constant(v, tf.float64)))  # noqa: E731
    assert float(tape.gradient(y, x)) == pytest.approx((f(point + step) - f(point - step)) / (2 * step), rel=1e-6)


def _second_derivative(fn, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = fn(x)
        dy = inner.gradient(y, x)
    return outer.gradient(dy, x)


def test_erfinv_differentiates_twice_and_digamma_refuses_a_second_derivative_clearly():
    x = tf.constant(0.3, tf.float64)
    e = float(tf.math.erfinv(x))
    assert float(_second_derivative(tf.math.erfinv, x)) == pytest.approx(math.pi / 2 * e * math.exp(2 * e * e),
                                                                        rel=1e-9)
    with pytest.raises(NotImplementedError, match="second derivative of digamma"):
        _second_derivative(tf.math.digamma, x)


def test_under_jit_compile_the_values_are_the_executors():
    def f(x):
        return tf.math.lgamma(x + 3.0), tf.math.digamma(x + 3.0), tf.math.erfc(x), tf.math.erfinv(x / 5.0), \
            tf.math.ndtri(x / 5.0 + 0.5)
    x = tf.constant([-1.0, 0.25, 2.0], tf.float64)
    for got, expected in zip(tf.function(f, jit_compile=True)(x), tf.function(f)(x)):
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-12)


def test_the_float64_values_are_tensorflows():
    real = pytest.importorskip("tensorflow", reason="TensorFlow is not installed: the definitions above stand")
    for name, points in POINTS.items():
        np.testing.assert_allclose(getattr(tf.math, name)(tf.constant(points, tf.float64)).numpy(),
                                   getattr(real.math, name)(real.constant(points, real.float64)).numpy(),
                                   rtol=1e-12, err_msg=name)


A = np.array([[-1000.0, 1.0, 2.0, 80.0], [0.5, -0.5, 3.0, 1.0]], np.float32)


@pytest.mark.parametrize("kw", [dict(axis=1), dict(axis=0), dict(axis=1, exclusive=True), dict(axis=1, reverse=True),
                                dict(axis=-1, exclusive=True, reverse=True)], ids=str)
def test_cumulative_logsumexp_is_the_log_of_the_running_sum_without_overflow(kw):
    x = A.astype(np.float64)
    moved = np.flip(x, kw["axis"]) if kw.get("reverse") else x
    expected = np.logaddexp.accumulate(moved, axis=kw["axis"])
    if kw.get("exclusive"):
        expected = np.concatenate([np.full_like(np.take(expected, [0], kw["axis"]), -np.inf),
                                   np.delete(expected, -1, kw["axis"])], kw["axis"])
    expected = np.flip(expected, kw["axis"]) if kw.get("reverse") else expected
    np.testing.assert_allclose(tf.math.cumulative_logsumexp(A, **kw).numpy(), expected, rtol=1e-6)
    def loss(v):   # (an exclusive sum's first item, -inf, left out)
        y = tf.math.cumulative_logsumexp(v, **kw)
        return tf.reduce_sum(tf.where(tf.math.is_finite(y), y, tf.zeros_like(y)) * np.array([[1.0, -2.0], [0.5, 3.0]]))
    with tf.GradientTape() as tape:   # the gradient: sum over i of g_i * exp(x_j - y_i), against finite differences
        x64 = tf.constant(x[:, 1:3])
        tape.watch(x64)
        y = loss(x64)
    probe, step = np.array([[0.3, -0.7], [1.1, 0.2]]), 1e-6
    f = lambda v: float(loss(tf.constant(v)))  # noqa: E731
    numeric = (f(x[:, 1:3] + step * probe) - f(x[:, 1:3] - step * probe)) / (2 * step)
    assert float(tf.reduce_sum(tape.gradient(y, x64) * probe)) == pytest.approx(numeric, rel=1e-6)
