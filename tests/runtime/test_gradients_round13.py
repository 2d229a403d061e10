"""Differences from TensorFlow 2.21 found by running the same programs under `import tensorflow as tf` and
`import runtime as tf` (thirteenth session, tools/grad_probe_cases_round13.py): the inverse trigonometric and
hyperbolic functions and their gradients at the ends of their domains, the matrix 2-norm (the largest singular
value) with its first and second derivatives, `GradientTape.watch` of a Python number, None among
`output_gradients`, and the gradient inside a function of an eager tensor a `cond` or `while_loop` captures (it
was None) or that `tf.gradients` asks for (also None). TensorFlow's values are written here as literals (from
TensorFlow 2.21), so no test needs TensorFlow."""
import numpy as np
import pytest

import runtime as tf
from tests.runtime.gradcheck import check_gradient

MODES = {"eager": lambda f: f, "function": tf.function, "jit": lambda f: tf.function(f, jit_compile=True)}
EDGES = [-1.0, -0.5, 0.0, 0.5, 1.0, 2.0]
INF, NAN = np.inf, np.nan

# name -> (points, TensorFlow 2.21's values, first derivatives, second derivatives) at float32
INVERSE_FUNCTIONS = {
    "asin": (EDGES, [-1.5707964, -0.5235988, 0.0, 0.5235988, 1.5707964, NAN], [INF, 1.1547005, 1.0, 1.1547005, INF, NAN],
             [-INF, -0.7698003, 0.0, 0.7698003, INF, NAN]),
    "acos": (EDGES, [3.1415927, 2.0943952, 1.5707964, 1.0471976, 0.0, NAN], [-INF, -1.1547005, -1.0, -1.1547005, -INF, NAN],
             [INF, 0.7698003, 0.0, -0.7698003, -INF, NAN]),
    "atan": (EDGES, [-0.7853982, -0.4636476, 0.0, 0.4636476, 0.7853982, 1.1071488], [0.5, 0.8, 1.0, 0.8, 0.5, 0.2],
             [0.5, 0.64, 0.0, -0.64, -0.5, -0.16]),
    "asinh": (EDGES, [-0.8813736, -0.4812118, 0.0, 0.4812118, 0.8813736, 1.4436355],
              [0.7071067, 0.8944272, 1.0, 0.8944272, 0.7071067, 0.4472136],
              [0.3535533, 0.3577709, 0.0, -0.3577709, -0.3535533, -0.1788855]),
    "atanh": (EDGES, [-INF, -0.5493062, 0.0, 0.5493062, INF, NAN], [INF, 1.3333334, 1.0, 1.3333334, INF, -0.3333333],
              [-INF, -1.7777779, 0.0, 1.7777779, INF, 0.4444445]),
    "acosh": ([0.5, 1.0, 1.5, 3.0], [NAN, 0.0, 0.9624237, 1.7627472], [NAN, INF, 0.8944271, 0.3535534],
              [NAN, -INF, -1.0733122, -0.1325825]),
}


def _first_and_second(f, x):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    return y, g, outer.gradient(g, x)


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("name", sorted(INVERSE_FUNCTIONS))
def test_inverse_functions_and_their_two_derivatives_are_tensorflows_up_to_the_ends_of_their_domains(name, mode):
    points, values, firsts, seconds = INVERSE_FUNCTIONS[name]
    got = MODES[mode](lambda x: _first_and_second(getattr(tf.math, name), x))(tf.constant(points))
    for result, expected in zip(got, (values, firsts, seconds)):
        np.testing.assert_allclose(result.numpy(), expected, rtol=1e-5)


@pytest.mark.parametrize("name", sorted(INVERSE_FUNCTIONS))
def test_inverse_functions_are_at_the_top_level_and_their_gradients_match_finite_differences(name):
    inside = {"acosh": [1.5, 2.0, 4.0]}.get(name, [-0.6, 0.1, 0.7])
    assert getattr(tf, name) is getattr(tf.math, name)
    check_gradient(getattr(tf.math, name), inside)


