"""complex64/complex128 tensors and runtime/ops/complex_ops.py (complex, real, imag, conj, angle, abs) against
NumPy, with TensorFlow's printing and dtype rules, and gradient checks of real functions through complex values."""
import operator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import runtime as tf
from gradcheck import check_gradient
from runtime.errors import DTypeNotAllowedError, InvalidArgumentError

RNG = np.random.default_rng(7)


def _z(shape, dtype=np.complex128):
    return (RNG.normal(size=shape) + 1j * RNG.normal(size=shape)).astype(dtype)


def test_python_complex_is_complex128_and_prints_as_tensorflow():
    z = tf.constant(1 + 2j)
    assert z.dtype is tf.complex128 and z.numpy() == 1 + 2j
    assert repr(z) == "<tf.Tensor: shape=(), dtype=complex128, numpy=(1+2j)>"
    assert str(tf.constant([1 + 2j, 3])) == "tf.Tensor([1.+2.j 3.+0.j], shape=(2,), dtype=complex128)"
    assert repr(tf.constant([1.5], tf.complex64)) == \
        "<tf.Tensor: shape=(1,), dtype=complex64, numpy=array([1.5+0.j], dtype=complex64)>"
    assert str(tf.complex64) == "<dtype: 'complex64'>" and tf.as_dtype(np.complex64) is tf.complex64
    assert tf.complex128.is_complex and not tf.complex128.is_floating and tf.complex64.real_dtype is tf.float32


def test_python_values_convert_to_complex_tensors_and_floats_refuse_complex():
    assert tf.constant([1, 2.5], dtype=tf.complex64).numpy().tolist() == [1 + 0j, 2.5 + 0j]
    assert (tf.constant([1j]) * 2).numpy().tolist() == [2j]
    with pytest.raises(TypeError, match="complex does not convert exactly"):
        tf.constant(1j, dtype=tf.float32)


@pytest.mark.parametrize("shape", [(), (0,), (2, 3)], ids=["scalar", "empty", "matrix"])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_parts_match_numpy(shape, dtype):
    z = _z(shape, dtype)
    real_dtype = np.float32 if dtype == np.complex64 else np.float64
    for fn, reference in [(tf.math.real, np.real), (tf.math.imag, np.imag), (tf.abs, np.abs),
                          (tf.math.angle, np.angle)]:
        out = fn(z)
        assert out.dtype.as_numpy_dtype == real_dtype and out.shape == shape
        np.testing.assert_allclose(out.numpy(), reference(z), rtol=1e-6)
    conj = tf.math.conj(z)
    assert conj.dtype.as_numpy_dtype == dtype and np.array_equal(conj.numpy(), np.conj(z))


def test_complex_broadcasts_and_picks_the_width_of_its_parts():
    re, im = RNG.normal(size=(2, 1)), RNG.normal(size=(3,))
    out = tf.complex(re, im)
    assert out.dtype is tf.complex128 and out.shape == (2, 3)
    np.testing.assert_array_equal(out.numpy(), re + 1j * im)
    assert tf.complex(tf.constant(1.0), 2.0).dtype is tf.complex64
    with pytest.raises(InvalidArgumentError, match="float32 or float64"):
        tf.complex(tf.constant(1), tf.constant(2))


def test_parts_of_real_tensors_are_as_tensorflow():
    x = tf.constant([-1.0, 2.0])
    assert tf.math.real(x) is x and tf.math.conj(x) is x
    assert tf.math.imag(x).numpy().tolist() == [0.0, 0.0]
    np.testing.assert_allclose(tf.math.angle(x).numpy(), [np.pi, 0.0])


def test_arithmetic_matches_numpy_eagerly_and_in_a_function():
    a, b = _z((2, 3)), _z((3,))

    def f(a, b):
        return a + b, a - b, a * b, a / b, -a, tf.square(a), tf.reduce_sum(a, 0), tf.matmul(a, tf.reshape(b, [3, 1]))

    expected = [a + b, a - b, a * b, a / b, -a, a * a, a.sum(0), a @ b.reshape(3, 1)]
    for got in (f(tf.constant(a), tf.constant(b)), tf.function(f)(tf.constant(a), tf.constant(b))):
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g.numpy(), e, rtol=1e-12)


def test_ordering_is_not_defined_on_complex_tensors():
    z = tf.constant([1 + 1j])
    for fn in (lambda: z < z, lambda: tf.maximum(z, z), lambda: z // z, lambda: tf.reduce_max(z),
               lambda: tf.argmax(z)):
        with pytest.raises(DTypeNotAllowedError, match="not ordered"):
            fn()
    assert (z == z).numpy().tolist() == [True]


