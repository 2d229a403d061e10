"""if_stmt / while_stmt / for_stmt (test_control_flow.py, continued): a staged statement that raises leaves the
variables as they were; checks and errors; a staged statement can't assign a global or nonlocal variable;
define_loop_state, the placeholder protocol for backends."""
from __future__ import annotations

import pytest

from autograph import operators as ag
from autograph.errors import StagingError, UnsupportedCapabilityError
from tests.autograph.operators.conftest import Toy
from tests.autograph.operators.test_control_flow import _unbound


# --- a staged statement that raises leaves the variables as they were ------------------------

def test_a_staged_if_that_raises_leaves_the_variables_as_they_were(toy):
    x, y = Toy(1), 2

    def true_fn():
        nonlocal x, y
        x, y = Toy(10), 20

    def false_fn():
        nonlocal x, y
        x = Toy(30)
        raise ValueError("traced branch")

    with pytest.raises(ValueError, match="traced branch"):
        ag.if_stmt(Toy(True), true_fn, false_fn, ("x", "y"))
    assert x.value == 1 and y == 2


def test_a_staged_loop_that_raises_leaves_the_variables_as_they_were(toy):
    i, tmp = Toy(0), "before"

    def while_body():
        nonlocal i, tmp
        tmp = "body"
        i = i + 1
        if i.value == 2:
            raise ValueError("while body")

    with pytest.raises(ValueError, match="while body"):
        ag.while_stmt(lambda: i < 5, while_body, ("i",))
    assert i.value == 0 and tmp == "before"

    s = Toy(0)

    def for_body(item):
        nonlocal s
        s = s + item
        if item.value == 2:
            raise ValueError("for body")

    with pytest.raises(ValueError, match="for body"):
        ag.for_stmt(Toy([1, 2, 3]), for_body, ("s",))
    assert s.value == 0


def test_a_staged_statement_with_an_unbound_variable_that_fails_leaves_it_unbound(toy):
    y: int

    def true_fn():
        nonlocal y
        y = 1

    with pytest.raises(StagingError):
        ag.if_stmt(Toy(True), true_fn, lambda: None, ("y",))
    assert _unbound(lambda: y)


# --- checks and errors -----------------------------------------------------------------------

def test_variable_defined_in_one_branch_of_a_staged_if_is_named(toy):
    y: int

    def true_fn():
        nonlocal y
        y = 1

    def false_fn():
        pass

    with pytest.raises(StagingError, match=r"'y' is assigned in only one branch .*test_control_flow_checks.py:\d+.* "
                                           r"false branch leaves it undefined"):
        ag.if_stmt(Toy(True), true_fn, false_fn, ("y",))


def test_return_in_one_branch_of_a_staged_if(toy):
    retval_ = ag.UndefinedReturnValue()

    def true_fn():
        nonlocal retval_
        retval_ = 1

    def false_fn():
        pass

    with pytest.raises(StagingError, match="returns from the function in only one branch"):
        ag.if_stmt(Toy(True), true_fn, false_fn, ("retval_",))
    assert isinstance(retval_, ag.UndefinedReturnValue)


def test_branches_with_different_structures(toy):
    z = 0

    def true_fn():
        nonlocal z
        z = (1, 2)

    def false_fn():
        nonlocal z
        z = 3

    with pytest.raises(StagingError, match=r"'z' has a different structure .*a tuple of 2.* vs a single value"):
        ag.if_stmt(Toy(True), true_fn, false_fn, ("z",))
    assert z == 0


def test_loop_variable_undefined_before_a_staged_loop(toy):
    i = Toy(0)
    acc: int
    last: int

    def while_body():
        nonlocal i, acc
        i, acc = i + 1, i

    with pytest.raises(StagingError, match=r"'acc' must be defined before this `while` loop.*"
                                           r"first assigned inside the loop at test_control_flow_checks.py:\d+"):
        ag.while_stmt(lambda: i < 3, while_body, ("i", "acc"))
    assert i.value == 0 and _unbound(lambda: acc)

    def for_body(x):
        nonlocal last
        last = x

    with pytest.raises(StagingError, match="'last' must be defined before this `for` loop"):
        ag.for_stmt(Toy([1]), for_body, ("last",))
    assert _unbound(lambda: last)


def test_a_staged_break_in_a_python_for_loop_is_reported(toy):
    s = Toy(True)
    with pytest.raises(StagingError, match="`break` or `return` that depends on a tensor"):
        ag.for_stmt([1, 2], lambda x: None, ("s",), extra_test=lambda: s)


