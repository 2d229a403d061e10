"""ag__.context: a `with` statement's manager, as Python uses it, except that it never swallows a tracing error."""
from __future__ import annotations

import contextlib
import threading

import pytest

from autograph.errors import TracingFailed
from autograph.operators.exceptions import context


class Static:
    @staticmethod
    def __enter__():
        return 5

    @staticmethod
    def __exit__(*exc_info):
        return True


class Logged:
    def __init__(self):
        self.log = []

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, kind, error, traceback):
        self.log.append(("exit", kind))
        return False


def test_the_managers_own_enter_and_exit_as_python_looks_them_up():
    with context(Static()) as value:   # special methods bound by their descriptors: a staticmethod stays unbound
        raise ValueError("swallowed, as Static's exit says")
    assert value == 5
    manager = Logged()
    with pytest.raises(KeyError):
        with context(manager) as got:
            raise KeyError("k")
    assert got is manager and manager.log == ["enter", ("exit", KeyError)]
    with context(threading.Lock()), context(open(__file__)) as f:
        assert not f.closed
    assert f.closed


def test_an_object_without_the_protocol_gives_pythons_type_error():
    with pytest.raises(TypeError, match="^'int' object does not support the context manager protocol$"):
        context(3)
    only_enter = type("OnlyEnter", (), {"__enter__": lambda self: 1})()
    with pytest.raises(TypeError, match=r"'OnlyEnter' object .* protocol \(missed __exit__ method\)"):
        context(only_enter)


def test_a_suppressing_exit_does_not_swallow_a_tracing_error():
    with context(contextlib.suppress(Exception)):
        raise ValueError("the program's own error: suppressed")
    with pytest.raises(TracingFailed):
        with context(contextlib.suppress(Exception)):
            raise TracingFailed(ValueError("tracing failed"))
