"""The functions a program gives `cond`, `while_loop`, `map_fn`, `scan`, `foldl`, `foldr`, `switch_case` and `case`
are converted by autograph while a function traced with `autograph=True` is built, as TensorFlow converts them
(its `tf_convert` under the current control status): a Python `if` on a tensor inside them is staged. Under
`autograph=False` they run as they are, and a Python `if` on a symbolic tensor is refused, as in TensorFlow.
The expected values are what TensorFlow 2.21 gives for the same programs."""
import numpy as np
import pytest

import runtime as tf
from runtime.control_flow import ControlFlowError
from runtime.errors import OperatorNotAllowedInGraphError


def sign_doubled(e):
    if e > 0:
        return e * 2
    return -e


def add_positive(a, e):
    if e > 0:
        a = a + e
    return a


X = [1., -2., 3.]

# program -> what TensorFlow 2.21 gives for it, called on X
PROGRAMS = {
    "map_fn": (lambda x: tf.map_fn(sign_doubled, x), [2., 2., 6.]),
    "map_fn with a lambda": (lambda x: tf.map_fn(lambda e: sign_doubled(e) + 1., x), [3., 3., 7.]),
    "scan": (lambda x: tf.scan(add_positive, x), [1., 1., 4.]),
    "scan with an initializer": (lambda x: tf.scan(add_positive, x, initializer=10.), [11., 11., 14.]),
    "foldl": (lambda x: tf.foldl(add_positive, x), 4.),
    "foldr": (lambda x: tf.foldr(add_positive, x), 4.),
    "cond": (lambda x: tf.cond(x[0] > 0, lambda: sign_doubled(x[1]), lambda: x[1]), 2.),
    "switch_case": (lambda x: tf.switch_case(tf.constant(1), [lambda: x[0], lambda: sign_doubled(x[1])]), 2.),
    "vectorized_map": (lambda x: tf.vectorized_map(sign_doubled, x), [2., 2., 6.]),
    "case": (lambda x: tf.case([(x[0] > 5., lambda: x[0])], default=lambda: sign_doubled(x[1])), 2.),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_a_python_if_in_a_function_given_to_a_higher_order_op_is_staged_as_tensorflow_stages_it(name):
    program, expected = PROGRAMS[name]
    traced = tf.function(program)
    np.testing.assert_allclose(traced(tf.constant(X)).numpy(), expected)


@pytest.mark.parametrize("name", PROGRAMS)
def test_the_same_programs_run_eagerly_with_the_same_values(name):
    program, expected = PROGRAMS[name]
    np.testing.assert_allclose(program(tf.constant(X)).numpy(), expected)


def test_a_while_loop_body_and_condition_are_converted():
    def condition(i, s):
        return i < 3

    def body(i, s):
        if s > 2.:
            s = s - 1.
        else:
            s = s + 2.
        return i + 1, s

    i, s = tf.function(lambda x: tf.while_loop(condition, body, (0, x)))(tf.constant(1.))
    assert (int(i), float(s)) == (3, 4.0)     # TensorFlow 2.21: 3 and 4.0


def test_a_loop_over_a_tensor_inside_a_map_fn_function_is_staged():
    def total(e):
        s = 0.
        for _ in tf.range(3):
            s += e
        return s

    out = tf.function(lambda x: tf.map_fn(total, x))(tf.constant(X))
    np.testing.assert_allclose(out.numpy(), [3., -6., 9.])   # TensorFlow 2.21


def test_under_autograph_false_the_function_runs_as_it_is_and_its_if_is_refused_as_in_tensorflow():
    traced = tf.function(lambda x: tf.map_fn(sign_doubled, x), autograph=False)
    with pytest.raises(OperatorNotAllowedInGraphError):
        traced(tf.constant(X))


def test_a_function_marked_do_not_convert_is_not_converted():
    @tf.autograph.experimental.do_not_convert
    def unconverted(e):
        return sign_doubled(e)

    with pytest.raises(OperatorNotAllowedInGraphError):
        tf.function(lambda x: tf.map_fn(unconverted, x))(tf.constant(X))


def test_an_inner_function_traced_with_autograph_false_is_not_converted_inside_a_converted_one():
    inner = tf.function(sign_doubled, autograph=False)
    with pytest.raises(OperatorNotAllowedInGraphError):
        tf.function(lambda x: tf.map_fn(inner, x))(tf.constant(X))


def test_a_while_loop_condition_that_is_not_a_scalar_is_refused_when_traced():
    # TensorFlow 2.21: ValueError "condition of while loop expected to be `tf.bool` scalar"
    traced = tf.function(lambda x: tf.while_loop(lambda v: v < 100., lambda v: v * 2., [x]))
    with pytest.raises(ControlFlowError, match="scalar bool"):
        traced(tf.constant(X))


def test_vectorized_map_traces_its_function_once_and_takes_the_dtypes_it_returns():
    traces = []

    def positive_and_sum(e):
        traces.append(1)
        return tf.cast(e > 0, tf.int32), {"s": tf.reduce_sum(e)}

    flags, sums = tf.vectorized_map(positive_and_sum, tf.constant([[1., -2.], [3., 4.]]))
    assert flags.dtype is tf.int32 and flags.numpy().tolist() == [[1, 0], [1, 1]]   # TensorFlow 2.21
    assert sums["s"].numpy().tolist() == [-1., 7.] and len(traces) == 1


def test_vectorized_map_differentiates_and_keeps_an_unknown_row_count():
    x = tf.constant([[1., 2.], [3., 4.]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.vectorized_map(lambda r: tf.reduce_sum(r * r), x)
    assert y.numpy().tolist() == [5., 25.] and tape.gradient(y, x).numpy().tolist() == [[2., 4.], [6., 8.]]
    shapes = []
    f = tf.function(lambda v: shapes.append(tf.vectorized_map(lambda r: r * 2, v).shape),
                    input_signature=[tf.TensorSpec([None, 2])])
    f.get_concrete_function()
    assert shapes == [(None, 2)]
