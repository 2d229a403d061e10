"""Undefined and None across staged statements (test_staged_undefined.py, continued): what is kept out of the
graph, `is None` on the flag, reads in conditions and logical operators, function boundaries and gradients,
and reads the fuzzer found (unused reads, checks recorded before a trace fails, reads a user's `except` could
catch, `==` on None)."""
import pytest

import autograph as ag
import runtime as tf
from tests.autograph.test_staged_undefined import agrees, for_defines_then_reads

pytestmark = pytest.mark.jit_twin   # every graph also runs under jit_compile=True (tests/jit_twin.py)


# --- what is kept out of the graph ---------------------------------------------------------------------

def test_the_check_is_an_op_of_the_graph_where_the_variable_is_read():
    ops = [op.type for op in tf.function(for_defines_then_reads).get_concrete_function(
        tf.constant(1)).graph.get_operations()]
    assert ops.count("CheckDefined") == 1


def test_a_variable_defined_on_every_path_gets_no_flag():
    def f(n):
        y = tf.constant(0)
        for i in tf.range(n):
            y = i
        return y
    ops = [op.type for op in tf.function(f).get_concrete_function(tf.constant(1)).graph.get_operations()]
    assert "CheckDefined" not in ops and agrees(f, 0) == ("value", 0)


# --- `is None` sees the flag -----------------------------------------------------------------------------

def none_test_after_loop(n):
    r = None
    for i in tf.range(n):
        r = i * 2
    if r is None:
        return -1
    return r


def none_test_reversed(n):
    r = None
    for i in tf.range(n):
        r = i * 2
    return 1 if None is not r else 0


def test_is_none_on_a_variable_none_on_some_staged_paths():
    assert agrees(none_test_after_loop, 3) == ("value", 4)
    assert agrees(none_test_after_loop, 0) == ("value", -1)   # was 0: `is` saw the placeholder, never None
    assert agrees(none_test_reversed, 3) == ("value", 1)
    assert agrees(none_test_reversed, 0) == ("value", 0)


def is_none_of_unbound(n):
    for i in tf.range(n):
        y = i
    return y is None


def test_is_none_of_an_unbound_variable_raises_as_python_does():
    assert agrees(is_none_of_unbound, 2) == ("value", False)
    assert agrees(is_none_of_unbound, 0)[1] is UnboundLocalError


def test_is_none_keeps_python_semantics_on_python_values():
    def f(x):
        return x is None, None is x, x is not None
    converted = ag.convert(f)
    for x in (None, 0, [], "a"):
        assert converted.generated(x) == f(x)
    assert "ag__.is_none(x)" in ag.to_code(f) and "ag__.is_not_none(x)" in ag.to_code(f)


# --- reads in conditions and logical operators --------------------------------------------------------------

def maybe_as_if_condition(n):
    for i in tf.range(n):
        y = i
    if y:
        return 1
    return 0


def maybe_in_not_and_conditional_expression(n):
    for i in tf.range(n):
        y = i
    return 1 if not y else 0


def maybe_in_and(n):
    for i in tf.range(n):
        y = i
    return y and 5


def maybe_as_while_condition(n):
    for i in tf.range(n):
        y = i
    count = 0
    while y:
        y -= 1
        count += 1
    return count


@pytest.mark.parametrize("fn", [maybe_as_if_condition, maybe_in_not_and_conditional_expression, maybe_in_and,
                                maybe_as_while_condition])
def test_a_variable_defined_on_some_paths_in_conditions(fn):
    for n in (3, 1):
        assert agrees(fn, n)[0] == "value"
    assert agrees(fn, 0)[1] is UnboundLocalError


# --- function boundaries and gradients -------------------------------------------------------------------

@tf.function
def scaled_last(x, n):
    for i in tf.range(n):
        y = x * tf.cast(i, tf.float32)
    return y


def test_a_function_called_while_tracing_another_passes_the_flag_on():
    @tf.function
    def outer(x, n):
        return scaled_last(x, n) + 1.0
    assert float(outer(tf.constant(2.0), tf.constant(3))) == 5.0
    with pytest.raises(UnboundLocalError, match="'y'.*the loop ran zero times"):
        outer(tf.constant(2.0), tf.constant(0))


