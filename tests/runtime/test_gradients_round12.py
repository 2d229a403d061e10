"""Silent differences from TensorFlow found by running the same programs under `import tensorflow as tf` and
`import runtime as tf` (twelfth session), each checked here against hand-derived numbers or finite differences,
so that no test needs TensorFlow: matrix norms, `for` loops over `tf.range` with bounds the wrong way
(and float ranges under jit_compile), GradientTape's rules for watched_variables, re-entry and sources, einsum's gradient with '...' and
repeated subscripts, the error class of a Python float beside an int tensor, `searchsorted`, `random.shuffle`, `back_prop=False` of
map_fn, scan and the folds, `tf.hessians`, the jacobian of a Variable target, targets that are
no tensor."""
import numpy as np
import pytest

import runtime as tf
from tests.runtime.gradcheck import check_gradient

STAGED = {"function": tf.function, "jit": lambda f: tf.function(f, jit_compile=True)}
MODES = {"eager": lambda f: f, **STAGED}
Y = np.array([[3.0, -4.0], [1.0, 2.0]], np.float32)

# (ord, axis, value of tf.norm(Y, ord, axis), TensorFlow's gradient)
MATRIX_NORMS = [
    (1, [0, 1], 6.0, [[0.0, -1.0], [0.0, 1.0]]),                 # the largest column sum of magnitudes
    (1, [1, 0], 7.0, [[1.0, -1.0], [0.0, 0.0]]),                 # axes swapped: the largest row sum
    (np.inf, [0, 1], 7.0, [[1.0, -1.0], [0.0, 0.0]]),            # the largest row sum
    (np.inf, [-1, 0], 6.0, [[0.0, -1.0], [0.0, 1.0]]),
    ("fro", (0, 1), 30 ** 0.5, Y / 30 ** 0.5),
    ("euclidean", [0, 1], 30 ** 0.5, Y / 30 ** 0.5),
]


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("ord_, axis, value, gradient", MATRIX_NORMS, ids=[f"{o} {a}" for o, a, _, _ in MATRIX_NORMS])
def test_norm_over_two_axes_is_the_matrix_norm(mode, ord_, axis, value, gradient):
    def f(y):
        with tf.GradientTape() as tape:
            tape.watch(y)
            n = tf.norm(y, ord=ord_, axis=axis)
        return n, tape.gradient(n, y)
    n, g = MODES[mode](f)(tf.constant(Y))
    np.testing.assert_allclose(n.numpy(), value, rtol=1e-6)
    np.testing.assert_allclose(g.numpy(), gradient, rtol=1e-6)


def test_matrix_norms_of_a_batch_keep_the_other_axes_and_keepdims_keeps_both():
    x = tf.reshape(tf.range(24.0) - 11.0, [2, 3, 4])
    np.testing.assert_allclose(tf.norm(x, ord=1, axis=[0, 2]).numpy(), [12.0, 12.0, 12.0])
    np.testing.assert_allclose(tf.norm(x, ord=1, axis=(-1, -2)).numpy(), [38.0, 42.0])
    kept = tf.norm(x, ord=np.inf, axis=[2, 1], keepdims=True)
    assert kept.shape == [2, 1, 1]
    np.testing.assert_allclose(kept.numpy().ravel(), [21.0, 24.0])


@pytest.mark.parametrize("p", [3, 0.5, 1.5])
def test_vector_p_norms_for_any_positive_p(p):
    v = np.array([3.0, -4.0, 1.0])
    np.testing.assert_allclose(tf.norm(tf.constant(v), ord=p).numpy(), np.sum(np.abs(v) ** p) ** (1 / p))
    check_gradient(lambda x: tf.norm(x, ord=p, axis=-1), v.reshape(1, 3))


@pytest.mark.parametrize("ord_, axis, error", [
    ("fro", None, ValueError), (0, None, ValueError), (-1, None, ValueError), (3, [0, 1], ValueError),
    (1, [0, 0], ValueError)])
def test_norms_tensorflow_refuses_are_refused(ord_, axis, error):
    # TensorFlow: 'fro' is a matrix norm only, ord <= 0 is no norm (the matrix 2-norm: test_gradients_round13.py)
    with pytest.raises(error, match="norm"):
        tf.norm(tf.constant(Y), ord=ord_, axis=axis)


