"""Gradients where the hypothesis checks (test_gradient_checks.py: float64, points away from kinks) don't
look: every rule in float32, smooth functions composed of kinked ops evaluated at the kink, and the
subgradient TensorFlow picks at a kink (TensorFlow code should get TensorFlow's numbers)."""
import numpy as np
import pytest

import runtime as tf

from gradcheck import check_gradient

X = np.array([[0.5, -1.2, 2.0], [3.0, 0.0, -0.7]])
LABELS = np.array([[0.2, 0.9, 0.0], [1.0, 0.3, 0.5]])


def _gradient(f, x, dtype):
    x = tf.constant(x, dtype)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(f(x))
    return tape.gradient(y, x)


FLOAT_RULES = {
    "erf": tf.math.erf, "gelu": tf.nn.gelu, "gelu_tanh": lambda x: tf.nn.gelu(x, approximate=True),
    "elu": tf.nn.elu, "selu": tf.nn.selu, "softplus": tf.nn.softplus, "sigmoid": tf.sigmoid, "tanh": tf.tanh,
    "exp": tf.exp, "expm1": tf.math.expm1, "log1p": lambda x: tf.math.log1p(tf.abs(x)),
    "log": lambda x: tf.math.log(tf.abs(x) + 1), "sqrt": lambda x: tf.sqrt(tf.abs(x) + 1),
    "rsqrt": lambda x: tf.math.rsqrt(tf.abs(x) + 1), "reciprocal": lambda x: tf.math.reciprocal(x + 5),
    "sin": tf.sin, "cos": tf.cos, "square": tf.square, "relu6": tf.nn.relu6,
    "softmax": tf.nn.softmax, "log_softmax": tf.nn.log_softmax, "logsumexp": tf.reduce_logsumexp,
    "l2_loss": tf.nn.l2_loss,
    "sigmoid_xent": lambda x: tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.cast(LABELS, x.dtype), logits=x),
    "softmax_xent": lambda x: tf.nn.softmax_cross_entropy_with_logits(labels=tf.cast(LABELS, x.dtype), logits=x),
}


@pytest.mark.parametrize("name", sorted(FLOAT_RULES))
def test_each_rule_differentiates_float32_as_float64(name):
    # a rule that multiplies by a NumPy float64 constant (erf's 2/sqrt(pi), gelu's) made a float64 tensor that a
    # float32 gradient can't be combined with: InvalidArgumentError on every float32 gradient of erf and gelu
    f = FLOAT_RULES[name]
    got = _gradient(f, X, tf.float32)
    assert got.dtype == tf.float32
    np.testing.assert_allclose(got.numpy(), _gradient(f, X, tf.float64).numpy(), rtol=1e-5, atol=1e-6)


def test_sigmoid_cross_entropy_is_smooth_at_zero_logits():
    # max(x, 0) - x z + log(1 + exp(-|x|)) is smooth, but its parts have kinks at 0 where relu's and abs's
    # subgradients (0 and 0) gave -z instead of sigmoid(0) - z = 0.5 - z: a wrong gradient at every zero logit
    logits = np.array([0.0, 0.0, 1.5, -2.0])
    labels = np.array([0.3, 1.0, 0.5, 0.0])
    check_gradient(lambda x: tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant(labels), logits=x),
                   logits, eps=1e-4)
    got = _gradient(lambda x: tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant(labels), logits=x),
                    logits, tf.float64)
    np.testing.assert_allclose(got.numpy()[:2], 0.5 - labels[:2])


@pytest.mark.parametrize("name, f, expected", [
    ("relu", tf.nn.relu, 0.0),                                 # TF: features > 0
    ("relu6", tf.nn.relu6, 0.0),                               # TF: 0 < features < 6
    ("elu", tf.nn.elu, 1.0),                                   # TF: outputs < 0 takes the negative side
    ("selu", tf.nn.selu, 1.0507009873554805),                  # so selu's slope at 0 is the scale, not scale*alpha
    ("abs", tf.abs, 0.0),
    ("sign", tf.sign, 0.0),                                    # TF: zeros (not None)
])
def test_the_subgradient_at_zero_is_tensorflows(name, f, expected):
    got = _gradient(f, np.array([0.0]), tf.float32)
    assert got is not None
    np.testing.assert_allclose(got.numpy(), [expected], rtol=1e-6)


