"""Eager tensors: conversion rules, printing, Python protocol methods."""
import numpy as np
import pytest

import runtime as tf
from autograph.errors import StagingError
from runtime.control_flow import ControlFlowError


def test_python_values_get_tensorflow_default_dtypes():
    assert tf.constant(1).dtype == tf.int32
    assert tf.constant(1.5).dtype == tf.float32
    assert tf.constant(True).dtype == tf.bool
    assert tf.constant([1, 2.0]).dtype == tf.float32
    assert tf.constant(np.float64(1)).dtype == tf.float64
    assert tf.constant(2 ** 40).dtype == tf.int64
    assert tf.constant(3, dtype=tf.float64).dtype == tf.float64
    with pytest.raises(TypeError, match="does not convert exactly"):
        tf.constant(1.5, dtype=tf.int32)


def test_print_and_repr_in_tensorflow_style():
    a = tf.constant([[1, 2], [3, 4]])
    assert str(a) == "tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)"
    assert str(tf.constant([10, 21, 32])) == "tf.Tensor([10 21 32], shape=(3,), dtype=int32)"
    assert str(tf.constant(10.0)) == "tf.Tensor(10.0, shape=(), dtype=float32)"
    assert repr(tf.constant(5)) == "<tf.Tensor: shape=(), dtype=int32, numpy=5>"
    assert repr(tf.constant([1.0])) == "<tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>"
    assert "hello, {}".format(tf.matmul([[2.0]], [[2.0]])) == "hello, [[4.]]"



def test_shape_object_compares_with_tuples_and_lists():
    t = tf.constant(np.zeros((2, 3)))
    assert t.shape == (2, 3) and t.shape == [2, 3] and t.shape.as_list() == [2, 3]
    assert t.shape.rank == 2 and t.ndim == 2 and t.shape[0] == 2


def test_python_protocols():
    assert int(tf.constant(3)) == 3 and float(tf.constant(2.5)) == 2.5
    assert bool(tf.constant(True)) and not bool(tf.constant(0))
    assert [1, 2, 3][tf.constant(1)] == 2
    assert len(tf.constant([1, 2, 3])) == 3
    assert [t.numpy() for t in tf.constant([4, 5])] == [4, 5]
    assert np.multiply(tf.constant([1, 2]), tf.constant([3, 4])).tolist() == [3, 8]
    with pytest.raises(ValueError, match="ambiguous"):
        bool(tf.constant([1, 2]))
    with pytest.raises(TypeError):
        len(tf.constant(1))


def test_numpy_returns_scalars_for_0d_and_arrays_otherwise():
    assert isinstance(tf.constant(2.0).numpy(), np.float32)
    assert isinstance(tf.constant([2.0]).numpy(), np.ndarray)


def test_executing_eagerly():
    assert tf.executing_eagerly()
    seen = []
    tf.function(lambda x: seen.append(tf.executing_eagerly()) or x)(tf.constant(1))
    assert seen == [False]


@pytest.mark.parametrize("make", [
    lambda: tf.constant(1e300), lambda: tf.constant([[1.0, 1e39]]), lambda: tf.convert_to_tensor(1e300),
    lambda: tf.Variable(1e300), lambda: tf.fill([2], 1e300), lambda: tf.cast(1e300, tf.float32),
])
def test_a_python_float_past_float32s_range_is_refused_where_float32_is_only_the_default(make):
    with pytest.raises(ValueError, match="out of float32's range .* pass dtype=float64"):
        make()   # TensorFlow refuses these too; inf would be a number the program never computed


def test_a_python_float_past_float32s_range_is_inf_where_float32_is_asked_for():
    assert np.isinf(tf.constant(1e300, tf.float32).numpy())          # as TensorFlow's, and no NumPy warning
    assert np.isinf((tf.constant([1.0]) * 1e300).numpy()).all()
    assert tf.constant(1e300, tf.float64).numpy() == 1e300
    assert np.isinf(tf.constant([1.0, np.inf]).numpy()[1])           # an inf written as one stays


def test_a_python_float_a_staged_branch_or_loop_cannot_carry_is_refused_at_the_users_line():
    def loop(x):
        s = 1e300
        for _ in tf.range(3):
            s = s / x
        return s

    def branch(x):
        s = 1e300 if x > 0 else x   # the other branch's float32 can't hold it: not taken as the dtype
        return s

    with pytest.raises(StagingError, match=r"'s' starts as the Python float 1e\+300 .*float64"):
        tf.function(loop)(tf.constant(10.0))   # (a float32 tensor types it; a Python float alone is a double)
    with pytest.raises(ControlFlowError, match=r"float 1e\+300 in true_fn.*as float32 it would be inf"):
        tf.function(branch)(tf.constant(1.0))
    assert tf.function(branch)(tf.constant(1.0, tf.float64)).numpy() == 1e300