# (start, limit, delta): a `for` over tf.range(start, limit, delta) inside a function runs Python's range's
# iterations, as TensorFlow's autograph does (it reads the bounds and never runs the range op, which raises
# for bounds the wrong way for the step, as it does eagerly)
RANGES = [(0, -3, 1), (5, 2, 1), (2, 9, -1), (0, 0, 1), (2, 9, 3), (9, 2, -2), (-7, 7, 4), (7, -7, -4)]


@pytest.mark.parametrize("mode", sorted(STAGED))
@pytest.mark.parametrize("start, limit, delta", RANGES)
def test_a_for_over_a_tensor_range_runs_pythons_iterations_even_with_bounds_the_wrong_way(mode, start, limit, delta):
    def f(a, b, d):
        s, k = tf.constant(0), tf.constant(0)
        for i in tf.range(a, b, d):
            s += i * 3 + 1
            k += 1
        return s, k
    s, k = STAGED[mode](f)(tf.constant(start), tf.constant(limit), tf.constant(delta))
    expected = list(range(start, limit, delta))
    assert (s.numpy(), k.numpy()) == (sum(3 * i + 1 for i in expected), len(expected))


@pytest.mark.parametrize("mode", sorted(STAGED))
@pytest.mark.parametrize("start, limit, delta", RANGES)
def test_a_for_over_a_float_range_runs_ceil_of_its_length_times(mode, start, limit, delta):
    def f(a, b, d):
        s = tf.constant(0.0)
        for i in tf.range(a, b, d):
            s += i * 3.0 + 1.0
        return s
    a, b, d = start / 2, limit / 2, delta / 2
    expected = [a + k * d for k in range(max(0, int(np.ceil((b - a) / d))))]
    s = STAGED[mode](f)(tf.constant(a), tf.constant(b), tf.constant(d))
    np.testing.assert_allclose(s.numpy(), sum(3.0 * i + 1.0 for i in expected), rtol=1e-6)


def test_eagerly_a_range_with_bounds_the_wrong_way_raises_as_tensorflows():
    with pytest.raises(tf.errors.InvalidArgumentError, match="start <= limit"):
        for _ in tf.range(tf.constant(5), tf.constant(2)):
            pass


