"""TensorFlow 2.21's answers at the edges where NumPy's leaked through, without TensorFlow: each case is a
program and the value (or the error) TensorFlow gives, checked eagerly, in a function (the executor) and under
jit_compile=True. Found by the sweep in tools/grad_probe_cases_edges.py; tests/runtime/test_against_tensorflow.py
compares the same programs with TensorFlow itself."""
import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError

INF, NAN = float("inf"), float("nan")
MODES = {"eager": lambda f: f, "function": tf.function, "jit": lambda f: tf.function(f, jit_compile=True)}


def _run(mode, program, *args):
    out = MODES[mode](program)(*[tf.constant(a) for a in args])
    return [o.numpy() for o in out] if isinstance(out, list) else out.numpy()


# (name, program, inputs, TensorFlow's values, dtype)
VALUES = [
    ("float floordiv is floor(x / y)", lambda a, b: a // b,
     ([1.0, -3.0, INF, 3.0, -1.0, 5.5], [0.1, INF, 2.0, 0.0, 0.1, -0.0]),
     [10.0, -0.0, INF, INF, -10.0, -INF], "float32"),
    ("float64 floordiv", lambda a, b: tf.math.floordiv(a, b),
     (np.array([1.0, -3.0, 7.0]), np.array([0.1, INF, 0.7])), [10.0, -0.0, 10.0], "float64"),
    ("one_hot with int on/off values is int32", lambda i: tf.one_hot(i, 3, on_value=2, off_value=-1),
     ([0, 3],), [[2, -1, -1], [-1, -1, -1]], "int32"),
    ("one_hot with an int off_value only", lambda i: tf.one_hot(i, 2, off_value=2), ([0],), [[1, 2]], "int32"),
    ("linspace of ints is float64", lambda a, b: tf.linspace(a, b, 4), (0, 7), [0.0, 7 / 3, 14 / 3, 7.0], "float64"),
    ("== of shapes that can't broadcast", lambda a, b: a == b, ([1.0, 2.0], [1.0, 2.0, 3.0]), False, "bool"),
    ("!= of shapes that can't broadcast", lambda a, b: a != b, ([1.0, 2.0], [1.0, 2.0, 3.0]), True, "bool"),
    ("reshape of 0 elements with -1 and 0", lambda a: tf.reshape(a, [0, -1, 3]), (np.zeros((0, 3), "float32"),),
     np.zeros((0, 1, 3)), "float32"),
    ("reshape to -1 beside a 0", lambda a: tf.reshape(a, [-1, 0]), (np.zeros((0, 3), "float32"),), np.zeros((3, 0)),
     "float32"),
    ("reduce_max of an empty axis", lambda a: tf.reduce_max(a, axis=1), (np.zeros((2, 0), "float32"),), [-INF, -INF],
     "float32"),
    ("reduce_min of an empty int axis", lambda a: tf.reduce_min(a, axis=1), (np.zeros((2, 0), "int32"),),
     [2 ** 31 - 1] * 2, "int32"),
    ("shifts clamp the shift to [0, bits - 1]", lambda a, b: [tf.bitwise.left_shift(a, b), tf.bitwise.right_shift(a, b)],
     ([1, -8, 1, 5, -1, -8], [31, 1, 32, -1, 40, -3]),
     [[-2 ** 31, -16, -2 ** 31, 5, -2 ** 31, -8], [0, -4, 0, 5, -1, -8]], "int32"),
    ("uint8 shifts past the width", lambda a, b: [tf.bitwise.left_shift(a, b), tf.bitwise.right_shift(a, b)],
     (np.array([1, 200], "uint8"), np.array([9, 9], "uint8")), [[128, 0], [0, 1]], "uint8"),
    ("a NumPy float64 beside a float32 tensor takes its dtype", lambda a: [a * np.sqrt(2.0), np.array([2.0, 3.0]) - a,
                                                                          tf.maximum(a, np.float64(2.5))],
     ([1.0, 4.0],), [[2 ** 0.5, 4 * 2 ** 0.5], [1.0, -1.0], [2.5, 4.0]], "float32"),
    ("a NumPy int64 beside a float32 tensor", lambda a: a + np.arange(2), ([1.0, 4.0],), [1.0, 5.0], "float32"),
    ("exclusive scans of an empty axis", lambda a: [tf.cumsum(a, axis=1, exclusive=True),
                                                    tf.math.cumprod(a, axis=1, exclusive=True, reverse=True)],
     (np.zeros((2, 0), "float32"),), [np.zeros((2, 0)), np.zeros((2, 0))], "float32"),
    ("exclusive cumsum past a NaN", lambda a: [tf.cumsum(a, exclusive=True), tf.cumsum(a, exclusive=True, reverse=True)],
     ([1.0, NAN, 2.0, INF],), [[0.0, 1.0, NAN, NAN], [NAN, INF, INF, 0.0]], "float32"),
]


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("name, program, inputs, expected, dtype", VALUES, ids=[v[0] for v in VALUES])
def test_tensorflows_values(mode, name, program, inputs, expected, dtype):
    got = _run(mode, program, *inputs)
    for g, e in zip(got if isinstance(got, list) else [got], expected if isinstance(got, list) else [expected]):
        assert np.asarray(g).dtype == np.dtype(dtype)
        np.testing.assert_allclose(g, np.asarray(e, dtype), rtol=1e-6)
        assert np.array_equal(np.signbit(g), np.signbit(np.asarray(e, dtype))), f"{name}: the zero's sign"