PLACEMENTS = ["eager", "function", "jit_compile"]


def _in(placement, fn):
    """`fn` run eagerly, as a traced function on the NumPy executor, or compiled by JAX."""
    if placement == "jit_compile":
        pytest.importorskip("jax", reason="jit_compile=True needs the jax extra")
        return tf.function(fn, jit_compile=True)
    return fn if placement == "eager" else tf.function(fn)


def _gradients_of(f, *values):
    xs = [tf.constant(np.asarray(v, "float32")) for v in values]

    def run(*xs):
        with tf.GradientTape() as tape:
            tape.watch(list(xs))
            y = f(*xs)
        return tape.gradient(y, list(xs))
    return run, xs


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning", "ignore:divide by zero:RuntimeWarning")
@pytest.mark.parametrize("placement", PLACEMENTS)
@pytest.mark.parametrize("op", ["sqrt", "math.rsqrt", "math.reciprocal"])
def test_the_branch_where_does_not_pick_adds_no_nan_through_sqrt_rsqrt_reciprocal(op, placement):
    # TensorFlow's SqrtGrad, RsqrtGrad and ReciprocalGrad kernels give 0 where the incoming gradient is 0; the
    # rules gave 0 * nan = nan at x < 0 and 0 * inf = nan at x = 0: tf.where(x > 0, tf.sqrt(x), 0.0) had NaN
    # gradients where TensorFlow has 0 (TF 2.21: [0.25, 0, 0] for sqrt at [4, -1, 0])
    f = tf.math.rsqrt if op == "math.rsqrt" else tf.math.reciprocal if op == "math.reciprocal" else tf.sqrt
    run, xs = _gradients_of(lambda x: tf.reduce_sum(tf.where(x > 0, f(x), tf.zeros_like(x))), [4.0, -1.0, 0.0])
    slope = {"sqrt": 0.25, "math.rsqrt": -1 / 16, "math.reciprocal": -1 / 16}[op]   # at 4: 1/(2*2), -1/(2*8), -1/16
    np.testing.assert_allclose(_in(placement, run)(*xs)[0].numpy(), [slope, 0.0, 0.0])


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_clip_by_value_is_tensorflows_minimum_then_maximum_and_its_bounds_get_gradients(placement):
    # TensorFlow: clip_by_value(t, lo, hi) = maximum(minimum(t, hi), lo): lo wins where lo > hi (the kernel took
    # hi), and lo and hi have gradients where they are the result (they were None)
    def run(t, lo, hi):
        with tf.GradientTape() as tape:
            tape.watch([t, lo, hi])
            y = tf.clip_by_value(t, lo, hi)
            loss = tf.reduce_sum(y * tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]))
        return [y, *tape.gradient(loss, [t, lo, hi])]
    t = tf.constant([-2.0, 0.5, 3.0, 1.0, 7.0])
    lo = tf.constant(0.0)
    hi = tf.constant([1.0, 1.0, 2.0, 1.0, -1.0])     # last: lo > hi
    y, gt, glo, ghi = _in(placement, run)(t, lo, hi)
    np.testing.assert_allclose(y.numpy(), [0.0, 0.5, 2.0, 1.0, 0.0])
    np.testing.assert_allclose(gt.numpy(), [0.0, 2.0, 0.0, 4.0, 0.0])     # t = hi is a tie: t's
    np.testing.assert_allclose(glo.numpy(), 1.0 + 5.0)                      # t < lo at 0; lo > hi at 4
    np.testing.assert_allclose(ghi.numpy(), [0.0, 0.0, 3.0, 0.0, 0.0])