def test_cast_keeps_the_real_part_as_tensorflow():
    assert tf.cast(tf.constant([1.5 + 2j]), tf.float32).numpy().tolist() == [1.5]
    assert tf.cast(tf.constant(2.0), tf.complex64).numpy() == 2 + 0j


@pytest.mark.parametrize("name, f", [
    ("abs", lambda a, b: tf.abs(tf.complex(a, b))),
    ("real_of_product", lambda a, b: tf.math.real(tf.complex(a, b) * tf.complex(b, a * a))),
    ("imag_of_quotient", lambda a, b: tf.math.imag(tf.complex(a, b) / tf.complex(b + 3.0, a))),
    ("conj_and_square", lambda a, b: tf.math.imag(tf.square(tf.math.conj(tf.complex(a, b))))),
    ("angle", lambda a, b: tf.math.angle(tf.complex(a, b))),
    ("matmul", lambda a, b: tf.math.real(tf.matmul(tf.complex(a, b), tf.complex(b, a), transpose_b=True))),
    ("broadcast", lambda a, b: tf.abs(tf.complex(a, b[0]))),
])
def test_gradients_of_real_functions_through_complex_values(name, f):
    check_gradient(f, RNG.uniform(0.5, 1.5, (2, 2)), RNG.uniform(0.5, 1.5, (2, 2)))


@settings(max_examples=40, deadline=None)
@given(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3), st.sampled_from(["+", "-", "*", "/"]),
       st.sampled_from([np.complex64, np.complex128]), st.integers(0, 2 ** 16))
def test_binary_arithmetic_matches_numpy_with_broadcasting(shapes, op, dtype, seed):
    rng = np.random.default_rng(seed)
    a, b = ((rng.normal(size=s) + 1j * rng.normal(size=s)).astype(dtype) for s in shapes.input_shapes)
    b = np.where(np.abs(b) < 1e-3, 1, b).astype(dtype)
    ops = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}
    got = ops[op](tf.constant(a), tf.constant(b))
    assert got.dtype.as_numpy_dtype == dtype and got.shape == shapes.result_shape
    np.testing.assert_allclose(got.numpy(), ops[op](a, b), rtol=1e-5 if dtype == np.complex64 else 1e-12)


def test_sorting_complex_numbers_or_strings_is_refused_as_in_tensorflow():
    for fn in (tf.sort, tf.argsort, tf.math.top_k):
        with pytest.raises(DTypeNotAllowedError):
            fn(tf.constant([1j, 2]))
        with pytest.raises(DTypeNotAllowedError, match="string"):
            fn(tf.constant(["b", "a"]))


@pytest.mark.parametrize("staged", [False, True], ids=["eager", "function"])
def test_the_second_derivative_of_abs_at_complex_zero_is_zero_as_tensorflows(staged):
    # TensorFlow's ComplexAbs gradient is div_no_nan(g * z, |z|), whose own gradient is 0 where |z| is 0; ours
    # divided by |z| with its zeros replaced by 1, which left g / 1: a second derivative of 1 at z = 0
    def run(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(tf.abs(tf.complex(x, x * 0.0)))
            g = inner.gradient(y, x)
            s = tf.reduce_sum(g * tf.constant([1.0, 2.0, 3.0]))
        return g, outer.gradient(s, x)
    g, second = (tf.function(run) if staged else run)(tf.constant([0.0, -2.0, 3.0]))
    np.testing.assert_array_equal(g.numpy(), [0.0, -1.0, 1.0])
    np.testing.assert_array_equal(second.numpy(), [0.0, 0.0, 0.0])    # TensorFlow 2.21's


@pytest.mark.parametrize("staged", [False, True], ids=["eager", "function"])
def test_a_cast_from_complex_to_float_passes_the_gradient_back_as_tensorflows(staged):
    # TensorFlow's Cast gradient casts back between any float and complex types; ours stopped at a complex
    # input (None): tf.cast(z, tf.float32) is the real part, whose gradient is g + 0j
    def run(x, z):
        with tf.GradientTape() as tape:
            tape.watch([x, z])
            y = (tf.reduce_sum(tf.cast(tf.cast(x, tf.complex64) * tf.constant(1.0 + 2.0j, tf.complex64), tf.float32))
                 + tf.reduce_sum(tf.cast(z, tf.float32) * 3.0)
                 + tf.cast(tf.reduce_sum(tf.cast(tf.cast(z, tf.float64), tf.int32)), tf.float32))
        return tape.gradient(y, [x, z])
    gx, gz = (tf.function(run) if staged else run)(tf.constant([1.0, -2.0]), tf.constant([1.0 + 2.0j], tf.complex64))
    np.testing.assert_array_equal(gx.numpy(), [1.0, 1.0])
    assert gz.dtype == tf.complex64
    np.testing.assert_array_equal(gz.numpy(), [3.0 + 0.0j])     # TensorFlow 2.21's; none through the int32 cast
