"""if_stmt / while_stmt / for_stmt / if_exp: exact Python semantics on Python
values, dispatch to a (toy) backend on staged values, and the checks."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from autograph import operators as ag
from autograph.errors import StagingError, UnsupportedCapabilityError
from autograph import backends
from tests.autograph.operators.conftest import Recorder, Toy, ToyList, make_backend

values = st.one_of(st.integers(-3, 3), st.booleans(), st.just(None), st.just(""), st.just([]),
                   st.just([0]), st.floats(-2, 2, allow_nan=False))


# --- Python values ---------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(pred=values, x=st.integers(-5, 5))
def test_if_stmt_matches_python_if(pred, x):
    log = []

    def true_fn(x):
        log.append("t")
        return x + 1

    def false_fn(x):
        log.append("f")
        return x - 1

    expected_log = []
    expected = (expected_log.append("t") or x + 1) if pred else (expected_log.append("f") or x - 1)
    assert ag.if_stmt(pred, true_fn, false_fn, (x,), ("x",)) == expected
    assert log == expected_log


def test_if_stmt_result_arity():
    assert ag.if_stmt(True, lambda: None, lambda: None, (), ()) is None
    assert ag.if_stmt(False, lambda a, b: (a, b), lambda a, b: (b, a), (1, 2), ("a", "b")) == (2, 1)


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

    def test(i, s):
        log.append(("test", i))
        return i < n

    def body(i, s):
        log.append(("body", i))
        return i + step, s + i

    i, s = ag.while_stmt(test, body, (0, 0), ("i", "s"))
    assert (i, s, log) == original(n)


def test_while_stmt_one_and_zero_state_variables():
    assert ag.while_stmt(lambda x: x < 100, lambda x: x * 3, (1,), ("x",)) == 243
    box = [0]

    def body():
        box[0] += 1

    assert ag.while_stmt(lambda: box[0] < 4, body, (), ()) is None and box == [4]


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
        return seen, total

    seen = []

    def body(x, total, stop):
        seen.append(x)
        return total + x, x == stop_at

    total, stop = ag.for_stmt(items, body, (0, False), ("total", "stop"), extra_test=lambda total, stop: not stop)
    assert (seen, total) == original()


def test_for_stmt_consumes_any_python_iterable_lazily():
    pulled = []

    def gen():
        for i in range(5):
            pulled.append(i)
            yield i

    out = ag.for_stmt(gen(), lambda i, s: s + i, (0,), ("s",), extra_test=lambda s: s < 3)
    assert out == 3 and pulled == [0, 1, 2, 3]       # stops before pulling a 5th item, like `break`
    assert ag.for_stmt({"a": 1, "b": 2}, lambda k, s: s + k, ("",), ("s",)) == "ab"


@settings(max_examples=30, deadline=None)
@given(pred=values)
def test_if_exp_matches_python(pred):
    calls = []
    out = ag.if_exp(pred, lambda: calls.append("t") or 1, lambda: calls.append("f") or 2, "1 if p else 2")
    assert out == (1 if pred else 2) and calls == (["t"] if pred else ["f"])


# --- staged values: dispatch through the backend ---------------------------------------------

def test_if_stmt_on_a_staged_pred_calls_cond_with_state(toy):
    out = ag.if_stmt(Toy(True), lambda x, y: (x + 1, y), lambda x, y: (x - 1, y), (Toy(5), 7), ("x", "y"))
    assert toy.names() == ["cond"] and out[0].value == 6 and out[1] == 7


def test_if_exp_on_a_staged_pred_calls_cond(toy):
    assert ag.if_exp(Toy(False), lambda: 1, lambda: 2, "1 if p else 2") == 2
    assert toy.names() == ["cond"]


def test_while_stmt_staged_from_the_first_test(toy):
    out = ag.while_stmt(lambda x: x < 10, lambda x: x + 3, (Toy(1),), ("x",), opts={"maximum_iterations": 9})
    assert out.value == 10 and toy.calls == [("while_loop", {"maximum_iterations": 9})]


def test_while_stmt_that_becomes_staged_later_hands_over_to_the_backend(toy):
    # First test is a Python bool; the body makes the state a staged value.
    out = ag.while_stmt(lambda x: x < 5, lambda x: Toy(_val(x)) + 1, (0,), ("x",))
    assert _val(out) == 5 and toy.names() == ["while_loop"]


def _val(x):
    return x.value if isinstance(x, Toy) else x


def test_for_stmt_over_a_staged_iterable(toy):
    out = ag.for_stmt(Toy([1, 2, 3]), lambda item, s: s + item, (Toy(0),), ("s",))
    assert out.value == 6 and toy.names() == ["for_loop"]


def test_for_stmt_over_range_with_staged_bounds(toy):
    out = ag.for_stmt(ag.range_(Toy(4)), lambda i, s: s + i, (Toy(0),), ("s",))
    assert out.value == 6 and toy.names() == ["range", "for_loop"]


def test_python_lists_in_loop_state_become_backend_lists_stacked_after_the_loop(toy):
    def body(i, acc):
        return ag.list_append(acc, i)

    out = ag.for_stmt(Toy([1, 2]), body, ([],), ("acc",))
    assert isinstance(out, Toy) and out.value == [1, 2]
    assert toy.names()[-1] == "list_stack"


def test_a_backend_without_tensor_lists_judges_python_lists_changing_length_itself():
    backends.register_backend(make_backend(Recorder(), list_from=None, list_types=()))
    try:
        out = ag.for_stmt(Toy([1, 2]), lambda x, acc: acc + [x], ([],), ("acc",))
        assert [x.value for x in out] == [1, 2]
        with pytest.raises(StagingError, match="'acc' is a tuple of 0 when an iteration .* but a tuple of 1"):
            ag.for_stmt(Toy([1, 2]), lambda x, acc: acc + (x,), ((),), ("acc",))
    finally:
        backends.unregister_backend("toy")


def test_eager_values_of_a_framework_are_never_claimed(toy):
    class Eager:
        def __bool__(self):
            return True

    assert ag.if_stmt(Eager(), lambda: "t", lambda: "f", (), ()) == "t"
    assert toy.calls == []


# --- checks and errors -----------------------------------------------------------------------

def test_variable_defined_in_one_branch_of_a_staged_if_is_named(toy):
    with pytest.raises(StagingError, match=r"'y' is assigned in only one branch .* false branch"):
        ag.if_stmt(Toy(True), lambda y: 1, lambda y: y, (ag.Undefined("y"),), ("y",))


def test_return_in_one_branch_of_a_staged_if(toy):
    with pytest.raises(StagingError, match="returns from the function in only one branch"):
        ag.if_stmt(Toy(True), lambda r: 1, lambda r: r, (ag.UndefinedReturnValue(),), ("retval_",))


def test_branches_with_different_structures(toy):
    with pytest.raises(StagingError, match=r"'z' has a different structure .*a tuple of 2 vs a single value"):
        ag.if_stmt(Toy(True), lambda z: (1, 2), lambda z: 3, (0,), ("z",))


def test_loop_variable_undefined_before_a_staged_loop(toy):
    with pytest.raises(StagingError, match="'acc' must be defined before this `while` loop"):
        ag.while_stmt(lambda i, acc: i < 3, lambda i, acc: (i + 1, i), (Toy(0), ag.Undefined("acc")), ("i", "acc"))
    with pytest.raises(StagingError, match="'last' must be defined before this `for` loop"):
        ag.for_stmt(Toy([1]), lambda x, last: x, (ag.Undefined("last"),), ("last",))


def test_a_staged_break_in_a_python_for_loop_is_reported(toy):
    with pytest.raises(StagingError, match="`break` or `return` that depends on a tensor"):
        ag.for_stmt([1, 2], lambda x, s: s, (Toy(True),), ("s",), extra_test=lambda s: s)


def test_missing_capability_names_construct_and_framework(bare_toy):
    with pytest.raises(UnsupportedCapabilityError, match=r"`if` statement .* on toy values .* no `cond`"):
        ag.if_stmt(Toy(True), lambda: None, lambda: None, (), ())
    with pytest.raises(UnsupportedCapabilityError, match="`while` loop .* no `while_loop`"):
        ag.while_stmt(lambda x: x < 3, lambda x: x, (Toy(0),), ("x",))
    with pytest.raises(NotImplementedError, match="`for` loop over a tensor .* no `for_loop`"):
        ag.for_stmt(Toy([1]), lambda i: None, (), ())


# --- define_loop_state: the placeholder protocol for backends --------------------------------

def _probing_backend(calls: list):
    from autograph.backends import Backend

    def probe(fn):
        calls.append("probe")
        return fn()
    return Backend(name="probing", probe=probe, zeros_like=lambda v: type(v)(0), list_empty_like=lambda e: ("empty", e))


def test_define_loop_state_fills_an_undefined_return_value_from_one_probed_iteration():
    from autograph.operators.control_flow import define_loop_state
    from autograph.operators.variables import UndefinedReturnValue
    calls: list = []
    state = (3, False, UndefinedReturnValue())
    filled = define_loop_state(_probing_backend(calls), lambda s: (s[0] + 1, True, 2.5 * s[0]), state,
                               ("i", "do_return", "retval_"))
    assert filled == (3, False, 0.0) and type(filled[2]) is float and calls == ["probe"]


def test_define_loop_state_learns_an_empty_lists_element_type_and_leaves_defined_state_alone():
    from autograph.operators.control_flow import define_loop_state
    calls: list = []
    backend = _probing_backend(calls)
    assert define_loop_state(backend, lambda s: s, (1, 2)) == (1, 2) and calls == []     # nothing to learn
    out = []
    filled = define_loop_state(backend, lambda s: (s[0].append(7) or s[0], s[1]), (out, 1), ("xs", "n"))
    assert filled == (("empty", 7), 1) and out == []      # the probe appended to a copy


def test_define_loop_state_leaves_empty_lists_to_a_backend_without_list_empty_like():
    from autograph.backends import Backend
    from autograph.operators.control_flow import define_loop_state
    from autograph.operators.variables import UndefinedReturnValue
    backend = Backend(name="probing", probe=lambda fn: fn(), zeros_like=lambda v: type(v)(0))
    out = []
    filled = define_loop_state(backend, lambda s: (s[0].append(7) or s[0], 2.5), (out, UndefinedReturnValue()),
                               ("xs", "retval_"))
    assert filled == ([], 0.0) and filled[0] is out


def test_define_loop_state_rejects_an_empty_list_nothing_is_appended_to():
    from autograph.operators.control_flow import define_loop_state
    with pytest.raises(StagingError, match="the empty list 'xs'.*nothing is appended"):
        define_loop_state(_probing_backend([]), lambda s: s, ([],), ("xs",))
