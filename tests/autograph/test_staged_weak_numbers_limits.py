"""Values across staged statements (test_staged_weak_numbers.py, continued): the check at int32's limits, op by
op; weak numbers meeting floats; dtype errors that name the variable, where its dtype comes from, and the
right cast."""
from __future__ import annotations

import operator

import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError
from tests.autograph.test_staged_weak_numbers import times_three


# --- the check at int32's limits, op by op (the executor writes it inline: runtime/executor/codegen.py) ------

INT32_MAX, INT32_MIN = 2 ** 31 - 1, -2 ** 31
AT_THE_LIMITS = [   # (checked op, its arithmetic on the loop's Python int s, starting values of s: the first
    # gives exactly one of int32's limits, the others just past them)
    ("AddV2", lambda s: s + 1, [INT32_MAX - 1, INT32_MAX]),
    ("AddV2", lambda s: s + -1, [INT32_MIN + 1, INT32_MIN]),
    ("Sub", lambda s: s - 1, [INT32_MIN + 1, INT32_MIN]),
    ("Sub", lambda s: 1 - s, [INT32_MIN + 2, INT32_MIN + 1]),
    ("Mul", lambda s: s * 2, [-2 ** 30, -2 ** 30 - 1, 2 ** 30]),
    ("Mul", lambda s: s * -1, [INT32_MIN + 1, INT32_MIN]),
    ("Neg", lambda s: -s, [INT32_MIN + 1, INT32_MIN]),
    ("Abs", lambda s: abs(s), [INT32_MIN + 1, INT32_MIN]),
    ("Square", lambda s: square(s), [46340, 46341, -46341]),
    ("FloorDiv", lambda s: s // -1, [INT32_MIN + 1, INT32_MIN]),
    ("Pow", lambda s: s ** 2, [46340, 46341]),
    ("Pow", lambda s: 2 ** s, [30, 31]),
    ("Pow", lambda s: (-2) ** s, [31, 32, 33]),   # 33: past int32 on the negative side (no huge int computed)
]


def square(s):   # in Python too, for the expected value (`isinstance(s, int)` of the carried int is true in the trace)
    return tf.square(s) if hasattr(s, "dtype") else s * s


def apply_in_a_loop(arithmetic):
    def f(s, n):
        for _ in tf.range(n):
            s = arithmetic(s)
        return s

    return tf.function(f)


def exact_ops(fn, *args) -> list:
    """The `op` attributes of the ExactInt32 ops in `fn`'s graph and the graphs nested in it."""
    found, graphs = [], [fn.get_concrete_function(*args).graph]
    while graphs:
        for op in graphs.pop().get_operations():
            found += [op.attrs["arithmetic"]] if op.type == "ExactInt32" else []
            graphs += [v for v in op.attrs.values() if hasattr(v, "get_operations")]
    return found


@pytest.mark.parametrize("op, arithmetic, starts", AT_THE_LIMITS, ids=[f"{c[0]}-{i}" for i, c in
                                                                       enumerate(AT_THE_LIMITS)])
def test_each_checked_op_gives_int32s_limits_and_raises_just_past_them(op, arithmetic, starts):
    fn = apply_in_a_loop(arithmetic)
    fits, *past = starts
    assert exact_ops(fn, fits, tf.constant(1)) == [op]
    out = fn(fits, tf.constant(1))
    assert out.dtype == tf.int32 and type(out.numpy()) is np.int32
    assert int(out) == arithmetic(fits) in (INT32_MIN, INT32_MAX, 46340 ** 2, 2 ** 30)
    for start in past:
        value = arithmetic(start)
        shown = value if abs(value) < 2 ** 32 else 2 ** 31 if value > 0 else -2 ** 31 - 1   # a huge Pow: the first
        # value past int32 on its side (runtime/ops/python_ints.py `_power`)
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=rf"test_staged_weak_numbers_limits.py:\d+: 's' started as a Python int.*reaches {shown},"):
            fn(start, tf.constant(1))


def test_floordiv_and_pow_on_python_ints_raise_the_int32_kernels_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="FloorDiv: integer division by zero"):
        apply_in_a_loop(lambda s: 7 // s)(0, tf.constant(1))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Pow: integers to negative integer powers"):
        apply_in_a_loop(lambda s: 2 ** s)(-1, tf.constant(1))


def test_a_python_int_reaching_int32s_limit_in_a_staged_branch_is_checked():
    def f(s, n):
        i = 0
        while i < n:
            if i % 2 == 0:
                s = s + 2 ** 30
            i += 1
        return s

    traced = tf.function(f)
    assert int(traced(-1, tf.constant(3))) == f(-1, 3) == INT32_MAX       # two additions through the Cond
    assert int(traced(-2 ** 31, tf.constant(4))) == f(-2 ** 31, 4) == 0
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"'s' started as a Python int.*reaches 2147483648,"):
        traced(0, tf.constant(3))


