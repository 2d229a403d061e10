"""Math ops against NumPy, with TensorFlow's dtype rules; property tests for broadcasting."""
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import runtime as tf
from runtime.errors import InvalidArgumentError

BINARY = [
    (tf.add, np.add), (tf.subtract, np.subtract), (tf.multiply, np.multiply), (tf.maximum, np.maximum),
    (tf.minimum, np.minimum), (tf.equal, np.equal), (tf.not_equal, np.not_equal), (tf.less, np.less),
    (tf.less_equal, np.less_equal), (tf.greater, np.greater), (tf.greater_equal, np.greater_equal),
]
SHAPES = [((), ()), ((3,), ()), ((2, 3), (3,)), ((2, 1), (1, 4)), ((0,), (1,)), ((0, 2), (2,))]


@pytest.mark.parametrize("op,np_op", BINARY, ids=[b[0].__name__ for b in BINARY])
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.float64])
def test_binary_ops_match_numpy(op, np_op, shapes, dtype):
    rng = np.random.default_rng(0)
    a = (rng.integers(-5, 5, size=shapes[0])).astype(dtype)
    b = (rng.integers(-5, 5, size=shapes[1])).astype(dtype)
    out = op(tf.constant(a), tf.constant(b))
    expected = np_op(a, b)
    assert out.shape == expected.shape and out.dtype.as_numpy_dtype == expected.dtype
    np.testing.assert_array_equal(out.numpy(), expected)


@settings(max_examples=60, deadline=None)
@given(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4), st.sampled_from([np.int32,
                                                                                                  np.float32]))
def test_elementwise_arithmetic_broadcasts_like_numpy(shapes, dtype):
    a = np.arange(int(np.prod(shapes.input_shapes[0])), dtype=dtype).reshape(shapes.input_shapes[0]) - 3
    b = np.arange(int(np.prod(shapes.input_shapes[1])), dtype=dtype).reshape(shapes.input_shapes[1]) + 1
    for op, np_op in [(tf.add, np.add), (tf.multiply, np.multiply), (tf.subtract, np.subtract)]:
        out = op(a, b)
        assert out.shape == shapes.result_shape
        np.testing.assert_array_equal(out.numpy(), np_op(a, b))


