"""`tf.math.xlog1py`, `polyval`, `lbeta`, `zero_fraction`, `invert_permutation`, `is_non_decreasing`,
`is_strictly_increasing`, eagerly and traced, with TensorFlow 2.21's answers (compared with it where
installed)."""
import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError

CASES = {   # name: (program of a library, TensorFlow's answer)
    "xlog1py": (lambda lib: lib.math.xlog1py([0.0, 2.0, 0.0, 1.0], [-1.0, 0.5, np.nan, -1.0]),
                [0.0, 0.81093, 0.0, -np.inf]),
    "polyval": (lambda lib: lib.math.polyval([1.0, 2.0, 3.0], lib.constant([0.0, 2.0])), [3.0, 11.0]),
    "polyval of no coefficients": (lambda lib: lib.math.polyval([], lib.constant([1.0, 2.0])), [0.0, 0.0]),
    "lbeta": (lambda lib: lib.math.lbeta([[1.0, 2.0], [0.5, 0.5]]), [-0.693147, 1.14473]),
    "zero_fraction": (lambda lib: lib.math.zero_fraction([[0, 1], [0, 0]]), 0.75),
    "invert_permutation": (lambda lib: lib.math.invert_permutation([3, 4, 0, 2, 1]), [2, 4, 3, 0, 1]),
    "is_non_decreasing": (lambda lib: [lib.math.is_non_decreasing(v) for v in ([1, 1, 2], [[1, 2], [0, 3]], [5])],
                          [True, False, True]),
    "is_strictly_increasing": (lambda lib: [lib.math.is_strictly_increasing(v) for v in ([1, 1, 2], [1.0, 3.5], [])],
                               [False, True, True]),
}


@pytest.mark.parametrize("mode", ["eager", "traced"])
@pytest.mark.parametrize("name", list(CASES))
def test_the_answer_is_tensorflows(mode, name):
    program, expected = CASES[name]
    got = ((lambda: program(tf)) if mode == "eager" else tf.function(lambda: program(tf)))()
    np.testing.assert_allclose(np.asarray([np.asarray(v) for v in got] if isinstance(got, list) else got, float),
                               np.asarray(expected, float), rtol=1e-5)


def test_xlog1py_differentiates_as_xlogy_does_where_x_is_zero():
    x, y = tf.constant([0.0, 2.0]), tf.constant([-1.0, 0.5])
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = tf.reduce_sum(tf.math.xlog1py(x, y))
    gx, gy = tape.gradient(z, [x, y])
    np.testing.assert_allclose(gx.numpy(), [0.0, np.log1p(0.5)], rtol=1e-6)
    np.testing.assert_allclose(gy.numpy(), [0.0, 2.0 / 1.5], rtol=1e-6)


def test_invert_permutation_refuses_what_is_not_a_permutation():
    with pytest.raises(InvalidArgumentError, match="not a permutation"):
        tf.math.invert_permutation([0, 0, 1])


def test_the_expected_answers_are_tensorflows():
    real = pytest.importorskip("tensorflow", reason="TensorFlow is not installed: the answers above are its 2.21's")
    for name, (program, expected) in CASES.items():
        got = program(real)
        got = [np.asarray(v) for v in got] if isinstance(got, list) else got
        np.testing.assert_allclose(np.asarray(got, float), np.asarray(expected, float), rtol=1e-5, err_msg=name)