def test_gradients_pass_through_the_check():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scaled_last(x, tf.constant(3))
    assert float(tape.gradient(y, x)) == 2.0

    @tf.function
    def inside(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            for i in tf.range(n):
                y = x * x
            z = y * 3.0
        return tape.gradient(z, x)
    assert float(inside(x, tf.constant(2))) == 12.0
    with pytest.raises(UnboundLocalError):
        inside(x, tf.constant(0))


# --- a read whose result is never used still raises where Python does (found by the fuzzer) ---------------

def dead_read_of_none(n):
    r = None
    for i in range(n):
        r = i * 2
    z = 1 + r   # Python raises TypeError here when the loop ran zero times
    z = 5
    return z


def dead_read_of_unbound(n):
    if n > 0:
        w = n + 4
    z = n + w   # UnboundLocalError when n <= 0, even though z is overwritten
    z = n
    return z


def test_a_read_whose_value_is_unused_still_raises():
    assert agrees(dead_read_of_none, 3) == ("value", 5)
    assert agrees(dead_read_of_none, 0)[1] is TypeError          # was 5: the unused check was pruned
    assert agrees(dead_read_of_unbound, 2) == ("value", 2)
    assert agrees(dead_read_of_unbound, -1)[1] is UnboundLocalError


# --- a check recorded before the trace fails fires first, as Python raises the first error ----------------

def read_then_raise(b):
    y = 0
    if b > 0:
        w = b + 1
    y = y + w            # UnboundLocalError here when b <= 0 ...
    raise ZeroDivisionError(5)   # ... which Python raises before reaching this line


def test_a_check_before_an_error_raised_while_tracing_fires_first():
    assert agrees(read_then_raise, 1)[1] is ZeroDivisionError
    assert agrees(read_then_raise, -1)[1] is UnboundLocalError   # was ZeroDivisionError: tracing raised first


# --- a read the user's `except` could catch: the graph raises past it, so it is refused --------------------

def read_in_try(n):
    i = 0
    while i < n:
        y = i * 2
        i += 1
    try:
        z = y + 1          # Python: UnboundLocalError when the loop ran zero times, caught below
    except UnboundLocalError:
        z = -1
    return z


def test_a_read_inside_a_try_that_could_catch_its_error_is_refused():
    assert read_in_try(3) == 5 and read_in_try(0) == -1
    # was: UnboundLocalError escaping the function for n = 0 (the graph's check can't reach the except)
    with pytest.raises(ag.StagingError, match=r"this read of 'y' raises UnboundLocalError .* inside a `try`"):
        tf.function(read_in_try)(tf.constant(3))


def read_in_a_tape(x, n):
    with tf.GradientTape() as tape:   # a framework's context manager never suppresses: not refused
        tape.watch(x)
        for i in tf.range(n):
            y = x * tf.cast(i, tf.float32)
        z = y * 3.0
    return z


def test_a_read_inside_a_frameworks_with_is_staged():
    assert float(tf.function(read_in_a_tape)(tf.constant(2.0), tf.constant(3))) == 12.0
    with pytest.raises(UnboundLocalError):
        tf.function(read_in_a_tape)(tf.constant(2.0), tf.constant(0))


class _Suppress:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return True


def read_in_a_suppressing_with(n):
    z = 0
    with _Suppress():
        for i in range(n):
            w = i + 1
        z = z + w      # Python: UnboundLocalError for n == 0, swallowed by the with
        z = z + 10
    return z


def read_before_a_finally_that_raises(n):
    try:
        for i in range(n):
            w = i + 1
        z = w          # Python: UnboundLocalError for n == 0 ...
        z = z + w
    finally:
        raise ValueError("cleanup")   # ... replaced by this ValueError


def test_a_read_a_with_could_swallow_or_a_finally_replace_is_refused():
    assert read_in_a_suppressing_with(2) == 12 and read_in_a_suppressing_with(0) == 0
    # the refusal itself must not be swallowed by the with (was: 0 returned for every input)
    with pytest.raises(ag.StagingError, match="could suppress it"):
        tf.function(read_in_a_suppressing_with)(tf.constant(2))
    with pytest.raises(ValueError, match="cleanup"):
        read_before_a_finally_that_raises(0)
    with pytest.raises(ag.StagingError, match=r"`finally:` at .* may raise an exception of its own"):
        tf.function(read_before_a_finally_that_raises)(tf.constant(0))   # was UnboundLocalError


# --- `==` and `!=` are answered on None too, as Python does (found by the fuzzer, seed 2297) ---------------

def compared_with_none(a):
    r = None
    if a > 0:
        r = a + 3
    out = 0
    if r != 4:
        out += 1
    if r == 4:
        out += 10
    if r == None:  # noqa: E711 - Python's `==` on None, on purpose
        out += 100
    return out


def test_equality_on_a_variable_none_on_some_paths():
    for a in (-1, 1, 2):   # was TypeError for a = -1: `None != 4` is True in Python
        assert agrees(compared_with_none, a) == ("value", compared_with_none(a))


def read_before_a_finally_that_calls(n, b):
    r = None
    try:
        for i in range(n):
            r = i
        z = 1 + r           # TypeError for n == 0 ...
    finally:
        if b > 0:           # ... which a staged raise in the finally: replaces (Python raises ValueError)
            raise ValueError("finally")
    return z


def test_a_read_inside_a_try_whose_finally_may_raise_is_refused():
    with pytest.raises(ValueError, match="finally"):
        read_before_a_finally_that_calls(0, 1)
    with pytest.raises(TypeError):
        read_before_a_finally_that_calls(0, 0)
    # was TypeError for b = 1: the graph's check fired and the finally:'s staged raise never ran
    for b in (0, 1):
        with pytest.raises(ag.StagingError, match=r"`finally:` at .* may raise"):
            tf.function(read_before_a_finally_that_calls)(tf.constant(0), tf.constant(b))


def none_plus_unbound(a, n):
    r = None
    if a > 0:
        r = a
    for i in range(n):
        w = i
    return r + w      # Python loads `w` (UnboundLocalError) before it adds None (TypeError)


def test_operands_are_loaded_before_the_operation_fails():
    assert agrees(none_plus_unbound, -1, 0)[1] is UnboundLocalError   # was TypeError (found by the fuzzer)
    assert agrees(none_plus_unbound, -1, 2)[1] is TypeError
    assert agrees(none_plus_unbound, 2, 2) == ("value", 3)


def none_as_an_operand(a):
    r = None
    n = 0
    while n < 1 and a > 3:
        n += 1
        r = a + 3
    return r and r * 2, r or 7, not r


@pytest.mark.parametrize("a", [0, 5])
def test_a_value_none_on_some_paths_is_an_operand_of_and_or_not(a):
    """`None and x` is None, `None or x` is x, `not None` is True: None is a falsy operand, not an error (these
    raised 'None can't be used in `and`' on the path where the loop ran zero times; found by the fuzzer, seed
    40395)."""
    expected = none_as_an_operand(a)
    got = tf.function(none_as_an_operand)(tf.constant(a))
    assert [None if v is None else v.numpy().item() for v in got] == list(expected)
