"""`GradientTape.jacobian` and `batch_jacobian` (runtime/jacobians.py): TensorFlow's documented examples,
shapes, unconnected sources and the persistent-tape rules, and values against central finite differences
in float64 — eagerly, with the tape inside a `tf.function` (a `while_loop` over the target's elements) and
outside one."""
import numpy as np
import pytest

import runtime as tf

F64 = tf.float64
W0 = np.array([[0.4, -0.7, 1.1], [0.9, 0.2, -0.3]])
X0 = np.array([[0.5, -0.2], [1.0, 0.7], [0.1, 0.2], [0.3, 0.4]])


def test_tensorflows_jacobian_example():
    with tf.GradientTape() as g:
        x = tf.constant([1.0, 2.0])
        g.watch(x)
        y = x * x
    np.testing.assert_array_equal(g.jacobian(y, x), [[2.0, 0.0], [0.0, 4.0]])


def test_tensorflows_batch_jacobian_example():
    with tf.GradientTape() as g:
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float32)
        g.watch(x)
        y = x * x
    np.testing.assert_array_equal(g.batch_jacobian(y, x), [[[2, 0], [0, 4]], [[6, 0], [0, 8]]])


def layer(w):
    def f(x):
        y = tf.matmul(x, w)
        for _ in tf.range(2):           # a While and a Cond in the function: their rules run once per row
            y = tf.tanh(y) * 1.5
        if tf.reduce_sum(y) > 0:
            y = y * y
        return y
    return f


def _jacobians(placement: str, w, x):
    f = layer(w)

    def jacobians(x):
        with tf.GradientTape(persistent=True) as g:
            g.watch(x)
            y = f(x)
        return g.jacobian(y, [x, w]), g.batch_jacobian(y, x)

    if placement == "eager":
        return jacobians(x)
    if placement == "tape inside":
        return tf.function(jacobians)(x)
    traced = tf.function(f)
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        y = traced(x)
    return g.jacobian(y, [x, w]), g.batch_jacobian(y, x)


def _finite_differences(f, at: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """d f / d at, shaped f's output shape + at.shape."""
    columns = []
    for k in range(at.size):
        step = np.zeros(at.size)
        step[k] = eps
        step = step.reshape(at.shape)
        columns.append((np.asarray(f(at + step)) - np.asarray(f(at - step))) / (2 * eps))
    out = np.stack(columns, axis=-1)
    return out.reshape(out.shape[:-1] + at.shape)


@pytest.mark.parametrize("placement", ["eager", "tape inside", "tape outside"])
def test_jacobians_through_a_loop_and_a_branch_match_finite_differences(placement):
    w = tf.Variable(W0)
    (jx, jw), batch = _jacobians(placement, w, tf.constant(X0))
    forward = tf.function(layer(w))
    expected_x = _finite_differences(lambda x: forward(tf.constant(x)), X0)

    def at_w(value):
        w.assign(value)
        return forward(tf.constant(X0))
    expected_w = _finite_differences(at_w, W0)
    assert jx.shape == (4, 3, 4, 2) and jw.shape == (4, 3, 2, 3) and batch.shape == (4, 3, 2)
    np.testing.assert_allclose(jx, expected_x, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(jw, expected_w, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(batch, [expected_x[b, :, b, :] for b in range(4)], rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "in a function"])
def test_shapes_are_the_targets_then_the_sources(traced):
    def shapes(x, s):
        with tf.GradientTape(persistent=True) as g:
            g.watch([x, s])
            y = tf.reshape(tf.tile(x * s, [1, 3]), [2, 2, 3])     # [2, 2, 3] from x [2, 2] and scalar s
            total = tf.reduce_sum(y)
        return [g.jacobian(y, s), g.jacobian(total, x), g.jacobian(y, x), g.batch_jacobian(y, x)]
    run = tf.function(shapes) if traced else shapes
    found = run(tf.constant([[1.0, 2.0], [3.0, 4.0]], F64), tf.constant(0.5, F64))
    assert [tuple(t.shape) for t in found] == [(2, 2, 3), (2, 2), (2, 2, 3, 2, 2), (2, 2, 3, 2)]
    np.testing.assert_allclose(found[1], [[1.5, 1.5], [1.5, 1.5]])     # each x appears 3 times, times s


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "in a function"])
def test_an_unconnected_source_gives_none_or_zeros_shaped_as_tensorflows(traced):
    def unconnected(x):
        with tf.GradientTape(persistent=True) as g:
            g.watch(x)
            y = tf.ones([3, 2], F64) * 2.0
        return (g.jacobian(y, x), g.jacobian(y, x, unconnected_gradients="zero"),
                g.batch_jacobian(y, x), g.batch_jacobian(y, x, unconnected_gradients=tf.UnconnectedGradients.ZERO))
    run = tf.function(unconnected) if traced else unconnected
    none, zeros, batch_none, batch_zeros = run(tf.ones([3, 4], F64))
    assert none is None
    assert zeros.shape == (3, 2, 3, 4) and not np.any(zeros)
    assert batch_zeros.shape == (3, 2, 4) and not np.any(batch_zeros)
    assert batch_none.shape == (3, 2, 4) and not np.any(batch_none)   # TensorFlow's batch_jacobian: never None


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "in a function"])
@pytest.mark.parametrize("use_pfor", [True, False])
def test_batch_jacobian_of_an_unconnected_source_is_zeros_of_the_targets_dtype_as_in_tensorflow(traced, use_pfor):
    def unconnected(x, z):
        with tf.GradientTape(persistent=True) as g:
            g.watch([x, z])
            y = x * 2.0
        return (g.batch_jacobian(y, z, experimental_use_pfor=use_pfor),
                g.batch_jacobian(y, z, unconnected_gradients="zero", experimental_use_pfor=use_pfor))
    run = tf.function(unconnected) if traced else unconnected
    as_none, as_zero = run(tf.ones([2, 3]), tf.ones([2, 1], F64))
    assert as_none.dtype == tf.float32 and as_none.shape == (2, 3, 1) and not np.any(as_none)
    assert as_zero.dtype == F64 and as_zero.shape == (2, 3, 1) and not np.any(as_zero)


