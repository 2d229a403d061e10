"""`train.Checkpoint`: Variables, Modules and optimizer slots saved to .npz and restored."""
import numpy as np
import pytest

import runtime as tf


def test_seed002_checkpoint_save_restore_and_latest_checkpoint(tmp_path):
    x = tf.Variable(10.)
    checkpoint = tf.train.Checkpoint(x=x)
    x.assign(2.)
    prefix = str(tmp_path / "ckpt") + "/"
    assert tf.train.latest_checkpoint(prefix) is None
    assert checkpoint.save(prefix) == prefix + "-1"
    x.assign(11.)
    assert tf.train.latest_checkpoint(prefix) == prefix + "-1"
    checkpoint.restore(tf.train.latest_checkpoint(prefix)).assert_consumed()
    assert float(x.numpy()) == 2.0
    x.assign(5.)
    assert checkpoint.save(prefix) == prefix + "-2" and tf.train.latest_checkpoint(prefix) == prefix + "-2"


class Linear(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([1.0, 2.0])
        self.b = tf.Variable(0.5)

    def call(self, x):
        return tf.reduce_sum(x * self.w) + self.b


def step(model, opt):
    with tf.GradientTape() as tape:
        loss = tf.square(model(tf.constant([1.0, -1.0])) - 3.0)
    opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))


def test_model_and_adam_slots_round_trip_into_fresh_objects(tmp_path):
    model, opt = Linear(), tf.keras.optimizers.Adam(0.1)
    for _ in range(3):
        step(model, opt)
    path = tf.train.Checkpoint(model=model, optimizer=opt).save(str(tmp_path / "run"))
    step(model, opt)
    expected = model.w.numpy(), model.b.numpy()

    fresh, fresh_opt = Linear(), tf.keras.optimizers.Adam(0.1)
    status = tf.train.Checkpoint(model=fresh, optimizer=fresh_opt).restore(path)
    status.assert_consumed()                          # the slots wait for their variables' first update
    assert int(fresh_opt.iterations.numpy()) == 3
    step(fresh, fresh_opt)
    np.testing.assert_allclose(fresh.w.numpy(), expected[0], rtol=1e-6)
    np.testing.assert_allclose(fresh.b.numpy(), expected[1], rtol=1e-6)


def test_restore_reports_mismatches(tmp_path):
    path = tf.train.Checkpoint(a=tf.Variable(1.0)).write(str(tmp_path / "one"))
    with pytest.raises(AssertionError, match="not in the checkpoint"):
        tf.train.Checkpoint(b=tf.Variable(1.0)).restore(path).assert_consumed()
    with pytest.raises(ValueError, match="shape"):
        tf.train.Checkpoint(a=tf.Variable([1.0, 2.0])).restore(path)
    assert tf.train.Checkpoint(a=tf.Variable(3.0)).restore(None).expect_partial() is not None


def test_list_variables_and_load_variable_read_a_checkpoint_by_file_or_directory(tmp_path):
    class Dense(tf.Module):   # the guide "Introduction to modules, layers and models"
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[1.0, 2.0]])
            self.b = tf.Variable([0.5])
    model = Dense()
    path = tf.train.Checkpoint(model=model).write(str(tmp_path / "my_checkpoint"))
    listed = [("model/b", [1]), ("model/w", [1, 2]), ("save_counter", [])]
    assert tf.train.list_variables(path) == listed
    np.testing.assert_array_equal(tf.train.load_variable(path, "model/w"), [[1.0, 2.0]])
    saved = tf.train.Checkpoint(model=model).save(str(tmp_path / "run"))
    assert tf.train.list_variables(str(tmp_path)) == tf.train.list_variables(saved)
    with pytest.raises(ValueError, match="'model/kernel' is not in the checkpoint"):
        tf.train.load_variable(path, "model/kernel")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="Couldn't find 'checkpoint' file"):
        tf.train.list_variables(str(tmp_path / "empty"))
