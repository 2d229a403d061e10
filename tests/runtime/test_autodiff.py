"""GradientTape and custom_gradient: every gradient rule against finite differences,
eagerly and inside a traced function."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import runtime as tf
from gradcheck import tape_gradient
from runtime.ops import gradients
from runtime.ops.registry import OPS, apply

RNG = np.random.default_rng(0)


def numeric_gradient(f, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """Central differences of sum(f(x)) in float64."""
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[index] += eps
        down[index] -= eps
        grad[index] = (np.sum(f(up)) - np.sum(f(down))) / (2 * eps)
    return grad


def positive(shape):
    return RNG.uniform(0.5, 2.0, shape)


def signed(shape):
    return RNG.uniform(-2.0, 2.0, shape)


UNARY = {
    "Neg": (lambda x: -x, signed),
    "Abs": (tf.abs, positive),
    "Square": (tf.square, signed),
    "Sqrt": (tf.sqrt, positive),
    "Exp": (tf.exp, signed),
    "Log": (tf.math.log, positive),
    "Sin": (tf.sin, signed),
    "Cos": (tf.cos, signed),
    "Tanh": (tf.tanh, signed),
    "Sigmoid": (tf.sigmoid, signed),
    "Identity": (tf.identity, signed),
    "Sum": (lambda x: tf.reduce_sum(x, axis=1) * tf.constant([1.0, 2.0, 3.0], tf.float64), signed),
    "Mean": (lambda x: tf.reduce_mean(x, axis=0, keepdims=True) ** 2, signed),
    "Max": (lambda x: tf.reduce_max(x, axis=1), signed),
    "Min": (lambda x: tf.reduce_min(x), signed),
    "Reshape": (lambda x: tf.reshape(x, [2, 6]) * tf.range(12.0, dtype=tf.float64)[:6], signed),
    "Transpose": (lambda x: tf.transpose(x) * tf.constant([1.0, 2.0, 3.0], tf.float64), signed),
    "ExpandDims": (lambda x: tf.expand_dims(x, 0) ** 3, signed),
    "Squeeze": (lambda x: tf.squeeze(tf.reshape(x, [3, 1, 4])) ** 3, signed),
    "ClipByValue": (lambda x: tf.clip_by_value(x, -1.0, 1.0) * 3.0, signed),
    "Cast": (lambda x: tf.cast(tf.cast(x, tf.float32), tf.float64) ** 2, signed),
    "ConcatV2": (lambda x: tf.concat([x, x * 2.0], axis=1) ** 2, signed),
    "Pack": (lambda x: tf.stack([x, x ** 2], axis=0) * 1.5, signed),
    "Tile": (lambda x: tf.tile(x, [2, 3]) * tf.range(12.0, dtype=tf.float64), signed),
    "Cumsum": (lambda x: tf.math.cumsum(x, axis=1) ** 2, signed),
    "CumsumExclusiveReverse": (lambda x: tf.math.cumsum(x, axis=0, exclusive=True, reverse=True) ** 2, signed),
    "Unpack": (lambda x: tf.unstack(x, axis=1)[2] ** 3, signed),
}

NUMPY_UNARY = {
    "Neg": np.negative, "Abs": np.abs, "Square": np.square, "Sqrt": np.sqrt, "Exp": np.exp, "Log": np.log,
    "Sin": np.sin, "Cos": np.cos, "Tanh": np.tanh, "Sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "Identity": lambda x: x,
    "Sum": lambda x: x.sum(axis=1) * np.array([1.0, 2.0, 3.0]),
    "Mean": lambda x: x.mean(axis=0, keepdims=True) ** 2,
    "Max": lambda x: x.max(axis=1), "Min": lambda x: x.min(),
    "Reshape": lambda x: x.reshape(2, 6) * np.arange(12.0)[:6],
    "Transpose": lambda x: x.T * np.array([1.0, 2.0, 3.0]),
    "ExpandDims": lambda x: x[None] ** 3, "Squeeze": lambda x: x ** 3,
    "ClipByValue": lambda x: np.clip(x, -1, 1) * 3.0,
    "Cast": lambda x: x ** 2,
    "ConcatV2": lambda x: np.concatenate([x, 2 * x], axis=1) ** 2,
    "Pack": lambda x: np.stack([x, x ** 2]) * 1.5,
    "Tile": lambda x: np.tile(x, [2, 3]) * np.arange(12.0),
    "Cumsum": lambda x: np.cumsum(x, axis=1) ** 2,
    "CumsumExclusiveReverse": lambda x: (np.flip(np.cumsum(np.flip(x, 0), 0), 0) - x) ** 2,
    "Unpack": lambda x: x[:, 2] ** 3,
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_rule_matches_finite_differences(name):
    f, sample = UNARY[name]
    x = sample((3, 4))
    if name == "ClipByValue":
        x = np.where(np.abs(np.abs(x) - 1) < 0.05, 0.3, x)   # keep away from the kinks
    (got,) = tape_gradient(f, x)
    np.testing.assert_allclose(got, numeric_gradient(NUMPY_UNARY[name], x), rtol=1e-5, atol=1e-6)


BINARY = {
    "AddV2": (lambda x, y: x + y, np.add, signed),
    "Sub": (lambda x, y: x - y, np.subtract, signed),
    "Mul": (lambda x, y: x * y, np.multiply, signed),
    "RealDiv": (lambda x, y: x / y, np.divide, positive),
    "Pow": (tf.pow, np.power, positive),
    "Maximum": (tf.maximum, np.maximum, signed),
    "Minimum": (tf.minimum, np.minimum, signed),
}


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("shapes", [((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 1), (1, 4)), ((2, 3, 4), ())])
def test_binary_rule_with_broadcasting_matches_finite_differences(name, shapes):
    f, reference, sample = BINARY[name]
    x, y = sample(shapes[0]), sample(shapes[1])
    gx, gy = tape_gradient(f, x, y)
    assert gx.shape == x.shape and gy.shape == y.shape
    np.testing.assert_allclose(gx, numeric_gradient(lambda v: reference(v, y), x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gy, numeric_gradient(lambda v: reference(x, v), y), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("transpose_a", [False, True])
@pytest.mark.parametrize("transpose_b", [False, True])
def test_matmul_gradients_for_every_transpose(transpose_a, transpose_b):
    a = signed((4, 3) if transpose_a else (3, 4))
    b = signed((5, 4) if transpose_b else (4, 5))

    def reference(a_, b_):
        return (a_.T if transpose_a else a_) @ (b_.T if transpose_b else b_)
    ga, gb = tape_gradient(lambda x, y: tf.matmul(x, y, transpose_a=transpose_a, transpose_b=transpose_b) ** 2,
                           a, b)
    np.testing.assert_allclose(ga, numeric_gradient(lambda v: reference(v, b) ** 2, a), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gb, numeric_gradient(lambda v: reference(a, v) ** 2, b), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("index", [1, (slice(None), 2), (Ellipsis, slice(1, None, 2)), (slice(None, None, -1), None)])
def test_slicing_gradient_scatters_back(index):
    x = signed((3, 4))
    (got,) = tape_gradient(lambda t: t[index] ** 2, x)
    np.testing.assert_allclose(got, numeric_gradient(lambda v: v[index] ** 2, x), rtol=1e-5, atol=1e-6)


def test_slicing_with_a_tensor_index_inside_a_function():
    @tf.function
    def f(x, i):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x[i] * 3.0
        return tape.gradient(y, x)
    np.testing.assert_allclose(f(tf.constant([1.0, 2.0, 3.0]), tf.constant(1)).numpy(), [0.0, 3.0, 0.0])


@pytest.mark.parametrize("axis, indices", [(0, [2, 0, 2]), (1, [[3, 1], [1, 1]]), (0, 1)])
def test_gather_gradient_adds_repeated_rows(axis, indices):
    x = signed((3, 4))
    (got,) = tape_gradient(lambda t: tf.gather(t, indices, axis=axis) ** 2, x)
    np.testing.assert_allclose(got, numeric_gradient(lambda v: np.take(v, indices, axis=axis) ** 2, x),
                               rtol=1e-5, atol=1e-6)


def test_where_routes_the_gradient_to_the_chosen_side():
    x, y = signed((6,)), signed((6,))
    gx, gy = tape_gradient(lambda a, b: tf.where(a > b, a * 3.0, b * 5.0), x, y)
    np.testing.assert_allclose(gx, np.where(x > y, 3.0, 0.0))
    np.testing.assert_allclose(gy, np.where(x > y, 0.0, 5.0))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-3, 3), min_size=1, max_size=6))
def test_polynomial_gradient_property(values):
    x = np.array(values)
    (got,) = tape_gradient(lambda t: 3.0 * t ** 3 - 2.0 * t * t + t, x)
    np.testing.assert_allclose(got, 9 * x ** 2 - 4 * x + 1, rtol=1e-9, atol=1e-9)


def test_seed_002_variable_gradient():
    w = tf.Variable([[1.0]])
    with tf.GradientTape() as tape:
        loss = w * w
    grad = tape.gradient(loss, w)
    assert str(grad) == "tf.Tensor([[2.]], shape=(1, 1), dtype=float32)"


def test_seed_002_linear_regression_converges():
    tf.random.set_seed(0)
    inputs = tf.random.normal([2000])
    targets = inputs * 3 + 2 + tf.random.normal([2000])
    W, B = tf.Variable(5.0), tf.Variable(10.0)

    def loss():
        return tf.reduce_mean(tf.square(inputs * W + B - targets))
    start = float(loss())
    for _ in range(300):
        with tf.GradientTape() as tape:
            value = loss()
        dW, dB = tape.gradient(value, [W, B])
        W.assign_sub(0.01 * dW)
        B.assign_sub(0.01 * dB)
    assert start > 60 and float(loss()) < 1.1
    assert abs(W.numpy() - 3) < 0.1 and abs(B.numpy() - 2) < 0.1


def test_trainable_variables_are_watched_and_others_are_not():
    a, frozen, counter = tf.Variable(2.0), tf.Variable(3.0, trainable=False), tf.Variable(1)
    with tf.GradientTape() as tape:
        y = a * frozen * tf.cast(counter, tf.float32)
    da, dfrozen, dcounter = tape.gradient(y, [a, frozen, counter])
    assert float(da) == 3.0 and dfrozen is None and dcounter is None
    # TensorFlow 2.21 lists the trainable int Variable too (read, no gradient), not the frozen one
    assert [id(v) for v in tape.watched_variables()] == [id(a), id(counter)]


def test_variable_read_twice_accumulates():
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = v * v + v
    assert float(tape.gradient(y, v)) == 7.0


def test_unwatched_and_unconnected_sources():
    x, z = tf.constant(2.0), tf.constant(5.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
    assert tape.gradient(y, z) is None
    assert float(tape.gradient(y, z, unconnected_gradients="zero")) == 0.0
    assert tape.gradient(y, {"x": x})["x"].numpy() == 4.0


def test_non_persistent_tape_allows_one_gradient_call():
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="persistent=True"):
        tape.gradient(y, x)


def test_stop_recording_and_output_gradients():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tape.stop_recording():
            ignored = x * 10.0
        y = x * x + ignored
    np.testing.assert_allclose(tape.gradient(y, x, output_gradients=tf.constant([1.0, 0.5])).numpy(), [2.0, 2.0])


def test_second_derivative_with_nested_tapes():
    x = tf.constant(3.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x ** 3
        dy = inner.gradient(y, x)
    assert float(dy) == 27.0
    assert float(outer.gradient(dy, x)) == 18.0


def test_custom_gradient_replaces_the_rule():
    @tf.custom_gradient
    def clipped_identity(x):
        def grad(dy):
            return tf.clip_by_value(dy, -0.5, 0.5)
        return tf.identity(x), grad

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = clipped_identity(x) * 4.0
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0.5, 0.5])


@pytest.fixture
def op_without_a_rule():
    from runtime.ops.registry import defop, unary_same
    op = defop("SquareWithoutRule", np.square, unary_same)
    yield op
    del OPS[op.name]


def test_op_without_a_rule_is_a_clear_error_naming_the_op_and_the_line(op_without_a_rule):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = apply(op_without_a_rule, x) * 2.0   # <- here
    with pytest.raises(LookupError, match=r"No gradient defined for the op SquareWithoutRule \(made at "
                                          r".*test_autodiff.py:\d+: y = apply\(op_without_a_rule, x\)"):
        tape.gradient(y, x)


def test_op_without_a_rule_in_a_traced_function_names_the_line(op_without_a_rule):
    @tf.function(autograph=False)
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = apply(op_without_a_rule, x)   # <- here
        return tape.gradient(y, x)

    with pytest.raises(LookupError, match=r"SquareWithoutRule \(made at .*test_autodiff.py:\d+: y = apply\(op_without"):
        f(tf.constant(1.0))


def test_not_differentiable_ops_stop_the_gradient():
    x = tf.constant([1.0, -2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sign(x) * x
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [1.0, -1.0])


def test_every_float_op_has_a_rule_or_is_marked():
    marked = {name for name, op in OPS.items() if op.grad is not None} | gradients.NOT_DIFFERENTIABLE
    # ops with neither are reported with a clear LookupError (see above); keep this list honest
    assert sorted(set(OPS) - marked) == [
        "AssignAddVariableOp", "AssignSubVariableOp", "AssignVariableOp", "EagerPyFuncGrad", "HeldVariableRead",
        "Placeholder", "ReadVariableOp", "TensorListPopGrad"]


def test_tape_inside_a_traced_function_builds_gradient_ops():
    w = tf.Variable([1.0, 2.0])

    @tf.function
    def grad_of_loss(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(w * x))
        return tape.gradient(loss, w)

    x = tf.constant([3.0, -1.0])
    np.testing.assert_allclose(grad_of_loss(x).numpy(), 2 * np.array([1.0, 2.0]) * np.array([3.0, -1.0]) ** 2)
    ops = {op.type for op in grad_of_loss.get_concrete_function(x).graph.get_operations()}
    assert "Mul" in ops and "ReadVariableOp" in ops


def test_tapes_in_threads_do_not_see_each_other():
    import threading
    results, barrier = {}, threading.Barrier(4)

    def work(k):
        x = tf.constant(float(k))
        barrier.wait()
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x * x
        results[k] = float(tape.gradient(y, x))
    threads = [threading.Thread(target=work, args=(k,)) for k in range(1, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {k: 3.0 * k * k for k in range(1, 5)}
    from runtime.ops import registry
    assert registry.context.tapes == ()


def test_gradient_flows_through_a_call_of_a_traced_function():
    w = tf.Variable([1.0, 2.0])
    c = tf.constant([10.0, 20.0])

    @tf.function
    def f(x):
        unused = tf.gather(x, 7)   # non-strict: pruned, as when the executor runs the function
        return tf.reduce_sum(w * x * c)

    x = tf.constant([3.0, 4.0])
    f(x)   # traced before the tape exists
    with tf.GradientTape() as tape:
        tape.watch([x, c])
        y = f(x) * 2.0
    gx, gw, gc = tape.gradient(y, [x, w, c])
    np.testing.assert_allclose(gx.numpy(), [20.0, 80.0])
    np.testing.assert_allclose(gw.numpy(), [60.0, 160.0])
    np.testing.assert_allclose(gc.numpy(), [6.0, 16.0])
    assert f.experimental_get_tracing_count() == 1


@pytest.mark.parametrize("x, n", [(1.5, 3), (2.5, 3), (0.5, 0)])
def test_eager_gradient_through_a_call_of_a_function_with_staged_control_flow(x, n):
    w = tf.Variable(3.0)

    @tf.function
    def f(x, n):
        y = x * w
        for _ in tf.range(n):
            y = y * x
        if y > 100.0:
            y = y / 2.0
        return y

    halve = 0.5 if 3.0 * x ** (n + 1) > 100 else 1.0
    with tf.GradientTape() as tape:
        tape.watch(x_t := tf.constant(x))
        y = f(x_t, tf.constant(n))
    dx, dw = tape.gradient(y, [x_t, w])
    assert float(y) == pytest.approx(halve * 3.0 * x ** (n + 1))
    assert float(dx) == pytest.approx(halve * 3.0 * (n + 1) * x ** n)
    assert float(dw) == pytest.approx(halve * x ** (n + 1))


def test_gradient_through_while_loop_with_captured_tensor():
    @tf.function(autograph=False)
    def g(x, w):
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            _, y = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * w + 1.0), (0, x))
            z = y * y
        return tape.gradient(z, [x, w])

    x, w = 2.0, 3.0
    y = x * w ** 3 + w ** 2 + w + 1       # three steps of v * w + 1
    dx, dw = g(tf.constant([x]), tf.constant(w))
    np.testing.assert_allclose(dx.numpy(), [2 * y * w ** 3])
    np.testing.assert_allclose(dw.numpy(), 2 * y * (3 * x * w ** 2 + 2 * w + 1))


def test_gradient_through_while_loop_respects_maximum_iterations():
    @tf.function(autograph=False)
    def g(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda v: v < 1e9, lambda v: v * v, [x], maximum_iterations=2)[0]
        return tape.gradient(y, x)

    assert float(g(tf.constant(1.5))) == pytest.approx(4 * 1.5 ** 3)   # d(x^4)/dx


def test_gradient_through_an_autograph_converted_for_loop_over_a_tensor_range():
    @tf.function
    def g(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in tf.range(n):
                y = y * x
        return tape.gradient(y, x)

    for n in (0, 1, 4):
        assert float(g(tf.constant(1.5), tf.constant(n))) == pytest.approx((n + 1) * 1.5 ** n)
    ops = [op.type for op in g.get_concrete_function(tf.constant(1.5), tf.constant(1)).graph.get_operations()]
    assert ops.count("While") == 3   # the loop, its replay keeping each iteration's state, the backward loop


@pytest.mark.parametrize("value, expected", [(1.5, 16 * 1.5 ** 3), (-1.0, 18 * -1.0)])
def test_gradient_through_cond_in_a_function(value, expected):
    scale = tf.Variable(2.0)

    @tf.function(autograph=False)
    def g(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            scale_value = scale.read_value()   # variables read inside a branch: see the next test
            y = tf.cond(tf.reduce_sum(x) > 0, lambda: x * x * scale_value, lambda: x * 3.0)
            z = y * y
        return tape.gradient(z, [x, scale])

    dx, dscale = g(tf.constant([value]))
    np.testing.assert_allclose(dx.numpy(), [expected], rtol=1e-6)
    # d(z)/d(scale) = 2 * y * x^2 on the true branch, 0 on the false one
    np.testing.assert_allclose(dscale.numpy(), 2 * (value ** 2 * 2.0) * value ** 2 if value > 0 else 0.0, rtol=1e-6)
    ops = [op.type for op in g.get_concrete_function(tf.constant([value])).graph.get_operations()]
    assert ops.count("Cond") == 2   # the forward cond and its gradient


@pytest.mark.parametrize("x", [2.0, -2.0])
def test_gradient_for_a_variable_read_inside_a_branch(x):
    scale = tf.Variable(3.0)

    @tf.function(autograph=False)
    def g(x):
        with tf.GradientTape() as tape:
            y = tf.cond(tf.reduce_sum(x) > 0, lambda: x * scale * scale, lambda: x)
        return tape.gradient(y, scale, unconnected_gradients="zero")

    assert float(g(tf.constant(x))) == (2 * 3.0 * x if x > 0 else 0.0)


def test_gradient_for_a_variable_read_inside_a_loop_body():
    w = tf.Variable(1.5)

    @tf.function
    def g(x, n):
        with tf.GradientTape() as tape:
            for _ in tf.range(n):
                x = x * w
        return tape.gradient(x, w)

    assert float(g(tf.constant(2.0), tf.constant(3))) == pytest.approx(2.0 * 3 * 1.5 ** 2)


def test_gradient_through_an_autograph_converted_if():
    @tf.function
    def g(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            if tf.reduce_sum(x) > 0:
                y = tf.sin(x)
            else:
                y = x * x
        return tape.gradient(y, x)

    np.testing.assert_allclose(g(tf.constant([0.5])).numpy(), np.cos([0.5]), rtol=1e-6)
    np.testing.assert_allclose(g(tf.constant([-2.0])).numpy(), [-4.0])


@pytest.mark.parametrize("placement", ["eager", "function"])
def test_matmul_gradients_sum_over_the_batch_axes_an_operand_was_broadcast_along(placement):
    # a [2, 2, 3] @ b [3, 2]: b's gradient is the sum over the batch of a[i]^T g[i], shaped [3, 2] like b (it was
    # the unreduced [2, 3, 2]); also when both broadcast ([2, 1, 2, 3] @ [3, 3, 2])
    a = RNG.normal(size=(2, 2, 3)).astype("float32")
    b = RNG.normal(size=(3, 2)).astype("float32")
    c = RNG.normal(size=(2, 1, 2, 3)).astype("float32")
    d = RNG.normal(size=(3, 3, 2)).astype("float32")

    def run(a, b, c, d):
        with tf.GradientTape() as tape:
            tape.watch([a, b, c, d])
            y = tf.reduce_sum(tf.matmul(a, b)) + tf.reduce_sum(c @ d)
        return tape.gradient(y, [a, b, c, d])
    run = run if placement == "eager" else tf.function(run)
    ga, gb, gc, gd = (g.numpy() for g in run(*(tf.constant(v) for v in (a, b, c, d))))
    ones = np.ones((2, 2))
    np.testing.assert_allclose(gb, sum(a[i].T @ ones for i in range(2)), rtol=1e-5)
    np.testing.assert_allclose(ga, np.stack([ones @ b.T] * 2), rtol=1e-5)
    np.testing.assert_allclose(gd, np.stack([sum(c[i, 0].T @ ones for i in range(2))] * 3), rtol=1e-5)
    np.testing.assert_allclose(gc, np.stack([sum(ones @ d[j].T for j in range(3))[None]] * 2), rtol=1e-5)


@pytest.mark.parametrize("placement", ["eager", "function"])
def test_custom_gradient_of_a_function_that_reads_variables_gives_them_grad_fns_gradients(placement):
    # TensorFlow passes the Variables the function read to grad_fn(dy, variables=...): their gradients were
    # silently None (and a grad_fn with `variables` failed with "'NoneType' object is not iterable")
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def scaled(x):
        def grad(dy, variables=None):
            return dy * 3.0, [dy * 5.0 for _ in variables]
        return tf.cond(x > 0, lambda: x * v, lambda: x), grad

    def run(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = scaled(x) * 2.0
        return tape.gradient(y, [x, v])
    run = run if placement == "eager" else tf.function(run)
    assert [float(g) for g in run(tf.constant(1.0))] == [6.0, 10.0]


def test_custom_gradient_reading_variables_without_a_variables_argument_is_a_type_error():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def scaled(x):
        return x * v, lambda dy: dy * 3.0
    with pytest.raises(TypeError, match="must accept the keyword argument `variables`"):
        scaled(tf.constant(1.0))


def test_a_target_that_is_a_source_contributes_its_own_seed_as_in_tensorflow():
    # t.gradient([y, v], v) with y = 3v is 4 (it was 3: the Variable target was read anew, a read the tape never
    # saw); a tensor or Variable asked for its own gradient gets ones, watched or not (it was None)
    v = tf.Variable(2.0)
    frozen = tf.Variable(1.0, trainable=False)
    x, n = tf.constant(3.0), tf.constant(2)
    with tf.GradientTape(persistent=True) as tape:
        y = v * 3.0
    assert float(tape.gradient([y, v], v)) == 4.0
    assert float(tape.gradient([v, v], v, output_gradients=[tf.constant(2.0), tf.constant(5.0)])) == 7.0
    assert float(tape.gradient(frozen, frozen)) == 1.0
    assert float(tape.gradient([x, x * 2.0], x)) == 1.0
    ones = tape.gradient(n, n)
    assert ones.dtype is tf.int32 and int(ones) == 1
    assert tape.gradient(v, x) is None and tape.gradient(x, v) is None


def test_a_tape_never_used_as_a_with_block_refuses_to_give_a_gradient():
    # TensorFlow raises too; a None would read as "not connected", hiding the missing `with`
    x = tf.Variable(3.0)
    tape = tf.GradientTape()
    y = x * x
    with pytest.raises(RuntimeError, match="never recorded"):
        tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="never recorded"):
        tf.GradientTape(persistent=True).jacobian(y, x)
