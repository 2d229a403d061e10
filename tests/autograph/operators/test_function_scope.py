"""FunctionScope and ConversionOptions."""
from __future__ import annotations

import pytest

from autograph import operators as ag
from autograph.operators import function_scope


def test_ret_returns_the_value_and_none_for_no_return():
    with ag.FunctionScope("f", "fscope", ag.ConversionOptions(recursive=True)) as fscope:
        assert fscope.ret(3, True) == 3
        assert fscope.ret(ag.UndefinedReturnValue(), False) is None
        assert fscope.ret(None, True) is None
        assert fscope.ret(ag.UndefinedReturnValue(), False, may_fall_off=True) is None
        assert fscope.ret(4, True, may_fall_off=True) == 4
    assert fscope.name == "f" and fscope.options.recursive


def test_scope_does_not_swallow_exceptions():
    try:
        with ag.FunctionScope("f", "fscope", ag.ConversionOptions()):
            raise KeyError("user error")
    except KeyError as e:
        assert e.args == ("user error",)
    else:
        raise AssertionError("the exception was swallowed")


def test_options_repr_is_the_generated_source():
    assert repr(ag.ConversionOptions(recursive=True)) == "ConversionOptions(recursive=True)"
    assert repr(ag.ConversionOptions(recursive=False, fallback=True)) == \
        "ConversionOptions(recursive=False, fallback=True)"


class _Noted:
    def __init__(self, log: list):
        self.log = log

    def __enter__(self):
        self.log.append("enter")

    def __exit__(self, *exc):
        self.log.append("exit")


def test_a_manager_entered_inside_converted_code_exits_when_the_outermost_function_returns():
    log: list = []
    with ag.FunctionScope("outer", "fscope", ag.ConversionOptions()):
        with ag.FunctionScope("inner", "fscope", ag.ConversionOptions()):
            assert function_scope.enter_until_outermost_returns(_Noted(log))
        assert log == ["enter"]              # still in force in the caller, which is converted code too
    assert log == ["enter", "exit"]


def test_the_manager_exits_when_the_outermost_function_raises_and_is_not_entered_outside_converted_code():
    log: list = []
    with pytest.raises(KeyError):
        with ag.FunctionScope("f", "fscope", ag.ConversionOptions()):
            function_scope.enter_until_outermost_returns(_Noted(log))
            raise KeyError("k")
    assert log == ["enter", "exit"]
    assert not function_scope.enter_until_outermost_returns(_Noted(log)) and log == ["enter", "exit"]
