"""Variables, random ops, print and asserts (the stateful ops)."""
import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError


def test_variable_assign_and_operators():
    w = tf.Variable([[1.0], [2.0]])
    assert w.dtype == tf.float32 and w.shape == (2, 1)
    assert repr(w).startswith("<tf.Variable 'Variable") and "shape=(2, 1) dtype=float32, numpy=\narray([[1.]," in repr(w)
    assert tf.matmul(w, tf.constant([[3.0, 4.0]])).numpy().tolist() == [[3.0, 4.0], [6.0, 8.0]]
    v = tf.Variable(1)
    v.assign_add(2)
    v.assign_sub(1)
    assert v.numpy() == 2 and (v * 3).numpy() == 6 and (3 - v).numpy() == 1
    v.assign(10)
    assert v.read_value().numpy() == 10
    with pytest.raises(InvalidArgumentError, match="dtype int32"):
        v.assign(1.5)
    with pytest.raises(ValueError, match="shape"):   # TensorFlow 2.21: a ValueError too
        w.assign([1.0, 2.0, 3.0])


def test_variable_names_are_not_made_unique_as_in_tensorflow_2():
    assert [tf.Variable(0.0).name, tf.Variable(1.0).name, tf.Variable(2.0, name="w").name] == \
        ["Variable:0", "Variable:0", "w:0"]


def test_variable_scatter_nd_updates_eagerly_and_in_a_function():
    v = tf.Variable([1.0, 2.0, 3.0])

    @tf.function
    def f():
        v.scatter_nd_update([[0], [2]], [10.0, 30.0])
        v.scatter_nd_add([[1]], [5.0])
        return v.read_value()
    assert f().numpy().tolist() == [10.0, 7.0, 30.0]   # TensorFlow 2.21's
    assert v.scatter_nd_sub([[0]], [1.0]) is v and v.numpy().tolist() == [9.0, 7.0, 30.0]


def test_variable_updates_in_a_function_run_in_program_order():
    v = tf.Variable(0)

    @tf.function
    def f():
        v.assign(1)
        v.assign(v * 10)
        v.assign_add(5)
        return v.read_value()

    assert f().numpy() == 15 and v.numpy() == 15
    v.assign(2)
    assert f().numpy() == 15


def test_random_is_reproducible_after_set_seed():
    tf.random.set_seed(7)
    a = tf.random.uniform([5], maxval=10, dtype=tf.int32).numpy()
    b = tf.random.normal([3]).numpy()
    tf.random.set_seed(7)
    assert (tf.random.uniform([5], maxval=10, dtype=tf.int32).numpy() == a).all()
    assert (tf.random.normal([3]).numpy() == b).all()
    assert a.min() >= 0 and a.max() < 10
    u = tf.random.uniform([1000], minval=-1.0, maxval=2.0)
    assert u.dtype == tf.float32 and -1.0 <= u.numpy().min() and u.numpy().max() < 2.0


def test_random_in_a_function_draws_on_every_call():
    f = tf.function(lambda: tf.random.uniform([4]))
    assert not np.array_equal(f().numpy(), f().numpy())


def test_print_runs_on_every_call_and_python_print_only_when_tracing(capsys):
    @tf.function
    def f(x):
        print("Tracing!")
        tf.print("value:", x)
        return x

    f(tf.constant(1))
    f(tf.constant(2))
    captured = capsys.readouterr()
    assert captured.out == "Tracing!\n"
    assert captured.err == "value: 1\nvalue: 2\n"


def test_asserts_raise_in_eager_and_graph_mode():
    with pytest.raises(InvalidArgumentError, match="x == y"):
        tf.debugging.assert_equal(tf.constant(1), tf.constant(2))
    tf.debugging.assert_greater(tf.constant(3), tf.constant(2))

    @tf.function
    def f(x):
        tf.debugging.Assert(x > 0, ["x must be positive"])
        return x

    assert f(tf.constant(1)).numpy() == 1
    with pytest.raises(InvalidArgumentError, match="x must be positive"):
        f(tf.constant(-1))


