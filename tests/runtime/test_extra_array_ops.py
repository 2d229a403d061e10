"""broadcast_to, linspace, pad, split, boolean_mask (runtime/ops/extra_array_ops.py) against NumPy."""
import numpy as np
import pytest

import runtime as tf
from gradcheck import check_gradient
from runtime.errors import InvalidArgumentError

RNG = np.random.default_rng(0)


@pytest.mark.parametrize("x, shape", [(np.float32(2.0), [2, 3]), (np.arange(3.0), [2, 3]),
                                      (np.ones((2, 1)), [2, 4]), (np.ones((1,)), [0]), (np.ones(()), [])])
def test_broadcast_to_matches_numpy(x, shape):
    out = tf.broadcast_to(tf.constant(x), shape)
    np.testing.assert_array_equal(out.numpy(), np.broadcast_to(x, shape))
    assert out.shape == tuple(shape)


def test_broadcast_to_errors_and_gradient():
    with pytest.raises(InvalidArgumentError):
        tf.broadcast_to(tf.constant([1, 2, 3]), [2, 2])
    check_gradient(lambda x: tf.broadcast_to(x, [2, 3, 4]), RNG.normal(size=(3, 1)))
    check_gradient(lambda x: tf.broadcast_to(x, [2]), RNG.normal(size=()))


def test_broadcast_to_a_shape_known_at_run_time():
    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def f(x):
        y = tf.broadcast_to(tf.constant([1.0, 2.0, 3.0]), tf.shape(x))
        assert y.shape == (None, 3)
        return y

    assert f(tf.zeros([2, 3])).numpy().tolist() == [[1, 2, 3], [1, 2, 3]]


@pytest.mark.parametrize("start, stop, num, axis", [(0.0, 1.0, 5, 0), (1.0, -1.0, 1, 0), (0.0, 1.0, 0, 0),
                                                    ([0.0, 1.0], [1.0, 3.0], 3, 0), ([0.0, 1.0], 2.0, 4, 1)])
def test_linspace_matches_numpy(start, stop, num, axis):
    out = tf.linspace(start, stop, num, axis=axis)
    expected = np.linspace(np.float32(start), np.float32(stop), num, axis=axis).astype(np.float32)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)
    assert out.shape == expected.shape and out.dtype == tf.float32


def test_linspace_gradient():
    check_gradient(lambda a, b: tf.linspace(a, b, 5), 0.5, 2.0)
    check_gradient(lambda a, b: tf.linspace(a, b, 4, axis=1), [0.5, 1.0], [2.0, 3.0])
    check_gradient(lambda a, b: tf.linspace(a, b, 1), 0.5, 2.0)


@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC"])
def test_pad_matches_numpy(mode):
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    paddings = [[1, 2], [2, 0]]
    out = tf.pad(x, paddings, mode=mode)
    np.testing.assert_array_equal(out.numpy(), np.pad(x, paddings, mode=mode.lower()))
    assert tf.pad(x, paddings, constant_values=7).numpy()[0, 0] == 7


def test_pad_edge_cases_and_gradient():
    assert tf.pad(tf.zeros([0, 2]), [[1, 1], [0, 0]]).shape == (2, 2)
    assert tf.pad(tf.constant(1.0), []).numpy() == 1.0
    with pytest.raises(InvalidArgumentError, match="too large"):
        tf.pad([1, 2], [[2, 0]], mode="REFLECT")
    with pytest.raises(InvalidArgumentError, match="one row per dimension"):
        tf.pad([1, 2], [[1, 1], [1, 1]])
    check_gradient(lambda x: tf.pad(x, [[1, 0], [0, 2]]), RNG.normal(size=(2, 3)))


@pytest.mark.parametrize("mode, paddings", [("REFLECT", [[2, 1], [0, 3]]), ("SYMMETRIC", [[2, 1], [0, 3]]),
                                            ("SYMMETRIC", [[3, 3], [4, 4]]), ("REFLECT", [[0, 0], [1, 1]])])
def test_mirror_pad_gradient(mode, paddings):
    # was a NotImplementedError; each mirrored element's gradient goes back to the element it copies
    check_gradient(lambda x: tf.pad(x, paddings, mode=mode), RNG.normal(size=(3, 4)))


