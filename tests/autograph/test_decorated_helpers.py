"""Helpers behind decorators, called from converted code, behave as the decorated function (issue 13, cause 1).

The source of a function is read from its own code object: `functools.wraps` sets `__wrapped__`, which
`inspect.getsource` follows, and the wrapped function's source must never be compiled in the wrapper's
place. Wrappers defined by a library (`contextlib`, `functools`, a framework's `custom_gradient`) run as
they are. Each case runs three ways: the generated code on Python values, `runtime.function` on Python
values, and `runtime.function` on tensors where a tensor makes sense.
"""
import contextlib
import functools

import numpy as np
import pytest

import autograph as ag
import runtime as tf
from autograph import api


@pytest.fixture
def generated_code():
    api.run_generated_code(True)
    yield
    api.run_generated_code(False)


def plus_one(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs) + 1
    return wrapper


def plus_one_plain(fn):       # no functools.wraps: no __wrapped__
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs) + 1
    return wrapper


class PlusOne:                # a decorator that is a callable object
    def __init__(self, fn):
        self.fn = fn
        functools.update_wrapper(self, fn)

    def __call__(self, *args):
        return self.fn(*args) + 1


@plus_one
def double(x):
    return x * 2


@plus_one_plain
def double_plain(x):
    return x * 2


@PlusOne
def double_object(x):
    return x * 2


@plus_one
@plus_one
def double_twice_decorated(x):
    return x * 2


class Scaler:
    factor = 10

    @plus_one
    def scale(self, x):
        return x * self.factor

    @staticmethod
    @plus_one
    def static_scale(x):
        return x * 10

    @classmethod
    @plus_one
    def class_scale(cls, x):
        return x * cls.factor


def three_ways(fn, x, expected):
    """Python's answer, the generated code's, and runtime.function's on a Python value, all `expected`."""
    assert fn(x) == expected
    api.run_generated_code(True)
    try:
        assert ag.convert(fn)(x) == expected
    finally:
        api.run_generated_code(False)
    assert tf.function(fn)(x) == expected


@pytest.mark.parametrize("helper", [double, double_plain, double_object, double_twice_decorated],
                         ids=["functools.wraps", "plain", "object", "twice"])
def test_a_decorated_helper_keeps_its_decorator(helper):
    def f(x):
        return helper(x)

    expected = 8 if helper is double_twice_decorated else 7
    three_ways(f, 3, expected)
    assert tf.function(f)(tf.constant(3)).numpy() == expected


def test_a_decorated_helper_under_a_tensor_condition():
    def f(x):
        if x > 0:
            y = double(x)
        else:
            y = double(-x)
        return y

    three_ways(f, 3, 7)
    assert tf.function(f)(tf.constant(-3)).numpy() == 7


def test_decorated_methods_static_and_class_methods():
    s = Scaler()

    def f(x):
        return s.scale(x) + Scaler.static_scale(x) + Scaler.class_scale(x) + s.class_scale(x)

    three_ways(f, 2, 21 * 4)


def test_partial_of_a_decorated_helper():
    @plus_one
    def mul(a, b):
        return a * b

    triple = functools.partial(mul, 3)

    def f(x):
        return triple(x)

    three_ways(f, 2, 7)


def test_lru_cache_helper_is_called_through_its_cache():
    calls = []

    @functools.lru_cache(maxsize=None)
    def square(x):
        calls.append(x)
        return x * x

    def f(x):
        return square(x) + square(x)

    three_ways(f, 4, 32)
    assert calls == [4]     # one real call in all: the cache is the one Python made


def test_to_code_of_a_wrapper_shows_the_wrapper():
    assert "+ 1" in ag.to_code(double)


@contextlib.contextmanager
def recording(log, name):
    log.append(f"enter {name}")
    try:
        yield name.upper()
    finally:
        log.append(f"exit {name}")


def test_contextmanager_helper_runs_as_python_runs_it():
    log = []

    def f(x):
        with recording(log, "a") as tag:
            if x > 0:
                y = x + 1
            else:
                y = x - 1
        return y, tag

    three_ways(f, 2, (3, "A"))
    assert log == ["enter a", "exit a"] * 3
    y, tag = tf.function(f)(tf.constant(-2))
    assert y.numpy() == -3 and tag == "A"


def test_contextmanager_helper_that_suppresses(generated_code):
    @contextlib.contextmanager
    def swallow():
        try:
            yield
        except ZeroDivisionError:
            pass

    def f(x):
        out = 0
        with swallow():
            out = 1
            out = x // 0
        return out

    assert ag.convert(f)(5) == f(5) == 1


def test_custom_gradient_helper_is_the_decorated_function():
    @tf.custom_gradient
    def clip_grad(x):
        def grad(dy):
            return dy * 0.5
        return x * 3.0, grad

    def f(x):
        return clip_grad(x) + 1.0

    @tf.function
    def value_and_grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return y, tape.gradient(y, x)

    y, g = value_and_grad(tf.constant(2.0))
    np.testing.assert_allclose(y.numpy(), 7.0)
    np.testing.assert_allclose(g.numpy(), 0.5)
    assert np.allclose(tf.function(f)(tf.constant(2.0)).numpy(), 7.0)
    api.run_generated_code(True)
    try:
        assert np.allclose(np.asarray(ag.convert(f)(tf.constant(2.0))), 7.0)
    finally:
        api.run_generated_code(False)