def test_atan2_and_its_gradient_are_tensorflows_at_the_origin_and_on_the_axes():
    y, x = tf.constant([0.0, 1.0, -1.0, 0.0, 2.0]), tf.constant([0.0, 0.0, -1.0, -1.0, 3.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([y, x])
        angle = tf.atan2(y, x)
    np.testing.assert_allclose(angle.numpy(), [0.0, 1.5707964, -2.3561945, 3.1415927, 0.5880026], rtol=1e-6)
    dy, dx = tape.gradient(angle, [y, x])
    np.testing.assert_allclose(dy.numpy(), [NAN, 0.0, -0.5, -1.0, 0.2307692], rtol=1e-6)      # 0 / 0 at the origin
    np.testing.assert_allclose(dx.numpy(), [NAN, -1.0, 0.5, 0.0, -0.1538462], rtol=1e-6)
    check_gradient(tf.math.atan2, [[0.5], [-2.0]], [1.0, -0.3, 2.0])                       # broadcast both ways


def test_inverse_functions_refuse_integers_as_tensorflow_does():
    for f in (tf.math.asin, tf.math.atanh, lambda x: tf.math.atan2(x, x)):
        with pytest.raises(tf.errors.InvalidArgumentError, match="floating-point"):
            f(tf.constant([1, 2]))


# the matrix 2-norm of Y, its gradient and the gradient of the gradient's weighted sum: TensorFlow 2.21 eagerly
# (in a tf.function it refuses the second derivative: "SVD gradient has not been implemented for input with
# unknown inner matrix shape"; here it is the same in every mode)
Y = np.array([[3.0, -4.0], [1.0, 2.0]], np.float32)
NORM2 = (5.1166735, [[0.5116674, -0.8278952], [-0.1207883, 0.1954395]],
         [[0.1655790, 0.1023335], [-0.0390879, -0.0241577]])


@pytest.mark.parametrize("mode", sorted(MODES))
def test_the_matrix_2_norm_is_the_largest_singular_value_with_tensorflows_two_derivatives(mode):
    got = MODES[mode](lambda y: _first_and_second(lambda v: tf.norm(v, ord=2, axis=[-2, -1]), y))(tf.constant(Y))
    for result, expected in zip(got, NORM2):
        np.testing.assert_allclose(result.numpy(), expected, rtol=2e-5, atol=1e-6)


R = np.array([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]])


@pytest.mark.parametrize("matrix, axis", [(R, [0, 1]), (R.T.copy(), [1, 0])], ids=["wide", "tall transposed"])
def test_the_matrix_2_norm_of_a_non_square_matrix_has_tensorflows_derivatives(matrix, axis):
    y, g, h = _first_and_second(lambda v: tf.norm(v, ord=2, axis=axis), tf.constant(matrix))
    wide = (3.1704985380643924, [[-0.0291059, 0.0067656, 0.0991574], [-0.2795364, 0.0649773, 0.9523194]],
            [[-0.2423267, 0.1864938, 1.1340549], [0.8543700, 1.0515323, 0.0522272]])   # TensorFlow 2.21
    flip = (lambda a: a) if axis == [0, 1] else (lambda a: np.transpose(a))
    np.testing.assert_allclose(y.numpy(), wide[0], rtol=1e-12)
    np.testing.assert_allclose(g.numpy(), flip(np.array(wide[1])), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(h.numpy(), flip(np.array(wide[2])), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (3, 3)])
def test_the_gradient_of_the_matrix_2_norms_gradient_matches_finite_differences(shape):
    x = np.random.default_rng(1).normal(size=shape)

    def gradient(v):
        with tf.GradientTape() as tape:
            tape.watch(v)
            n = tf.norm(v, ord=2, axis=[0, 1])
        return tape.gradient(n, v)
    check_gradient(gradient, x, rtol=1e-5, atol=1e-7)


def test_the_matrix_2_norm_at_ties_and_at_zero_splits_or_zeroes_the_gradient_as_tensorflow():
    for matrix, expected in ((tf.eye(3), np.eye(3) / 3.0), (tf.zeros([2, 2]), np.zeros([2, 2]))):
        with tf.GradientTape() as tape:
            tape.watch(matrix)
            n = tf.norm(matrix, ord=2, axis=[0, 1])
        np.testing.assert_allclose(tape.gradient(n, matrix).numpy(), expected, rtol=1e-6)


def test_the_matrix_2_norm_of_a_batch_keeps_the_other_axes_and_a_nan_or_an_empty_matrix_gives_tensorflows():
    batch = tf.constant(np.arange(12.0).reshape(3, 2, 2) - 5.0)
    kept = tf.norm(batch, ord=2, axis=[0, 2], keepdims=True)
    assert kept.shape == [1, 2, 1]
    np.testing.assert_allclose(kept.numpy().ravel(), [8.095377505668447, 8.818476043358906])   # TensorFlow 2.21
    assert np.isnan(tf.norm(tf.constant([[np.nan, 1.0], [1.0, 1.0]]), ord=2, axis=[0, 1]).numpy())
    assert tf.norm(tf.zeros([0, 3]), ord=2, axis=[0, 1]).numpy() == -np.inf     # the max of no singular values


def test_the_matrix_2_norm_of_float16_is_refused_as_tensorflow_has_no_kernel_for_it():
    with pytest.raises(tf.errors.InvalidArgumentError, match="float32 or float64"):
        tf.norm(tf.constant(Y, tf.float16), ord=2, axis=[0, 1])


# --- GradientTape's arguments ------------------------------------------------------------------------------

@pytest.mark.parametrize("value", [3.0, [tf.constant(1.0), 2]])
def test_watching_a_python_number_raises_tensorflows_value_error_which_is_a_type_error_too(value):
    with tf.GradientTape() as tape:
        with pytest.raises(ValueError, match="expected tensors or Variables") as raised:
            tape.watch(value)
    assert isinstance(raised.value, TypeError)


@pytest.mark.parametrize("seeds", [[None, tf.constant([1.0, 1.0])], [tf.constant([1.0, 3.0]), None], [None, None]])
def test_a_none_among_output_gradients_is_refused_as_tensorflow_refuses_it(seeds):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        targets = [x * 2.0, x * x]
    with pytest.raises(ValueError, match=r"output_gradients\[\d\] is None"):
        tape.gradient(targets, x, output_gradients=seeds)     # it was read as ones: [4, 6], [4, 10], [4, 6]
    np.testing.assert_allclose(tape.gradient(targets, x).numpy(), [4.0, 6.0])


def test_tf_gradients_still_reads_a_none_among_grad_ys_as_ones():
    @tf.function
    def f(x):
        return tf.gradients([x * 2.0, x * x], x, grad_ys=[None, tf.constant([1.0, 0.5])])[0]
    np.testing.assert_allclose(f(tf.constant([1.0, 2.0])).numpy(), [4.0, 4.0])


# --- an eager tensor used inside a function --------------------------------------------------------------

X = tf.constant([1.0, 2.0])


def _through_control_flow():
    with tf.GradientTape() as tape:
        tape.watch(X)
        chosen = tf.cond(X[0] > 0, lambda: X * 2.0, lambda: X * 3.0)
        doubled = tf.while_loop(lambda k, a: k < 3, lambda k, a: (k + 1, a * 2.0), [0, X])[1]
    return tape.gradient([chosen, doubled], X)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_an_eager_tensor_a_cond_or_a_loop_captures_inside_a_function_gets_its_gradient(mode):
    # TensorFlow 2.21: [10, 10] (2 from the cond, 8 from the loop); in a function the cond's part was lost
    np.testing.assert_allclose(MODES[mode](_through_control_flow)().numpy(), [10.0, 10.0])


def test_nested_conds_pass_a_captured_eager_tensors_gradient_out():
    @tf.function
    def f(p):
        with tf.GradientTape() as tape:
            tape.watch(X)
            y = tf.cond(p > 0, lambda: tf.cond(p > 1, lambda: X * X, lambda: X * 3.0), lambda: X)
        return tape.gradient(y, X)
    np.testing.assert_allclose(f(tf.constant(2)).numpy(), [2.0, 4.0])
    np.testing.assert_allclose(f(tf.constant(1)).numpy(), [3.0, 3.0])


@pytest.mark.parametrize("unconnected", ["none", "zero"])
def test_tf_gradients_differentiates_with_respect_to_an_eager_tensor_the_function_uses(unconnected):
    unused = tf.constant([[3.0], [4.0]])

    @tf.function
    def f():
        return tf.gradients(X * 2.0, [X, unused], unconnected_gradients=unconnected)
    found = f()
    np.testing.assert_allclose(found[0].numpy(), [2.0, 2.0])        # TensorFlow 2.21; it was None (or zeros)
    assert found[1] is None if unconnected == "none" else found[1].numpy().tolist() == [[0.0], [0.0]]


# --- the gradients of sqrt, rsqrt and reciprocal ----------------------------------------------------------

@pytest.mark.parametrize("mode", sorted(MODES))
def test_the_second_derivative_of_l2_normalize_is_right_where_the_upstream_gradient_is_zero(mode):
    # 1 + 2 - 3 = 0: the gradient reaching the rsqrt is 0 there, and a `where` on it dropped its own derivative
    # (the runtime gave [-1.3172, -2.6344, 3.9516]; TensorFlow 2.21 and finite differences [-1.2409, -2.5581, 4.0280])
    def second(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.math.l2_normalize(x, axis=-1)
            g = inner.gradient(y, x)
            weighted = tf.reduce_sum(g * tf.constant([[22.0, 23.0, 24.0]], tf.float64))
        return outer.gradient(weighted, x)
    got = MODES[mode](second)(tf.constant([[1.0, 2.0, -3.0]], tf.float64))
    np.testing.assert_allclose(got.numpy(), [[-1.24085577, -2.55807189, 4.02800872]], rtol=1e-7)


@pytest.mark.parametrize("op", [tf.sqrt, tf.math.rsqrt, tf.math.reciprocal], ids=["sqrt", "rsqrt", "reciprocal"])
def test_sqrt_rsqrt_and_reciprocal_have_second_derivatives_through_a_zero_upstream_gradient(op):
    def gradient(v):      # x * op(x[1]): the upstream gradient of op is x[0] + x[1] + x[2], 0 at the point
        with tf.GradientTape() as tape:
            tape.watch(v)
            y = v * op(v[1:2] * v[1:2] + 1.0)
        return tape.gradient(y, v)
    check_gradient(gradient, [1.0, 2.0, -3.0])


def test_sqrt_keeps_the_unpicked_branch_of_a_where_out_of_its_gradient():
    x = tf.constant([0.0, -1.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.where(x > 0, tf.sqrt(x), tf.zeros_like(x)) + tf.where(x > 0, tf.math.rsqrt(x), 0.0)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0.0, 0.0, 0.25 - 0.0625])


# --- reduce_prod, pow and cond --------------------------------------------------------------------------

@pytest.mark.parametrize("mode", sorted(MODES))
def test_reduce_prods_gradient_is_the_product_of_the_others_even_beside_an_infinity(mode):
    x = tf.constant([[np.inf, 1.0, 2.0], [-np.inf, 1.0, np.inf], [3.0, 3.0, 3.0], [0.0, 2.0, 0.0]])

    def gradient(v):
        with tf.GradientTape() as tape:
            tape.watch(v)
            y = tf.reduce_prod(v, axis=1)
        return tape.gradient(y, v)
    # TensorFlow 2.21 (the runtime divided the product by each factor: NaN where a factor is inf)
    expected = [[2.0, np.inf, np.inf], [np.inf, -np.inf, -np.inf], [9.0, 9.0, 9.0], [0.0, 0.0, 0.0]]
    np.testing.assert_array_equal(MODES[mode](gradient)(x).numpy(), expected)


def test_reduce_prods_gradient_with_shapes_known_only_when_the_function_runs():
    f = tf.function(lambda x: tf.gradients(tf.reduce_prod(x, axis=[0, 2]), x)[0],
                    input_signature=[tf.TensorSpec([None, 2, None])])
    x = np.arange(1.0, 13.0, dtype=np.float32).reshape(3, 2, 2)
    expected = np.prod(x, axis=(0, 2), keepdims=True) / x
    np.testing.assert_allclose(f(tf.constant(x)).numpy(), expected, rtol=1e-6)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_pow_to_one_half_is_cs_pow_at_minus_infinity_and_minus_zero(mode):
    # TensorFlow 2.21 eagerly: inf and 0.0 (NumPy's power by a scalar 0.5 is sqrt: NaN and -0.0)
    got = MODES[mode](lambda x: [tf.pow(x, 0.5), tf.pow(x[0], 0.5), x ** 0.5])(tf.constant([-np.inf, -0.0, 4.0]))
    for result in (got[0], got[2]):
        assert result.numpy().tolist() == [np.inf, 0.0, 2.0] and not np.signbit(result.numpy()[1])
    assert got[1].numpy() == np.inf


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_cond_input_no_branch_differentiates_has_no_gradient_as_in_tensorflow(mode):
    def gradients(x, w):
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            y = tf.cond(x[0] > 0, lambda: x * tf.stop_gradient(w), lambda: x)
        return tape.gradient(y, [x, w])
    dx, dw = MODES[mode](gradients)(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]))
    assert dx.numpy().tolist() == [3.0, 4.0] and dw is None        # it was zeros inside a function


@pytest.mark.parametrize("mode", sorted(MODES))
def test_unsorted_segment_max_and_min_of_no_rows_fill_with_the_dtypes_extremes(mode):
    # TensorFlow 2.21: the lowest (highest) value of the dtype for every segment; the runtime gave -inf (inf)
    def f(data, ids):
        return [tf.math.unsorted_segment_max(data, ids, 2), tf.math.unsorted_segment_min(data, ids, 1)]
    high, low = MODES[mode](f)(tf.zeros([0, 2]), tf.zeros([0], tf.int32))
    assert high.numpy().tolist() == [[np.finfo(np.float32).min] * 2] * 2
    assert low.numpy().tolist() == [[np.finfo(np.float32).max] * 2]
