"""and_/or_/not_: Python's short-circuit values on Python values, the backend's lazy ops on staged ones."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from autograph import operators as ag
from autograph.errors import UnsupportedCapabilityError
from tests.autograph.operators.conftest import Toy

values = st.one_of(st.integers(-2, 2), st.booleans(), st.none(), st.text(max_size=2),
                   st.lists(st.integers(), max_size=2), st.floats(allow_nan=False, width=16))


@settings(max_examples=100, deadline=None)
@given(a=values, b=values)
def test_and_or_give_pythons_values_and_evaluation_order(a, b):
    for op, python in ((ag.and_, lambda a_fn, b_fn: a_fn() and b_fn()), (ag.or_, lambda a_fn, b_fn: a_fn() or b_fn())):
        got_log, want_log = [], []
        got = op(lambda: got_log.append("a") or a, lambda: got_log.append("b") or b)
        want = python(lambda: want_log.append("a") or a, lambda: want_log.append("b") or b)
        assert got is want or got == want and type(got) is type(want)
        assert got_log == want_log


@settings(max_examples=50, deadline=None)
@given(a=values)
def test_not_matches_python(a):
    assert ag.not_(a) is (not a)


def test_short_circuit_never_calls_the_right_operand():
    def boom():
        raise AssertionError("evaluated")

    assert ag.and_(lambda: 0, boom) == 0
    assert ag.or_(lambda: "x", boom) == "x"


def test_staged_left_operand_uses_the_backends_lazy_ops(toy):
    assert ag.and_(lambda: Toy(True), lambda: Toy(False)).value is False
    assert ag.or_(lambda: Toy(False), lambda: 3).value == 3
    assert ag.not_(Toy(0)).value is True
    assert toy.names() == ["and", "or", "not"]


def test_missing_logical_capability(bare_toy):
    with pytest.raises(UnsupportedCapabilityError, match="`and` on a tensor on toy values .* no `logical_and`"):
        ag.and_(lambda: Toy(True), lambda: 1)
