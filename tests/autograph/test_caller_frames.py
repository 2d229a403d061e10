"""Functions that look at their caller's frame see the user's code: converted code makes each call itself
(`ag__.callee(f, fscope)(...)`), where it went through autograph's `converted_call` before, whose frame
`collections.namedtuple`, `enum.Enum` and `typing.TypeVar` took their `__module__` from ('autograph.api': such a
class could not be pickled), and a library's `warnings.warn(..., stacklevel=2)` its line. Functions that give
frames of the stack (`sys._getframe`, `inspect.currentframe`, `inspect.stack`) would see the converted code's own
frames (branches, loop bodies, autograph's), so a function that calls them is not converted."""
import collections
import enum
import inspect
import pickle
import sys
import typing
import warnings

import pytest

import autograph as ag
import runtime as tf
from autograph import api
from autograph.errors import ConversionError


def make_types(n):
    point = collections.namedtuple("Point", "x y")
    color = enum.Enum("Color", "RED GREEN")
    t = typing.TypeVar("T")
    pair = typing.NamedTuple("Pair", [("a", int)])
    if n > 0:
        inner = collections.namedtuple("Inner", "v")   # inside a branch, a function of the converted code's own
    else:
        inner = collections.namedtuple("Inner", "w")
    return [k.__module__ for k in (point, color, t, pair, inner)]


def test_types_made_in_converted_code_belong_to_the_users_module():
    api.run_generated_code(True)
    try:
        assert ag.convert(make_types)(1) == [__name__] * 5
    finally:
        api.run_generated_code(False)
    seen = []

    @tf.function
    def traced(x):
        seen.append(make_types(2))   # an `if` on a Python value: its branch is still a function of its own
        return x
    traced(tf.constant(1))
    assert seen == [[__name__] * 5]


Point = collections.namedtuple("Point", "x y")


def pickled_point(n):
    global Point
    Point = collections.namedtuple("Point", "x y")
    return pickle.loads(pickle.dumps(Point(n, 2)))


def test_a_namedtuple_made_in_converted_code_can_be_pickled():
    api.run_generated_code(True)
    try:
        assert ag.convert(pickled_point)(1) == (1, 2)
    finally:
        api.run_generated_code(False)


@ag.do_not_convert
def _deprecated(x):
    warnings.warn("old", DeprecationWarning, stacklevel=2)
    return x


def calls_deprecated(x):
    return _deprecated(x)


def test_a_library_warning_with_stacklevel_2_names_the_users_line():
    line = inspect.getsourcelines(calls_deprecated)[1] + 1
    api.run_generated_code(True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ag.convert(calls_deprecated)(1)
    finally:
        api.run_generated_code(False)
    assert [(w.filename, w.lineno) for w in caught] == [(__file__, line)]


def frame_name():
    return sys._getframe(0).f_code.co_name


def current_name():
    return inspect.currentframe().f_code.co_name


def stack_names():
    return [f.function for f in inspect.stack()[:2]]


@pytest.mark.parametrize("fn", [frame_name, current_name, stack_names], ids=lambda f: f.__name__)
def test_a_function_that_reads_the_stack_is_not_converted(fn):
    with pytest.raises(ConversionError, match="gives frames of the stack"):
        ag.to_code(fn)

    def caller():
        return fn()
    api.run_generated_code(True)
    try:
        with pytest.warns(RuntimeWarning, match="could not convert"):
            assert ag.convert(caller)() == caller()   # the helper runs as it is: Python's answer
    finally:
        api.run_generated_code(False)
