"""FunctionScope and ConversionOptions."""
from __future__ import annotations

from autograph import operators as ag


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
