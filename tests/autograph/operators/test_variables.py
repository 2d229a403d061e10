"""ld, Undefined and UndefinedReturnValue."""
from __future__ import annotations

import copy
import pickle

import pytest

from autograph import api as ag_api
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
    with pytest.raises(AttributeError, match="local variable 'y' is used before it is assigned"):
        ag.Undefined("y").shape


def test_undefined_answers_the_attribute_protocol():
    """hasattr/getattr with a default answer (AttributeError for what it lacks, dunders included), so that
    copy, pickle and tracers that probe values (dynamo, pytree) handle it (issue 18: torch.compile recursed
    forever in copy.copy)."""
    u = ag.Undefined("y")
    assert not hasattr(u, "shape") and getattr(u, "dtype", 5) == 5
    assert all(getattr(u, name, None) is None for name in ("__deepcopy__", "__array__", "__torch_function__"))
    assert u.__reduce_ex__(4) == (ag.Undefined, ("y",))
    for copied in (copy.copy(u), copy.deepcopy(u), pickle.loads(pickle.dumps(u))):
        assert copied.__class__ is ag.Undefined and copied.symbol_name == "y" and is_undefined(copied)


def test_a_variable_unassigned_on_the_path_taken_is_still_unbound_local_error():
    """What the user's code sees is Python's own error: the converted function leaves the variable unbound."""
    def f(x):
        if x > 0:
            y = x
        return hasattr(y, "shape")

    converted = ag_api.convert(f)
    ag_api.run_generated_code(True)
    try:
        assert converted(1) is False
        with pytest.raises(UnboundLocalError, match="'y'"):
            converted(-1)
    finally:
        ag_api.run_generated_code(False)
    with pytest.raises(UnboundLocalError, match="'y'"):
        f(-1)


def test_is_undefined():
    assert is_undefined(ag.Undefined("a")) and is_undefined(ag.UndefinedReturnValue())
    assert not is_undefined(None) and not is_undefined(0)
    assert repr(ag.Undefined("a")) == "Undefined('a')"
