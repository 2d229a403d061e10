"""How a Python list becomes a tensor, as TensorFlow 2.21 does it: NumPy numbers in a list count by kind (a NumPy
int is an int, int32 unless it needs int64), a float list takes its first value's dtype when that is a NumPy
float, else float32; `stack` of Python numbers converts them as one list. Each case is checked against the
recorded answer, and against TensorFlow where it is installed."""
import os

import numpy as np
import pytest

import runtime as tf

# (name, the value, TensorFlow's dtype)
LISTS = [
    ("a NumPy float32 then a Python float", [np.float32(1.0), 2.0], "float32"),
    ("a NumPy float64 then a Python int", [np.float64(1.0), 2], "float64"),
    ("a Python float then a NumPy float64", [1.0, np.float64(2.0)], "float32"),
    ("a Python int then a NumPy float64", [1, np.float64(2.5)], "float32"),
    ("float16 then float64: the first decides", [np.float16(1), np.float64(2)], "float16"),
    ("NumPy int64s", [np.int64(1), 2], "int32"),
    ("NumPy int8s", [np.int8(1), np.int8(2)], "int32"),
    ("NumPy uint8s", [np.uint8(1), np.uint8(2)], "int32"),
    ("an int past int32", [np.int8(1), 2 ** 40], "int64"),
    ("a NumPy int64 past int32", [np.int64(2 ** 40)], "int64"),
    ("a NumPy int then a NumPy float32", [np.int64(1), np.float32(2.5)], "float32"),
    ("float32 arrays", [np.array([1.0], np.float32), [2.0]], "float32"),
    ("float64 arrays", [np.array([1.0]), np.array([2.0])], "float64"),
    ("int64 arrays", [np.array([1, 2]), [3, 4]], "int32"),
    ("a 0-d float64 array", [np.array(1.0), 1.0], "float64"),
    ("NumPy bools", [True, np.bool_(False)], "bool"),
    ("a NumPy complex64", [np.complex64(1 + 2j), 1.0], "complex128"),
    ("NumPy strings", [np.str_("a"), b"b"], "string"),
    ("nested, the first value a NumPy float32", [[np.float32(1.0)], [2.0]], "float32"),
    ("a NumPy float64 beside a float32 tensor", [tf.constant(1.0), np.float64(2.5)], "float32"),
]


def _tensorflow():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    return pytest.importorskip("tensorflow", reason="TensorFlow is not installed (pip install -e '.[tensorflow]')")


@pytest.mark.parametrize("name, value, dtype", LISTS, ids=[c[0] for c in LISTS])
def test_a_list_of_numpy_and_python_numbers_has_tensorflows_dtype(name, value, dtype):
    t = tf.convert_to_tensor(value)
    assert t.dtype.name == dtype
    expected = [b"a", b"b"] if dtype == "string" else np.array([np.asarray(v) for v in value], t.numpy().dtype)
    np.testing.assert_array_equal(t.numpy(), expected)


@pytest.mark.parametrize("name, value, dtype", LISTS, ids=[c[0] for c in LISTS])
def test_tensorflow_still_gives_the_recorded_dtype(name, value, dtype):
    real_tf = _tensorflow()
    value = [real_tf.constant(v.numpy()) if isinstance(v, tf.Tensor) else v for v in value]
    assert real_tf.convert_to_tensor(value).dtype.name == dtype


def test_stack_of_python_numbers_converts_them_as_one_list():
    assert tf.stack([1, 2.5]).dtype == tf.float32           # was a Pack of int32 and float32: an error
    assert tf.stack([[1, 2], [3.5, 4]]).numpy().tolist() == [[1.0, 2.0], [3.5, 4.0]]
    assert tf.stack([np.float32(1), 2]).dtype == tf.float32
    assert tf.stack([tf.constant(1.0), 2]).dtype == tf.float32


def test_a_float_beside_an_int_tensor_in_a_list_is_still_refused():
    with pytest.raises(tf.errors.InvalidArgumentError, match="int32 and float32"):
        tf.stack([tf.constant(1), 2.5])   # TensorFlow: a TypeError, "Cannot convert 2.5 to EagerTensor of dtype int32"
    with pytest.raises(TypeError, match="does not convert exactly"):
        tf.constant([np.float32(1.0), 2], dtype=tf.int32)   # as TensorFlow


def test_a_non_rectangular_list_says_so_as_tensorflow_does():
    for value in ([[1, 2], [3]], [[1, 2], 3], [[1.0], [2.0, 3.0]]):
        with pytest.raises(ValueError, match="Can't convert non-rectangular Python sequence to Tensor"):
            tf.constant(value)
