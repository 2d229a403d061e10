"""`function(jit_compile=True)`: a table of graph-mode programs run by the NumPy executor and by JAX
(`runtime/lowering/to_jax.py`), the same values, printed lines and Variable updates both ways."""
import sys

import numpy as np
import pytest

import runtime as tf
from runtime.errors import LoweringError
from runtime.tensor import EagerTensor
from graph_programs import branchy, capped_loop, collatz, counter_program, fizzbuzz, while_with_break  # noqa: E402

pytest.importorskip("jax")


def arithmetic(x, y):
    return (x * 2.0 + y) / (y - 0.5) - tf.sqrt(tf.abs(x)) + tf.maximum(x, y) ** 2.0


def integer_ops(a, b):
    return a // b, a % b, -a // b, tf.cast(a, tf.float32) / tf.cast(b, tf.float32), a / b


def float_to_int_casts(x):
    # XLA saturates (and makes NaN 0); the executor, like TensorFlow on x86, gives the int32's (int64's) minimum
    # out of range and a narrower type the int32's low bits: jit_compile gave 255 for cast(-2.5 or 1e5, uint8)
    return tuple(tf.cast(x, d) for d in (tf.int32, tf.int64, tf.uint8, tf.int8, tf.int16))


def matmul(x, w):
    return tf.tanh(tf.matmul(x, w) + 1.0), tf.matmul(x, w, transpose_b=True)


def reductions(x, n):
    return (tf.reduce_sum(x), tf.reduce_sum(x, axis=0), tf.reduce_mean(x, axis=1, keepdims=True),
            tf.reduce_max(x), tf.reduce_min(x, axis=0), tf.reduce_mean(n), tf.argmax(x, axis=1),
            tf.reduce_any(x > 1.0), tf.reduce_all(x > -5.0))


def shapes(x):
    y = tf.reshape(x, [3, 2])
    return tf.transpose(y), tf.concat([x, x], axis=0), tf.stack([x[0], x[1]]), x[1:, 0], tf.expand_dims(x, 0)


@tf.function
def inner_step(h, x, w):
    return tf.tanh(tf.matmul(h, w) + x)


def nested_functions(h, xs, w):
    for i in tf.range(3):
        h = inner_step(h, xs[i], w)
    return h


def complex_numbers(a, b):
    z = tf.complex(a, b)
    w = z * tf.math.conj(z) / (z + 1.0)
    return tf.abs(w) + tf.math.angle(z), tf.math.real(w), tf.math.imag(w)


def array_ops(x, idx):
    return (tf.gather(x, idx), tf.gather(x, idx, axis=1), tf.one_hot(idx, 4), tf.one_hot(idx, 3, 5.0, -1.0, axis=0),
            tf.pad(x, [[1, 0], [0, 2]]), tf.pad(x, [[1, 1], [1, 0]], mode="REFLECT"),
            tf.pad(x, [[0, 1], [2, 1]], mode="SYMMETRIC", constant_values=0.0), tf.broadcast_to(x[0], [4, 3]),
            tf.linspace(0.0, 1.0, 5), *tf.split(x, [1, 2], axis=1), tf.einsum("ij,kj->ik", x, x),
            tf.sort(x, direction="DESCENDING"), tf.argsort(x % 2.0, stable=True), *tf.math.top_k(x, 2),
            tf.roll(x, 1, 1), tf.repeat(x, 2, axis=0))


def nn_ops(x, labels):
    return (tf.nn.softmax(x, axis=0), tf.nn.log_softmax(x), tf.nn.elu(x), tf.nn.selu(x), tf.nn.gelu(x),
            tf.nn.gelu(x, approximate=True), tf.nn.relu6(x * 4), tf.nn.leaky_relu(x, 0.3), tf.math.erf(x),
            tf.nn.l2_loss(x),
            tf.reduce_logsumexp(x, axis=1), tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=x),
            tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.sigmoid(x), logits=x))