def test_a_python_int_reaching_int32s_limit_in_a_nested_loop_is_checked():
    def f(n):
        s = INT32_MAX - 6
        for _ in tf.range(n):
            j = 0
            while j < n - 1:
                s += 1
                j += 1
        return s

    traced = tf.function(f)
    assert sorted(exact_ops(traced, tf.constant(1))) == ["AddV2", "AddV2"]    # s and j, in the inner While
    assert int(traced(tf.constant(3))) == f(3) == INT32_MAX   # 3 x 2 additions
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"'s' started as a Python int.*reaches 2147483648,"):
        traced(tf.constant(4))


@pytest.mark.parametrize("after, fits, past", [
    (lambda s: s + 1, INT32_MAX - 1, INT32_MAX),
    (lambda s: -s, INT32_MIN + 1, INT32_MIN),
    (lambda s: s * s, -46340, -46341),
])
def test_the_python_int_after_the_loop_is_checked_at_int32s_limits(after, fits, past):
    def f(s, n):
        for _ in tf.range(n):
            s = s + 0
        return after(s)

    traced = tf.function(f)
    assert int(traced(fits, tf.constant(2))) == after(fits)
    with pytest.raises(tf.errors.InvalidArgumentError, match=rf"'s' started as a Python int.*reaches {after(past)},"):
        traced(past, tf.constant(2))


def test_a_python_int_read_by_other_ops_in_the_loop_is_an_int32_tensor():
    def f(n):
        s = 0
        total = tf.constant(0.0)
        i = 0
        while i < n and s < 100:
            s += i
            total += tf.cast(s, tf.float32) + tf.cast(tf.maximum(s, 3), tf.float32)
            i += 1
        return s, total, tf.stack([s, i])

    s, total, stacked = tf.function(f)(tf.constant(20))
    want = f(20)
    assert (int(s), float(total), stacked.numpy().tolist()) == (int(want[0]), float(want[1]), [105, 15])
    assert stacked.dtype == s.dtype == tf.int32


def test_under_jit_compile_a_python_int_is_checked_as_on_the_executor():
    pytest.importorskip("jax")
    traced = tf.function(times_three, jit_compile=True)
    assert int(traced(tf.constant(19))) == 3 ** 19
    with pytest.raises(InvalidArgumentError, match=r"'s' started as a Python int.*here it reaches 3486784401"):
        traced(tf.constant(20))   # XLA's int32 would wrap to -808182895


@pytest.mark.parametrize("op, x, y", [("AddV2", 2 ** 31 - 1, 1), ("AddV2", -2 ** 31, -1), ("AddV2", 2 ** 30, 2 ** 30 - 1),
                                      ("Sub", -2 ** 31, 1), ("Sub", 0, -2 ** 31), ("Sub", -1, 2 ** 31 - 1),
                                      ("Mul", 46341, 46341), ("Mul", -46341, 46340), ("Mul", -1, -2 ** 31),
                                      ("Mul", -2 ** 31, -1), ("Mul", 2, -2 ** 30), ("Mul", 65536, 32768),
                                      ("Neg", -2 ** 31, 0), ("Neg", 2 ** 31 - 1, 0), ("Abs", -2 ** 31, 0),
                                      ("Square", 46340, 0), ("Square", -46341, 0), ("FloorDiv", -2 ** 31, -1),
                                      ("FloorDiv", 7, 0), ("FloorDiv", -7, 2), ("Pow", -2, 31), ("Pow", 2, 31),
                                      ("Pow", 3, 19), ("Pow", 3, 20), ("Pow", -1, 2 ** 31 - 1),
                                      ("Pow", 0, 0), ("Pow", 46341, 2), ("Pow", 7, 11), ("Pow", 7, 12)])
