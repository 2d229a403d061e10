"""Undefined and None as values across staged statements (issue 14, item 1).

A variable undefined (or None) before a staged `if`/`while`/`for` and defined by it is carried as a
placeholder plus a defined flag (autograph/operators/maybe.py). Reading it where the flag is false raises at
run time Python's error on exactly the path where Python raises; at runtime.function's outputs it is its
value, None, or UnboundLocalError. Each program runs in Python and under runtime.function on both paths.
"""
import numpy as np
import pytest

import autograph as ag
import runtime as tf

pytestmark = pytest.mark.jit_twin   # every graph also runs under jit_compile=True (tests/jit_twin.py)


def run(fn, *args):
    """`fn(*args)` under runtime.function on tensors: ('value', numbers), ('none',) or ('error', type, message)."""
    try:
        out = tf.function(fn)(*(tf.constant(a) for a in args))
    except Exception as e:   # noqa: BLE001 - the error is the answer
        return ("error", type(e), str(e))
    return _plain(out)


def python(fn, *args):
    try:
        out = fn(*args)
    except Exception as e:   # noqa: BLE001
        return ("error", type(e), str(e))
    return _plain(out)


def _plain(out):
    if out is None:
        return ("none",)
    if isinstance(out, tuple):
        return ("value", tuple(_plain(v) for v in out))
    return ("value", np.asarray(out).tolist())


def agrees(fn, *args) -> tuple:
    """The graph's answer, checked against Python's (same value, None, or same error type)."""
    expected, got = python(fn, *args), run(fn, *args)
    if expected[0] == "error":
        assert got[0] == "error" and got[1] is expected[1], (expected, got)
    else:
        assert got == expected, (expected, got)
    return got


# --- a variable first assigned inside a staged loop ------------------------------------------------

def while_defines(n):
    i = tf.constant(0) if not isinstance(n, int) else 0
    while i < n:
        y = i * 2
        i += 1
    return y


def test_a_variable_first_assigned_in_a_staged_while_is_its_value_when_the_loop_ran():
    assert agrees(while_defines, 3) == ("value", 4)


def test_a_variable_first_assigned_in_a_staged_while_raises_unbound_when_the_loop_ran_zero_times():
    kind, error, message = agrees(while_defines, 0)
    assert error is UnboundLocalError
    line = while_defines.__code__.co_firstlineno + 2
    assert f"'y'" in message and f"test_staged_undefined.py:{line}" in message
    # the read is checked at the `return` that loads it, as Python raises there (it was at the function's output)
    assert "the loop ran zero times" in message and message.endswith("return y")


def for_defines_then_reads(n):
    for i in tf.range(n):
        square = i * i
    return square + 1


def test_a_read_after_the_loop_raises_at_the_read_with_its_line():
    assert agrees(for_defines_then_reads, 3) == ("value", 5)
    kind, error, message = agrees(for_defines_then_reads, 0)
    read = for_defines_then_reads.__code__.co_firstlineno + 3
    assert f"test_staged_undefined.py:{read}: cannot access local variable 'square'" in message
    assert "return square + 1" in message


def for_target_after(n):
    for i in tf.range(n):
        pass
    return i


def test_the_target_of_a_staged_for_is_defined_after_the_loop_only_if_it_ran():
    assert agrees(for_target_after, 4) == ("value", 3)
    assert agrees(for_target_after, 0)[1] is UnboundLocalError


# --- None before a staged statement -----------------------------------------------------------------

def none_then_loop(n):
    r = None
    for i in tf.range(n):
        r = i * 2
    return r


def test_none_before_a_staged_loop_is_none_when_it_ran_zero_times():
    assert agrees(none_then_loop, 3) == ("value", 4)
    assert agrees(none_then_loop, 0) == ("none",)


def none_then_loop_used(n):
    r = None
    for i in tf.range(n):
        r = i * 2
    return r + 1


def test_using_a_none_in_an_op_raises_type_error_at_run_time_naming_the_variable():
    assert agrees(none_then_loop_used, 3) == ("value", 5)
    kind, error, message = agrees(none_then_loop_used, 0)
    assert error is TypeError and "'r' is None" in message and "`+`" in message


def set_to_none_in_loop(n):
    r = tf.constant(-1)
    for i in tf.range(n):
        if i > 2:
            r = None
    return r


def test_a_tensor_set_to_none_inside_a_staged_loop():
    assert agrees(set_to_none_in_loop, 3) == ("value", -1)
    assert agrees(set_to_none_in_loop, 5) == ("none",)


# --- `if` ---------------------------------------------------------------------------------------------

def if_without_else(x):
    if x > 0:
        y = x * 2
    return y


def test_if_without_else_defines_the_variable_on_one_path():
    assert agrees(if_without_else, 3) == ("value", 6)
    kind, error, message = agrees(if_without_else, -1)
    assert error is UnboundLocalError and "took its false branch, which leaves it unassigned" in message


def read_in_an_untaken_branch(x):
    if x > 0:
        y = x * 2
    if x > -5:
        return 7
    return y + 1


def test_a_read_on_a_path_not_taken_does_not_raise():
    assert agrees(read_in_an_untaken_branch, -1) == ("value", 7)
    assert agrees(read_in_an_untaken_branch, 3) == ("value", 7)
    assert agrees(read_in_an_untaken_branch, -7)[1] is UnboundLocalError


def read_in_a_staged_branch(x):
    if x > 0:
        y = x * 2
    if x > 5:
        z = y + 1
    else:
        z = 0
    return z


def test_a_read_inside_a_staged_branch_is_checked_only_when_that_branch_runs():
    for x in (3, -1, 8):
        agrees(read_in_a_staged_branch, x)


