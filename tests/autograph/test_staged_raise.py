"""A `raise` in a branch or loop body staged for a tensor condition is a graph op that raises, with the user's
exception type and arguments and a note naming the line, only when the graph runs that path (issue 14, item 5;
autograph/operators/staged_raise.py). Before, tracing raised it for every input."""
import os
import sys

import pytest

import autograph as ag
import runtime as tf
from autograph.errors import StagingError, UnsupportedCapabilityError

pytestmark = pytest.mark.jit_twin   # every graph also runs under jit_compile=True (tests/jit_twin.py)


def line_of(fn, offset: int) -> str:
    return f"{os.path.basename(fn.__code__.co_filename)}:{fn.__code__.co_firstlineno + offset}"


def graph_note(error) -> str:
    return "\n".join(getattr(error, "__notes__", ()))


def check_raises(fn, args, error_type, error_args, line: str):
    """`fn(*args)` raises error_type(*error_args) in Python and under runtime.function, where its note names `line`."""
    with pytest.raises(error_type) as python:
        fn(*args)
    with pytest.raises(error_type) as graph:
        tf.function(fn)(*[tf.constant(a) for a in args])
    assert python.value.args == error_args
    assert type(graph.value) is error_type and _values(graph.value.args) == error_args
    assert f"{line}: (autograph) raised when the graph ran this" in graph_note(graph.value)
    assert "raised while tracing" not in graph_note(graph.value)
    return graph.value


def _values(args: tuple) -> tuple:
    return tuple(a.numpy().item() if isinstance(a, tf.Tensor) else a for a in args)


def check_returns(fn, *args):
    expected = fn(*args)
    got = tf.function(fn)(*[tf.constant(a) for a in args])
    assert (got.numpy().item() if isinstance(got, tf.Tensor) else got) == expected, (got, expected)


# --- `if` -------------------------------------------------------------------------------------------------

def positive_raises(x):
    if x > 0:
        raise ValueError("positive")
    return x


def test_a_raise_in_a_staged_if_raises_only_on_the_path_taken():
    check_returns(positive_raises, -1)    # was ValueError: the branch was traced, and raised, for every input
    check_raises(positive_raises, (1,), ValueError, ("positive",), line_of(positive_raises, 2))


def test_the_graph_raises_each_time_it_runs_that_path():
    f = tf.function(positive_raises)
    for x in (1, -2, 3, -4, 5):
        if x > 0:
            with pytest.raises(ValueError, match="positive"):
                f(tf.constant(x))
        else:
            assert int(f(tf.constant(x))) == x
    assert len(f._concrete_functions if hasattr(f, "_concrete_functions") else [1]) >= 1
    assert "Raise" in [op.type for op in _all_ops(f.get_concrete_function(tf.constant(1)).graph)]


def _all_ops(graph):
    for op in graph.get_operations():
        yield op
        for _, sub in op.subgraphs():
            yield from _all_ops(sub)


def both_raise(x):
    if x > 0:
        raise ValueError("positive")
    else:
        raise TypeError("not positive")
    return x


def test_a_staged_if_whose_branches_all_raise_raises_whenever_it_runs():
    check_raises(both_raise, (1,), ValueError, ("positive",), line_of(both_raise, 2))
    check_raises(both_raise, (-1,), TypeError, ("not positive",), line_of(both_raise, 4))


def first_assigned_in_the_other_branch(x):
    if x > 0:
        raise ValueError("positive")
    else:
        y = tf.cast(x, tf.float32) * 0.5
        z = [x, x + 1]
    return y + tf.cast(z[1], tf.float32)


def test_the_raising_branch_gives_dead_placeholders_of_the_other_branchs_types():
    check_returns(first_assigned_in_the_other_branch, -4)   # was: 'y' assigned in only one branch
    check_raises(first_assigned_in_the_other_branch, (2,), ValueError, ("positive",),
                 line_of(first_assigned_in_the_other_branch, 2))


def returns_in_the_other_branch(x):
    if x > 0:
        raise ValueError("positive")
    else:
        return x * 3
    return x