def test_jit_compiles_each_checked_op_with_the_executors_answer_or_error(op, x, y):
    """ExactInt32 under XLA (runtime/lowering/jax_checks.py `_INT32_FAILS`) against the executor, at int32's edges."""
    pytest.importorskip("jax")
    form = {"AddV2": operator.add, "Sub": operator.sub, "Mul": operator.mul, "FloorDiv": operator.floordiv,
            "Pow": operator.pow, "Neg": operator.neg, "Abs": abs, "Square": tf.math.square}[op]
    operands = () if op in ("Neg", "Abs", "Square") else (y,)

    def once(n):
        s = x
        for _ in tf.range(n):
            s = form(s, *operands)
        return s

    outcomes = []
    for jit in (None, True):
        try:
            outcomes.append(("value", int(tf.function(once, jit_compile=jit)(tf.constant(1)))))
        except InvalidArgumentError as error:
            outcomes.append(("error", str(error)))
    assert outcomes[0] == outcomes[1]
    graph = tf.function(once).get_concrete_function(tf.constant(1)).graph
    assert "ExactInt32" in str(graph)


# --- weak numbers meeting floats --------------------------------------------------------------------------------

def test_a_python_int_meeting_a_python_float_becomes_a_float():
    def halves(n):
        s = 0
        for _ in tf.range(n):
            s = s + 0.5
        return s

    out = tf.function(halves)(tf.constant(3))
    assert out.dtype == tf.float64 and float(out) == halves(3) == 1.5   # a Python float: a double


def test_a_python_int_assigned_a_float_in_a_staged_branch_becomes_a_float():
    def f(n):
        s = 0
        for i in tf.range(n):
            if i > 1:
                s = tf.cast(i, tf.float32)
        return s

    out = tf.function(f)(tf.constant(4))
    assert out.dtype == tf.float32 and float(out) == 3.0


# --- dtype errors name the variable, where its dtype comes from, and the right cast -------------------------------

def test_a_dtype_error_on_a_loop_variable_names_it_and_the_cast_that_fixes_it():
    def f(n):
        s = tf.constant(0)
        for i in tf.range(n):
            s = s + tf.cast(i, tf.float32) * 0.5
        return s

    with pytest.raises(tf.errors.InvalidArgumentError) as caught:
        tf.function(f)(tf.constant(3))
    message = str(caught.value)
    assert "'s' is int32: it is int32 when the loop at" in message
    assert "s = runtime.cast(s, runtime.float32) before the loop" in message
    assert "runtime.cast(x, runtime.int32)" not in message                 # the old wrong-way advice
    assert "test_staged_weak_numbers_limits.py" in message and "s = s + tf.cast(i, tf.float32) * 0.5" in message


def test_a_dtype_error_on_a_python_number_says_where_it_got_its_dtype():
    def f(n):
        s = 0.5
        for i in tf.range(n):
            s = s + i
        return s

    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"'s' is float32: it is the Python float 0.5 before the loop at .*\d+, which the loop "
                             r"carries as float32.*runtime.cast\(<the int32 operand>, runtime.float32\)"):
        tf.function(f)(tf.constant(3))


def test_a_dtype_error_outside_loops_advises_the_widening_cast():
    @tf.function
    def f(x, y):
        return x + y

    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute with int32 and float32.*runtime.cast\(<the int32 operand>, "
                             r"runtime.float32\)"):
        f(tf.constant(1), tf.constant(2.0))


def test_the_exact_int32_kernel_on_scalars_and_arrays():
    import numpy as np

    from runtime.ops.python_ints import EXACT_INT32

    def run(*values, op):
        return EXACT_INT32.kernel(*values, arithmetic=op, variable="s", where="f.py:1")

    assert run(np.int32(2 ** 30), np.int32(-1), op="Mul") == -2 ** 30
    assert run(np.int32(3), np.int32(19), op="Pow") == 3 ** 19
    assert run(np.array([1, 2], np.int32), np.int32(3), op="Mul").tolist() == [3, 6]
    with pytest.raises(tf.errors.InvalidArgumentError, match="reaches 2147483648"):
        run(np.int32(-2 ** 31), op="Neg")
    with pytest.raises(tf.errors.InvalidArgumentError, match="reaches 3000000000"):
        run(np.array([1, 1000], np.int32), np.int32(3000000), op="Mul")
    with pytest.raises(tf.errors.InvalidArgumentError, match="'s' started as a Python int"):
        run(np.int32(3), np.int32(10 ** 9), op="Pow")     # decided without computing 3 ** 10 ** 9
    with pytest.raises(tf.errors.InvalidArgumentError, match="division by zero"):
        run(np.int32(3), np.int32(0), op="FloorDiv")