# --- Variables created while a function is traced (seed 001) ---------------------------------

def test_seed_001_module_creates_its_variable_on_the_first_call_only():
    class MyModule(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = None

        @tf.function
        def call(self, x):
            if self.v is None:
                self.v = tf.Variable(tf.ones_like(x))
            return self.v * x

    m = MyModule()
    np.testing.assert_allclose(m.call(tf.constant([1.0, 2.0])).numpy(), [1.0, 2.0])
    first = m.v
    m.v.assign([2.0, 3.0])
    np.testing.assert_allclose(m.call(tf.constant([3.0, 4.0])).numpy(), [6.0, 12.0])
    assert m.v is first and m.call.experimental_get_tracing_count() == 2   # the first call traced twice, as in TF
    assert len(m.variables) == 1 and m.variables[0] is first and m.trainable_variables[0] is first


def test_creating_a_variable_on_every_call_is_refused_on_the_first_call_as_in_tensorflow():
    # Python makes a fresh Variable on each call (3.0, then 4.0); one graph would keep one Variable and give
    # 3.0, then 6.0. TensorFlow traces such a function twice on its first call and refuses the second creation.
    log = []

    @tf.function
    def f(x):
        log.append(x)
        v = tf.Variable(1.0)
        v.assign_add(x)
        return v.read_value()

    with pytest.raises(ValueError, match=r"test_variables.py:\d+: .*creates a Variable each time it is traced"):
        f(tf.constant(2.0))
    assert len(log) == 2


def test_a_guarded_creation_is_traced_twice_on_the_first_call_and_runs_the_second_trace():
    holder, log = [], []

    @tf.function
    def f(x):
        log.append(x)
        if not holder:
            holder.append(tf.Variable(1.0))
        return holder[0].assign_add(x)

    assert [float(f(tf.constant(2.0))), float(f(tf.constant(3.0)))] == [3.0, 6.0]
    assert len(log) == 2 and f.experimental_get_tracing_count() == 2   # as TensorFlow counts them


def test_a_function_without_arguments_may_create_its_variable_on_the_first_call():
    made = []

    @tf.function
    def f():
        if not made:
            made.append(tf.Variable(tf.ones([2]) * 3.0))
        return made[0].assign_add([1.0, 1.0])

    assert f().numpy().tolist() == [4.0, 4.0] and f().numpy().tolist() == [5.0, 5.0]


def test_a_function_traced_inside_another_may_create_a_variable_from_constants_on_its_first_call():
    holder = []

    @tf.function
    def inner(x):
        if not holder:
            holder.append(tf.Variable(tf.ones([2]) * 10.0))
        return holder[0].assign_add(x)

    outer = tf.function(lambda x: inner(x) * 2.0)
    assert outer(tf.constant([1.0, 1.0])).numpy().tolist() == [22.0, 22.0]   # as TensorFlow
    assert outer(tf.constant([1.0, 1.0])).numpy().tolist() == [24.0, 24.0]


def test_creating_a_variable_on_a_later_trace_is_a_clear_error():
    made = {}

    @tf.function
    def f(x):
        if x.shape not in made:
            made[x.shape] = tf.Variable(tf.zeros_like(x))
        return made[x.shape] + x

    assert float(f(tf.constant(1.0))) == 1.0
    with pytest.raises(ValueError, match=r"test_variables.py:\d+: .*first trace only"):
        f(tf.constant([1.0, 2.0]))


def test_variable_from_a_symbolic_value_in_a_concrete_function_trace_is_a_clear_error():
    @tf.function
    def f(x):
        return tf.Variable(x * 2.0) + 1.0

    with pytest.raises(ValueError, match="initial value must be known"):
        f.get_concrete_function(tf.TensorSpec([2], tf.float32))


def test_module_finds_variables_in_attributes_containers_and_submodules():
    class Dense(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[1.0]])
            self.b = tf.Variable([0.0])

    class Model(tf.Module):
        def __init__(self):
            super().__init__(name="model")
            self.layers = [Dense(), Dense()]
            self.step = tf.Variable(0, trainable=False)
            self.shared = self.layers[0].w

    model = Model()
    assert model.name == "model" and Dense().name == "dense"
    assert len(model.variables) == 5 and len(model.trainable_variables) == 4
    assert any(v is model.step for v in model.variables)
    assert not any(v is model.step for v in model.trainable_variables)
    assert model.submodules == tuple(model.layers)
    with pytest.raises(ValueError, match="identifier"):
        tf.Module(name="not valid")