def test_the_gradient_through_a_for_over_an_empty_tensor_range_is_the_identitys():
    @tf.function
    def f(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in tf.range(n, 0):
                y = y * x
        return y, tape.gradient(y, x)
    assert [v.numpy() for v in f(tf.constant(2.0), tf.constant(3))] == [2.0, 1.0]      # no iterations
    assert [v.numpy() for v in f(tf.constant(2.0), tf.constant(-2))] == [8.0, 12.0]    # x ** 3


@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_for_over_a_range_with_a_zero_step_raises(mode):
    def f(d):
        s = tf.constant(0.0)
        for i in tf.range(0.0, 5.0, d):
            s += i
        return s
    with pytest.raises(tf.errors.InvalidArgumentError, match="delta must not be 0"):
        MODES[mode](f)(tf.constant(0.0))


@pytest.mark.parametrize("start, limit, delta, size", [(1.0, 2.5, 0.5, 3), (0.0, 1.0, 0.3, 4), (2.0, -1.0, -0.7, 5),
                                                       (3, 10, 3, 3), (10, 3, -3, 3)])
def test_a_range_with_computed_bounds_has_its_length_under_jit_compile(start, limit, delta, size):
    # XLA's range of a traced length is computed lazily: its length is ceil((limit - start) / delta), also
    # for floats (it was the integer formula: 2 rows of range(1.0, 2.5, 0.5), the last one 1.5)
    @tf.function(jit_compile=True)
    def f(a, b, d):
        r = tf.range(a, b, d)
        return tf.shape(r)[0], r[-1]
    n, last = f(tf.constant(start), tf.constant(limit), tf.constant(delta))
    assert n.numpy() == size
    np.testing.assert_allclose(last.numpy(), start + (size - 1) * delta, rtol=1e-6)


def test_watched_variables_are_listed_in_the_order_they_were_created():
    a, b, c = tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b"), tf.Variable(3.0, name="c")
    with tf.GradientTape() as tape:
        tape.watch(c)
        _ = b * a
    assert [v.name for v in tape.watched_variables()] == ["a:0", "b:0", "c:0"]     # TensorFlow's order


def test_entering_a_tape_that_is_recording_raises_as_tensorflows():
    x = tf.constant(2.0)
    tape = tf.GradientTape()
    with tape:
        tape.watch(x)
        with pytest.raises(ValueError, match="still recording"):
            with tape:
                pass
        y = x * x
    assert tape.gradient(y, x).numpy() == 4.0      # the outer block still recorded


@pytest.mark.parametrize("arguments", [lambda x, y: (None, x), lambda x, y: (y, 3.0), lambda x, y: (y, [x, None]),
                                       lambda x, y: (y, np.ones(2))], ids=["None target", "float", "None", "ndarray"])
def test_a_none_target_or_a_source_that_is_no_tensor_raises_type_error(arguments):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    with pytest.raises(TypeError, match="target is None|sources must be tensors"):
        tape.gradient(*arguments(x, y))


EINSUMS = [("ii->", [(3, 3)]), ("ii->i", [(3, 3)]), ("iji->j", [(2, 3, 2)]), ("iii->i", [(2, 2, 2)]),
           ("ij,jj->i", [(2, 3), (3, 3)]), ("bii->b", [(2, 3, 3)]), ("...ii->...i", [(2, 3, 3)]),
           ("...ij,...jk->...ik", [(1, 2, 3), (4, 3, 2)]), ("...ij,jk->...ik", [(5, 4, 2, 3), (3, 2)]),
           ("i...->...", [(2, 3, 4)]), ("...,...->...", [(3, 1), (1, 4)]), ("ij...,j->i...", [(2, 3), (3,)])]


@pytest.mark.parametrize("equation, shapes", EINSUMS, ids=[e for e, _ in EINSUMS])
def test_einsum_gradients_with_ellipses_and_repeated_subscripts_match_finite_differences(equation, shapes):
    # TensorFlow differentiates these (a trace, a diagonal, broadcast batches); they raised NotImplementedError
    rng = np.random.default_rng(3)
    check_gradient(lambda *xs: tf.einsum(equation, *xs), *[rng.normal(size=shape) for shape in shapes])


def test_the_gradient_of_a_trace_is_the_identity_and_of_a_diagonal_a_diagonal_under_jit_compile():
    @tf.function(jit_compile=True)
    def f(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            trace, diagonal = tf.einsum("ii->", x), tf.einsum("ii->i", x) * tf.constant([1.0, 2.0, 3.0])
        return tape.gradient(trace, x), tape.gradient(diagonal, x)
    trace, diagonal = f(tf.ones([3, 3]))
    np.testing.assert_array_equal(trace.numpy(), np.eye(3))
    np.testing.assert_array_equal(diagonal.numpy(), np.diag([1.0, 2.0, 3.0]))


@pytest.mark.parametrize("program", [lambda: tf.constant(1) * 2.5, lambda: 2.5 * tf.constant([1, 2]),
                                     lambda: tf.maximum(tf.constant([1, 2]), 0.5), lambda: tf.constant([1]) < 1.5,
                                     lambda: tf.function(lambda n: n + 0.5)(tf.constant(3))],
                         ids=["*", "r*", "maximum", "<", "in a function"])
def test_a_python_float_beside_an_int_tensor_is_a_type_error_and_an_invalid_argument_error(program):
    # TensorFlow raises TypeError ("Cannot convert 2.5 to EagerTensor of dtype int32"), for + InvalidArgumentError
    with pytest.raises(TypeError, match="cannot compute with") as raised:
        program()
    assert isinstance(raised.value, tf.errors.InvalidArgumentError)


def test_two_tensors_of_different_dtypes_stay_an_invalid_argument_error_only():
    with pytest.raises(tf.errors.InvalidArgumentError) as raised:
        tf.constant([1]) + tf.constant([1.0])
    assert not isinstance(raised.value, TypeError)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_searchsorted_gives_numpys_insertion_points_row_by_row(mode):
    rows = np.array([[1.0, 2.0, 2.0, 5.0], [0.0, 0.0, 4.0, 9.0]], np.float32)
    values = np.array([[2.0, 0.0, 6.0], [0.0, 4.5, -1.0]], np.float32)
    for side in ("left", "right"):
        got = MODES[mode](lambda s, v: tf.searchsorted(s, v, side=side))(tf.constant(rows), tf.constant(values))
        expected = [np.searchsorted(r, v, side=side) for r, v in zip(rows, values)]
        assert got.dtype == tf.int32
        np.testing.assert_array_equal(got.numpy(), expected)


def test_searchsorted_refuses_rows_and_values_of_other_leading_dimensions():
    with pytest.raises(tf.errors.InvalidArgumentError, match="leading dimensions"):
        tf.searchsorted(tf.constant([[1, 2]]), tf.constant([1, 2]))
    with pytest.raises(ValueError, match="side"):
        tf.searchsorted(tf.constant([1, 2]), tf.constant([1]), side="middle")


@pytest.mark.parametrize("mode", sorted(MODES))
def test_random_shuffle_permutes_the_rows_and_passes_no_gradient(mode):
    rows = np.arange(12.0, dtype=np.float32).reshape(6, 2)

    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.random.shuffle(x) * 2.0
        return y, tape.gradient(y, x)
    y, g = MODES[mode](f)(tf.constant(rows))
    assert sorted(map(tuple, y.numpy().tolist())) == sorted(map(tuple, (rows * 2).tolist()))
    assert g is None                                       # TensorFlow's RandomShuffle has no gradient


def test_random_shuffle_of_a_scalar_is_itself_and_a_seed_repeats_the_order():
    assert tf.random.shuffle(tf.constant(5.0)).numpy() == 5.0
    orders = []
    try:
        for _ in range(2):
            tf.random.set_seed(7)
            orders.append(tf.random.shuffle(tf.range(20), seed=1).numpy().tolist())
    finally:
        tf.random.set_seed(None)
    assert orders[0] == orders[1] and sorted(orders[0]) == list(range(20))


BACK_PROP_FALSE = {
    "map_fn": lambda x: tf.reduce_sum(tf.map_fn(lambda r: r * r, x, back_prop=False)),
    "scan": lambda x: tf.reduce_sum(tf.scan(lambda a, r: a + r * r, x, back_prop=False)),
    "foldl": lambda x: tf.foldl(lambda a, r: a + r * r, x, back_prop=False),
    "foldr": lambda x: tf.foldr(lambda a, r: a + r * r, x, back_prop=False),
    "while_loop": lambda x: tf.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, a * x), [0, x], back_prop=False)[1],
}


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("name", sorted(BACK_PROP_FALSE))
def test_back_prop_false_stops_the_gradient_of_loops_and_their_higher_order_forms(mode, name):
    # TensorFlow's graphs give None (map_fn, scan and the folds gave the gradient here)
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = BACK_PROP_FALSE[name](x)
        return y, tape.gradient(y, x)
    y, g = MODES[mode](f)(tf.constant([1.0, 2.0, 3.0]))
    assert g is None and np.all(np.isfinite(y.numpy()))        # the values still computed


