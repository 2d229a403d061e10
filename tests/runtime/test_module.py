"""tf.Module (runtime/module.py): the order in which it finds Variables and sub-modules, and its name scope.
The expected values are what TensorFlow 2.21 gives for the same programs."""
import runtime as tf


def test_variables_come_in_tensorflows_order_own_attributes_first_then_each_submodule():
    m = tf.Module()
    m.a = tf.Variable(1.)
    m.z = [tf.Module(), {"k": tf.Variable(2.), "b": tf.Variable(3.)}]
    m.z[0].q = tf.Variable(4.)
    m.c = tf.Module()
    m.c.d = tf.Variable(5.)
    m.c.e = m.a                                   # found once
    assert [float(v) for v in m.variables] == [1., 3., 2., 5., 4.]
    assert m.submodules == (m.c, m.z[0])            # attributes by name: c before z


def test_trainable_variables_keep_that_order_without_the_frozen_ones():
    class Model(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(2.0)
            self.b = tf.Variable(1.0, trainable=False)
            self.sub = tf.Module()
            self.sub.v = tf.Variable(3.0)
            self.layers = [tf.Variable(4.0)]

    model = Model()
    assert [float(v) for v in model.variables] == [1., 4., 2., 3.]
    assert [float(v) for v in model.trainable_variables] == [4., 2., 3.]


def test_variables_made_in_a_name_scope_carry_it_in_their_names():
    with tf.name_scope("a"):
        named, unnamed = tf.Variable(1., name="w"), tf.Variable(1.)
        with tf.name_scope("b") as scope:
            inner = tf.Variable(1., name="z")
    assert [named.name, unnamed.name, inner.name, scope] == ["a/w:0", "a/Variable:0", "a/b/z:0", "a/b/"]


def test_a_modules_name_scope_names_its_variables_and_nests_in_the_scope_it_was_made_in():
    class Inner(tf.Module):
        def __init__(self):
            super().__init__()
            with self.name_scope:
                self.w = tf.Variable(2.0, name="w")

    class Outer(tf.Module):
        def __init__(self):
            super().__init__(name="outer")
            with self.name_scope:
                self.inner = Inner()

    assert (Inner().w.name, Inner().name_scope.name) == ("inner/w:0", "inner/")
    assert Outer().inner.w.name == "outer/inner/w:0"


def test_with_name_scope_runs_a_method_inside_the_modules_scope():
    class Scaled(tf.Module):
        @tf.Module.with_name_scope
        def __call__(self, x):
            self.made = tf.Variable(x)
            return x * 2

    scaled = Scaled()
    assert float(scaled(tf.constant(1.))) == 2.0 and scaled.made.name == "scaled/Variable:0"
