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


def _key(e):
    return e * 2 if e > 0 else -e


def _module_level_through_map(x):
    return list(map(_key, [x[0], x[1]]))


def _module_level_through_nest(x):
    return tf.nest.map_structure(_key, [x[0], x[1]])


@pytest.mark.parametrize("program", [_module_level_through_map, _module_level_through_nest],
                         ids=["map", "tf.nest.map_structure"])
def test_a_module_level_function_handed_to_a_builtin_or_a_frameworks_function_has_its_if_staged(program):
    out = tf.function(program)(tf.constant(X))
    np.testing.assert_allclose([float(t) for t in out], [2., 2.])


@ag.do_not_convert      # as each function of a module `autograph convert` wrote
def _same_function(f):
    return f


def _hands_itself_over(x):
    return _same_function(_key), _same_function(_hands_itself_over)


def test_a_function_handed_to_the_users_own_function_arrives_as_it_is():
    """Only builtins that call their functions and the frameworks' functions get conversions: the user's own
    function gets the very function (a converted module's `copy.copy(f)` returned another function)."""
    from autograph import api
    api.run_generated_code(True)
    try:
        assert ag.convert(_hands_itself_over)(1) == (_key, _hands_itself_over)
    finally:
        api.run_generated_code(False)


def _fori_body(i, v):
    if v > 2.0:
        return v - 1.0
    return v * 2.0


def test_a_module_level_function_handed_to_jax_lax_fori_loop_has_its_if_staged():
    jax = pytest.importorskip("jax", reason="the JAX backend needs jax (the jax extra)")

    def program(x):
        return jax.lax.fori_loop(0, 3, _fori_body, x)
    assert float(jax.jit(ag.convert(program))(jax.numpy.float32(1.5))) == 4.0   # 1.5 -> 3.0 -> 2.0 -> 4.0