def gradients(x, idx):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = (tf.reduce_sum(tf.gather(x, idx) * 2.0) + tf.reduce_sum(x[1] * x[0, 2]) + tf.reduce_sum(x + x[0])
             + tf.reduce_sum(tf.sort(x) * tf.range(3.0)) + tf.reduce_sum(tf.math.top_k(x, 2).values)
             + tf.reduce_sum(tf.nn.softmax(x) * x) + tf.reduce_sum(tf.reshape(x, [3, 2]) ** 2.0))
    return tape.gradient(y, x)


def nd_ops(x, idx):
    return (tf.gather_nd(x, idx), tf.scatter_nd(idx, x[0, :2], [2, 3]), tf.tensor_scatter_nd_update(x, idx, [7.0, 8.0]),
            tf.tensor_scatter_nd_add(x, idx, [1.0, 2.0]))


def indexes(x, i, j, n):
    return x[i], x[-1, j], x[..., j], x[i, 1:], tf.range(n)[i], tf.gather(x, [i, 0])


def loop_over_empty(x):
    """A loop over a tensor with no rows: its body, traced but never run, indexed an empty axis (JAX refused
    the traced index: an IndexError)."""
    y = x[0] * 2.0
    for row in x[:0]:
        y = y * row
    for column in tf.transpose(x)[1:1]:
        y = y + column[0]
    return y


RNG = np.random.default_rng(0)
MAT = tf.constant(RNG.standard_normal((3, 3)), tf.float32)
X23 = tf.constant([[0.5, -1.2, 2.0], [3.0, 0.0, -0.7]])
PROGRAMS = [
    (arithmetic, (tf.constant([1.5, -2.0]), tf.constant([3.0, 0.25]))),
    (integer_ops, (tf.constant([7, -7, 9]), tf.constant([2, 3, -4]))),
    (matmul, (tf.constant(RNG.standard_normal((2, 3)), tf.float32), MAT)),
    (float_to_int_casts, (tf.constant([1e10, -1e10, np.nan, np.inf, -2.5, 300.7, -129.5, 65537.0, 2147483648.0]),)),
    (reductions, (tf.constant([[1.0, -2.0, 3.5], [0.5, 4.0, -1.0]]), tf.constant([-7, 2, 4]))),
    (shapes, (tf.constant([[1, 2, 3], [4, 5, 6]]),)),
    (branchy, (tf.constant([1.0, 2.0]),)),
    (branchy, (tf.constant([-1.0, -2.0]),)),
    (collatz, (tf.constant(27),)),
    (while_with_break, (tf.constant(100),)),
    (while_with_break, (tf.constant(3),)),
    (capped_loop, (tf.constant(1.5),)),
    (fizzbuzz, (tf.constant(31),)),
    (nested_functions, (tf.zeros([1, 3]), tf.constant(RNG.standard_normal((3, 1, 3)), tf.float32), MAT)),
    (complex_numbers, (tf.constant([1.5, -2.0]), tf.constant([0.5, 3.0]))),
    (array_ops, (X23, tf.constant([1, 0, 1]))),
    (nn_ops, (X23, tf.constant([2, 0]))),
    (gradients, (X23, tf.constant([1, 1, 0]))),
    (indexes, (X23, tf.constant(1), tf.constant(-3), tf.constant(4))),
    (nd_ops, (X23, tf.constant([[1, 2], [0, 0]]))),
    (loop_over_empty, (X23,)),
]
IDS = [f"{fn.__name__}-{i}" for i, (fn, _) in enumerate(PROGRAMS)]


def _numpy(result):
    return [np.asarray(r) for r in (result if isinstance(result, (tuple, list)) else [result])]


