"""uint16, uint32 and uint64 (thirteenth session): TensorFlow's values on its ops that take them, in every
mode, the float-to-unsigned casts under jit_compile, and what stays refused (bfloat16: NumPy has no such type).
TensorFlow's values are written here as literals (from TensorFlow 2.21)."""
import numpy as np
import pytest

import runtime as tf

MODES = {"eager": lambda f: f, "function": tf.function, "jit": lambda f: tf.function(f, jit_compile=True)}
UNSIGNED = [tf.uint16, tf.uint32, tf.uint64]


def _ops(a, b):
    return [a + b, b - a, a * b, a // b, a % b, tf.maximum(a, b), tf.reduce_sum(a), tf.reduce_mean(a),
            tf.reduce_prod(a), tf.cumsum(a), tf.bitwise.left_shift(a, b), tf.bitwise.right_shift(a, b),
            tf.bitwise.invert(a), tf.math.unsorted_segment_min(a, [0, 0, 1, 1], 3), tf.cast(a, tf.float16), a < b]


def _tensorflows(dtype):
    """TensorFlow 2.21's answers of `_ops` on a = [1, 200, 7, 3], b = [9, 70, 1, 33]: they wrap modulo 2**bits (a
    shift past the width shifts by the width less one)."""
    top = 2 ** (8 * dtype.size)
    return [[10, 270, 8, 36], [8, top - 130, top - 6, 30], [9, 14000, 7, 99], [0, 2, 7, 0], [1, 60, 0, 3],
            [9, 200, 7, 33], 211, 52, 4200, [1, 201, 208, 211], [512, 0, 14, (3 << min(33, 8 * dtype.size - 1)) % top],
            [0, 0, 3, 0], [top - 2, top - 201, top - 8, top - 4], [1, 3, top - 1], [1.0, 200.0, 7.0, 3.0],
            [True, False, False, True]]


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("dtype", UNSIGNED, ids=lambda d: d.name)
def test_unsigned_arithmetic_reductions_and_bit_ops_are_tensorflows(dtype, mode):
    a, b = tf.constant([1, 200, 7, 3], dtype), tf.constant([9, 70, 1, 33], dtype)
    got = MODES[mode](_ops)(a, b)
    for i, (result, expected) in enumerate(zip(got, _tensorflows(dtype))):
        assert result.numpy().tolist() == expected, i
    assert [r.dtype for r in got[:-2]] == [dtype] * (len(got) - 2)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_unsigned_true_division_gives_tensorflows_float_type(mode):
    halves = MODES[mode](lambda a, b, c: [a / 2, b / 2, c / 2])(
        tf.constant([3], tf.uint16), tf.constant([3], tf.uint32), tf.constant([3], tf.uint64))
    assert [h.dtype for h in halves] == [tf.float32, tf.float64, tf.float64]
    assert [h.numpy().tolist() for h in halves] == [[1.5]] * 3


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_float_cast_to_uint32_or_uint64_keeps_the_upper_half_of_the_range(mode):
    # jit_compile went through int32 (int64), saturating: 3e9 became 2147483648 as a uint32
    values = tf.constant([0.7, 3e9, 4294967295.0, 1e19], tf.float64)
    narrow, wide = MODES[mode](lambda x: [tf.cast(x[:3], tf.uint32), tf.cast(x, tf.uint64)])(values)
    assert narrow.numpy().tolist() == [0, 3000000000, 4294967295]                   # TensorFlow 2.21
    assert wide.numpy().tolist() == [0, 3000000000, 4294967295, 10000000000000000000]


def test_unsigned_constants_take_their_whole_range_and_python_ints_beside_them_take_their_type():
    assert tf.constant(2 ** 64 - 1, tf.uint64).numpy() == 2 ** 64 - 1
    assert tf.constant(np.uint32(4000000000)).dtype == tf.uint32
    assert (tf.constant([1, 2], tf.uint32) + 4000000000).numpy().tolist() == [4000000001, 4000000002]
    assert tf.as_dtype("uint16") is tf.uint16 and tf.dtypes.uint64 is tf.uint64


@pytest.mark.parametrize("op", [tf.negative, tf.abs, lambda x: x ** x], ids=["negative", "abs", "pow"])
def test_what_tensorflow_refuses_on_unsigned_types_is_refused(op):
    with pytest.raises(tf.errors.InvalidArgumentError, match="uint32"):
        op(tf.constant([1, 2], tf.uint32))


def test_bfloat16_is_out_of_scope_with_a_clear_error():
    with pytest.raises(AttributeError, match="NumPy has no bfloat16"):
        tf.bfloat16  # noqa: B018
    with pytest.raises(TypeError, match="supported dtypes are"):
        tf.as_dtype("bfloat16")


@pytest.mark.parametrize("mode", sorted(MODES))
def test_reduce_prod_of_narrow_integers_keeps_their_type_and_wraps_as_tensorflows(mode):
    # TensorFlow 2.21: 100 * 3 * 2 wraps to 88 in int8 and uint8; jit_compile gave 600, an int32 (jnp.prod widens)
    got = MODES[mode](lambda a, b, c: [tf.reduce_prod(a), tf.reduce_prod(b), tf.reduce_prod(c, keepdims=True)])(
        tf.constant([100, 3, 2], tf.int8), tf.constant([100, 3, 2], tf.uint8), tf.constant([100, 3, 2], tf.int16))
    assert [(r.dtype, r.numpy().tolist()) for r in got] == [(tf.int8, 88), (tf.uint8, 88), (tf.int16, [600])]
