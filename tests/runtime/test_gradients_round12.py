"""Silent differences from TensorFlow found by running the same programs under `import tensorflow as tf` and
`import runtime as tf` (twelfth session), each checked here against hand-derived numbers or finite differences,
so that no test needs TensorFlow: matrix norms, ..."""
import numpy as np
import pytest

import runtime as tf
from tests.runtime.gradcheck import check_gradient

MODES = {"eager": lambda f: f, "function": tf.function, "jit": lambda f: tf.function(f, jit_compile=True)}
Y = np.array([[3.0, -4.0], [1.0, 2.0]], np.float32)

# (ord, axis, value of tf.norm(Y, ord, axis), TensorFlow's gradient)
MATRIX_NORMS = [
    (1, [0, 1], 6.0, [[0.0, -1.0], [0.0, 1.0]]),                 # the largest column sum of magnitudes
    (1, [1, 0], 7.0, [[1.0, -1.0], [0.0, 0.0]]),                 # axes swapped: the largest row sum
    (np.inf, [0, 1], 7.0, [[1.0, -1.0], [0.0, 0.0]]),            # the largest row sum
    (np.inf, [-1, 0], 6.0, [[0.0, -1.0], [0.0, 1.0]]),
    ("fro", (0, 1), 30 ** 0.5, Y / 30 ** 0.5),
    ("euclidean", [0, 1], 30 ** 0.5, Y / 30 ** 0.5),
]


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("ord_, axis, value, gradient", MATRIX_NORMS, ids=[f"{o} {a}" for o, a, _, _ in MATRIX_NORMS])
def test_norm_over_two_axes_is_the_matrix_norm(mode, ord_, axis, value, gradient):
    def f(y):
        with tf.GradientTape() as tape:
            tape.watch(y)
            n = tf.norm(y, ord=ord_, axis=axis)
        return n, tape.gradient(n, y)
    n, g = MODES[mode](f)(tf.constant(Y))
    np.testing.assert_allclose(n.numpy(), value, rtol=1e-6)
    np.testing.assert_allclose(g.numpy(), gradient, rtol=1e-6)


def test_matrix_norms_of_a_batch_keep_the_other_axes_and_keepdims_keeps_both():
    x = tf.reshape(tf.range(24.0) - 11.0, [2, 3, 4])
    np.testing.assert_allclose(tf.norm(x, ord=1, axis=[0, 2]).numpy(), [12.0, 12.0, 12.0])
    np.testing.assert_allclose(tf.norm(x, ord=1, axis=(-1, -2)).numpy(), [38.0, 42.0])
    kept = tf.norm(x, ord=np.inf, axis=[2, 1], keepdims=True)
    assert kept.shape == [2, 1, 1]
    np.testing.assert_allclose(kept.numpy().ravel(), [21.0, 24.0])


@pytest.mark.parametrize("p", [3, 0.5, 1.5])
def test_vector_p_norms_for_any_positive_p(p):
    v = np.array([3.0, -4.0, 1.0])
    np.testing.assert_allclose(tf.norm(tf.constant(v), ord=p).numpy(), np.sum(np.abs(v) ** p) ** (1 / p))
    check_gradient(lambda x: tf.norm(x, ord=p, axis=-1), v.reshape(1, 3))


@pytest.mark.parametrize("ord_, axis, error", [
    ("fro", None, ValueError), (0, None, ValueError), (-1, None, ValueError), (3, [0, 1], ValueError),
    (1, [0, 0], ValueError), (2, [0, 1], NotImplementedError)])
def test_norms_tensorflow_refuses_are_refused(ord_, axis, error):
    # TensorFlow: 'fro' is a matrix norm only, ord <= 0 is no norm; the matrix 2-norm needs an SVD (not provided)
    with pytest.raises(error, match="norm"):
        tf.norm(tf.constant(Y), ord=ord_, axis=axis)