@pytest.mark.parametrize("args", [
    (tf.constant(2), tf.constant(0), tf.constant(4)),      # x[2] of 2 rows
    (tf.constant(-3), tf.constant(0), tf.constant(4)),
    (tf.constant(0), tf.constant(3), tf.constant(4)),      # x[-1, 3] of 3 columns
    (tf.constant(1), tf.constant(-4), tf.constant(4)),
    (tf.constant(1), tf.constant(0), tf.constant(1)),      # tf.range(1)[1]
])
def test_an_index_out_of_range_is_the_executors_error_not_a_clamped_value(args):
    # XLA clamps an index out of range: x[5] of 3 items gave the last item under jit_compile, silently, where the
    # executor raises; each tensor index (and gather's, and sparse_softmax_cross_entropy's labels) is now a check
    with pytest.raises(tf.errors.InvalidArgumentError) as expected:
        tf.function(indexes)(X23, *args)
    with pytest.raises(tf.errors.InvalidArgumentError) as got:
        tf.function(indexes, jit_compile=True)(X23, *args)
    assert str(got.value).split("\n")[0] == str(expected.value).split("\n")[0]


def summed_rows(x, n):
    s = tf.zeros([3])
    for i in tf.range(n):
        s += x[i]
    return s


def test_an_index_out_of_range_inside_a_loop_is_an_error_without_its_value():
    # inside a loop the check reports no value (one carried through every iteration slowed a small loop body 1.8x)
    assert np.allclose(tf.function(summed_rows, jit_compile=True)(X23, tf.constant(2)), [3.5, -1.2, 1.3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="index 2 is out of bounds"):
        tf.function(summed_rows)(X23, tf.constant(3))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"an index is out of range for shape \[2, 3\] \(inside a loop under jit_compile=True"):
        tf.function(summed_rows, jit_compile=True)(X23, tf.constant(3))


def rows_of_a_static_range(x):
    s = tf.zeros([3])
    for i in tf.range(2):          # its values are known, all rows of x: no check (it cost a small loop 1.3x)
        s += x[i]
    for i in tf.range(3):          # one value past the rows: checked
        s += x[i]
    return s


def test_an_index_known_to_be_in_range_is_not_checked():
    from runtime.lowering.jax_checks import Checks
    concrete = tf.function(rows_of_a_static_range).get_concrete_function(X23)
    checks = Checks.of(concrete.graph)
    assert checks is not None and len(checks.ops) == 1 and checks.ops[0].type == "StridedSlice"   # range(3)'s
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of range for shape \\[2, 3\\]"):
        tf.function(rows_of_a_static_range, jit_compile=True)(X23)


@pytest.mark.parametrize("fn, args", [
    (lambda x, idx: tf.gather(x, idx, axis=1), (X23, tf.constant([0, 3]))),
    (lambda x, labels: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=x), (X23, tf.constant([1, 3]))),
    (nd_ops, (X23, tf.constant([[1, 3], [0, 0]]))),
    (nd_ops, (X23, tf.constant([[0, 0], [-1, 0]]))),
])
def test_gather_and_label_out_of_range_are_the_executors_errors(fn, args):
    with pytest.raises(tf.errors.InvalidArgumentError) as expected:
        tf.function(fn)(*args)
    with pytest.raises(tf.errors.InvalidArgumentError) as got:
        tf.function(fn, jit_compile=True)(*args)
    assert str(got.value).split("\n")[0] == str(expected.value).split("\n")[0]


@pytest.mark.parametrize("fn, args", PROGRAMS, ids=IDS)
def test_jit_compile_gives_the_executors_results(fn, args):
    expected = _numpy(tf.function(fn)(*args))
    got = _numpy(tf.function(fn, jit_compile=True)(*args))
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.shape == e.shape
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)


def test_variables_are_functional_state_read_and_written_as_the_executor_does():
    results = []
    for jit in (None, True):
        v, scale, step = counter_program()
        f = tf.function(step, jit_compile=jit)
        outs = [_numpy(f(tf.constant(n))) for n in (4, 3)]
        results.append((outs, v.numpy(), scale.numpy()))
    (outs_np, v_np, s_np), (outs_jax, v_jax, s_jax) = results
    assert v_np == v_jax == 9
    np.testing.assert_allclose(s_jax, s_np)
    for a, b in zip(outs_np, outs_jax):
        for x, y in zip(a, b):
            np.testing.assert_allclose(x, y)


