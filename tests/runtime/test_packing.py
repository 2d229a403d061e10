"""Auto-packing of lists that hold tensors, and shapes given as tensors (runtime/ops/packing.py)."""
import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError

UNKNOWN_ROWS = [tf.TensorSpec([None, 3, 4])]


def test_eager_lists_of_python_lists_and_scalars():
    assert tf.concat([[1, 2], [3, 4]], 0).numpy().tolist() == [1, 2, 3, 4]
    assert tf.stack([[1, 2], [3, 4]]).shape == (2, 2)
    assert tf.convert_to_tensor([tf.constant(1.0), 2]).numpy().tolist() == [1.0, 2.0]
    assert tf.convert_to_tensor([[tf.constant(1)], [2]]).shape == (2, 1)
    assert tf.convert_to_tensor([tf.Variable(2.0), 1.0]).numpy().tolist() == [2.0, 1.0]


def test_stack_and_concat_of_python_values_inside_a_function():
    @tf.function
    def f():
        return tf.stack([1.0, 2.0]), tf.concat([[1, 2], [3]], 0)

    a, b = f()
    assert a.numpy().tolist() == [1.0, 2.0] and b.numpy().tolist() == [1, 2, 3]


def test_concat_of_a_list_holding_a_loop_counter():
    @tf.function
    def f(n):
        v = tf.zeros([0], tf.int32)
        for i in tf.range(n):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(v, tf.TensorShape([None]))])
            v = tf.concat((v, [i * 2]), 0)
        return v

    assert f(tf.constant(4)).numpy().tolist() == [0, 2, 4, 6]


def test_a_packed_list_mixes_dtypes_only_when_python_values_convert_exactly():
    @tf.function
    def f(x):
        return tf.convert_to_tensor([x, 1.5])

    assert f(tf.constant(1.0)).numpy().tolist() == [1.0, 1.5]
    with pytest.raises(InvalidArgumentError, match="int32 and float32|float32 and int32"):
        f(tf.constant(1))


def test_shapes_given_as_tensors_keep_what_is_known():
    seen = {}

    @tf.function(input_signature=UNKNOWN_ROWS)
    def f(x):
        n = tf.shape(x)[0]
        out = {
            "zeros": tf.zeros([1, n, 2]), "reshape": tf.reshape(x, [tf.shape(x)[0], -1]),
            "zeros_like_shape": tf.zeros(tf.shape(x)), "ones_tail": tf.ones(tf.shape(x)[1:]),
            "fill": tf.fill([n, 2], 3.0), "uniform": tf.random.uniform([n, 2]),
            "normal": tf.random.normal(tf.shape(x)), "tile": tf.tile(x, [n, 1, 1]),
            "reshape_known": tf.reshape(x, [-1, 12]),
        }
        seen.update({k: v.shape for k, v in out.items()})
        return out

    result = f(tf.ones([2, 3, 4]))
    assert seen == {"zeros": (1, None, 2), "reshape": (None, None), "zeros_like_shape": (None, 3, 4),
                    "ones_tail": (3, 4), "fill": (None, 2), "uniform": (None, 2), "normal": (None, 3, 4),
                    "tile": (None, 3, 4), "reshape_known": (None, 12)}
    expected = {"zeros": (1, 2, 2), "reshape": (2, 12), "zeros_like_shape": (2, 3, 4), "ones_tail": (3, 4),
                "fill": (2, 2), "uniform": (2, 2), "normal": (2, 3, 4), "tile": (4, 3, 4), "reshape_known": (2, 12)}
    assert {k: v.shape for k, v in result.items()} == expected
    np.testing.assert_array_equal(result["fill"].numpy(), np.full((2, 2), 3.0))


def test_a_shape_known_while_tracing_stays_a_static_attribute():
    @tf.function
    def f(x):
        return tf.zeros(tf.shape(x)), tf.reshape(x, tf.shape(x)[::-1])

    graph = f.get_concrete_function(tf.ones([2, 3])).graph
    fills = [op for op in graph.get_operations() if op.type in ("Fill", "Reshape")]
    assert all(len(op.inputs) == 1 for op in fills)


def test_eager_shape_tensors_and_errors():
    assert tf.zeros(tf.constant([2, 3])).shape == (2, 3)
    assert tf.reshape(tf.range(6), tf.constant([3, 2])).shape == (3, 2)
    assert tf.zeros(tf.TensorShape([2])).shape == (2,)
    with pytest.raises(InvalidArgumentError, match="integer"):
        tf.zeros(tf.constant([2.0]))
    with pytest.raises(InvalidArgumentError, match="fully defined"):
        tf.zeros(tf.TensorShape([None, 2]))


def test_gradient_through_a_reshape_to_a_shape_known_only_at_run_time():
    @tf.function(input_signature=UNKNOWN_ROWS)
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.reshape(x, [tf.shape(x)[0], -1]) ** 2)
        return tape.gradient(y, x)

    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_allclose(f(tf.constant(x)).numpy(), 2 * x)
