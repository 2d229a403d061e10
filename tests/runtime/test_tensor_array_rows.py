"""TensorArray.scatter, split and concat (runtime/tensor_array_rows.py), eagerly, traced with known and unknown
counts, and under a tape. The expected values are what TensorFlow 2.21 gives for the same programs."""
import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError

ROWS = [[1., 2.], [3., 4.], [5., 6.]]

MODES = {
    "eager": lambda fn: fn,
    "function": tf.function,
    "function with unknown sizes": lambda fn: tf.function(
        fn, input_signature=[tf.TensorSpec([None, 2]), tf.TensorSpec([None], tf.int32)]),
}


@pytest.mark.parametrize("mode", MODES)
def test_scatter_writes_row_k_at_index_k_and_gather_and_concat_read_them(mode):
    def program(x, indices):
        ta = tf.TensorArray(tf.float32, size=3).scatter(indices, x)
        return ta.stack(), ta.gather([2, 0]), ta.concat()

    stacked, gathered, joined = MODES[mode](program)(tf.constant(ROWS), tf.constant([2, 0, 1]))
    assert stacked.numpy().tolist() == [[3., 4.], [5., 6.], [1., 2.]]
    assert gathered.numpy().tolist() == [[1., 2.], [3., 4.]]
    assert joined.numpy().tolist() == [3., 4., 5., 6., 1., 2.]


@pytest.mark.parametrize("mode", MODES)
def test_split_cuts_the_rows_into_elements_of_the_given_lengths(mode):
    def program(x, lengths):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True).split(x, lengths)
        return ta.size(), ta.read(0), ta.read(1), ta.concat()

    size, first, second, joined = MODES[mode](program)(tf.constant(ROWS), tf.constant([1, 2]))
    assert int(size) == 2 and first.numpy().tolist() == [[1., 2.]]
    assert second.numpy().tolist() == [[3., 4.], [5., 6.]]
    assert joined.numpy().tolist() == ROWS


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_concat_joins_elements_of_different_lengths_when_infer_shape_is_false(mode):
    def program(x):
        ta = tf.TensorArray(tf.float32, size=2, infer_shape=False)
        return ta.write(0, x[:1]).write(1, x[1:]).concat()

    assert MODES[mode](program)(tf.constant([1., 2., 3.])).numpy().tolist() == [1., 2., 3.]


def test_elements_of_different_shapes_are_refused_when_shapes_are_inferred():
    ta = tf.TensorArray(tf.float32, size=3).write(0, [1.])
    with pytest.raises(ValueError, match="shape"):    # TensorFlow 2.21: ValueError "Incompatible shape for value"
        ta.write(1, [2., 3.])


def test_split_into_an_array_of_another_fixed_size_is_refused_as_in_tensorflow():
    with pytest.raises(InvalidArgumentError, match="not equal to the size of lengths"):
        tf.TensorArray(tf.float32, size=0).split(tf.constant([1., 2., 3.]), lengths=[1, 2])


def test_gradients_flow_back_through_scatter_split_and_concat():
    x = tf.constant(ROWS)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.TensorArray(tf.float32, size=3).scatter([2, 0, 1], x).concat() *
                          tf.range(6, dtype=tf.float32))
    assert tape.gradient(y, x).numpy().tolist() == [[4., 5.], [0., 1.], [2., 3.]]   # TensorFlow 2.21

    @tf.function(input_signature=[tf.TensorSpec([None]), tf.TensorSpec([None], tf.int32)])
    def traced(v, lengths):
        with tf.GradientTape() as tape:
            tape.watch(v)
            ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True).split(v, lengths)
            z = tf.reduce_sum(ta.concat() ** 2) + ta.read(1)[0]
        return tape.gradient(z, v)

    np.testing.assert_allclose(traced(tf.constant([1., 2., 3.]), tf.constant([1, 2])).numpy(), [2., 5., 6.])


def test_element_shape_is_an_unknown_tensorshape_before_any_write_as_in_tensorflow():
    ta = tf.TensorArray(tf.float32, size=3)
    assert str(ta.element_shape) == "<unknown>"
    assert ta.write(0, [1., 2.]).element_shape == (2,)


def test_concat_of_an_empty_array_with_a_known_element_shape_is_empty():
    # beyond TensorFlow 2.21, whose ConcatV2 of no tensors fails with an internal kernel error
    empty = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[None, 2]).concat()
    assert empty.shape == (0, 2)


def test_elements_of_different_lengths_concatenate_and_split_in_a_function_as_eagerly():
    # the executor's constant folding measured the folded list with np.size, which fails on rows of two lengths
    def joined():
        return tf.TensorArray(tf.float32, size=2, infer_shape=False).write(0, [1., 2.]).write(1, [3.]).concat()

    def second_piece():
        return tf.TensorArray(tf.float32, size=2).split([1., 2., 3.], [1, 2]).read(1)

    for f, expected in ((joined, [1.0, 2.0, 3.0]), (second_piece, [2.0, 3.0])):
        assert f().numpy().tolist() == expected and tf.function(f)().numpy().tolist() == expected
