"""TensorFlow's top-level names for functions the runtime has elsewhere (`tf.Assert`, `tf.assert_equal`,
`tf.as_string`, `tf.double`, ...) and `tf.control_dependencies`, `tf.no_op`, `tf.group`, which have nothing to
order here: stateful ops already run in program order."""
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError


def test_the_top_level_names_are_the_functions_and_dtypes_elsewhere():
    assert tf.Assert is tf.debugging.Assert and tf.assert_equal is tf.debugging.assert_equal
    assert tf.assert_less is tf.debugging.assert_less and tf.assert_rank is tf.debugging.assert_rank
    assert tf.as_string is tf.strings.as_string and tf.scalar_mul is tf.math.scalar_mul
    assert tf.double is tf.float64 and tf.half is tf.float16


def test_a_block_under_control_dependencies_sees_their_effects_and_their_checks_raise():
    v = tf.Variable(1.0)

    @tf.function
    def f(x):
        with tf.control_dependencies([v.assign_add(1.0), tf.debugging.assert_positive(x)]):
            y = x + v
        tf.group(v.assign_add(10.0), y)
        tf.no_op()
        return y

    assert float(f(tf.constant(2.0))) == 4.0 and float(v.numpy()) == 12.0
    with pytest.raises(InvalidArgumentError, match="Condition x > 0"):
        f(tf.constant(-1.0))


def test_no_op_and_group_give_none_eagerly_and_control_dependencies_checks_its_inputs():
    assert tf.no_op() is None and tf.group(tf.constant(1.0)) is None
    with pytest.raises(TypeError, match="expects tensors, Variables or ops"):
        with tf.control_dependencies([3]):
            pass
