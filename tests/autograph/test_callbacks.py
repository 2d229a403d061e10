"""The user's functions that converted code hands to a function that is not converted (a library's, a builtin)
are converted (autograph/api.py `_callbacks_converted`): TensorFlow's AutoGraph converts a function defined inside
a converted one with it, so a Python `if` on a tensor inside it is staged wherever it is called from. The
expected values are what TensorFlow 2.21 gives for the same programs."""
import functools

import numpy as np
import pytest

import autograph as ag
import runtime as tf
from runtime.errors import OperatorNotAllowedInGraphError

X = [1., -2.]


def through_nest(x):
    def g(e):
        if e > 0:
            return e * 2
        return -e
    return tf.nest.map_structure(g, [x[0], x[1]])


def through_map(x):
    def g(e):
        if e > 0:
            return e * 2
        return -e
    return list(map(g, [x[0], x[1]]))


def through_reduce(x):
    def g(a, e):
        if e > 0:
            return a + e
        return a
    return functools.reduce(g, [x[0], x[1]], tf.constant(0.))


def through_keyword(x):
    def key(e):
        return e * 2 if e > 0 else -e
    return sorted([x[0]], key=key)     # one element: compared to none, but its key is computed


PROGRAMS = {
    "tf.nest.map_structure": (through_nest, [2., 2.]),
    "map": (through_map, [2., 2.]),
    "functools.reduce": (through_reduce, 1.),
    "a keyword argument": (through_keyword, [1.]),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_a_nested_function_handed_to_a_library_function_has_its_if_staged(name):
    program, expected = PROGRAMS[name]
    out = tf.function(program)(tf.constant(X))
    np.testing.assert_allclose(np.array([float(t) for t in out]) if isinstance(out, list) else float(out), expected)


@pytest.mark.parametrize("name", PROGRAMS)
def test_the_same_programs_on_python_values_give_pythons_answers(name):
    program, _ = PROGRAMS[name]
    expected = program(np.array(X))
    assert ag.convert(program)(np.array(X)) == expected


def test_a_function_handed_to_do_not_convert_inside_converted_code_is_not_converted():
    def helper(e):
        if e > 0:
            return e * 2
        return -e

    def program(x):
        return tf.map_fn(tf.autograph.experimental.do_not_convert(helper), x)

    with pytest.raises(OperatorNotAllowedInGraphError):
        tf.function(program)(tf.constant(X))