def test_a_slice_of_a_variable_assigns_to_those_elements_eagerly_and_in_a_function():
    w = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert w[0, 1:].assign([8.0, 9.0]) is w
    w[:, 0].assign(tf.constant([0.0, 0.0]))
    w[1].assign(7.0)                                   # broadcast to the slice
    w[::-1, ::2].assign([[1.0, 1.0], [2.0, 2.0]])
    assert w.numpy().tolist() == [[2.0, 8.0, 2.0], [1.0, 7.0, 1.0]]

    @tf.function
    def f(x):
        w[0, 0].assign(x)
        w[1, :2].assign(tf.stack([x, x * 2]))
        return w.read_value()

    assert f(tf.constant(3.0)).numpy().tolist() == [[3.0, 8.0, 2.0], [3.0, 6.0, 1.0]]
    v = tf.Variable([1, 2, 3])
    v[tf.constant(1)].assign(10)
    assert v.numpy().tolist() == [1, 10, 3]


def test_only_a_slice_of_a_variable_has_assign():
    w = tf.Variable([1.0, 2.0])
    assert hasattr(w[0], "assign") and not hasattr(w[0] + 1, "assign") and not hasattr(tf.constant(1), "assign")
    with pytest.raises(tf.errors.InvalidArgumentError):
        w[5].assign(1.0)


# --- tf.Variable(shape=...): a declared shape with unknown dimensions (the outputs are what TensorFlow 2.21 gives)

def test_a_variable_of_unknown_shape_takes_values_of_any_shape():
    v = tf.Variable([1., 2.], shape=tf.TensorShape(None))
    v.assign([1., 2., 3.])
    assert v.numpy().tolist() == [1., 2., 3.] and str(v.shape) == "<unknown>"
    assert repr(tf.Variable(1.0, shape=tf.TensorShape(None))) == \
        "<tf.Variable 'Variable:0' shape=<unknown> dtype=float32, numpy=1.0>"


def test_a_variable_with_a_none_dimension_takes_values_that_fit_and_refuses_others_with_a_value_error():
    v = tf.Variable([1., 2.], shape=[None])
    v.assign([1., 2., 3.])
    assert v.numpy().tolist() == [1., 2., 3.] and v.shape == (None,)
    with pytest.raises(ValueError, match=r"shape \(1, 1\)"):
        v.assign([[1.]])


def test_a_variable_that_grows_in_a_function_reads_its_new_shape():
    v = tf.Variable(tf.zeros([0, 3]), shape=[None, 3])

    @tf.function
    def grow(x):
        v.assign(tf.concat([v, x], 0))
        return tf.shape(v)

    assert grow(tf.ones([2, 3])).numpy().tolist() == [2, 3]
    assert grow(tf.ones([1, 3])).numpy().tolist() == [3, 3]
    assert v.shape == (None, 3)


def test_an_initial_value_that_does_not_fit_the_declared_shape_is_a_value_error():
    with pytest.raises(ValueError, match="not compatible"):
        tf.Variable([1.0, 2.], shape=[3])


def test_validate_shape_false_keeps_the_initial_values_shape_as_tensorflow_2_does():
    v = tf.Variable([1.0, 2.], validate_shape=False)
    assert v.shape == (2,)
    with pytest.raises(ValueError):
        v.assign([[1.]])