@pytest.mark.parametrize("staged", [False, True], ids=["eager", "function"])
def test_mirror_pad_gradients_first_and_second_order_are_tensorflows(staged):
    def run(x, mode):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.pad(x, [[2, 2]] if mode == "REFLECT" else [[1, 2]], mode=mode)
                loss = tf.reduce_sum(y * tf.range(1.0, 1.0 + tf.cast(tf.size(y), tf.float32)) * y)
            g = inner.gradient(loss, x)
            s = tf.reduce_sum(g * g)
        return g, outer.gradient(s, x)
    run = tf.function(run) if staged else run
    x = tf.constant([1.0, 2.0, 3.0])
    g, second = run(x, "REFLECT")    # TensorFlow 2.21's numbers
    np.testing.assert_allclose(g.numpy(), [20.0, 48.0, 36.0])
    np.testing.assert_allclose(second.numpy(), [800.0, 2304.0, 864.0])
    g, second = run(x, "SYMMETRIC")
    np.testing.assert_allclose(g.numpy(), [6.0, 36.0, 54.0])
    np.testing.assert_allclose(second.numpy(), [72.0, 1296.0, 1944.0])


def test_split_matches_numpy():
    x = np.arange(24).reshape(4, 6)
    parts = tf.split(x, 3, axis=1)
    for got, want in zip(parts, np.split(x, 3, axis=1)):
        np.testing.assert_array_equal(got.numpy(), want)
    a, b, c = tf.split(x, [1, -1, 0], axis=0)
    assert (a.shape, b.shape, c.shape) == ((1, 6), (3, 6), (0, 6))
    with pytest.raises(InvalidArgumentError, match="equal parts"):
        tf.split(x, 5, axis=1)
    with pytest.raises(InvalidArgumentError, match="add up"):
        tf.split(x, [1, 1], axis=0)


def test_split_gradient_with_an_unused_part():
    check_gradient(lambda x: tf.split(x, [1, 2], axis=1)[1], RNG.normal(size=(2, 3)))
    check_gradient(lambda x: tf.concat(tf.split(x, 2)[::-1], 0) ** 2, RNG.normal(size=(4,)))


def test_boolean_mask_matches_numpy():
    x = np.arange(12).reshape(3, 4)
    mask = np.array([True, False, True])
    np.testing.assert_array_equal(tf.boolean_mask(x, mask).numpy(), x[mask])
    mask2 = x % 3 == 0
    np.testing.assert_array_equal(tf.boolean_mask(x, mask2).numpy(), x[mask2])
    np.testing.assert_array_equal(tf.boolean_mask(x, [False, True, True, False], axis=1).numpy(), x[:, 1:3])
    assert tf.boolean_mask(x, [False, False, False]).shape == (0, 4)
    with pytest.raises(InvalidArgumentError, match="does not match"):
        tf.boolean_mask(x, [True, False])
    with pytest.raises(InvalidArgumentError, match="bool"):
        tf.boolean_mask(x, [1, 0, 1])


def test_boolean_mask_shape_while_tracing_and_gradient():
    @tf.function
    def f(x):
        y = tf.boolean_mask(x, x[:, 0] > 0)
        assert y.shape == (None, 2)
        return y

    assert f(tf.constant([[1, 2], [-1, 3], [2, 2]])).numpy().tolist() == [[1, 2], [2, 2]]
    check_gradient(lambda x: tf.boolean_mask(x, [True, False, True]) ** 2, RNG.normal(size=(3, 2)))


def test_indexing_with_a_bool_mask_is_boolean_mask():
    x = tf.constant([[1, 2], [3, 4], [5, 6]])
    assert x[x > 2].numpy().tolist() == [3, 4, 5, 6]
    assert x[[True, False, True]].numpy().tolist() == [[1, 2], [5, 6]]
    assert x[np.array([False, False, False])].shape == (0, 2)
    f = tf.function(lambda x: x[x[:, 0] > 2], autograph=False)
    assert f.get_concrete_function(x).graph.outputs[0].shape.as_list() == [None, 2]
    assert f(x).numpy().tolist() == [[3, 4], [5, 6]]
    check_gradient(lambda v: v[v > 1.0] * v[v > 1.0], np.array([[0.5, 1.5], [2.0, 0.7]]))


def test_boolean_mask_with_a_constant_mask_has_a_static_shape_in_a_function_as_in_tensorflow():
    # TensorFlow's shape inference counts a constant mask's Trues; the runtime left the axis unknown, so code
    # reading y.shape (to build weights, say) failed while tracing
    @tf.function
    def weighted(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.boolean_mask(x, [True, False, True], axis=1)
            assert y.shape.as_list() == [2, 2]
            total = tf.reduce_sum(y * tf.constant(np.arange(4.0, dtype=np.float32).reshape(y.shape.as_list())))
        return tape.gradient(total, x)

    assert weighted(tf.ones([2, 3])).numpy().tolist() == [[0.0, 0.0, 1.0], [2.0, 0.0, 3.0]]