def test_a_tensor_compared_with_none_is_python_s_answer():
    """`x == None` is False and `x != None` True, as in Python and TensorFlow (it was a TypeError: None is no
    tensor); `if y == None:` in a function with a default of None works."""
    x, v = tf.constant(1), tf.Variable(2.0)
    assert (x == None) is False and (x != None) is True and (None == x) is False  # noqa: E711
    assert (v == None) is False and (v != None) is True  # noqa: E711

    def f(x, y=None):
        if y == None:  # noqa: E711
            return x + 1
        return x * 2
    assert int(tf.function(f)(tf.constant(3))) == 4 and int(tf.function(f)(tf.constant(3), tf.constant(1))) == 6


@pytest.mark.parametrize("make", [lambda: tf.constant([1, 2]), lambda: tf.Variable(1.0)], ids=["tensor", "variable"])
def test_tensors_and_variables_are_unhashable_as_in_tensorflow_and_ref_keys_them(make):
    x, other = make(), make()
    with pytest.raises(TypeError, match=r"is unhashable. Instead, use (tensor|variable).ref\(\) as the key"):
        {x}
    with pytest.raises(TypeError, match="is unhashable"):
        {x: 1}
    keyed = {x.ref(): "x", other.ref(): "other"}
    assert keyed[x.ref()] == "x" and keyed[other.experimental_ref()] == "other"
    assert x.ref().deref() is x and x.ref() == x.ref() and x.ref() != other.ref()
    assert repr(x.ref()) == f"<Reference wrapping {x!r}>"


def test_a_traced_tensor_is_unhashable_too():
    @tf.function
    def f(x):
        try:
            {x}
        except TypeError as e:
            return str(e)

    assert f(tf.constant(1)).numpy() == b"Tensor is unhashable. Instead, use tensor.ref() as the key."


def test_a_multi_line_value_starts_on_its_own_line_in_a_repr_as_in_tensorflow():
    assert repr(tf.constant([[1, 2], [3, 4]])) == ("<tf.Tensor: shape=(2, 2), dtype=int32, numpy=\n"
                                                   "array([[1, 2],\n       [3, 4]], dtype=int32)>")
    assert repr(tf.Variable([[1.0], [2.0]])).endswith("numpy=\narray([[1.],\n       [2.]], dtype=float32)>")
    assert repr(tf.constant([1, 2])).endswith("numpy=array([1, 2], dtype=int32)>")


def test_numpy_gives_a_copy_and_numpys_view_is_read_only_so_a_tensor_never_changes():
    t = tf.constant([1, 2, 3])
    t.numpy()[0] = 9
    view = np.asarray(t)
    with pytest.raises(ValueError, match="read-only"):
        view[0] = 9
    own = np.array(t)
    own[0] = 9
    assert t.numpy().tolist() == [1, 2, 3] and own.tolist() == [9, 2, 3]


@pytest.mark.parametrize("make", [tf.constant, tf.convert_to_tensor, lambda a: tf.constant(a, tf.float64),
                                  lambda a: tf.constant(a[::2])], ids=["constant", "convert", "same-dtype", "view"])
def test_a_tensor_made_from_a_numpy_array_keeps_its_values_when_the_array_changes(make):
    array = np.arange(4.0)
    t = make(array)
    before = t.numpy().tolist()
    array[:] = -1
    assert t.numpy().tolist() == before and -1 not in before


def test_tensorshape_merges_and_concatenates_as_tensorflows():
    assert tf.TensorShape([2, None]).merge_with([None, 3]) == (2, 3)
    assert tf.TensorShape(None).merge_with([1]) == (1,) and tf.TensorShape([1]).merge_with(None) == (1,)
    with pytest.raises(ValueError, match=r"Shapes \(2, 3\) and \(4,\) are not compatible"):
        tf.TensorShape([2, 3]).merge_with([4])
    assert tf.TensorShape([2]).concatenate([3]) == (2, 3) == tf.TensorShape([2]) + [3] == [2] + tf.TensorShape([3])
    assert tf.TensorShape(None).concatenate([3]).rank is None
    with pytest.raises(ValueError, match="incompatible"):
        tf.TensorShape([2]).assert_is_compatible_with([3])


def test_a_dtypes_size_is_its_bytes_per_element():
    assert [d.size for d in (tf.float32, tf.int8, tf.complex128, tf.bool, tf.float16)] == [4, 1, 16, 1, 2]
