"""Gradients of small converted programs found wrong or failing by checking them against central finite
differences in float64: with the tape eagerly (Python control flow), inside a `tf.function`, and outside
one (the function's Call op differentiated)."""
import numpy as np
import pytest

import runtime as tf

F64 = tf.float64


def _finite_difference(f, x: float, eps: float = 1e-6) -> float:
    up, down = f(tf.constant(x + eps, F64)), f(tf.constant(x - eps, F64))
    return (float(up) - float(down)) / (2 * eps)


def _gradient(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


def _in_every_placement(f, x: float) -> dict:
    def tape_inside(v):
        return _gradient(f, v)
    return {"eager": _gradient(f, tf.constant(x, F64)),
            "tape inside": tf.function(tape_inside)(tf.constant(x, F64)),
            "tape outside": _gradient(tf.function(f), tf.constant(x, F64))}


def _assert_matches_finite_differences(f, x: float) -> None:
    expected = _finite_difference(tf.function(f), x)
    assert expected == pytest.approx(_finite_difference(f, x), rel=1e-6)
    for placement, got in _in_every_placement(f, x).items():
        assert float(got) == pytest.approx(expected, rel=1e-5), placement


def python_int_counter(x):
    i = 0                       # a Python int carried by the staged loop: its arithmetic is ExactInt32
    y = x
    while y < 100.0:
        i += 1
        y = y * x + tf.cast(i, F64)
    return y * tf.cast(i, F64)


@pytest.mark.parametrize("x", [1.5, 3.0, 200.0])
def test_a_python_int_counter_in_a_staged_loop_is_replayed_by_the_gradient(x):
    # the While's gradient replays its body; ExactInt32's attributes were named `op` and `name`, which
    # registry.apply takes itself (TypeError: apply() got multiple values for argument 'op')
    _assert_matches_finite_differences(python_int_counter, x)
