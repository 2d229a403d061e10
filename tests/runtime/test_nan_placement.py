"""Where NaN and infinities go, in every mode: sorts, softmax, and the bool casts XLA's simplifier rewrites.
The values are TensorFlow 2.21's (its `jit_compile=True` answer where its CPU kernels disagree with it,
docs/runtime.md "Differences from TensorFlow"); tools/grad_probe.py compares the same programs with
TensorFlow itself (areas edge-sort, edge-nn, extremes)."""
import numpy as np
import pytest

import runtime as tf

INF, NAN = float("inf"), float("nan")
pytestmark = pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning", "ignore:divide by zero:RuntimeWarning")


def _jit(f):
    pytest.importorskip("jax", reason="jit_compile=True needs the jax extra")
    return tf.function(f, jit_compile=True)


MODES = {"eager": lambda f: f, "function": tf.function, "jit": _jit}


def _values(mode, program, *args):
    out = MODES[mode](program)(*[tf.constant(np.asarray(a, np.float32)) for a in args])
    return [o.numpy() for o in out]


@pytest.mark.parametrize("mode", sorted(MODES))
def test_sort_argsort_and_top_k_put_nan_above_every_number(mode):
    x = [3, NAN, -INF, 1, NAN, INF, 1]
    got = _values(mode, lambda a: [tf.sort(a), tf.sort(a, direction="DESCENDING"), tf.argsort(a, stable=True),
                                   tf.argsort(a, direction="DESCENDING", stable=True), *tf.math.top_k(a, 3)], x)
    # TensorFlow's jit_compile=True; its CPU kernel gives [-inf, 3, nan, 1, nan, 1, inf] for the first
    np.testing.assert_array_equal(got[0], [-INF, 1, 1, 3, INF, NAN, NAN])
    np.testing.assert_array_equal(got[1], [NAN, NAN, INF, 3, 1, 1, -INF])
    assert got[2].tolist() == [2, 3, 6, 0, 5, 1, 4]
    assert got[3].tolist() == [1, 4, 5, 0, 3, 6, 2]
    np.testing.assert_array_equal(got[4], [NAN, NAN, INF])
    assert got[5].tolist() == [1, 4, 5]


@pytest.mark.parametrize("mode", sorted(MODES))
def test_softmax_of_a_row_holding_nan_or_plus_inf_is_nan_in_the_whole_row(mode):
    rows = [[-INF, -INF, -INF], [-INF, 0, 1], [INF, 0, 1], [1e30, 1e30, -1e30], [NAN, 0, 1]]
    soft, log_soft = _values(mode, lambda a: [tf.nn.softmax(a), tf.nn.log_softmax(a)], rows)
    # TensorFlow's jit_compile=True and float64 kernel; its float32 CPU kernel gives [nan, 0, 0] for rows 2, 4
    np.testing.assert_allclose(soft, [[NAN] * 3, [0, 0.26894143, 0.7310586], [NAN] * 3, [0.5, 0.5, 0], [NAN] * 3],
                               rtol=1e-6)
    np.testing.assert_allclose(log_soft, [[NAN] * 3, [-INF, -1.3132616, -0.31326163], [NAN] * 3,
                                          [-0.6931472, -0.6931472, -2e30], [NAN] * 3], rtol=1e-6)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_bool_cast_times_inf_or_divided_by_zero_keeps_its_nan(mode):
    # XLA rewrote convert(p) * y as select(p, y, 0) and convert(p) / t as select(p, 1 / t, 0)
    def program(a, b):
        hits = tf.cast(a > 1.0, tf.float32)
        return [hits * b, hits / tf.reduce_sum(a * 0.0)]
    product, quotient = _values(mode, program, [2, 0, 2, 0], [1, INF, NAN, 0])
    np.testing.assert_array_equal(product, [1, NAN, NAN, 0])   # TensorFlow's (0 * inf is NaN)
    np.testing.assert_array_equal(quotient, [INF, NAN, INF, NAN])


@pytest.mark.parametrize("mode", sorted(MODES))
def test_the_gradient_of_reduce_max_over_a_nan_is_nan_everywhere(mode):
    def program(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_max(x * tf.constant([1.0, NAN, 1.0, 1.0]))
        return [y, tape.gradient(y, x)]
    y, grad = _values(mode, program, [1.5, 0.5, 2.0, 0.25])
    assert np.isnan(y)
    np.testing.assert_array_equal(grad, [NAN] * 4)   # TensorFlow's tf.function (its hits, all 0, over 0 hits)
