"""`tf.keras.optimizers.schedules`: each schedule's rates over steps 0..8 are TensorFlow 2.21's (the last test
compares with it where it is installed), and an optimizer given one uses its rate at the optimizer's step,
eagerly, in a traced step and after a checkpoint restores the step."""
import os

import numpy as np
import pytest

import runtime as tf

SCHEDULES = {   # name: (a schedule of a library, TensorFlow's rates at steps 0..8)
    "exponential": (lambda s: s.ExponentialDecay(0.1, decay_steps=2, decay_rate=0.5),
                    [0.1, 0.070711, 0.05, 0.035355, 0.025, 0.017678, 0.0125, 0.008839, 0.00625]),
    "exponential staircase": (lambda s: s.ExponentialDecay(0.1, decay_steps=2, decay_rate=0.5, staircase=True),
                              [0.1, 0.1, 0.05, 0.05, 0.025, 0.025, 0.0125, 0.0125, 0.00625]),
    "inverse time": (lambda s: s.InverseTimeDecay(0.1, decay_steps=2, decay_rate=0.5),
                     [0.1, 0.08, 0.066667, 0.057143, 0.05, 0.044444, 0.04, 0.036364, 0.033333]),
    "piecewise constant": (lambda s: s.PiecewiseConstantDecay([2, 4], [0.1, 0.05, 0.01]),
                           [0.1, 0.1, 0.1, 0.05, 0.05, 0.01, 0.01, 0.01, 0.01]),
    "polynomial": (lambda s: s.PolynomialDecay(0.1, decay_steps=4, end_learning_rate=0.01, power=2.0),
                   [0.1, 0.060625, 0.0325, 0.015625, 0.01, 0.01, 0.01, 0.01, 0.01]),
    "polynomial cycle": (lambda s: s.PolynomialDecay(0.1, decay_steps=3, end_learning_rate=0.01, cycle=True),
                         [0.1, 0.07, 0.04, 0.01, 0.04, 0.025, 0.01, 0.03, 0.02]),
    "cosine": (lambda s: s.CosineDecay(0.1, decay_steps=4, alpha=0.1),
               [0.1, 0.08682, 0.055, 0.02318, 0.01, 0.01, 0.01, 0.01, 0.01]),
    "cosine with warm-up": (lambda s: s.CosineDecay(0.0, decay_steps=4, alpha=0.1, warmup_target=0.2,
                                                    warmup_steps=3),
                            [0.0, 0.066667, 0.133333, 0.2, 0.17364, 0.11, 0.04636, 0.02, 0.02]),
}


def _rates(schedule) -> list:
    return [round(float(schedule(step)), 6) for step in range(9)]


@pytest.mark.parametrize("name", SCHEDULES)
def test_a_schedules_rates_are_tensorflows(name):
    make, expected = SCHEDULES[name]
    assert _rates(make(tf.keras.optimizers.schedules)) == expected


@pytest.mark.parametrize("traced", [False, True])
def test_an_optimizer_uses_the_rate_at_its_step(traced):
    v = tf.Variable([1.0])
    opt = tf.keras.optimizers.SGD(tf.keras.optimizers.schedules.PiecewiseConstantDecay([2, 4], [0.1, 0.05, 0.01]))

    def step():
        opt.apply_gradients([(tf.constant([1.0]), v)])
    step = tf.function(step) if traced else step
    for _ in range(6):
        step()
    # steps 0..5: 0.1, 0.1, 0.1, 0.05, 0.05, 0.01
    np.testing.assert_allclose(v.numpy(), [1.0 - 0.41], rtol=1e-6)
    assert float(opt.learning_rate) == pytest.approx(0.01)
    with pytest.raises(TypeError, match="created with a learning rate schedule"):
        opt.learning_rate = 0.5


def test_a_restored_optimizer_goes_on_from_the_restored_step(tmp_path):
    make = lambda: tf.keras.optimizers.SGD(tf.keras.optimizers.schedules.ExponentialDecay(0.1, 2, 0.5))  # noqa: E731
    v, opt = tf.Variable([1.0]), make()
    for _ in range(3):
        opt.apply_gradients([(tf.constant([1.0]), v)])
    path = tf.train.Checkpoint(v=v, opt=opt).save(os.path.join(tmp_path, "ck"))
    v2, opt2 = tf.Variable([0.0]), make()
    tf.train.Checkpoint(v=v2, opt=opt2).restore(path)
    opt.apply_gradients([(tf.constant([1.0]), v)])
    opt2.apply_gradients([(tf.constant([1.0]), v2)])
    assert float(v2.numpy()[0]) == float(v.numpy()[0]) and int(opt2.iterations.numpy()) == 4


def test_a_learning_rate_that_is_neither_a_number_nor_a_schedule_is_a_clear_error():
    with pytest.raises(TypeError, match="learning_rate must be a number or a keras.optimizers.schedules"):
        tf.keras.optimizers.SGD(None)


def test_the_rates_are_tensorflows():
    real = pytest.importorskip("tensorflow", reason="TensorFlow is not installed: the rates above are its 2.21's")
    for name, (make, expected) in SCHEDULES.items():
        assert _rates(make(real.keras.optimizers.schedules)) == expected, name
