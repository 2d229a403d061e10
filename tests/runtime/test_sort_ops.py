"""sort, argsort, math.top_k and einsum (runtime/ops/sort_ops.py) against NumPy."""
import numpy as np
import pytest

import runtime as tf
from gradcheck import check_gradient
from runtime.errors import InvalidArgumentError

RNG = np.random.default_rng(1)


@pytest.mark.parametrize("x", [np.array([3, 1, 2, 1]), np.array([[3.0, -1.0], [0.5, 0.5]]), np.zeros((0,)),
                               np.zeros((2, 0), np.float32)], ids=["ints", "floats", "empty", "empty-rows"])
@pytest.mark.parametrize("direction", ["ASCENDING", "DESCENDING"])
def test_sort_and_argsort_match_numpy(x, direction):
    expected_order = np.argsort(x if direction == "ASCENDING" else -x, axis=-1, kind="stable")
    np.testing.assert_array_equal(tf.argsort(x, direction=direction).numpy(), expected_order)
    np.testing.assert_array_equal(tf.sort(x, direction=direction).numpy(),
                                  np.take_along_axis(x, expected_order, -1))
    assert tf.argsort(x).dtype == tf.int32


def test_sort_along_another_axis_and_errors():
    x = np.array([[3, 1], [1, 2]])
    np.testing.assert_array_equal(tf.sort(x, axis=0).numpy(), np.sort(x, axis=0))
    with pytest.raises(InvalidArgumentError, match="scalar"):
        tf.sort(tf.constant(1))
    with pytest.raises(InvalidArgumentError, match="direction"):
        tf.sort(x, direction="UP")


def test_top_k_matches_numpy_and_keeps_ties_in_order():
    x = np.array([[1.0, 5.0, 5.0, 2.0], [0.0, -1.0, 3.0, 3.0]], np.float32)
    values, indices = tf.math.top_k(x, k=3)
    assert indices.numpy().tolist() == [[1, 2, 3], [2, 3, 0]]
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(x, indices.numpy(), -1))
    result = tf.math.top_k([4, 9, 1])
    assert result.values.numpy().tolist() == [9] and result.indices.numpy().tolist() == [1]
    assert tf.math.top_k(x, 0).values.shape == (2, 0)
    with pytest.raises(InvalidArgumentError, match="at least k"):
        tf.math.top_k(x, 5)


def test_sort_and_top_k_gradients():
    check_gradient(lambda x: tf.sort(x) * tf.constant([1.0, 2.0, 3.0], tf.float64), RNG.normal(size=(2, 3)))
    check_gradient(lambda x: tf.math.top_k(x, 2).values ** 2, RNG.normal(size=(3, 4)))


def test_second_order_gradient_of_sort():
    x = tf.constant([3.0, 1.0, 2.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.sort(x) ** 3)
        g = inner.gradient(y, x)
    np.testing.assert_allclose(outer.gradient(g, x).numpy(), 6 * x.numpy())


@pytest.mark.parametrize("equation, shapes", [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("ij->ji", [(2, 3)]), ("ij->", [(2, 3)]), ("i,i->", [(3,), (3,)]),
    ("i,j->ij", [(2,), (3,)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 1)]), ("ij,jk", [(2, 3), (3, 4)]),
    ("ii->i", [(3, 3)]), ("...ij,...jk->...ik", [(5, 2, 3), (3, 4)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    (",->", [(), ()]), ("ij->j", [(0, 3)]),
])
def test_einsum_matches_numpy(equation, shapes):
    operands = [RNG.normal(size=s).astype(np.float32) for s in shapes]
    out = tf.einsum(equation, *operands)
    expected = np.einsum(equation, *operands)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-6)
    assert out.shape == expected.shape

    traced = tf.function(lambda *xs: tf.einsum(equation, *xs)).get_concrete_function(
        *[tf.TensorSpec(s) for s in shapes])
    assert traced.graph.outputs[0].shape == expected.shape


@pytest.mark.parametrize("equation, shapes", [("ij,jk->ik", [(2, 3), (3, 4)]), ("ij->j", [(2, 3)]),
                                              ("i,j->ij", [(2,), (3,)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)])])
def test_einsum_gradient(equation, shapes):
    check_gradient(lambda *xs: tf.einsum(equation, *xs), *[RNG.normal(size=s) for s in shapes])


def test_einsum_errors():
    with pytest.raises(InvalidArgumentError, match="operands"):
        tf.einsum("ij,jk->ik", tf.ones([2, 2]))
    with pytest.raises(InvalidArgumentError, match="invalid equation"):
        tf.einsum("ij-ik", tf.ones([2, 2]))
    with pytest.raises(InvalidArgumentError):
        tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([2, 3]))


@pytest.mark.parametrize("values, y, idx", [([3, 1, 3, 2, 1], [3, 1, 2], [0, 1, 0, 2, 1]),
                                            (["b", "a", "b"], [b"b", b"a"], [0, 1, 0]),
                                            ([], [], [])])
def test_unique_keeps_first_occurrence_order_eagerly_and_in_a_function(values, y, idx):
    x = tf.constant(values, tf.int32 if not values else None)
    for run in (tf.unique, tf.function(lambda x: tuple(tf.unique(x)))):
        got_y, got_idx = run(x)
        assert got_y.numpy().tolist() == y and got_idx.numpy().tolist() == idx and got_idx.dtype == tf.int32
    assert tf.unique(x, out_idx=tf.int64).idx.dtype == tf.int64


def test_unique_keeps_each_nan_apart_and_takes_only_vectors():
    result = tf.unique(tf.constant([1.0, float("nan"), float("nan"), 1.0]))
    assert result.idx.numpy().tolist() == [0, 1, 2, 0] and np.isnan(result.y.numpy()[1:]).all()
    with pytest.raises(tf.errors.InvalidArgumentError, match="x must be a vector"):
        tf.unique(tf.constant([[1]]))


def test_top_k_and_unique_print_as_tensorflows_namedtuples():
    top = tf.math.top_k(tf.constant([1, 5, 3]), k=2)
    assert repr(top).startswith("TopKV2(values=<tf.Tensor: shape=(2,), dtype=int32, numpy=array([5, 3]")
    assert repr(tf.unique(tf.constant([1, 1, 2]))).startswith("Unique(y=<tf.Tensor: shape=(2,)")
