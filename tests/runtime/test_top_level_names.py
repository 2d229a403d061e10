"""TensorFlow's top-level names for functions the runtime has elsewhere (`tf.Assert`, `tf.assert_equal`,
`tf.as_string`, `tf.double`, ...) and `tf.control_dependencies`, `tf.no_op`, `tf.group`, which have nothing to
order here: stateful ops already run in program order."""
import numpy as np
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


X = np.arange(24).reshape(2, 4, 3)
SMALL = {   # name: (program, TensorFlow 2.21's answer)
    "broadcast_static_shape": (lambda: tf.constant(tf.broadcast_static_shape(tf.TensorShape([2, 1, 3]),
                                                                             tf.TensorShape([4, 1])).as_list()),
                               [2, 4, 3]),
    "broadcast_dynamic_shape": (lambda: tf.broadcast_dynamic_shape(tf.constant([2, 1, 3]), tf.constant([4, 1])),
                                [2, 4, 3]),
    "shape_n": (lambda: tf.shape_n([tf.zeros([2, 3]), tf.zeros([4])]), [[2, 3], [4]]),
    "realdiv": (lambda: tf.realdiv(tf.constant([1.0, 3.0]), tf.constant([2.0, 4.0])), [0.5, 0.75]),
    "reverse_sequence": (lambda: tf.reverse_sequence(tf.constant(X), [2, 3], seq_axis=1, batch_axis=0),
                         [[[3, 4, 5], [0, 1, 2], [6, 7, 8], [9, 10, 11]],
                          [[18, 19, 20], [15, 16, 17], [12, 13, 14], [21, 22, 23]]]),
    "reverse_sequence, batch second": (
        lambda: tf.reverse_sequence(tf.constant(X.transpose(1, 0, 2)), [4, 1], seq_axis=0, batch_axis=1),
        [[[9, 10, 11], [12, 13, 14]], [[6, 7, 8], [15, 16, 17]], [[3, 4, 5], [18, 19, 20]], [[0, 1, 2], [21, 22, 23]]]),
    "dynamic_partition": (lambda: tf.dynamic_partition(tf.constant([10, 20, 30, 40, 50]), tf.constant([0, 0, 1, 1, 0]),
                                                       3), [[10, 20, 50], [30, 40], []]),
}


@pytest.mark.parametrize("traced", [False, True])
@pytest.mark.parametrize("name", list(SMALL))
def test_small_top_level_functions_give_tensorflows_answers(traced, name):
    program, expected = SMALL[name]
    got = (tf.function(program) if traced else program)()
    assert tf.nest.map_structure(lambda t: np.asarray(t).tolist(), got) == expected


def test_broadcast_dynamic_shape_refuses_shapes_that_dont_broadcast_and_the_small_predicates_answer():
    with pytest.raises(InvalidArgumentError, match="Incompatible shapes"):
        tf.broadcast_dynamic_shape(tf.constant([2, 3]), tf.constant([4]))
    assert tf.inside_function() is False and bool(tf.function(lambda: tf.constant(tf.inside_function()))())
    assert tf.get_logger().name == "tensorflow" and not tf.is_symbolic_tensor(tf.constant(1))


def test_grad_pass_through_passes_the_gradient_unchanged():
    v = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = tf.reduce_sum(tf.grad_pass_through(tf.round)(v * 1.7))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [1.7, 1.7], rtol=1e-6)
