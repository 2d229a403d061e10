"""if_stmt / while_stmt / for_stmt / if_exp: exact Python semantics on Python
values, dispatch to a (toy) backend on staged values, and the checks.

The tests call the operators as generated code does: the variables live in an
enclosing function, the branch/body/test functions take no arguments (a `for`
body takes the item), assign them through `nonlocal` and return nothing, and
the tests read the variables after the operator returns (None)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from autograph import operators as ag
from autograph.errors import StagingError
from autograph import backends
from tests.autograph.operators.conftest import Recorder, Toy, make_backend

values = st.one_of(st.integers(-3, 3), st.booleans(), st.just(None), st.just(""), st.just([]),
                   st.just([0]), st.floats(-2, 2, allow_nan=False))


def _unbound(read) -> bool:
    """Whether `read()` (a read of a local variable) finds it unbound."""
    try:
        read()
    except NameError:        # UnboundLocalError, or NameError for a free variable
        return True
    return False


# --- Python values ---------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(pred=values, x0=st.integers(-5, 5))
def test_if_stmt_matches_python_if(pred, x0):
    log = []
    x = x0

    def true_fn():
        nonlocal x
        log.append("t")
        x = x + 1

    def false_fn():
        nonlocal x
        log.append("f")
        x = x - 1

    expected_log = []
    expected = (expected_log.append("t") or x0 + 1) if pred else (expected_log.append("f") or x0 - 1)
    assert ag.if_stmt(pred, true_fn, false_fn, ("x",)) is None
    assert x == expected and log == expected_log


def test_if_stmt_leaves_the_values_in_the_variables():
    """What the old protocol returned (nothing, one value, a tuple) is now in the variables themselves."""
    a, b = 1, 2

    def swap():
        nonlocal a, b
        a, b = b, a

    def keep():
        pass

    assert ag.if_stmt(True, keep, keep) is None                       # no variables
    assert ag.if_stmt(False, keep, swap, ("a", "b")) is None and (a, b) == (2, 1)
    assert ag.if_stmt(True, keep, swap, ("a", "b")) is None and (a, b) == (2, 1)


def test_if_stmt_on_python_values_leaves_a_variable_unbound_when_the_branch_taken_does_not_assign_it():
    y: int

    def true_fn():
        nonlocal y
        y = 1

    def false_fn():
        pass

    ag.if_stmt(False, true_fn, false_fn, ("y",))
    assert _unbound(lambda: y)
    ag.if_stmt(True, true_fn, false_fn, ("y",))
    assert y == 1


@settings(max_examples=40, deadline=None)
@given(n=st.integers(-2, 12), step=st.integers(1, 4))
def test_while_stmt_matches_python_while(n, step):
    def original(n):
        log, i, s = [], 0, 0
        while (log.append(("test", i)) or True) and i < n:
            log.append(("body", i))
            s, i = s + i, i + step
        return i, s, log

    log = []
    i, s = 0, 0

    def test():
        log.append(("test", i))
        return i < n

    def body():
        nonlocal i, s
        log.append(("body", i))
        i, s = i + step, s + i

    assert ag.while_stmt(test, body, ("i", "s")) is None
    assert (i, s, log) == original(n)


def test_while_stmt_one_and_zero_state_variables():
    x = 1

    def triple():
        nonlocal x
        x = x * 3

    assert ag.while_stmt(lambda: x < 100, triple, ("x",)) is None and x == 243
    box = [0]

    def body():
        box[0] += 1

    assert ag.while_stmt(lambda: box[0] < 4, body) is None and box == [4]


@settings(max_examples=40, deadline=None)
@given(items=st.lists(st.integers(-5, 5), max_size=8), stop_at=st.integers(-5, 5))
def test_for_stmt_with_extra_test_matches_break(items, stop_at):
    def original():
        seen, total = [], 0
        for x in items:
            seen.append(x)
            total += x
            if x == stop_at:
                break
        return seen, total, stop_at in items

    seen = []
    total, stop = 0, False

    def body(x):
        nonlocal total, stop
        seen.append(x)
        total = total + x
        stop = x == stop_at

    assert ag.for_stmt(items, body, ("total", "stop"), extra_test=lambda: not stop) is None
    assert (seen, total, stop) == original()


def test_for_stmt_consumes_any_python_iterable_lazily():
    pulled = []

    def gen():
        for i in range(5):
            pulled.append(i)
            yield i

    s = 0

    def add(i):
        nonlocal s
        s = s + i

    ag.for_stmt(gen(), add, ("s",), extra_test=lambda: s < 3)
    # extra_test (a lowered `break`) is checked after each iteration, before the next item is pulled: the
    # loop stops at s == 3 without pulling 3, as `for i in gen(): s += i; if not s < 3: break` does. (The
    # old protocol checked it after pulling, and pulled [0, 1, 2, 3].)
    assert s == 3 and pulled == [0, 1, 2]
    s = ""
    ag.for_stmt({"a": 1, "b": 2}, add, ("s",))
    assert s == "ab"


def test_for_stmt_with_extra_test_stops_before_asking_the_iterator_for_another_item():
    it = iter([1, 2, 3, 4])
    seen = []
    break_ = False

    def body(x):
        nonlocal break_
        seen.append(x)
        if x == 2:
            break_ = True

    ag.for_stmt(it, body, ("break_",), extra_test=lambda: not break_)
    assert seen == [1, 2] and break_ and list(it) == [3, 4]
    # as Python's own loop does
    it = iter([1, 2, 3, 4])
    for x in it:
        if x == 2:
            break
    assert list(it) == [3, 4]


def test_for_stmt_whose_extra_test_is_false_at_the_start_takes_no_item():
    it = iter([1, 2])
    ag.for_stmt(it, lambda x: pytest.fail("body ran"), extra_test=lambda: False)
    assert list(it) == [1, 2]


def test_an_exception_in_a_body_on_python_values_keeps_the_assignments_made_before_it():
    x, n, total = 0, 0, 0

    def true_fn():
        nonlocal x
        x = 1
        raise ValueError("if")

    with pytest.raises(ValueError, match="if"):
        ag.if_stmt(True, true_fn, lambda: None, ("x",))
    assert x == 1

    def while_body():
        nonlocal n
        n += 1
        if n == 3:
            raise ValueError("while")

    with pytest.raises(ValueError, match="while"):
        ag.while_stmt(lambda: n < 10, while_body, ("n",))
    assert n == 3

    def for_body(item):
        nonlocal total
        total += item
        if item == 2:
            raise ValueError("for")

    with pytest.raises(ValueError, match="for"):
        ag.for_stmt([1, 2, 3], for_body, ("total",))
    assert total == 3
    with pytest.raises(ValueError, match="for"):
        ag.for_stmt([10, 2, 3], for_body, ("total",), extra_test=lambda: True)
    assert total == 15


def test_python_values_ignore_outer():
    """`outer` only matters to a staged statement: Python's own statement assigns the outer variable."""
    g = 0

    def converted():
        nonlocal g

        def true_fn():
            nonlocal g
            g = 1

        def while_body():
            nonlocal g
            g += 1

        def for_body(item):
            nonlocal g
            g += item

        ag.if_stmt(True, true_fn, lambda: None, (), outer=("g",))
        ag.while_stmt(lambda: g < 3, while_body, outer=("g",))
        ag.for_stmt([10], for_body, outer=("g",))
        ag.for_stmt([100], for_body, outer=("g",), extra_test=lambda: True)

    converted()
    assert g == 113


