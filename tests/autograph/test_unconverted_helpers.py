"""Helpers that can't be converted run as Python runs them; tracebacks show the user's frames (issue 13, item 2).

A generator, a function without source, a builtin or a function autograph refuses, called from converted
code, runs unconverted, with at most one warning per function. The function handed to `convert` or
`runtime.function` itself keeps the strict errors. An error raised through generated code has a
traceback of the user's frames; `autograph.disable_traceback_filtering()` shows every frame.
"""
import math
import os
import traceback
import warnings

import pytest

import autograph as ag
import runtime as tf
from autograph import api
from autograph.errors import ConversionError

AUTOGRAPH_DIR = os.path.dirname(ag.__file__)
RUNTIME_DIR = os.path.dirname(tf.__file__)


@pytest.fixture
def generated_code():
    api.run_generated_code(True)
    yield
    api.run_generated_code(False)


def evens(n):
    for i in range(n):
        if i % 2 == 0:
            yield i


def test_a_generator_helper_runs_as_python_runs_it(generated_code):
    def f(n):
        total = 0
        for v in evens(n):
            total += v
        return total + sum(evens(n))

    with warnings.catch_warnings():
        warnings.simplefilter("error")      # and quietly: Python's semantics are exact there
        assert ag.convert(f)(7) == f(7) == 24
        assert tf.function(f)(7) == 24


def test_a_generator_helper_with_a_tensor_argument():
    def scaled(x, n):
        for i in range(n):
            yield x * i

    def f(x):
        total = x * 0
        for v in scaled(x, 3):
            total += v
        return total

    assert tf.function(f)(tf.constant(2)).numpy() == 6


COUNTER = [0]
_made_by_exec = {}
exec("def no_source(v):\n    return v * 3\n", _made_by_exec)
no_source = _made_by_exec["no_source"]


def test_a_helper_without_source_runs_with_one_warning(generated_code):
    def f(x):
        return no_source(x) + no_source(x + 1) + math.floor(2.5) + len([x])

    converted = ag.convert(f)
    with pytest.warns(RuntimeWarning, match="no_source") as record:
        assert converted(2) == f(2) == 6 + 9 + 2 + 1
        assert converted(3) == f(3)
    assert len([w for w in record if "no_source" in str(w.message)]) <= 1


def test_a_helper_autograph_refuses_runs_as_is(generated_code):
    def refused(x):
        global COUNTER
        if x > 0:
            COUNTER = [COUNTER[0] + x]
        return COUNTER[0]

    def f(x):
        return refused(x) + refused(x)

    COUNTER[:] = [0]
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        assert ag.convert(f)(2) == 2 + 4
    assert len([w for w in record if "refused" in str(w.message)]) <= 1


def test_the_users_own_function_keeps_strict_errors():
    with pytest.raises(ConversionError, match="generators"):
        ag.convert(evens)


def helper_that_raises(v):
    raise KeyError("bad key")


def staged_caller(x):
    if x > 0:
        y = helper_that_raises(x)
    else:
        y = x
    return y


def _frames(error):
    return [(frame.filename, frame.name) for frame in traceback.extract_tb(error.__traceback__)]


def _ours(frames):
    return [f for f in frames if f[0].startswith((AUTOGRAPH_DIR, RUNTIME_DIR))]


@pytest.mark.parametrize("call", ["function", "generated"])
def test_tracebacks_show_the_users_frames(call, generated_code):
    run = tf.function(staged_caller) if call == "function" else ag.convert(staged_caller)
    arg = tf.constant(3) if call == "function" else 3
    with pytest.raises(KeyError) as info:
        run(arg)
    frames = _frames(info.value)
    names = [name for _, name in frames]
    assert "staged_caller" in names
    if call == "function":   # the graph raises it (test_staged_raise.py): its note names the `raise`
        line = helper_that_raises.__code__.co_firstlineno + 1
        assert f"test_unconverted_helpers.py:{line}: (autograph) raised when the graph ran this `raise`" in \
            info.value.__notes__[0]
    else:
        assert "helper_that_raises" in names
    assert len(_ours(frames)) <= 2     # at most the lines that raise the filtered error again


def test_traceback_filtering_can_be_disabled():
    ag.disable_traceback_filtering()
    try:
        assert not ag.is_traceback_filtering_enabled()
        with pytest.raises(KeyError) as info:
            tf.function(staged_caller)(tf.constant(3))
        assert len(_ours(_frames(info.value))) > 2   # more than the filtered traceback's (see above)
    finally:
        ag.enable_traceback_filtering()
    assert ag.is_traceback_filtering_enabled()