def test_missing_capability_names_construct_and_framework(bare_toy):
    with pytest.raises(UnsupportedCapabilityError, match=r"`if` statement .* on toy values .* no `cond`"):
        ag.if_stmt(Toy(True), lambda: None, lambda: None)
    x = Toy(0)
    with pytest.raises(UnsupportedCapabilityError, match="`while` loop .* no `while_loop`"):
        ag.while_stmt(lambda: x < 3, lambda: None, ("x",))
    with pytest.raises(NotImplementedError, match="`for` loop over a tensor .* no `for_loop`"):
        ag.for_stmt(Toy([1]), lambda i: None)


# --- `outer`: a staged statement can't assign a global or nonlocal variable ------------------

def test_a_staged_statement_that_assigns_an_outer_variable_raises_naming_it(toy):
    g = 0

    def converted():
        nonlocal g
        x = Toy(0)

        def assign():
            nonlocal g
            g = 1

        def assign_item(item):
            nonlocal g
            g = 1

        with pytest.raises(StagingError, match=r"'g' is declared global or nonlocal and assigned at "
                                               r"test_control_flow_checks.py:\d+ inside this `if` on a tensor"):
            ag.if_stmt(Toy(True), assign, lambda: None, (), outer=("g",))
        with pytest.raises(StagingError, match=r"'g' is declared global or nonlocal .* inside this `while` loop"):
            ag.while_stmt(lambda: x < 3, assign, ("x",), outer=("g",))
        with pytest.raises(StagingError, match=r"'g' is declared global or nonlocal .* inside this `for` loop"):
            ag.for_stmt(Toy([1, 2]), assign_item, outer=("g",))
        with pytest.raises(StagingError, match=r"'g' is declared global or nonlocal .* inside this `for` loop"):
            ag.for_stmt(range(3), assign_item, outer=("g",), extra_test=lambda: x < 3)   # staged by its break

    converted()
    assert g == 0 and toy.calls == []


_toy_global = 0


def test_a_staged_loop_that_assigns_a_global_raises_naming_it(toy):
    x = Toy(0)

    def body():
        global _toy_global
        _toy_global += 1

    with pytest.raises(StagingError, match="'_toy_global' is declared global or nonlocal and assigned at "
                                           r"test_control_flow_checks.py:\d+ inside this `while` loop on a tensor"):
        ag.while_stmt(lambda: x < 3, body, ("x",), outer=("_toy_global",))
    assert _toy_global == 0


# --- define_loop_state: the placeholder protocol for backends --------------------------------

def _probing_backend(calls: list):
    from autograph.backends import Backend

    def probe(fn):
        calls.append("probe")
        return fn()
    return Backend(name="probing", probe=probe, zeros_like=lambda v: type(v)(0), list_empty_like=lambda e: ("empty", e))


def test_define_loop_state_fills_an_undefined_return_value_from_one_probed_iteration():
    from autograph.operators.placeholders import define_loop_state
    from autograph.operators.variables import UndefinedReturnValue
    calls: list = []
    state = (3, False, UndefinedReturnValue())
    filled = define_loop_state(_probing_backend(calls), lambda s: (s[0] + 1, True, 2.5 * s[0]), state,
                               ("i", "do_return", "retval_"))
    assert filled == (3, False, 0.0) and type(filled[2]) is float and calls == ["probe"]


def test_define_loop_state_learns_an_empty_lists_element_type_and_leaves_defined_state_alone():
    from autograph.operators.placeholders import define_loop_state
    calls: list = []
    backend = _probing_backend(calls)
    assert define_loop_state(backend, lambda s: s, (1, 2)) == (1, 2) and calls == []     # nothing to learn
    out = []
    filled = define_loop_state(backend, lambda s: (s[0].append(7) or s[0], s[1]), (out, 1), ("xs", "n"))
    assert filled == (("empty", 7), 1) and out == []      # the probe appended to a copy


def test_define_loop_state_leaves_empty_lists_to_a_backend_without_list_empty_like():
    from autograph.backends import Backend
    from autograph.operators.placeholders import define_loop_state
    from autograph.operators.variables import UndefinedReturnValue
    backend = Backend(name="probing", probe=lambda fn: fn(), zeros_like=lambda v: type(v)(0))
    out = []
    filled = define_loop_state(backend, lambda s: (s[0].append(7) or s[0], 2.5), (out, UndefinedReturnValue()),
                               ("xs", "retval_"))
    assert filled == ([], 0.0) and filled[0] is out


def test_define_loop_state_rejects_an_empty_list_nothing_is_appended_to():
    from autograph.operators.placeholders import define_loop_state
    with pytest.raises(StagingError, match="the empty list 'xs'.*nothing is appended"):
        define_loop_state(_probing_backend([]), lambda s: s, ([],), ("xs",))
