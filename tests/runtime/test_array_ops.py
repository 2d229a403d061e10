"""Shape, indexing, selection and creation ops against NumPy."""
import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError

X = np.arange(24, dtype=np.int32).reshape(2, 3, 4)


@pytest.mark.parametrize("key", [0, -1, (1, 2), slice(None), slice(1, None), (slice(None), 1),
                                 (Ellipsis, 2), (None, 0), (0, None, slice(1, 3)), (slice(None, None, -1),),
                                 (1, slice(0, 3, 2), -1)], ids=repr)
def test_getitem_matches_numpy(key):
    out = tf.constant(X)[key]
    np.testing.assert_array_equal(out.numpy(), X[key])
    assert out.shape == X[key].shape


def test_getitem_with_scalar_tensor_index_and_errors():
    assert tf.constant(X)[tf.constant(1), 2, 3].numpy() == X[1, 2, 3]
    with pytest.raises(InvalidArgumentError, match="out of bounds"):
        tf.constant(X)[5]
    with pytest.raises(InvalidArgumentError, match="gather"):
        tf.constant(X)[tf.constant([0, 1])]


def test_shape_size_rank_reshape_transpose():
    t = tf.constant(X)
    assert tf.shape(t).numpy().tolist() == [2, 3, 4] and tf.shape(t).dtype == tf.int32
    assert tf.size(t).numpy() == 24 and tf.rank(t).numpy() == 3
    assert tf.reshape(t, [4, -1]).shape == (4, 6)
    assert tf.transpose(t).shape == (4, 3, 2)
    np.testing.assert_array_equal(tf.transpose(t, [1, 0, 2]).numpy(), X.transpose(1, 0, 2))
    with pytest.raises(InvalidArgumentError, match="(can.t|cannot) reshape"):
        tf.reshape(t, [5, 5])


def test_expand_squeeze_concat_stack_unstack_tile():
    t = tf.constant([[1, 2]])
    assert tf.expand_dims(t, 0).shape == (1, 1, 2)
    assert tf.squeeze(t).shape == (2,)
    assert tf.concat([t, t], axis=0).numpy().tolist() == [[1, 2], [1, 2]]
    assert tf.stack([tf.constant(1), 2, 3]).numpy().tolist() == [1, 2, 3]
    a, b = tf.unstack(tf.constant([[1, 2], [3, 4]]))
    assert a.numpy().tolist() == [1, 2] and b.numpy().tolist() == [3, 4]
    assert tf.tile(t, [2, 2]).shape == (2, 4)
    with pytest.raises(InvalidArgumentError, match="ConcatV2"):
        tf.concat([t, tf.constant([[1, 2, 3]])], axis=0)


def test_gather_and_its_out_of_range_error():
    x = tf.constant([10, 20, 30])
    assert tf.gather(x, [2, 0]).numpy().tolist() == [30, 10]
    assert tf.gather(tf.constant(X), [1], axis=2).shape == (2, 3, 1)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 1 is not in \[0, 1\)"):
        tf.gather(tf.constant([0.0]), [1])


def test_one_hot_range_eye_fill_zeros_ones():
    assert tf.one_hot([0, 2], 3).numpy().tolist() == [[1, 0, 0], [0, 0, 1]]
    assert tf.one_hot([1], 2, dtype=tf.int32).dtype == tf.int32
    assert tf.range(5).numpy().tolist() == [0, 1, 2, 3, 4] and tf.range(5).dtype == tf.int32
    assert tf.range(1, 2, 0.5).dtype == tf.float32
    assert tf.eye(2, dtype=tf.int32).numpy().tolist() == [[1, 0], [0, 1]]
    assert tf.fill([2], 7).numpy().tolist() == [7, 7]
    assert tf.zeros([2, 1]).dtype == tf.float32 and tf.ones([2], tf.int32).numpy().tolist() == [1, 1]
    assert tf.zeros_like(tf.constant([1, 2])).numpy().tolist() == [0, 0]
    assert tf.ones_like(tf.constant([1.5])).numpy().tolist() == [1.0]
    assert tf.identity(tf.constant(3)).numpy() == 3


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_a_tensor_given_as_a_list_stands_for_its_rows_in_stack_and_concat(axis):
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    expected = np.concatenate(list(x), axis), np.stack(list(x), axis)
    eager = tf.concat(tf.constant(x), axis), tf.stack(tf.constant(x), axis)
    unknown_rows = tf.function(lambda t: (tf.concat(t, axis), tf.stack(t, axis)),
                               input_signature=[tf.TensorSpec([None, 3, 4], tf.int32)])
    for got in (eager, unknown_rows(tf.constant(x))):
        assert [g.numpy().tolist() for g in got] == [e.tolist() for e in expected]