@pytest.mark.parametrize("placement", PLACEMENTS)
@pytest.mark.parametrize("activation", ["relu", "relu6", "leaky_relu"])
def test_the_second_derivative_of_relu_relu6_leaky_relu_is_zeros_as_tensorflows(activation, placement):
    # TensorFlow differentiates them with ReluGrad/Relu6Grad/LeakyReluGrad ops whose gradient is zeros for x; the
    # rules' `where` on x > 0 (leaky_relu's composition of `where`s) left x unconnected: None
    f = getattr(tf.nn, activation)

    def run(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(f(x) * tf.constant([1.0, 2.0, 3.0]))
            g = inner.gradient(y, x)
            s = tf.reduce_sum(g * g)
        return g, outer.gradient(s, x)
    g, second = _in(placement, run)(tf.constant([-1.0, 0.5, 7.0]))
    first_slope = 0.2 if activation == "leaky_relu" else 0.0      # TensorFlow's: [0.2, 2, 3], [0, 2, 0], [0, 2, 3]
    np.testing.assert_allclose(g.numpy(), [first_slope, 2.0, 0.0 if activation == "relu6" else 3.0])
    assert second is not None
    np.testing.assert_array_equal(second.numpy(), [0.0, 0.0, 0.0])


@pytest.mark.filterwarnings("ignore:overflow:RuntimeWarning")
@pytest.mark.parametrize("placement", ["eager", "function"])   # XLA's simplifier rewrites a / b / c as a / (b * c)
def test_the_divisors_gradient_does_not_square_it(placement):
    # TensorFlow's RealDiv gradient for y is (-x / y) / y; the rule's x / (y * y) overflowed y * y = 1e40 to inf in
    # float32 and gave 0 where the gradient is -1e-10 (and lost digits where y * y is subnormal)
    run, xs = _gradients_of(lambda x, y: tf.reduce_sum(x / y), [1e30, 1.0], [1e20, 1e-20])
    got = _in(placement, run)(*xs)[1].numpy()
    np.testing.assert_allclose(got, [-1e-10, -np.inf], rtol=1e-6)


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_cumprods_gradient_is_zero_where_x_is_zero_as_tensorflows(placement):
    # TensorFlow's rule divides by x with div_no_nan; ours divided plainly and gave NaN (0 / 0) where x is 0
    def run(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.math.cumprod(x, axis=1) * tf.constant([1.0, 2.0, 3.0]))
        return tape.gradient(y, x)
    x = tf.constant([[1.0, 0.5, 2.0], [-1.0, 3.0, 0.0], [0.0, 2.0, 3.0]])
    np.testing.assert_array_equal(_in(placement, run)(x).numpy(), [[5.0, 8.0, 1.5], [7.0, -2.0, 0.0], [0.0] * 3])


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_log_and_log1p_take_a_zero_gradient_through_one_over_zero_as_tensorflows(placement):
    # TensorFlow's rules are g * reciprocal(x) and g * reciprocal(1 + x), and a zero gradient through a reciprocal
    # of 0 is 0; ours divided, g / x, whose second derivative there is 0 * inf = NaN. Here the weights make the
    # second-order gradient reaching log(x - x[3]) at index 3 exactly 0.
    def run(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(tf.math.log1p(x - x[3] - 1.0)) + tf.reduce_sum(tf.math.log(x - x[3]) * 2.0)
            g = inner.gradient(y, x)
            s = tf.reduce_sum(g * tf.constant([1.0, 2.0, 3.0, 4.0]))
        return g, outer.gradient(s, x)
    with np.errstate(divide="ignore", invalid="ignore"):
        g, second = _in(placement, run)(tf.constant([1.5, 0.5, 2.0, 0.25]))
    np.testing.assert_allclose(g.numpy(), [2.4, 12.0, 1.7142858, np.nan], rtol=1e-6)
    np.testing.assert_allclose(second.numpy(), [5.76, 96.0, 0.9795919, -102.739586], rtol=1e-6)   # TensorFlow's