def test_shapes_known_only_when_the_function_runs():
    w = tf.Variable(W0)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], F64)])
    def f(x):
        with tf.GradientTape(persistent=True) as g:
            g.watch(x)
            y = tf.tanh(tf.matmul(x, w))
        return g.jacobian(y, x), g.batch_jacobian(y, x)

    jx, batch = f(tf.constant(X0))
    (eager_jx, _), eager_batch = _plain_jacobians(w, tf.constant(X0))
    np.testing.assert_allclose(jx, eager_jx)
    np.testing.assert_allclose(batch, eager_batch)


def _plain_jacobians(w, x):
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        y = tf.tanh(tf.matmul(x, w))
    return g.jacobian(y, [x, w]), g.batch_jacobian(y, x)


def test_a_hessian_is_the_jacobian_of_a_gradient():
    @tf.function
    def hessian(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(x ** 3) + x[0] * x[1]
            g = inner.gradient(y, x)
        return outer.jacobian(g, x)

    np.testing.assert_allclose(hessian(tf.constant([1.0, 2.0], F64)), [[6.0, 1.0], [1.0, 12.0]])


def _squares():
    g = tf.GradientTape()
    with g:
        x = tf.constant([1.0, 2.0])
        g.watch(x)
        y = x * x
    return g, x, y


def test_a_non_persistent_tape_gives_one_jacobian_as_tensorflows():
    g, x, y = _squares()
    g.jacobian(y, x)
    with pytest.raises(RuntimeError, match="non-persistent GradientTape can compute one set of gradients"):
        g.jacobian(y, x)
    g, x, y = _squares()
    g.batch_jacobian(tf.reshape(y, [2, 1]), tf.reshape(x, [2, 1]))
    with pytest.raises(RuntimeError, match="one set of gradients"):
        g.gradient(y, x)


def test_without_pfor_an_eager_tape_must_be_persistent_as_tensorflows():
    g, x, y = _squares()
    with pytest.raises(RuntimeError, match="persistent=True to compute the jacobian .* experimental_use_pfor"):
        g.jacobian(y, x, experimental_use_pfor=False)
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        y = x * x
    np.testing.assert_array_equal(g.jacobian(y, x, experimental_use_pfor=False), [[2.0, 0.0], [0.0, 4.0]])


def test_batch_jacobian_needs_a_batch_dimension_in_both():
    g, x, y = _squares()
    with pytest.raises(ValueError, match=r"rank at least 2"):
        g.batch_jacobian(y, x)
    with tf.GradientTape(persistent=True) as g:
        x = tf.ones([2, 3])
        g.watch(x)
        y = tf.ones([3, 2]) * tf.reduce_sum(x)
    with pytest.raises(ValueError, match=r"need first dimension of target shape \(\(3, 2\)\) and source shape"):
        g.batch_jacobian(y, x)


def test_under_jit_compile_a_jacobian_is_the_executors():
    pytest.importorskip("jax")

    def f(x):
        rows = tf.reshape(x, [1, 2])
        with tf.GradientTape(persistent=True) as g:
            g.watch([x, rows])
            y = x * x * tf.reduce_sum(x)
            z = rows * rows
        return g.jacobian(y, x), g.batch_jacobian(z, rows)

    x = tf.constant([1.0, 2.0])
    expected = tf.function(f)(x)
    got = tf.function(f, jit_compile=True)(x)
    np.testing.assert_allclose(got[0].numpy(), [[7.0, 1.0], [4.0, 16.0]])
    np.testing.assert_allclose(got[1].numpy(), [[[2.0, 0.0], [0.0, 4.0]]])
    for e, g in zip(expected, got):
        np.testing.assert_allclose(g.numpy(), e.numpy())


def test_under_jit_compile_a_jacobian_of_a_target_of_unknown_size_is_a_lowering_error_naming_the_line():
    pytest.importorskip("jax")

    @tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        with tf.GradientTape() as g:
            g.watch(x)
            y = x * x
        return g.jacobian(y, x)

    with pytest.raises(tf.errors.LoweringError, match=r"(?s)its size is computed when the function runs.*"
                                                      r"return g.jacobian\(y, x\)"):
        f(tf.constant([1.0, 2.0]))