def none_or_value(x):
    r = None
    if x > 0:
        r = x
    return r


def test_none_or_a_tensor_after_a_staged_if():
    assert agrees(none_or_value, 2) == ("value", 2)
    assert agrees(none_or_value, -2) == ("none",)


def set_in_one_branch(x):
    if x > 0:
        msg = {"positive"}   # a set: no graph value (a string would be a string tensor)
    return x, msg


def test_a_value_that_cannot_be_carried_is_a_clear_staging_error():
    kind, error, message = run(set_in_one_branch, 1.0)
    assert issubclass(error, ag.StagingError) and "'msg'" in message and "can't be carried" in message


# --- nested statements ----------------------------------------------------------------------------------

def if_inside_while(n):
    i = tf.constant(0)
    while i < n:
        if i > 1:
            y = i * 2
        i += 1
    return y + 1


def test_an_if_without_else_inside_a_staged_loop():
    assert agrees(if_inside_while, 4) == ("value", 7)
    kind, error, message = agrees(if_inside_while, 2)   # the loop ran, but never assigned it
    assert "no iteration of the loop assigned it" in message


def loop_inside_if(x, n):
    if x > 0:
        for i in tf.range(n):
            y = i
    return y


def test_a_loop_inside_a_staged_if():
    assert agrees(loop_inside_if, 1, 3) == ("value", 2)
    assert agrees(loop_inside_if, 1, 0)[1] is UnboundLocalError
    assert agrees(loop_inside_if, -1, 3)[1] is UnboundLocalError


def read_before_assignment_in_the_body(n):
    i = tf.constant(0)
    s = tf.constant(0)
    while i < n:
        if i > 0:
            s = s + y
        y = i
        i += 1
    return s


def test_a_read_in_the_body_before_the_body_assigns_it_is_a_clear_error():
    # its type is unknown when the body is traced (TensorFlow raises too): assign it before the loop
    kind, error, message = run(read_before_assignment_in_the_body, 4)
    assert issubclass(error, ag.StagingError) and "'y' is undefined before this loop" in message
    line = read_before_assignment_in_the_body.__code__.co_firstlineno + 3
    assert f"test_staged_undefined.py:{line}:" in message


def maybe_carried_into_another_loop(n, m):
    for i in tf.range(n):
        y = i
    j = tf.constant(0)
    while j < m:
        j += 1
    return y + j


def test_a_maybe_value_enters_another_staged_statement():
    assert agrees(maybe_carried_into_another_loop, 2, 3) == ("value", 4)
    assert agrees(maybe_carried_into_another_loop, 0, 3)[1] is UnboundLocalError


# --- returns: `return None`, and falling off the end, are one mechanism ---------------------------------

def return_none_in_loop(n):
    for i in tf.range(n):
        if i > 2:
            return None
    return i


def test_return_none_inside_a_staged_loop():
    assert agrees(return_none_in_loop, 3) == ("value", 2)
    assert agrees(return_none_in_loop, 5) == ("none",)
    assert agrees(return_none_in_loop, 0)[1] is UnboundLocalError


def falls_off(x):
    if x > 0:
        return x


def test_falling_off_the_end_on_a_staged_path_returns_none():
    assert agrees(falls_off, 3) == ("value", 3)
    assert agrees(falls_off, -3) == ("none",)


def uses_a_helper_that_may_return_none(x):
    y = falls_off(x)
    return y * 2


def test_a_helpers_none_used_in_an_op_is_a_type_error_at_run_time():
    assert agrees(uses_a_helper_that_may_return_none, 3) == ("value", 6)
    assert agrees(uses_a_helper_that_may_return_none, -3)[1] is TypeError


def return_in_loop_or_unbound(x):
    i = tf.constant(0)
    while i < x:
        if i > 2:
            return i
        y = i
        i += 1
    return y


def test_return_in_a_loop_and_an_unbound_variable_after_it():
    assert agrees(return_in_loop_or_unbound, 5) == ("value", 3)
    assert agrees(return_in_loop_or_unbound, 2) == ("value", 1)
    assert agrees(return_in_loop_or_unbound, 0)[1] is UnboundLocalError


# --- the seed example: seed 002, line_search_step ---------------------------------------------------------

def quadratic(x):
    return tf.reduce_sum((x - 1.0) * (x - 1.0))


def line_search_step(fn, init_x, rate=1.0):
    with tf.GradientTape() as tape:
        tape.watch(init_x)
        value = fn(init_x)
    grad = tape.gradient(value, init_x)
    grad_norm = tf.reduce_sum(grad * grad)
    init_value = value
    while value > init_value - rate * grad_norm:
        x = init_x - rate * grad
        value = fn(x)
        rate /= 2.0
    return x, value


def test_seed_002_line_search_step_runs_under_runtime_function_as_eagerly():
    init_x = tf.constant([3.0, -1.0])
    eager_x, eager_value = line_search_step(quadratic, init_x, tf.constant(1.0))
    graph_x, graph_value = tf.function(line_search_step)(quadratic, init_x, tf.constant(1.0))
    np.testing.assert_allclose(graph_x.numpy(), eager_x.numpy())
    np.testing.assert_allclose(graph_value.numpy(), eager_value.numpy())
    # at the minimum the gradient is zero, the loop runs zero times, and `x` is unbound, as in Python
    with pytest.raises(UnboundLocalError):
        line_search_step(quadratic, tf.constant([1.0, 1.0]), tf.constant(1.0))
    with pytest.raises(UnboundLocalError, match="'x'.*the loop ran zero times"):
        tf.function(line_search_step)(quadratic, tf.constant([1.0, 1.0]), tf.constant(1.0))
