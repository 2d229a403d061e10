"""The static shapes ops give while a function is traced with an unknown dimension: each is the shape
TensorFlow 2.21 gives for the same op on an input of shape (None, 3). A static shape that claims more than
the run-time value has (a rank where the rank is unknown) would be silently wrong downstream."""
import pytest

import runtime as tf

OPS = {
    "reshape to -1": (lambda x: tf.reshape(x, [-1]), "(None,)"),
    "reshape to -1, 3, 1": (lambda x: tf.reshape(x, [-1, 3, 1]), "(None, 3, 1)"),
    "reshape to its own shape": (lambda x: tf.reshape(x, tf.shape(x)), "(None, 3)"),
    "concat on axis 0": (lambda x: tf.concat([x, x], 0), "(None, 3)"),
    "concat on axis 1": (lambda x: tf.concat([x, x], 1), "(None, 6)"),
    "stack": (lambda x: tf.stack([x, x]), "(2, None, 3)"),
    "tile": (lambda x: tf.tile(x, [2, 1]), "(None, 3)"),
    "slice of rows": (lambda x: x[1:], "(None, 3)"),
    "slice of columns": (lambda x: x[:, 1:], "(None, 2)"),
    "index": (lambda x: x[0], "(3,)"),
    "newaxis": (lambda x: x[:, None], "(None, 1, 3)"),
    "ellipsis": (lambda x: x[..., 0], "(None,)"),
    "matmul": (lambda x: tf.matmul(x, tf.ones([3, 2])), "(None, 2)"),
    "transpose": (lambda x: tf.transpose(x), "(3, None)"),
    "squeeze of a given axis": (lambda x: tf.squeeze(tf.expand_dims(x, 1), 1), "(None, 3)"),
    "squeeze of every size-1 axis": (lambda x: tf.squeeze(x), "<unknown>"),
    "reduce_sum on axis 0": (lambda x: tf.reduce_sum(x, 0), "(3,)"),
    "reduce_sum keeping dims": (lambda x: tf.reduce_sum(x, 1, keepdims=True), "(None, 1)"),
    "gather rows": (lambda x: tf.gather(x, [0, 1]), "(2, 3)"),
    "where": (lambda x: tf.where(x > 0), "(None, 2)"),
    "boolean_mask": (lambda x: tf.boolean_mask(x, x[:, 0] > 0), "(None, 3)"),
    "one_hot": (lambda x: tf.one_hot(tf.cast(x[:, 0], tf.int32), 4), "(None, 4)"),
    "fill": (lambda x: tf.fill([tf.shape(x)[0], 2], 1.0), "(None, 2)"),
    "split": (lambda x: tf.split(x, 3, axis=1)[0], "(None, 1)"),
    "broadcast": (lambda x: tf.ones([2, 1, 1]) * x, "(2, None, 3)"),
    "einsum": (lambda x: tf.einsum("ij,jk->ik", x, tf.ones([3, 4])), "(None, 4)"),
    "broadcast_to": (lambda x: tf.broadcast_to(x[:1], [5, 3]), "(5, 3)"),
}


@pytest.mark.parametrize("name", OPS)
def test_the_static_shape_with_an_unknown_dimension_is_tensorflows(name):
    op, expected = OPS[name]
    shapes = []

    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def f(x):
        shapes.append(str(op(x).shape))
        return x

    f.get_concrete_function()
    assert shapes == [expected]


def test_squeeze_of_an_unknown_dimension_that_is_one_when_run_drops_it():
    f = tf.function(tf.squeeze, input_signature=[tf.TensorSpec([None, 3])])
    assert f(tf.ones([1, 3])).shape == (3,) and f(tf.ones([2, 3])).shape == (2, 3)


@pytest.mark.parametrize("args, length", [((6,), 6), ((1, 7, 2), 3), ((5, 0, -2), 3), ((3, 3), 0),
                                          ((0.0, 1.0, 0.1), 10), ((0.0, 1.0, 0.3), 4)])
def test_a_range_of_bounds_known_while_tracing_has_tensorflows_static_length(args, length):
    shapes = []

    @tf.function
    def f():
        r = tf.range(*args)
        shapes.append(r.shape.as_list())
        return r

    assert len(f().numpy()) == length and shapes == [[length]]


def test_a_range_of_a_traced_bound_or_the_wrong_way_has_an_unknown_length():
    shapes = []

    @tf.function
    def f(n):
        shapes.append([tf.range(n).shape.as_list(), tf.range(5, 1).shape.as_list()])
        return n

    f.get_concrete_function(tf.TensorSpec((), tf.int32))
    assert shapes == [[[None], [None]]]