@settings(max_examples=60, deadline=None)
@given(st.integers(-50, 50), st.integers(-50, 50).filter(lambda v: v != 0))
def test_floor_division_and_modulo_follow_python(x, y):
    assert (tf.constant(x) // tf.constant(y)).numpy() == x // y
    assert (tf.constant(x) % tf.constant(y)).numpy() == x % y


def test_integer_true_division_is_float64_and_small_ints_float32():
    assert (tf.constant(7) / tf.constant(2)).dtype == tf.float64
    assert (tf.constant(7, dtype=tf.int16) / tf.constant(2, dtype=tf.int16)).dtype == tf.float32
    assert (tf.constant(7.0) / 2).numpy() == np.float32(3.5)


def test_no_implicit_promotion_between_tensors():
    with pytest.raises(InvalidArgumentError, match="int32 and float32"):
        tf.constant([1, 2]) + tf.constant([1.0, 2.0])
    with pytest.raises(InvalidArgumentError, match="int32 and float32"):
        tf.constant(1) + 1.5


def test_python_scalars_take_the_tensors_dtype():
    assert (tf.constant(1.0) + 1).dtype == tf.float32
    assert (tf.constant(1, dtype=tf.int64) * 3).dtype == tf.int64
    assert (2 ** tf.constant(3.0)).numpy() == 8.0


def test_integer_division_by_zero_is_an_error():
    with pytest.raises(InvalidArgumentError, match="division by zero"):
        tf.constant(1) // tf.constant(0)


def test_round_is_half_to_even_and_cast_truncates():
    assert tf.round(tf.constant([0.5, 1.5, 2.5, -0.5])).numpy().tolist() == [0.0, 2.0, 2.0, -0.0]
    assert tf.cast(tf.constant([-1.7, 1.7, 2.9]), tf.int32).numpy().tolist() == [-1, 1, 2]
    assert tf.cast(tf.constant([0.0, 2.0]), tf.bool).numpy().tolist() == [False, True]


@pytest.mark.parametrize("op,np_op", [
    (tf.sqrt, np.sqrt), (tf.exp, np.exp), (tf.log, np.log), (tf.sin, np.sin), (tf.cos, np.cos),
    (tf.tanh, np.tanh), (tf.floor, np.floor), (tf.ceil, np.ceil), (tf.square, np.square), (tf.abs, np.abs),
    (tf.negative, np.negative), (tf.sign, np.sign)])
def test_unary_ops_match_numpy(op, np_op):
    x = np.array([[0.5, 1.0, 2.25], [3.0, 0.1, 7.5]], dtype=np.float32)
    np.testing.assert_allclose(op(x).numpy(), np_op(x), rtol=1e-6)
    assert op(tf.constant(2.0)).shape == ()


def test_sigmoid_and_float_only_ops_reject_ints():
    np.testing.assert_allclose(tf.sigmoid(tf.constant([0.0, 2.0])).numpy(), 1 / (1 + np.exp([0.0, -2.0])),
                               rtol=1e-6)
    with pytest.raises(InvalidArgumentError, match="floating-point"):
        tf.sqrt(tf.constant(4))


@pytest.mark.parametrize("op,np_op", [(tf.reduce_sum, np.sum), (tf.reduce_max, np.max),
                                      (tf.reduce_min, np.min), (tf.reduce_prod, np.prod)])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions_match_numpy(op, np_op, axis, keepdims):
    x = np.arange(1, 7, dtype=np.int32).reshape(2, 3)
    out = op(x, axis=axis, keepdims=keepdims)
    expected = np_op(x, axis=axis, keepdims=keepdims)
    assert out.dtype == tf.int32 and out.shape == np.shape(expected)
    np.testing.assert_array_equal(out.numpy(), expected)


def test_integer_reduce_mean_stays_integer_and_truncates():
    assert tf.reduce_mean(tf.constant([1, 16, 1, 9, 1])).numpy() == 5
    assert tf.reduce_mean(tf.constant([-3, -4])).numpy() == -3
    assert tf.reduce_mean(tf.constant([1.0, 2.0])).dtype == tf.float32


def test_reduce_any_all_and_empty_reductions():
    b = tf.constant([[True, False], [True, True]])
    assert tf.reduce_any(b, axis=1).numpy().tolist() == [True, True]
    assert tf.reduce_all(b, axis=1).numpy().tolist() == [False, True]
    assert tf.reduce_sum(tf.zeros([0])).numpy() == 0.0
    assert tf.reduce_max(tf.zeros([0])).numpy() == -np.inf


def test_argmax_argmin_cumsum():
    x = tf.constant([[1, 9, 3], [7, 2, 8]])
    assert tf.argmax(x, axis=1).numpy().tolist() == [1, 2] and tf.argmax(x).dtype == tf.int64
    assert tf.argmin(x, axis=0).numpy().tolist() == [0, 1, 0]
    assert tf.cumsum(tf.constant([1, 2, 3])).numpy().tolist() == [1, 3, 6]
    assert tf.cumsum(tf.constant([1, 2, 3]), exclusive=True).numpy().tolist() == [0, 1, 3]
    assert tf.cumsum(tf.constant([1, 2, 3]), reverse=True).numpy().tolist() == [6, 5, 3]


def test_matmul_2d_batched_and_errors():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(tf.matmul(a, b).numpy(), a @ b)
    batch = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    assert tf.matmul(batch, b.T).shape == (2, 3, 3)
    assert (tf.constant(a) @ tf.constant(b)).shape == (2, 4)
    np.testing.assert_array_equal(tf.matmul(a, a, transpose_b=True).numpy(), a @ a.T)
    with pytest.raises(InvalidArgumentError, match="MatMul"):
        tf.matmul(a, a)
    with pytest.raises(InvalidArgumentError, match="rank >= 2"):
        tf.matmul(tf.constant([1.0]), tf.constant([1.0]))


def test_logical_ops_and_operators_on_bools():
    a, b = tf.constant([True, False]), tf.constant([True, True])
    assert (a & b).numpy().tolist() == [True, False]
    assert (a | b).numpy().tolist() == [True, True]
    assert (a ^ b).numpy().tolist() == [False, True]
    assert (~a).numpy().tolist() == [False, True]
    # on integers they are TensorFlow's bitwise ops (they were refused); on floats an error
    i, j = tf.constant([5, -3, 12]), tf.constant([3, 6, -1])
    assert (i & j).numpy().tolist() == [5 & 3, -3 & 6, 12 & -1]
    assert (i | 2).numpy().tolist() == [5 | 2, -3 | 2, 12 | 2] and (6 ^ i).numpy().tolist() == [6 ^ 5, 6 ^ -3, 6 ^ 12]
    assert (~i).numpy().tolist() == [~5, ~-3, ~12]
    assert tf.bitwise.left_shift(i, 2).numpy().tolist() == [20, -12, 48]
    assert tf.bitwise.right_shift(i, 1).numpy().tolist() == [2, -2, 6]
    with pytest.raises(InvalidArgumentError, match="bool and integer"):
        tf.constant(1.0) & tf.constant(2.0)
    with pytest.raises(InvalidArgumentError, match="integer tensors"):
        tf.bitwise.bitwise_and(tf.constant(1.0), tf.constant(2.0))


def test_clip_by_value_and_where():
    assert tf.clip_by_value(tf.constant([-2, 0, 5]), 0, 3).numpy().tolist() == [0, 0, 3]
    assert tf.where(tf.constant([True, False]), 1, 2).numpy().tolist() == [1, 2]
    assert tf.where(tf.constant([[True, False], [False, True]])).numpy().tolist() == [[0, 0], [1, 1]]


def test_math_namespace_is_a_superset():
    for name in ["add", "reduce_sum", "sigmoid", "logical_and", "cumsum", "floormod", "mod", "truediv"]:
        assert getattr(tf.math, name) is getattr(tf, name)


BOOL_REJECTED = [tf.add, tf.subtract, tf.truediv, tf.floordiv, tf.floormod, tf.pow, tf.maximum,
                 tf.minimum, tf.less, tf.less_equal, tf.greater, tf.greater_equal]


@pytest.mark.parametrize("op", BOOL_REJECTED, ids=lambda op: op.__name__)
def test_arithmetic_and_ordering_reject_bool_tensors(op):
    a, b = tf.constant([True, False]), tf.constant([True, True])
    with pytest.raises(TypeError, match="not defined on bool tensors.*runtime.cast"):
        op(a, b)
    with pytest.raises(InvalidArgumentError):   # TensorFlow's eager error type too
        op(a, True)


def test_product_and_argmax_of_bools_are_tensorflows():
    # real TensorFlow computes these (tests/runtime/test_against_tensorflow.py): `*` of bools is their logical
    # and, argmax/argmin find the first True/False; the runtime refused both, saying TensorFlow did too
    a, b = tf.constant([False, True, True]), tf.constant([True, True, False])
    for product in (a * b, tf.multiply(a, b), tf.function(lambda a, b: a * b, autograph=False)(a, b)):
        assert product.dtype == tf.bool and product.numpy().tolist() == [False, True, False]
    assert (a * True).numpy().tolist() == [False, True, True]
    assert int(tf.argmax(a)) == 1 and int(tf.argmin(a)) == 0
    assert tf.argmax(tf.constant([[True, False], [True, True]]), axis=1, output_type=tf.int32).numpy().tolist() == [0, 0]


def test_bool_arithmetic_is_an_error_at_the_users_line_eagerly_and_traced():
    def count_positive(x):
        return (x > 0) + (x > 2)   # <- here

    line = count_positive.__code__.co_firstlineno + 1
    for run in (count_positive, tf.function(count_positive)):
        with pytest.raises(TypeError, match=rf"AddV2 is not defined on bool tensors(.|\n)*:{line}:"):
            run(tf.constant(3))
    as_ints = tf.cast(tf.constant(3) > 0, tf.int32) + tf.cast(tf.constant(3) > 2, tf.int32)
    assert as_ints.numpy() == 2
    assert (tf.constant([True]) == tf.constant([True])).numpy().tolist() == [True]   # equality stays defined
    with pytest.raises(TypeError, match="MatMul is not defined on bool"):
        tf.matmul(tf.constant([[True]]), tf.constant([[True]]))
    with pytest.raises(TypeError, match="Neg is not defined on bool"):
        -tf.constant(True)


def test_empty_lists_convert_to_any_dtype():
    for dtype in (tf.int32, tf.int64, tf.bool, tf.float64):
        t = tf.constant([], dtype=dtype)
        assert t.dtype is dtype and t.shape == (0,)
    assert tf.constant([[], []], dtype=tf.int32).shape == (2, 0)
    assert tf.constant([]).dtype is tf.float32   # TensorFlow's default for an empty list
    assert tf.convert_to_tensor([], dtype_hint=tf.int32).dtype is tf.int32
    assert tf.function(lambda: tf.constant([], dtype=tf.int32))().dtype is tf.int32
    with pytest.raises(TypeError, match="does not convert exactly"):
        tf.constant([1.5], dtype=tf.int32)


NAN = float("nan")


@pytest.mark.parametrize("values, largest, smallest", [
    ([NAN, 1.0], 1, 1), ([1.0, NAN, 3.0], 2, 0), ([NAN, NAN], 0, 0), ([3.0, NAN, 1.0], 0, 2),
    ([-np.inf, NAN], 0, 0), ([NAN, -np.inf], 0, 1),
])
@pytest.mark.parametrize("jit", [None, False, True])
def test_argmax_and_argmin_pass_over_nans_as_tensorflows(values, largest, smallest, jit):
    """TensorFlow 2.21's answers (NumPy's and JAX's pick the first NaN)."""
    run = (lambda x: (tf.argmax(x), tf.argmin(x))) if jit is None else tf.function(
        lambda x: (tf.argmax(x), tf.argmin(x)), jit_compile=jit)
    assert [int(v) for v in run(tf.constant(values))] == [largest, smallest]


def test_negating_or_raising_an_unsigned_tensor_is_refused_as_tensorflow_does():
    u = tf.constant([7, 200], tf.uint8)
    for make in (lambda: -u, lambda: tf.negative(u), lambda: u ** u):
        with pytest.raises(tf.errors.InvalidArgumentError, match="not defined on uint8"):
            make()   # NumPy's would wrap around: -7 is 249


def test_kernels_give_inf_and_nan_without_numpys_warnings():
    """As TensorFlow's ops; the user's own NumPy warnings stay (`-W always` shows every warning not filtered)."""
    program = ("import numpy as np, runtime as tf\n"
               "x = tf.constant([0.0, -1.0])\n"
               "print(1.0 / x, tf.math.log(x), tf.sqrt(x), x ** -1.0, tf.math.floormod(x, 0.0))\n"
               "print(tf.function(lambda x: (1.0 / x, tf.math.log(x)))(x))\n"
               "np.float32(1) / np.float32(0)\n")
    done = subprocess.run([sys.executable, "-W", "always", "-c", program], capture_output=True, text=True,
                          cwd=Path(__file__).parents[2], timeout=120)
    assert done.returncode == 0, done.stderr
    assert "inf" in done.stdout and "nan" in done.stdout
    warned = [line for line in done.stderr.splitlines() if "encountered in" in line]
    assert len(warned) == 1 and "<string>:5" in warned[0], done.stderr   # the user's own line only


@pytest.mark.parametrize("reduce", [tf.reduce_sum, tf.reduce_mean, tf.reduce_max, tf.reduce_prod,
                                    tf.reduce_logsumexp, tf.argmax, tf.cumsum])
def test_an_axis_given_as_a_constant_tensor_in_a_function_is_its_value(reduce):
    # it was read with .numpy(), an OperatorNotAllowedInGraphError for a constant made while tracing
    x = tf.constant([[1.0, 5.0, 2.0], [4.0, 0.0, 6.0]])
    staged = tf.function(lambda x: reduce(x, axis=tf.constant(1)))
    np.testing.assert_allclose(staged(x).numpy(), reduce(x, axis=1).numpy())
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.function(lambda x: tf.reduce_sum(tf.reduce_sum(x, axis=tf.constant([0, -1])) * 3.0))(x)
    assert tape.gradient(y, x).numpy().tolist() == [[3.0] * 3] * 2


def test_an_axis_computed_when_the_graph_runs_is_a_clear_error():
    @tf.function
    def total(x, axis):
        return tf.reduce_sum(x, axis=axis)

    with pytest.raises(InvalidArgumentError, match="axis given as a tensor must be known while tracing"):
        total(tf.ones([2, 3]), tf.constant(1))