def test_a_return_in_the_other_branch():
    check_returns(returns_in_the_other_branch, -2)
    check_raises(returns_in_the_other_branch, (2,), ValueError, ("positive",), line_of(returns_in_the_other_branch, 2))


def helper_that_checks(v):
    if v > 3:
        raise ValueError("too big", 3)
    return v * 2


def calls_a_converted_helper(x):
    return helper_that_checks(x) + 1


def test_a_raise_in_a_converted_helper_called_from_the_function():
    check_returns(calls_a_converted_helper, 1)
    check_raises(calls_a_converted_helper, (5,), ValueError, ("too big", 3), line_of(helper_that_checks, 2))


def asserts_in_a_branch(x):
    if x > 0:
        assert x is None, "no positives"   # a Python bool: False
    return x


def test_a_failing_python_assert_in_a_staged_branch_is_staged_too():
    check_returns(asserts_in_a_branch, -1)
    with pytest.raises(AssertionError) as info:   # (pytest rewrites the asserts of this file's plain functions)
        tf.function(asserts_in_a_branch)(tf.constant(1))
    assert info.value.args == ("no positives",)
    assert f"{line_of(asserts_in_a_branch, 2)}: (autograph) raised when the graph ran this `assert`" in \
        graph_note(info.value)


class CodedError(Exception):
    def __init__(self, code):
        super().__init__(f"code {code}")
        self.code = code


def raises_a_custom_error(x):
    if x > 0:
        raise CodedError(7)
    return x


def test_the_copy_keeps_the_type_args_and_attributes_without_calling_init_again():
    error = check_raises(raises_a_custom_error, (1,), CodedError, ("code 7",), line_of(raises_a_custom_error, 2))
    assert error.code == 7 and str(error) == "code 7"   # not "code code 7"


def raises_with_a_tensor(x):
    if x > 3:
        raise ValueError("x is", x)
    return x


def test_a_tensor_argument_of_the_exception_is_its_value_when_the_graph_runs():
    error = check_raises(raises_with_a_tensor, (5,), ValueError, ("x is", 5), line_of(raises_with_a_tensor, 2))
    assert isinstance(error.args[1], tf.Tensor) and int(error.args[1]) == 5


def test_raise_from_keeps_the_cause():
    def f(x):
        try:
            {}["k"]
        except KeyError as missing:
            if x > 0:
                raise ValueError("no k") from missing
        return x

    assert int(tf.function(f)(tf.constant(-1))) == -1
    with pytest.raises(ValueError, match="no k") as info:
        tf.function(f)(tf.constant(1))
    assert isinstance(info.value.__cause__, KeyError)


def test_a_variable_assigned_after_the_raise_is_not_assigned_on_the_raising_path():
    v = tf.Variable(0)

    @tf.function
    def f(x):
        v.assign_add(1)
        if x > 0:
            raise ValueError("positive")
        v.assign_add(10)
        return x

    f(tf.constant(-1))
    with pytest.raises(ValueError):
        f(tf.constant(1))
    assert int(v.numpy()) == 12


def in_a_conditional_expression(x):
    y = helper_that_checks(x + 4) if x > 0 else x * 3
    return y


def test_a_raise_in_an_operand_of_a_staged_conditional_expression():
    check_returns(in_a_conditional_expression, -2)
    check_raises(in_a_conditional_expression, (1,), ValueError, ("too big", 3), line_of(helper_that_checks, 2))


def test_a_python_error_in_an_operand_keeps_being_raised_while_tracing():
    def f(x):
        return {}["k"] if x > 5 else x * 2   # not a `raise`: no placeholder for it (was a silent 0 on the way)

    with pytest.raises(KeyError) as info:
        tf.function(f)(tf.constant(1))
    assert "(autograph) raised while tracing `if`/`else` on a tensor" in graph_note(info.value)


def test_a_python_error_in_a_branch_keeps_being_raised_while_tracing():
    def f(x):
        if x > 0:
            return {}["missing"]   # not a `raise` statement of the user's
        return x

    with pytest.raises(KeyError) as info:
        tf.function(f)(tf.constant(-1))
    assert "(autograph) raised while tracing this `if` on a tensor" in graph_note(info.value)


