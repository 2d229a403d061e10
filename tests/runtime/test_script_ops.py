"""tf.py_function (runtime/ops/script_ops.py): called at once eagerly; in a traced function a stateful op that
calls the Python function each time the graph runs, with Tout's dtypes, unknown shapes and a gradient."""
import numpy as np
import pytest

import runtime as tf
from gradcheck import check_gradient
from runtime.errors import InvalidArgumentError


def test_eagerly_the_function_runs_now_and_its_result_takes_tout():
    out = tf.py_function(lambda x: x.numpy() * 2, [tf.constant([1, 2])], Tout=tf.int32)
    assert out.dtype is tf.int32 and out.numpy().tolist() == [2, 4]
    pair = tf.py_function(lambda a, b: (a + b, a * b), [1.0, 2.0], Tout=[tf.float32, tf.float32])
    assert [float(t) for t in pair] == [3.0, 2.0]
    assert tf.py_function(lambda: None, [], Tout=[]) is None


def test_in_a_function_it_runs_on_every_call_not_at_trace_time():
    seen = []

    def record(x):
        seen.append(float(x))
        return x * 10

    @tf.function
    def f(x):
        y = tf.py_function(record, [x], Tout=tf.float32)
        assert y.shape.rank is None and y.dtype is tf.float32   # unknown until the graph runs, as TensorFlow
        return y + 1

    assert [float(f(tf.constant(v))) for v in (1.0, 2.0)] == [11.0, 21.0]
    assert seen == [1.0, 2.0] and f.experimental_get_tracing_count() == 1
    assert "EagerPyFunc" in [op.type for op in f.get_concrete_function(tf.constant(1.0)).graph.get_operations()]


def test_a_side_effect_only_call_is_not_pruned_and_runs_in_order():
    log = []

    @tf.function
    def f(x):
        tf.py_function(lambda: log.append("first"), [], Tout=[])
        tf.py_function(lambda v: log.append(int(v)), [x], Tout=[])
        return x

    f(tf.constant(7))
    f(tf.constant(8))
    assert log == ["first", 7, "first", 8]


def test_wrong_results_are_clear_errors():
    with pytest.raises(InvalidArgumentError, match="returned 1 values but Tout lists 2"):
        tf.py_function(lambda x: x, [1.0], Tout=[tf.float32, tf.float32])
    with pytest.raises(InvalidArgumentError, match="int32 tensor where Tout says float32"):
        tf.function(lambda x: tf.py_function(lambda v: tf.constant(1), [x], Tout=tf.float32),
                    autograph=False)(tf.constant(1.0))
    with pytest.raises(TypeError, match="callable"):
        tf.py_function(3, [], Tout=[])


@pytest.mark.parametrize("shape", [(), (0,), (2, 3)], ids=["scalar", "empty", "matrix"])
def test_gradient_through_the_python_function(shape):
    values = np.random.default_rng(1).uniform(0.5, 1.5, shape)
    check_gradient(lambda x, y: tf.py_function(lambda a, b: tf.sin(a) * b, [x, y], Tout=tf.float64),
                   values, values + 1)


def test_a_second_order_gradient_through_it_is_a_clear_error():
    @tf.function
    def second(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.py_function(lambda a: a * a * a, [x], Tout=tf.float32)
            dy = inner.gradient(y, x)
        return outer.gradient(dy, x)

    with pytest.raises(LookupError, match="EagerPyFuncGrad"):
        second(tf.constant(2.0))


# --- tf.numpy_function: the same op on NumPy values, without a gradient (the values are what TensorFlow 2.21 gives)

def test_numpy_function_hands_ndarrays_to_the_function_and_takes_tout():
    seen = []

    def double(x):
        seen.append((type(x), x.dtype, x.shape))
        return x * 2

    assert float(tf.numpy_function(double, [tf.constant(2.)], tf.float32)) == 4.0
    pair = tf.numpy_function(lambda a, b: (a + b, a * b), [tf.constant(2.), tf.constant(3.)], [tf.float32, tf.float32])
    assert [float(t) for t in pair] == [5.0, 6.0]
    assert seen == [(np.ndarray, np.float32, ())]      # a 0-d array for a scalar, as TensorFlow passes it


def test_numpy_function_hands_strings_as_python_bytes():
    seen = []
    out = tf.numpy_function(lambda s: seen.append(s[()]) or s, [tf.constant("ab")], tf.string)
    assert seen == [b"ab"] and type(seen[0]) is bytes and out.numpy() == b"ab"


def test_numpy_function_in_a_function_runs_on_every_call_and_its_shapes_are_unknown():
    calls = []

    @tf.function
    def f(x):
        y = tf.numpy_function(lambda a: calls.append(1) or (a * 2, np.int64(a.shape[0])), [x], (tf.float32, tf.int64))
        assert [t.shape.rank for t in y] == [None, None]
        return y

    for _ in range(2):
        doubled, n = f(tf.constant([1., 2.]))
        assert doubled.numpy().tolist() == [2., 4.] and int(n) == 2
    assert len(calls) == 2


def test_numpy_function_has_no_gradient_as_in_tensorflow():
    x = tf.constant(2.)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.numpy_function(lambda a: a * 2, [x], tf.float32)
    assert tape.gradient(y, x) is None


def test_a_stateless_numpy_function_whose_result_is_unused_is_pruned_a_stateful_one_runs():
    calls = []

    def record(x):
        calls.append(float(x))
        return x

    @tf.function
    def f(x, stateful):
        tf.numpy_function(record, [x], tf.float32, stateful=stateful)
        return x + 1

    f(tf.constant(1.), False)
    assert calls == []
    f(tf.constant(2.), True)
    assert calls == [2.0]


def test_numpy_function_with_an_empty_tout_returns_none():
    calls = []
    assert tf.numpy_function(lambda: calls.append(1), [], []) is None and calls == [1]
