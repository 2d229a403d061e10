"""An axis, `k`, a depth, a permutation or paddings given as a constant tensor made in a traced function is
taken as TensorFlow takes it (`tf.concat(xs, axis=tf.constant(0))`), and gives what the Python int gives;
one computed when the graph runs is a clear error. tools/grad_probe.py (area axes2) compares them with
TensorFlow, gradients included."""
import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError

X = np.array([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]], np.float32)

# name: program(x, arg), where `arg(v)` gives v as a Python value or as a constant tensor
PROGRAMS = {
    "concat": lambda x, arg: tf.concat([x, x * 2.0], axis=arg(-1)),
    "gather": lambda x, arg: tf.gather(x, [2, 0], axis=arg(1)),
    "split": lambda x, arg: tf.split(x, arg([2, 1]), axis=arg(1))[0],
    "split into equal parts": lambda x, arg: tf.split(x, 3, axis=arg(1))[2],
    "sort": lambda x, arg: tf.sort(x, axis=arg(0), direction="DESCENDING"),
    "argsort": lambda x, arg: tf.argsort(x, axis=arg(-1)),
    "top_k": lambda x, arg: tf.math.top_k(x, k=arg(2)).indices,
    "expand_dims": lambda x, arg: tf.expand_dims(x, arg(1)),
    "one_hot": lambda x, arg: tf.one_hot([0, 2], arg(3), axis=arg(0)),
    "stack": lambda x, arg: tf.stack([x, x], axis=arg(2)),
    "unstack": lambda x, arg: tf.unstack(x, axis=arg(1))[1],
    "boolean_mask": lambda x, arg: tf.boolean_mask(x, [True, False, True], axis=arg(1)),
    "reverse": lambda x, arg: tf.reverse(x, arg([1])),
    "roll": lambda x, arg: tf.roll(x, arg(1), axis=arg(1)),
    "transpose": lambda x, arg: tf.transpose(x, arg([1, 0])),
    "pad": lambda x, arg: tf.pad(x, arg([[1, 0], [0, 2]])),
    "slice": lambda x, arg: tf.slice(x, arg([0, 1]), arg([2, -1])),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_constant_tensor_argument_gives_what_the_python_value_gives(name):
    program = PROGRAMS[name]
    expected = program(tf.constant(X), lambda v: v).numpy()
    for run in (lambda f: f, tf.function):   # eagerly (an eager tensor) and traced (a Const op)
        got = run(lambda x: program(x, tf.constant))(tf.constant(X))
        np.testing.assert_array_equal(got.numpy(), expected)


def test_top_k_returns_a_namedtuple_a_traced_function_can_return():
    values, indices = tf.function(lambda x: tf.math.top_k(x, k=tf.constant(1)))(tf.constant(X))
    assert values.numpy().tolist() == [[3.0], [4.0]] and indices.numpy().tolist() == [[0], [1]]


def test_an_axis_computed_when_the_graph_runs_is_a_clear_error():
    @tf.function
    def f(x, axis):
        return tf.concat([x, x], axis=axis)
    with pytest.raises(InvalidArgumentError, match="concat's axis given as a tensor must be known while tracing"):
        f(tf.constant(X), tf.constant(0))


def test_slice_takes_size_minus_one_to_the_end_and_refuses_what_does_not_fit():
    x = tf.constant(X)
    np.testing.assert_array_equal(tf.slice(x, [1, 1], [1, -1]).numpy(), [[4.0, -1.0]])   # TensorFlow's
    with pytest.raises(InvalidArgumentError, match="do not fit in shape"):
        tf.slice(x, [1, 2], [1, 2])
