"""`runtime.keras`: Model, losses, metrics.Mean, and clear errors for what is out of scope."""
import numpy as np
import pytest

import runtime as tf
from runtime.errors import OutOfScopeError


def test_model_is_a_module_calling_call():
    class Scale(tf.keras.Model):
        def __init__(self):
            super(Scale, self).__init__()
            self.w = tf.Variable(2.0)

        def call(self, inputs):
            return inputs * self.w

    model = Scale()
    assert isinstance(model, tf.Module) and float(model(tf.constant(3.0))) == 6.0
    assert [v.name for v in model.trainable_variables] == [model.w.name]
    assert float(tf.function(model)(tf.constant(4.0))) == 8.0


def test_metrics_mean_seed002():
    m = tf.keras.metrics.Mean("loss")
    assert float(m.result()) == 0.0
    m(0)
    m(5)
    assert float(m.result()) == 2.5
    m([8, 9])
    assert repr(m.result()) == "<tf.Tensor: shape=(), dtype=float32, numpy=5.5>"
    m.update_state([1.0, 3.0], sample_weight=[1.0, 0.0])
    assert float(m.result()) == pytest.approx(23 / 5)
    m.reset_state()
    assert float(m.result()) == 0.0


def test_losses_against_numpy():
    logits = np.array([[2.0, 0.5, -1.0], [0.1, 0.3, 0.2]], np.float32)
    labels = np.array([0, 2])
    log_softmax = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    expected = -log_softmax[np.arange(2), labels].mean()
    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    np.testing.assert_allclose(float(loss(labels, logits)), expected, rtol=1e-6)
    probs = np.exp(log_softmax)
    np.testing.assert_allclose(float(tf.keras.losses.SparseCategoricalCrossentropy()(labels, probs)), expected,
                               rtol=1e-5)
    mse = tf.keras.losses.MeanSquaredError()
    assert float(mse([[1.0, 2.0]], [[2.0, 4.0]])) == 2.5


@pytest.mark.parametrize("name", ["layers", "Sequential", "datasets", "Input"])
def test_out_of_scope_names_say_so(name):
    with pytest.raises(OutOfScopeError, match=f"tf.keras.{name} is out of scope"):
        getattr(tf.keras, name)
    with pytest.raises(AttributeError):
        tf.keras.no_such_name


def test_fit_and_the_functional_api_are_out_of_scope():
    with pytest.raises(NotImplementedError, match="Model.fit is out of scope"):
        tf.keras.Model().fit()
    with pytest.raises(OutOfScopeError, match="functional API"):
        tf.keras.Model("inputs", "outputs")


def test_seed001_variable_created_on_the_first_call_only():
    class MyModule(tf.Module):
        def __init__(self):
            self.v = None

        @tf.function
        def call(self, x):
            if self.v is None:
                self.v = tf.Variable(tf.ones_like(x))
            return self.v * x

    module = MyModule()
    assert module.call(tf.constant([1.0, 2.0])).numpy().tolist() == [1.0, 2.0]
    assert module.call(tf.constant([3.0, 4.0])).numpy().tolist() == [3.0, 4.0]
    assert isinstance(module.v, tf.Variable)


LABELS = np.array([0.0, 1.0, 1.0, 0.0], np.float32)            # shape (4,)
COLUMN = np.array([[0.2], [0.7], [0.4], [0.9]], np.float32)    # shape (4, 1): a model's single output
WEIGHTS = np.array([[1.0], [0.0], [2.0], [0.5]], np.float32)

RANK_CASES = {   # name: (the loss or metric, by library; the value computed row by row with NumPy)
    "MeanSquaredError": (lambda lib: lib.keras.losses.MeanSquaredError()(LABELS, COLUMN),
                         np.mean((LABELS - COLUMN[:, 0]) ** 2)),
    "MeanSquaredError, labels a column": (lambda lib: lib.keras.losses.MeanSquaredError()(COLUMN, LABELS),
                                          np.mean((LABELS - COLUMN[:, 0]) ** 2)),
    "MeanSquaredError weighted by a column": (
        lambda lib: lib.keras.losses.MeanSquaredError()(LABELS, COLUMN, sample_weight=WEIGHTS),
        np.mean((LABELS - COLUMN[:, 0]) ** 2 * WEIGHTS[:, 0])),
    "MeanAbsoluteError": (lambda lib: lib.keras.losses.MeanAbsoluteError()(LABELS, COLUMN),
                          np.mean(np.abs(LABELS - COLUMN[:, 0]))),
    "Huber": (lambda lib: lib.keras.losses.Huber()(LABELS, COLUMN), np.mean(0.5 * (LABELS - COLUMN[:, 0]) ** 2)),
    "BinaryCrossentropy": (lambda lib: lib.keras.losses.BinaryCrossentropy()(LABELS, COLUMN),
                           -np.mean(LABELS * np.log(COLUMN[:, 0]) + (1 - LABELS) * np.log(1 - COLUMN[:, 0]))),
    "SparseCategoricalCrossentropy, labels a column": (
        lambda lib: lib.keras.losses.SparseCategoricalCrossentropy()(np.array([[0], [1]]), np.array([[0.25, 0.75]] * 2)),
        -np.mean(np.log([0.25, 0.75]))),
    "BinaryAccuracy": (lambda lib: _metric(lib.keras.metrics.BinaryAccuracy(), [1.0, 1.0, 1.0, 0.0],
                                           [[0.9], [0.1], [0.2], [0.3]]), 0.5),   # (broadcast: 0.375)
    "Accuracy": (lambda lib: _metric(lib.keras.metrics.Accuracy(), [1.0, 1.0, 1.0, 0.0], [[1.0], [0.0], [0.0], [0.0]]),
                 0.5),
}


def _metric(m, y_true, y_pred):
    m.update_state(y_true, y_pred)
    return m.result()


@pytest.mark.parametrize("name", RANK_CASES)
def test_labels_of_shape_n_against_predictions_of_shape_n_by_1_are_matched_row_by_row_as_keras_does(name):
    # broadcasting (4,) against (4, 1) would compare every label with every prediction: a (4, 4) mean
    loss, expected = RANK_CASES[name]
    np.testing.assert_allclose(float(loss(tf)), expected, rtol=1e-5)


def test_the_matched_ranks_give_keras_values():
    real = pytest.importorskip("tensorflow", reason="TensorFlow is not installed: the NumPy values above stand")
    for name, (loss, _) in RANK_CASES.items():
        np.testing.assert_allclose(float(loss(tf)), float(loss(real)), rtol=1e-5, err_msg=name)