def test_a_variable_changed_between_calls_is_read_fresh():
    v = tf.Variable(2.0)
    f = tf.function(lambda x: x * v, jit_compile=True)
    assert f(tf.constant(3.0)).numpy() == 6.0
    v.assign(5.0)
    assert f(tf.constant(3.0)).numpy() == 15.0


def test_prints_run_on_every_call_in_program_order(capsys):
    def shout(n):
        for i in tf.range(n):
            if i % 2 == 0:
                tf.print("even", i, output_stream=sys.stdout)
            else:
                tf.print("odd", i, output_stream=sys.stdout)
        return n
    tf.function(shout)(tf.constant(3))
    expected = capsys.readouterr().out
    f = tf.function(shout, jit_compile=True)
    f(tf.constant(3))
    f(tf.constant(3))
    assert expected == "even 0\nodd 1\neven 2\n"
    assert capsys.readouterr().out == expected * 2


def test_experimental_compile_is_jit_compile_and_none_keeps_the_executor():
    legacy = tf.function(lambda x: x + 1, experimental_compile=True)
    assert legacy(tf.constant(1)).numpy() == 2
    assert legacy.get_concrete_function(tf.constant(1)).executor_source().startswith("jax.jit")
    plain = tf.function(lambda x: x + 1)
    assert plain.get_concrete_function(tf.constant(1)).executor_source().startswith("def ")


def test_compiled_once_per_concrete_function():
    f = tf.function(lambda x: x * 2.0, jit_compile=True)
    f(tf.constant(1.0))
    concrete = f.get_concrete_function(tf.constant(1.0))
    executable = concrete._executable
    f(tf.constant(2.0))
    assert concrete._executable is executable
    assert executable._jitted._cache_size() == 1


def test_an_op_without_a_lowering_names_the_op_and_the_users_line():
    @tf.function(jit_compile=True)
    def masked(x):
        return tf.boolean_mask(x, x > 0)  # <- here

    with pytest.raises(LoweringError) as info:
        masked(tf.constant([1.0, -1.0]))
    message = str(info.value)
    assert "BooleanMask" in message and "jit_compile=None" in message
    assert f"{__file__}:" in message and "x > 0)  # <- here" in message
    assert isinstance(info.value, NotImplementedError)


def drawn(x, n):
    y = x + tf.random.uniform([3])
    for _ in tf.range(n):
        y += tf.random.normal([3], stddev=0.1)
    if tf.reduce_sum(x) > 0:   # drawn on the path taken only
        y += tf.cast(tf.random.uniform([3], 0, 10, dtype=tf.int32), tf.float32) + tf.random.normal([3], seed=7)
    return y


def test_random_draws_are_the_executors_draw_for_draw():
    results = []
    for jit in (None, True):
        tf.random.set_seed(3)
        f = tf.function(drawn, jit_compile=jit)
        got = [f(tf.constant(sign * np.ones(3, np.float32)), tf.constant(n)).numpy()
               for sign, n in ((1, 0), (-1, 2), (1, 5))]
        results.append([*got, tf.random.uniform([2]).numpy()])   # the generator's state after the calls
    for jitted, executed in zip(*results):
        np.testing.assert_array_equal(jitted, executed)
    assert not np.array_equal(results[0][0], results[0][2])   # each call draws anew


def test_no_random_draw_after_a_failed_check():
    def drawn_after_assert(x):
        tf.debugging.assert_positive(x)
        return tf.random.uniform([2], seed=11)

    states = []
    for jit in (None, True):
        tf.random.set_seed(5)
        with pytest.raises(tf.errors.InvalidArgumentError):
            tf.function(drawn_after_assert, jit_compile=jit)(tf.constant(-1.0))
        states.append(tf.random.uniform([2], seed=11).numpy())   # the same generator as the function's
    np.testing.assert_array_equal(states[0], states[1])


def test_a_random_shape_computed_in_the_function_is_a_lowering_error():
    f = tf.function(lambda n: tf.random.uniform(tf.stack([n])), jit_compile=True)
    with pytest.raises(LoweringError, match="RandomUniform's shape given as a tensor"):
        f(tf.constant(3))


