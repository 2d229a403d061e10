"""ld, Undefined and UndefinedReturnValue."""
from __future__ import annotations

import pytest

from autograph import operators as ag
from autograph.operators.variables import is_undefined


def test_ld_passes_defined_values_through():
    marker = object()
    assert ag.ld(marker) is marker and ag.ld(None) is None


def test_ld_of_undefined_raises_unbound_local_error_naming_the_variable():
    with pytest.raises(UnboundLocalError, match="local variable 'total' is used before it is assigned"):
        ag.ld(ag.Undefined("total"))


def test_undefined_cannot_be_used_as_a_value_by_mistake():
    with pytest.raises(UnboundLocalError, match="'y'"):
        bool(ag.Undefined("y"))
    with pytest.raises(UnboundLocalError, match="'y'"):
        ag.Undefined("y").shape


def test_is_undefined():
    assert is_undefined(ag.Undefined("a")) and is_undefined(ag.UndefinedReturnValue())
    assert not is_undefined(None) and not is_undefined(0)
    assert repr(ag.Undefined("a")) == "Undefined('a')"
