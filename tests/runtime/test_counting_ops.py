"""`tf.unique_with_counts`, `tf.math.in_top_k`, `tf.math.confusion_matrix`, `tf.histogram_fixed_width`,
`tf.math.reciprocal_no_nan` and `tf.math.scalar_mul`, eagerly and traced, with TensorFlow 2.21's answers at
the edges (the last test compares with it where it is installed)."""
import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError

CASES = {   # name: (program of a library, TensorFlow's answer)
    "unique_with_counts": (lambda lib: lib.unique_with_counts(lib.constant([3, 1, 2, 1, 3, 0])),
                           ([3, 1, 2, 0], [0, 1, 2, 1, 0, 3], [2, 2, 1, 1])),
    "in_top_k ties count as in": (
        lambda lib: lib.math.in_top_k(lib.constant([1, 2, 0]), lib.constant([[0.1, 0.5, 0.5], [0.3, 0.3, 0.3],
                                                                           [0.2, 0.1, 0.9]]), 1),
        [True, True, False]),
    "in_top_k non-finite or out of range is False": (
        lambda lib: lib.math.in_top_k(lib.constant([0, 3, -1]), lib.constant([[1.0, np.inf], [1.0, 2.0], [1.0, 2.0]]),
                                      2),
        [False, False, False]),
    "confusion_matrix": (lambda lib: lib.math.confusion_matrix([0, 1, 2, 1], [0, 2, 2, 1]),
                         [[1, 0, 0], [0, 1, 1], [0, 0, 1]]),
    "confusion_matrix weighted": (
        lambda lib: lib.math.confusion_matrix([0, 1, 1], [1, 1, 1], num_classes=3, weights=[0.5, 2.0, 1.0],
                                              dtype=lib.float32),
        [[0.0, 0.5, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 0.0]]),
    "histogram_fixed_width": (
        lambda lib: lib.histogram_fixed_width(lib.constant([-1.0, 0.0, 0.5, 1.0, 5.0, 0.49]), [0.0, 1.0], nbins=2),
        [3, 3]),
    "reciprocal_no_nan": (lambda lib: lib.math.reciprocal_no_nan(lib.constant([0.0, 4.0])), [0.0, 0.25]),
    "scalar_mul": (lambda lib: lib.math.scalar_mul(2.0, lib.constant([1.0, -3.0])), [2.0, -6.0]),
}


def _plain(value):
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    return np.asarray(value).tolist()


@pytest.mark.parametrize("mode", ["eager", "traced"])
@pytest.mark.parametrize("name", list(CASES))
def test_the_answer_is_tensorflows(mode, name):
    program, expected = CASES[name]
    run = (lambda: program(tf)) if mode == "eager" else tf.function(lambda: program(tf))
    assert _plain(run()) == _plain(expected)


def test_confusion_matrix_refuses_a_label_past_num_classes():
    with pytest.raises(InvalidArgumentError, match="out of bound"):
        tf.math.confusion_matrix([0, 3], [0, 1], num_classes=3)


def test_the_expected_answers_are_tensorflows():
    real = pytest.importorskip("tensorflow", reason="TensorFlow is not installed: the answers above are its 2.21's")
    for name, (program, expected) in CASES.items():
        assert _plain(program(real)) == _plain(expected), name