def test_without_jax_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "jax", None)
    monkeypatch.delitem(sys.modules, "runtime.lowering.to_jax", raising=False)
    monkeypatch.delitem(sys.modules, "runtime.lowering.jax_executable", raising=False)
    monkeypatch.delitem(sys.modules, "runtime.lowering.jax_checks", raising=False)
    f = tf.function(lambda x: x + 1, jit_compile=True)
    with pytest.raises(ImportError, match=r"pip install 'autograph-runtime\[jax\]'"):
        f(tf.constant(1))


def test_a_gradient_tape_sees_a_jit_compiled_call():
    f = tf.function(lambda x: x * x * 3.0, jit_compile=True)
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert y.numpy() == 12.0
    assert tape.gradient(y, x).numpy() == 12.0


# --- checks (CheckDefined, Raise, Assert) and effects in a loop's condition ---------------------------

COUNTER = tf.Variable(0, name="counter")


def maybe_unassigned(n):
    i = tf.constant(0)
    while i < n:
        y = i * 2
        i += 1
    return y


def staged_raise(x):
    if x > 3:
        raise ValueError("too big", x)
    return x * 2


def asserting(x):
    tf.debugging.Assert(x < 3, [x, "x was"])
    return x + 1


def raise_in_loop(n):
    for i in tf.range(n):
        COUNTER.assign_add(1)
        if i == 2:
            raise KeyError(i)
        tf.print("step", i, output_stream=sys.stdout)
    return n


def raise_stops_a_while(n):
    i = tf.constant(0)
    while i < 100:
        i += 1
        if i > n:
            raise RuntimeError("past", i)
    return i


def assign_in_condition(n):
    return tf.while_loop(lambda i: COUNTER.assign_add(1) < n, lambda i: i + 1, [tf.constant(0)])


def assign_in_capped_condition(n):
    return tf.while_loop(lambda i: COUNTER.assign_add(1) < n, lambda i: i + 1, [tf.constant(0)],
                         maximum_iterations=3)


def read_in_condition(n):
    i = tf.constant(0)
    while i < n:
        last = i
        i += 1
    j = tf.constant(0)
    while j < last:   # a check in the second loop's condition
        j += 1
    return j


def overflow_in_condition(n):   # a Python int's checked arithmetic (pure, but a check) in a loop's condition
    s = 1
    i = tf.constant(0)
    while s * 3 < n:
        s = s * 2
        i += 1
    return i


def second_report_fails(x):   # the failing check's values come after another check's in the state
    if x > 100:
        raise ValueError("first", x)
    tf.debugging.Assert(x < 3, [x * 10, "ten times x"])
    return x


def integer_powers(n):   # XLA computed 2 ** -1 as 0 where the executor (and TensorFlow) raise
    r = tf.constant(0)
    for i in tf.range(3):
        r += tf.constant(2) ** (n - i)
    return r


R, OK = "raised", "returned"
CHECKED = [(maybe_unassigned, 3, OK), (maybe_unassigned, 0, R), (staged_raise, 2, OK), (staged_raise, 5, R),
           (asserting, 1, OK), (asserting, 5, R), (raise_in_loop, 2, OK), (raise_in_loop, 5, R),
           (raise_stops_a_while, 4, R), (raise_stops_a_while, 200, OK), (assign_in_condition, 5, OK),
           (assign_in_capped_condition, 5, OK), (assign_in_capped_condition, 2, OK), (read_in_condition, 3, OK),
           (read_in_condition, 0, R), (second_report_fails, 1, OK), (second_report_fails, 5, R),
           (overflow_in_condition, 10, OK), (overflow_in_condition, 2 ** 31 - 1, R), (integer_powers, 2, OK),
           (integer_powers, 1, R)]


def _outcome(fn, n, jit, capsys):
    COUNTER.assign(0)
    try:
        result = ("returned", _numpy(tf.function(fn, jit_compile=jit)(tf.constant(n))))
    except Exception as error:   # noqa: BLE001 - the error is the outcome compared
        result = ("raised", type(error), str(error), repr(error.args))
    return result, capsys.readouterr().out, COUNTER.numpy()