@settings(max_examples=30, deadline=None)
@given(pred=values)
def test_if_exp_matches_python(pred):
    calls = []
    out = ag.if_exp(pred, lambda: calls.append("t") or 1, lambda: calls.append("f") or 2, "1 if p else 2")
    assert out == (1 if pred else 2) and calls == (["t"] if pred else ["f"])


# --- staged values: dispatch through the backend ---------------------------------------------

def test_if_stmt_on_a_staged_pred_calls_cond_with_state(toy):
    x, y = Toy(5), 7

    def true_fn():
        nonlocal x
        x = x + 1

    def false_fn():
        nonlocal x, y
        x = x - 1
        y = y * 2

    assert ag.if_stmt(Toy(True), true_fn, false_fn, ("x", "y")) is None
    assert toy.names() == ["cond"] and x.value == 6 and y == 7


def test_if_exp_on_a_staged_pred_calls_cond(toy):
    assert ag.if_exp(Toy(False), lambda: 1, lambda: 2, "1 if p else 2") == 2
    assert toy.names() == ["cond"]


def test_while_stmt_staged_from_the_first_test(toy):
    x = Toy(1)

    def body():
        nonlocal x
        x = x + 3

    assert ag.while_stmt(lambda: x < 10, body, ("x",), opts={"maximum_iterations": 9}) is None
    assert x.value == 10 and toy.calls == [("while_loop", {"maximum_iterations": 9})]