# --- loops ------------------------------------------------------------------------------------------------

def counts_to_five(n):
    s = 0
    i = 0
    while i < n:
        s += 1
        i += 1
        if s > 5:
            raise KeyError("big")
    return s


def test_a_raise_in_a_staged_while_loop():
    check_returns(counts_to_five, 2)
    check_raises(counts_to_five, (7,), KeyError, ("big",), line_of(counts_to_five, 7))


def raises_in_the_loop_body(n):
    i = 0
    while i < n:
        raise RuntimeError("ran")
    return i


def test_a_loop_body_that_always_raises_raises_only_if_it_runs():
    check_returns(raises_in_the_loop_body, 0)
    check_raises(raises_in_the_loop_body, (1,), RuntimeError, ("ran",), line_of(raises_in_the_loop_body, 3))


def prints_around_a_raise(n):
    t = 0
    for i in tf.range(n):
        t += i
        tf.print("before", t)
        if t > 3:
            raise RuntimeError("t > 3")
        tf.print("after", t)
    return t


def test_a_staged_for_loop_runs_the_effects_before_the_raise_and_none_after(capsys):
    f = tf.function(prints_around_a_raise)
    assert int(f(tf.constant(3))) == 3
    capsys.readouterr()
    with pytest.raises(RuntimeError, match=r"t > 3"):
        f(tf.constant(5))
    assert capsys.readouterr().err.split("\n") == [
        "before 0", "after 0", "before 1", "after 1", "before 3", "after 3", "before 6", ""]


def nested_in_a_loop(x, y):
    r = 0
    while x < 10:
        x += 1
        if y > 0:
            if x > 5:
                raise IndexError("deep", 1)
        r += 1
    return r


def test_a_raise_in_nested_ifs_inside_a_loop():
    check_returns(nested_in_a_loop, 0, 0)
    check_raises(nested_in_a_loop, (0, 1), IndexError, ("deep", 1), line_of(nested_in_a_loop, 6))


# --- a `try` (or `with`) around the statement --------------------------------------------------------------

def caught_by_the_functions_except(n):
    s = 0
    i = 0
    try:
        while i < n:
            s += 1
            i += 1
            if s > 5:
                raise KeyError("big")
    except KeyError:
        s = -1
    return s


def test_a_raise_that_an_except_around_the_statement_could_catch_is_refused():
    assert caught_by_the_functions_except(2) == 2 and caught_by_the_functions_except(7) == -1
    raise_line, except_line = line_of(caught_by_the_functions_except, 8), line_of(caught_by_the_functions_except, 9)
    with pytest.raises(ag.StagingError, match=rf"{raise_line}: this `raise` of KeyError .* inside a `try` whose "
                                              rf"`except` at {except_line} can catch it"):
        tf.function(caught_by_the_functions_except)(tf.constant(2))   # was -1 (caught while tracing), or KeyError


def test_an_except_that_cant_catch_it_lets_it_be_staged():
    def f(n):
        s = 0
        try:
            if n > 5:
                raise KeyError("big")
        except (ValueError, TypeError):
            s = -1
        return s

    assert int(tf.function(f)(tf.constant(2))) == 0
    with pytest.raises(KeyError):
        tf.function(f)(tf.constant(7))


def key_errors():
    return (KeyError,)


def bare_except(x):
    s = 0
    try:
        if x > 0:
            raise KeyError("k")
    except ValueError:
        s = -1
    except:  # noqa: E722 - the case tested
        s = -2
    return s


def computed_types(x):
    s = 0
    try:
        if x > 0:
            raise KeyError("k")
    except key_errors():
        s = -1
    return s


EXCEPT_FORMS = [bare_except, computed_types]
if sys.version_info >= (3, 11):   # `except*`
    from tests.autograph.staged_raise_except_star import except_star
    EXCEPT_FORMS.append(except_star)