@pytest.mark.parametrize("fn, n, kind", CHECKED, ids=[f"{fn.__name__}-{n}" for fn, n, _ in CHECKED])
def test_checks_raise_the_executors_errors_on_the_path_taken(fn, n, kind, capsys):
    (expected, printed, counter), (got, jit_printed, jit_counter) = (
        _outcome(fn, n, jit, capsys) for jit in (None, True))
    assert expected[0] == got[0] == kind
    if got[0] == "raised":
        assert got[1:] == expected[1:]
    else:
        assert [a.tolist() for a in got[1]] == [a.tolist() for a in expected[1]]
    assert (jit_printed, jit_counter) == (printed, counter)   # no effect after the failed check


def test_a_reported_value_needs_a_static_shape():
    @tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None], tf.float32)])
    def unknown_length(x):
        if tf.reduce_sum(x) > 0:
            raise ValueError(x)
        return x

    with pytest.raises(LoweringError, match="no static shape"):
        unknown_length(tf.constant([1.0]))


# --- the short call path: repeated eager calls go straight to the compiled program -------------------------------

def _calls(f, args, times=3):
    """`f(*args)` `times` times: the first traces, the second takes the general path, the rest the short one."""
    return [f(*args) for _ in range(times)]


@pytest.mark.parametrize("fn, args", PROGRAMS, ids=IDS)
def test_repeated_calls_give_the_executors_results(fn, args):
    expected = tf.function(fn)(*args)
    calls = _calls(tf.function(fn, jit_compile=True), args)
    for result in calls:
        assert type(result) is type(expected)
        for g, e in zip(*(r if isinstance(r, tuple) else (r,) for r in (result, expected))):
            assert isinstance(g, EagerTensor) and g.dtype is e.dtype and g.shape == e.shape
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-5, atol=1e-6)


def test_the_short_path_is_taken_for_the_signature_of_the_last_call():
    f = tf.function(lambda x, y: (x * y, tf.cast(x, tf.int64)), jit_compile=True)
    x, y = tf.constant([1, 2]), tf.constant([3, 4])
    _calls(f, (x, y), 2)
    short = f._short_call
    assert short is not None
    product, cast = f(x, y)
    assert f._short_call is short and product.numpy().tolist() == [3, 8]
    assert cast.dtype is tf.int64 and cast.numpy().dtype == np.int64   # JAX's int32, cast as the executor does


def test_a_new_shape_dtype_or_python_value_retraces_and_gives_its_own_results():
    f = tf.function(lambda x, n=2: x * n, jit_compile=True)
    _calls(f, (tf.constant([1, 2]),))
    assert f(tf.constant([1, 2, 3])).numpy().tolist() == [2, 4, 6]
    assert f(tf.constant([1.5, 2.0])).numpy().tolist() == [3.0, 4.0]
    assert f(tf.constant([1, 2]), 3).numpy().tolist() == [3, 6]
    assert f(tf.constant([1, 2]), n=3).numpy().tolist() == [3, 6]
    assert f(np.array([1, 2], np.int32)).numpy().tolist() == [2, 4]
    assert f.experimental_get_tracing_count() == 4
    assert [t.numpy().tolist() for t in _calls(f, (tf.constant([5, 6]),))] == [[10, 12]] * 3


def test_a_tape_a_trace_and_run_functions_eagerly_see_the_call_as_before():
    ran = []

    def triple_square(x):
        ran.append(x)
        return x * x * 3.0

    f = tf.function(triple_square, jit_compile=True)
    x = tf.constant(2.0)
    _calls(f, (x,))
    assert f._short_call is not None and len(ran) == 1
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert y.numpy() == 12.0 and tape.gradient(y, x).numpy() == 12.0
    outer = tf.function(lambda x: f(x) + 1.0)
    assert outer(x).numpy() == 13.0 and outer(tf.constant(1.0)).numpy() == 4.0   # f staged in outer's graph
    tf.config.run_functions_eagerly(True)
    try:
        assert f(x).numpy() == 12.0 and len(ran) == 2 and ran[-1] is x   # traced once (outer reuses it), then run
    finally:
        tf.config.run_functions_eagerly(False)