def test_hessians_in_a_function_are_the_second_derivatives_shaped_x_by_x():
    @tf.function
    def f(x, w):
        y = tf.reduce_sum(x ** 3) + tf.reduce_sum(tf.sin(w)) * x[0, 0] + x[0, 1] * x[1, 0]
        return tf.hessians(y, [x, w])
    x, w = np.array([[1.0, 2.0], [3.0, 0.5]], np.float32), np.array([0.3, 0.7], np.float32)
    hx, hw = f(tf.constant(x), tf.constant(w))
    expected = np.diag(6 * x.ravel())
    expected[1, 2] = expected[2, 1] = 1.0                     # d2/dx01 dx10 of x01 * x10
    np.testing.assert_allclose(hx.numpy(), expected.reshape(2, 2, 2, 2), rtol=1e-6)
    np.testing.assert_allclose(hw.numpy(), np.diag(-np.sin(w) * x[0, 0]), rtol=1e-6)


def test_hessians_eagerly_raise_as_tensorflows_gradients_do():
    with pytest.raises(RuntimeError, match="eager execution"):
        tf.hessians(tf.constant(1.0), tf.constant(2.0))


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_the_jacobian_of_a_variable_with_respect_to_itself_is_the_identity(mode):
    v = tf.Variable([1.0, 2.0])

    def f():
        with tf.GradientTape(persistent=True) as tape:
            y = v * v
        return tape.jacobian(y, v), tape.jacobian(v, v)
    of_square, of_itself = MODES[mode](f)()
    np.testing.assert_array_equal(of_square.numpy(), [[2.0, 0.0], [0.0, 4.0]])
    np.testing.assert_array_equal(of_itself.numpy(), np.eye(2))                  # was None


@pytest.mark.parametrize("ask", [lambda tape, x: tape.jacobian([x * x, x], x), lambda tape, x: tape.jacobian(None, x),
                                 lambda tape, x: tape.batch_jacobian([x], x), lambda tape, x: tape.gradient([x * x, None], x)],
                         ids=["jacobian of a list", "jacobian of None", "batch_jacobian of a list", "a None in a target"])
def test_a_target_that_is_no_tensor_raises_type_error(ask):
    # TensorFlow raises; the jacobian of a list was None here (the list became a new, unconnected tensor)
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
    with pytest.raises(TypeError, match="target"):
        ask(tape, x)
