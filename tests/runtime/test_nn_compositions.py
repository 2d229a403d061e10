"""More of `tf.nn` (`batch_normalization`, `weighted_cross_entropy_with_logits`, `log_poisson_loss`,
`compute_average_loss`, `sufficient_statistics`, `normalize_moments`, `crelu`, `space_to_depth`,
`depth_to_space`): values against NumPy's formulas, eagerly and traced, and against TensorFlow 2.21 where
installed."""
import math

import numpy as np
import pytest

import runtime as tf

rng = np.random.default_rng(0)
X = rng.normal(size=(2, 4, 6, 8)).astype(np.float32)
LABELS = (rng.random(size=(3, 4)) > 0.5).astype(np.float32)
LOGITS = (rng.normal(size=(3, 4)) * 30).astype(np.float32)   # large: the formula must not overflow
TARGETS = np.array([0.0, 1.0, 2.0, 5.0, 10.0], np.float32)
LOG_INPUT = np.array([0.1, -1.0, 2.0, 1.5, 3.0], np.float32)


def _stirling(t):
    return np.where(t > 1, t * np.log(np.maximum(t, 1)) - t + 0.5 * np.log(2 * math.pi * np.maximum(t, 1)), 0.0)


CASES = {   # name: (program of a library, NumPy's value)
    "batch_normalization": (lambda lib: lib.nn.batch_normalization(X, 0.5, 2.0, 0.1, 3.0, 1e-3),
                            (X - 0.5) * 3.0 / np.sqrt(2.0 + 1e-3) + 0.1),
    "weighted_cross_entropy_with_logits": (
        lambda lib: lib.nn.weighted_cross_entropy_with_logits(LABELS, LOGITS, 2.5),
        2.5 * LABELS * np.logaddexp(0, -LOGITS.astype(np.float64)) + (1 - LABELS) * np.logaddexp(0, LOGITS)),
    "log_poisson_loss": (lambda lib: lib.nn.log_poisson_loss(TARGETS, LOG_INPUT, compute_full_loss=True),
                         np.exp(LOG_INPUT) - TARGETS * LOG_INPUT + _stirling(TARGETS)),
    "compute_average_loss": (lambda lib: lib.nn.compute_average_loss(lib.constant([1.0, 2.0, 3.0, 4.0]),
                                                                     sample_weight=[1.0, 0.0, 1.0, 2.0],
                                                                     global_batch_size=8), 12.0 / 8),
    "normalize_moments": (lambda lib: lib.nn.normalize_moments(*lib.nn.sufficient_statistics(X, [0, 1], shift=0.3)),
                          (X.mean(axis=(0, 1)), X.var(axis=(0, 1)))),
    "crelu": (lambda lib: lib.nn.crelu(LOGITS), np.concatenate([np.maximum(LOGITS, 0), np.maximum(-LOGITS, 0)], -1)),
    "space_to_depth": (lambda lib: lib.nn.space_to_depth(X, 2),
                       X.reshape(2, 2, 2, 3, 2, 8).transpose(0, 1, 3, 2, 4, 5).reshape(2, 2, 3, 32)),
    "depth_to_space": (lambda lib: lib.nn.depth_to_space(X, 2),
                       X.reshape(2, 4, 6, 2, 2, 2).transpose(0, 1, 3, 2, 4, 5).reshape(2, 8, 12, 2)),
}


@pytest.mark.parametrize("mode", ["eager", "traced"])
@pytest.mark.parametrize("name", list(CASES))
def test_the_value_is_the_formulas(mode, name):
    program, expected = CASES[name]
    got = ((lambda: program(tf)) if mode == "eager" else tf.function(lambda: program(tf)))()
    for g, e in zip(tf.nest.flatten(got), tf.nest.flatten(expected)):
        np.testing.assert_allclose(np.asarray(g), e, rtol=2e-5, atol=2e-5)


def test_space_to_depth_and_depth_to_space_undo_each_other():
    np.testing.assert_array_equal(tf.nn.depth_to_space(tf.nn.space_to_depth(X, 2), 2).numpy(), X)


def test_the_values_are_tensorflows():
    real = pytest.importorskip("tensorflow", reason="TensorFlow is not installed: NumPy's formulas above stand")
    for name, (program, _) in CASES.items():
        for ours, theirs in zip(tf.nest.flatten(program(tf)), real.nest.flatten(program(real))):
            np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=2e-5, atol=2e-5, err_msg=name)
