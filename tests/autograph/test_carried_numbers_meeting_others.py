"""A Python int or float that a staged loop or `if` carries (a tensor marked as the Python number it holds,
runtime/ops/python_ints.py) meets other operands as Python's number would: an int times a Python float is a
float, and beside a float tensor of the program's it takes that tensor's dtype. Before, `s * 1.5` of a counter
a staged loop carried, and `x * (s / 2)` of a float32 `x`, raised a dtype mismatch where Python computes."""
import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError


def _count(n):
    s = 0
    for _ in tf.range(n):
        s += 1
    return s


def times_float(n):
    s = _count(n)
    return s * 1.5, 2.5 * s, s + 0.5, s - 0.25, s < 2.5, s == 3.0


def float_of_int_in_program_dtype(n):
    s = _count(n)
    x = tf.constant([1.0, 2.0])
    return x * (s / 2), x * s, x + float(s)


def in_a_branch(n):
    s = _count(n)
    if n > 1:
        y = s * 0.5
    else:
        y = 2.0
    return y


def in_a_later_loop(n):
    s = _count(n)
    t = 0.0
    for _ in tf.range(n):
        t = t + s * 1.5
    return t


def with_int64(n):
    s = _count(n)
    return tf.reduce_sum(tf.constant([1, 2], tf.int64) * s)


def _eager_answer(f, n):
    """Python's answer: the function run eagerly on a Python int (its tensors eager)."""
    return tf.nest.map_structure(lambda v: np.asarray(v).tolist(), f(n))


@pytest.mark.parametrize("f", [times_float, float_of_int_in_program_dtype, in_a_branch, in_a_later_loop,
                               with_int64])
@pytest.mark.parametrize("n", [0, 3])
def test_a_carried_python_number_meets_floats_and_program_tensors_as_python_does(f, n):
    got = tf.function(f)(tf.constant(n))
    assert tf.nest.map_structure(lambda v: np.asarray(v).tolist(), got) == _eager_answer(f, n)


def test_the_float_of_a_carried_int_times_a_float_is_exact_beyond_float32():
    """float64, as `s / 2` and `float(s)` are: 2 ** 24 + 1 stays odd."""
    def big(n):
        s = 2 ** 24
        for _ in tf.range(n):
            s += 1
        return s * 1.0

    got = tf.function(big)(tf.constant(1))
    assert got.dtype == tf.float64 and float(got) == 2 ** 24 + 1


def test_a_carried_float_keeps_its_text_after_meeting_an_int():
    def text(n):
        s = _count(n)
        u = s * 1.5
        return f"{u}"

    assert tf.function(text)(tf.constant(3)).numpy().decode() == text(3) == "4.5"


def test_a_carried_int_beside_a_smaller_int_dtype_stays_an_error_its_value_might_not_fit():
    def small(n):
        s = _count(n)
        return tf.constant([1, 2], tf.uint8) * s

    with pytest.raises(InvalidArgumentError, match="uint8 and int32"):
        tf.function(small)(tf.constant(3))


def test_a_program_int32_tensor_times_a_python_float_stays_tensorflows_error():
    """Only a Python number the graph carries meets floats as Python's: the program's own int32 tensors keep
    TensorFlow's rule."""
    def program(n):
        return n * 1.5

    with pytest.raises(InvalidArgumentError, match="int32 and float32"):
        tf.function(program)(tf.constant(3))


def test_a_carried_python_float_beside_a_float64_tensor_keeps_its_digits():
    """A Python float a staged loop carries is a double, as Python's (docs/limitations.md): it was a float32, and
    beside a float64 tensor a dtype error (taking float64 would have given 0.10000000149, not 0.1)."""
    def rounded(n):
        t = 0.1
        for _ in tf.range(n):
            t = t * 1.0
        return tf.constant(1.0, tf.float64) * t

    assert float(tf.function(rounded)(tf.constant(2))) == rounded(2) == 0.1