# (name, program, inputs, a fragment of the error): TensorFlow raises InvalidArgumentError (a TypeError where
# noted); NumPy or XLA gave a value
ERRORS = [
    ("integer // by zero", lambda a, b: a // b, ([7, -7], [0, 1]), "integer division by zero"),
    ("integer % by zero", lambda a, b: a % b, ([7, -7], [0, 1]), "integer division by zero"),
    ("range(5, 2)", lambda: tf.range(5, 2), (), "requires start <= limit"),
    ("range(2, 5, -1)", lambda: tf.range(2, 5, -1), (), "requires start >= limit"),
    ("range of a negative traced limit", lambda n: tf.shape(tf.range(n)), (-2,), "requires start <= limit"),
    ("reshape to -2", lambda a: tf.reshape(a, [-2, 3]), (np.ones((2, 3), "float32"),), "non-negative"),
    ("gather on an axis out of range", lambda a: tf.gather(a, [0], axis=2), (np.ones((2, 2), "float32"),),
     "axis 2 is out of range"),
    ("one_hot of float indices", lambda i: tf.one_hot(i, 2), ([0.0, 1.0],), "indices must be integers"),
    ("one_hot of a negative depth", lambda i: tf.one_hot(i, -1), ([0],), "depth must be non-negative"),
    ("assign_add of a scalar to a vector", lambda: tf.Variable([1.0, 2.0]).assign_add(1.0).read_value(), (),
     "can't assign a value of shape ()"),
    ("sort of bools", lambda b: tf.sort(b), ([True, False],), "not defined on bool"),
    ("top_k of bools", lambda b: tf.math.top_k(b, 1)[0], ([True, False],), "not defined on bool"),
    ("clip bounds that widen t", lambda a, lo: tf.clip_by_value(a, lo, 10.0),
     (np.ones(2, "float32"), np.zeros((3, 2), "float32")), "must keep t's shape"),
    ("tile multiples of the wrong length", lambda a: tf.tile(a, [2]), (np.ones((2, 3), "float32"),),
     "one non-negative entry per dimension"),
    ("where of a scalar condition", lambda c: tf.where(c), (True,), "rank >= 1"),
    ("abs of uint8", lambda a: tf.abs(a), (np.array([1, 200], "uint8"),), "not defined on uint8"),
]


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("name, program, inputs, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_tensorflows_errors(mode, name, program, inputs, message):
    if mode != "eager" and name.startswith("assign_add"):   # a Variable made in a function: made outside
        v = tf.Variable([1.0, 2.0])
        program = lambda: v.assign_add(1.0).read_value()   # noqa: E731
    with pytest.raises(InvalidArgumentError, match=message):
        _run(mode, program, *inputs)


def test_a_numpy_value_beside_a_tensor_converts_as_python_numbers_do():
    # TensorFlow casts it (2.5 to int32 is 2, 2**40 wraps to 0); the runtime refuses as for Python numbers
    with pytest.raises(InvalidArgumentError, match="int32 and float32"):
        tf.constant([1]) + np.float64(2.5)
    with pytest.raises(TypeError, match="out of range"):
        tf.constant([1]) + np.int64(2 ** 40)


def test_one_hot_refuses_on_and_off_values_of_two_dtypes():
    with pytest.raises(TypeError, match="on_value is float32 but off_value is int32"):
        tf.one_hot([0], 2, on_value=1.0, off_value=0)


def test_a_float_range_with_static_bounds_lowers_under_jit():
    got = tf.function(lambda: tf.range(0.0, 1.0, 0.3), jit_compile=True)()
    np.testing.assert_allclose(got.numpy(), [0.0, 0.3, 0.6, 0.9], rtol=1e-6)   # was a ZeroDivisionError


def test_a_loop_over_a_traced_range_the_wrong_way_runs_no_times_under_jit_as_in_a_function():
    # TensorFlow's autograph reads a `for`'s tf.range bounds and never runs the range op, which would raise
    # (as it does eagerly); tests/runtime/test_gradients_round12.py has the family
    def total(n):
        s = 0
        for i in tf.range(n):
            s += i
        return s
    for staged in (tf.function(total), tf.function(total, jit_compile=True)):
        assert int(staged(tf.constant(4))) == 6
        assert int(staged(tf.constant(-1))) == 0


@pytest.mark.parametrize("mode", ["eager", "traced"])
def test_a_python_bool_beside_a_number_tensor_is_the_int_it_is_in_python(mode):
    def program(x, f):
        return x * True, f + True, False + x, x > True, x - False
    run = program if mode == "eager" else tf.function(program)
    got = run(tf.constant([1, 2]), tf.constant(2.5))
    assert [v.numpy().tolist() for v in got] == [[1, 2], 3.5, [1, 2], [False, True], [1, 2]]
    assert [v.dtype for v in got] == [tf.int32, tf.float32, tf.int32, tf.bool, tf.int32]
    assert (tf.constant(True) & True).dtype == tf.bool    # (a bool tensor and a Python bool stay bools)
