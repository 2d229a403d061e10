"""`function(jit_compile=True)`: a table of graph-mode programs run by the NumPy executor and by JAX
(`runtime/lowering/to_jax.py`), the same values, printed lines and Variable updates both ways."""
import sys

import numpy as np
import pytest

import runtime as tf
from runtime.errors import LoweringError
from graph_programs import branchy, capped_loop, collatz, counter_program, fizzbuzz, while_with_break  # noqa: E402

pytest.importorskip("jax")


def arithmetic(x, y):
    return (x * 2.0 + y) / (y - 0.5) - tf.sqrt(tf.abs(x)) + tf.maximum(x, y) ** 2.0


def integer_ops(a, b):
    return a // b, a % b, -a // b, tf.cast(a, tf.float32) / tf.cast(b, tf.float32), a / b


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


RNG = np.random.default_rng(0)
MAT = tf.constant(RNG.standard_normal((3, 3)), tf.float32)
PROGRAMS = [
    (arithmetic, (tf.constant([1.5, -2.0]), tf.constant([3.0, 0.25]))),
    (integer_ops, (tf.constant([7, -7, 9]), tf.constant([2, 3, -4]))),
    (matmul, (tf.constant(RNG.standard_normal((2, 3)), tf.float32), MAT)),
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
]
IDS = [f"{fn.__name__}-{i}" for i, (fn, _) in enumerate(PROGRAMS)]


def _numpy(result):
    return [np.asarray(r) for r in (result if isinstance(result, (tuple, list)) else [result])]


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
    def listed(x):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)  # <- here
        for i in tf.range(3):
            ta = ta.write(i, x)
        return ta.stack()

    with pytest.raises(LoweringError) as info:
        listed(tf.constant(1.0))
    message = str(info.value)
    assert "TensorList" in message and "jit_compile=None" in message
    assert f"{__file__}:" in message and "dynamic_size=True)  # <- here" in message
    assert isinstance(info.value, NotImplementedError)


def test_without_jax_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "jax", None)
    monkeypatch.delitem(sys.modules, "runtime.lowering.to_jax", raising=False)
    monkeypatch.delitem(sys.modules, "runtime.lowering.jax_executable", raising=False)
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


R, OK = "raised", "returned"
CHECKED = [(maybe_unassigned, 3, OK), (maybe_unassigned, 0, R), (staged_raise, 2, OK), (staged_raise, 5, R),
           (asserting, 1, OK), (asserting, 5, R), (raise_in_loop, 2, OK), (raise_in_loop, 5, R),
           (raise_stops_a_while, 4, R), (raise_stops_a_while, 200, OK), (assign_in_condition, 5, OK),
           (assign_in_capped_condition, 5, OK), (assign_in_capped_condition, 2, OK), (read_in_condition, 3, OK),
           (read_in_condition, 0, R), (second_report_fails, 1, OK), (second_report_fails, 5, R),
           (overflow_in_condition, 10, OK), (overflow_in_condition, 2 ** 31 - 1, R)]


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