def test_variables_are_read_and_written_on_every_short_call():
    v = tf.Variable(1.0)

    def bump(x):
        v.assign_add(x)
        return v * 2.0

    f = tf.function(bump, jit_compile=True)
    assert [t.numpy() for t in _calls(f, (tf.constant(1.0),), 4)] == [4.0, 6.0, 8.0, 10.0]
    v.assign(0.5)
    assert f(tf.constant(1.0)).numpy() == 3.0 and v.numpy() == 1.5


@pytest.mark.parametrize("fn, n, kind", CHECKED, ids=[f"{fn.__name__}-{n}" for fn, n, _ in CHECKED])
def test_checks_raise_on_the_short_path_as_on_the_first_call(fn, n, kind, capsys):
    expected = _outcome(fn, n, None, capsys)
    f = tf.function(fn, jit_compile=True)
    passing = next(m for g, m, k in CHECKED if g is fn and k == OK)
    _calls(f, (tf.constant(passing),), 2)   # a call that passes its checks makes the next ones short
    capsys.readouterr()
    if f.get_concrete_function(tf.constant(n))._returns_one_tensor:
        assert f._short_call is not None
    for _ in range(2):
        COUNTER.assign(0)
        try:
            result = ("returned", [a.tolist() for a in _numpy(f(tf.constant(n)))])
        except Exception as error:   # noqa: BLE001 - the error is the outcome compared
            result = ("raised", type(error), str(error), repr(error.args))
        assert result == (expected[0] if kind == R else ("returned", [a.tolist() for a in expected[0][1]]))
        assert (capsys.readouterr().out, COUNTER.numpy()) == expected[1:]   # no effect after a failed check


@pytest.mark.parametrize("dtype", [tf.int32, tf.int16, tf.int8, tf.uint8])
def test_a_float_to_int_cast_is_the_executors_where_it_does_not_fit(dtype):
    """NaN, inf and what doesn't fit 32 bits give the smallest int32, then wrap, as NumPy (and TensorFlow on x86):
    XLA saturated (inf to 2147483647, 300.7 to int8 127 where the executor gives 44)."""
    x = tf.constant([np.nan, np.inf, -np.inf, 3e9, -3e9, 300.7, -1.5, 2147483520.0])
    cast = lambda x: tf.cast(x, dtype)  # noqa: E731
    np.testing.assert_array_equal(tf.function(cast, jit_compile=True)(x).numpy(), tf.function(cast)(x).numpy())


def test_64_bit_types_compute_in_64_bits_and_32_bit_ones_keep_their_dtype():
    # JAX computes int64 and float64 in 32 bits unless its x64 mode is on: 3 * (2**40 + 3) gave 9 and float64
    # 1e300 * 1.0 overflowed to inf, silently; a graph with a 64-bit type now runs with x64 on for its calls
    @tf.function(jit_compile=True)
    def f(i, x, small):
        return i * 3, (x + 1e-12) - x, x * 1e300, small * 2, tf.argmax(tf.stack([x, x * 2.0]))
    args = (tf.constant(2 ** 40 + 3, tf.int64), tf.constant(1.0, tf.float64), tf.constant([5, -7]))
    for _ in range(2):    # the first call, then the short path
        big, tiny, huge, small, index = f(*args)
        assert big.dtype is tf.int64 and int(big) == 3 * (2 ** 40 + 3)
        assert tiny.dtype is tf.float64 and float(tiny) == (1.0 + 1e-12) - 1.0
        assert huge.dtype is tf.float64 and float(huge) == 1e300
        assert small.dtype is tf.int32 and small.numpy().dtype == np.int32 and small.numpy().tolist() == [10, -14]
        assert index.dtype is tf.int64 and index.numpy().dtype == np.int64 and int(index) == 1