def test_while_stmt_that_becomes_staged_later_hands_over_to_the_backend(toy):
    # First test is a Python bool; the body makes the state a staged value.
    x = 0

    def body():
        nonlocal x
        x = Toy(_val(x)) + 1

    ag.while_stmt(lambda: x < 5, body, ("x",))
    assert _val(x) == 5 and toy.names() == ["while_loop"]


def _val(x):
    return x.value if isinstance(x, Toy) else x


def test_for_stmt_over_a_staged_iterable(toy):
    s = Toy(0)

    def body(item):
        nonlocal s
        s = s + item

    assert ag.for_stmt(Toy([1, 2, 3]), body, ("s",)) is None
    assert s.value == 6 and toy.names() == ["for_loop"]


def test_for_stmt_over_range_with_staged_bounds(toy):
    s = Toy(0)

    def body(i):
        nonlocal s
        s = s + i

    ag.for_stmt(ag.range_(Toy(4)), body, ("s",))
    assert s.value == 6 and toy.names() == ["range", "for_loop"]


def test_a_python_range_whose_break_becomes_staged_stages_the_rest_of_the_loop(toy):
    s = 0

    def body(i):
        nonlocal s
        s = Toy(_val(s)) + i

    ag.for_stmt(range(5), body, ("s",), extra_test=lambda: s < 3)
    # 0 runs in Python; the test on Toy(0) is staged: range(1, 5) through the backend, stopping at s == 3
    assert s.value == 3 and toy.names() == ["range", "for_loop"] and toy.calls[0] == ("range", (1, 5, 1))


def test_python_lists_in_loop_state_become_backend_lists_stacked_after_the_loop(toy):
    acc = []

    def body(i):
        nonlocal acc
        acc = ag.list_append(acc, i)

    ag.for_stmt(Toy([1, 2]), body, ("acc",))
    assert isinstance(acc, Toy) and acc.value == [1, 2]
    assert toy.names()[-1] == "list_stack"


def test_a_backend_without_tensor_lists_judges_python_lists_changing_length_itself():
    backends.register_backend(make_backend(Recorder(), list_from=None, list_types=()))
    try:
        acc = []

        def body(x):
            nonlocal acc
            acc = acc + [x]

        ag.for_stmt(Toy([1, 2]), body, ("acc",))
        assert [x.value for x in acc] == [1, 2]
        acc = ()

        def grow_tuple(x):
            nonlocal acc
            acc = acc + (x,)

        with pytest.raises(StagingError, match="'acc' is a tuple of 0 when an iteration .* but a tuple of 1"):
            ag.for_stmt(Toy([1, 2]), grow_tuple, ("acc",))
        assert acc == ()
    finally:
        backends.unregister_backend("toy")


def test_eager_values_of_a_framework_are_never_claimed(toy):
    class Eager:
        def __bool__(self):
            return True

    taken = None

    def true_fn():
        nonlocal taken
        taken = "t"

    def false_fn():
        nonlocal taken
        taken = "f"

    ag.if_stmt(Eager(), true_fn, false_fn, ("taken",))
    assert taken == "t" and toy.calls == []


def test_a_staged_statement_writes_only_the_named_variables_back(toy):
    """Tracing runs the functions, which assign the shared variables: one not named (a temporary nothing
    reads afterwards) gets its value back, a named one gets the staged result."""
    x, tmp = Toy(1), "before"

    def true_fn():
        nonlocal x, tmp
        tmp = "true"
        x = x + 1

    def false_fn():
        nonlocal x, tmp
        tmp = "false"
        x = x - 1

    ag.if_stmt(Toy(False), true_fn, false_fn, ("x",))
    assert x.value == 0 and tmp == "before"


_toy_total = None


def test_a_staged_statement_carries_a_global_named_in_names(toy):
    global _toy_total
    _toy_total = Toy(0)

    def body(item):
        global _toy_total
        _toy_total = _toy_total + item

    try:
        ag.for_stmt(Toy([1, 2, 3]), body, ("_toy_total",))
        assert _toy_total.value == 6 and toy.names() == ["for_loop"]
    finally:
        _toy_total = None