@pytest.mark.parametrize("fn", EXCEPT_FORMS, ids=lambda f: f.__name__)
def test_an_except_that_may_catch_it_is_found_in_every_form(fn):
    with pytest.raises(ag.StagingError, match=rf"{line_of(fn, 4)}: this `raise` of KeyError .* `except` at "):
        tf.function(fn)(tf.constant(-1))


def test_an_except_that_only_raises_it_again_lets_it_be_staged():
    def f(x):
        done = False
        try:
            if x > 0:
                raise KeyError("k")
        except KeyError:
            done = True
            raise
        return done

    assert not bool(tf.function(f)(tf.constant(-1)))
    with pytest.raises(KeyError):
        tf.function(f)(tf.constant(1))   # was a StagingError: the except can catch it


def test_a_raise_in_a_helper_called_inside_the_callers_try_is_refused():
    def f(x):
        try:
            return helper_that_checks(x)
        except Exception:
            return -1

    assert f(5) == -1
    with pytest.raises(ag.StagingError, match=r"inside a `try` whose `except` at test_staged_raise.py:\d+ can catch"):
        tf.function(f)(tf.constant(1))


def test_a_finally_around_it_runs_and_lets_it_be_staged():
    def f(x):
        y = 0
        try:
            if x > 0:
                raise ValueError("positive")
            y = x
        finally:
            y = y + 1
        return y

    assert int(tf.function(f)(tf.constant(-3))) == -2
    with pytest.raises(ValueError, match="positive"):
        tf.function(f)(tf.constant(3))


class Suppress:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return True


def test_a_raise_inside_a_users_with_is_refused():
    def f(x):
        y = 1
        with Suppress():
            if x > 0:
                raise ValueError("positive")
            y = 2
        return y

    assert f(1) == 1
    with pytest.raises(ag.StagingError, match="inside the `with` at .*, whose context manager could suppress it"):
        tf.function(f)(tf.constant(1))


# --- backends that can't stage it --------------------------------------------------------------------------

def test_jax_refuses_a_staged_raise_with_a_clear_error():
    jax = pytest.importorskip("jax")
    with pytest.raises(UnsupportedCapabilityError, match=rf"{line_of(positive_raises, 2)}: `raise` in a branch"):
        jax.jit(ag.convert(positive_raises))(jax.numpy.int32(1))


def _check_three(v):
    if v % 3 == 0:
        raise ValueError(v)
    return v


def raise_in_an_and_operand_inside_a_staged_if(x, a, z):
    if x > 1:
        if (a < 2) and (_check_three(z) % 3 >= 1):
            return 1
    return 0


def test_a_raise_an_inner_operand_made_while_tracing_is_not_staged_as_the_branchs():
    # Python: a = 3 short-circuits the `and`, so check(0) never runs
    assert raise_in_an_and_operand_inside_a_staged_if(3, 3, 0) == 0
    # was: a Raise op for the whole branch, so ValueError(0) for a = 3; the `and` operand raised while tracing
    # (on every path), which is a clear error at its line
    with pytest.raises(ValueError) as info:
        tf.function(raise_in_an_and_operand_inside_a_staged_if)(tf.constant(3), tf.constant(3), 0)
    assert "(autograph) raised while tracing `and` on a tensor" in "\n".join(info.value.__notes__)


def raise_is_the_only_exit(x):
    while True:               # Python's test: tracing unrolls the loop; only the graph can end it
        x = x + 1
        if x > 5:
            raise ValueError("big")
    return x


def raise_or_python_stop(x):
    i = 0
    while i < 3:              # ends in Python: three unrolled iterations, each with its staged raise
        if x > i:
            raise ValueError(f"above {i}")
        i += 1
    return x


def test_a_while_true_whose_only_exit_is_a_staged_raise_is_refused_not_traced_forever():
    with pytest.raises(StagingError, match="test is a Python value that stays true.*would never finish"):
        tf.function(raise_is_the_only_exit)(tf.constant(1))


def test_an_unrolled_loop_with_a_staged_raise_that_python_ends_still_runs():
    f = tf.function(raise_or_python_stop)
    assert int(f(tf.constant(-1))) == -1
    with pytest.raises(ValueError, match="above 0"):
        f(tf.constant(1))
