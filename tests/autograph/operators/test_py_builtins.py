"""The builtin overloads: identical to the builtins on Python values, the backend's on staged ones."""
from __future__ import annotations

import builtins
import io

import pytest

from autograph import operators as ag
from autograph.errors import UnsupportedCapabilityError
from autograph.operators.py_builtins import BUILTIN_OVERLOADS
from tests.autograph.operators.conftest import Toy


def test_python_values_get_the_builtins_results():
    assert ag.len_([1, 2]) == 2 and list(ag.range_(1, 7, 2)) == [1, 3, 5]
    assert list(ag.enumerate_("ab", 1)) == [(1, "a"), (2, "b")]
    assert list(ag.zip_([1, 2], "ab")) == [(1, "a"), (2, "b")]
    with pytest.raises(ValueError):
        list(ag.zip_([1], [], strict=True))
    assert ag.abs_(-3) == 3 and ag.int_("ff", 16) == 255 and ag.int_(2.9) == 2 and ag.int_() == 0
    assert ag.float_("1.5") == 1.5 and ag.float_() == 0.0 and ag.isinstance_(1, int)
    assert ag.int_("ff", base=16) == 255 and ag.int_("0x1f", 0) == 31   # `base=` was a TypeError
    with pytest.raises(TypeError):
        ag.int_(base=16)   # as Python's: a base needs a string


def test_print_and_assert_on_python_values():
    out = io.StringIO()
    ag.print_("a", 1, sep="-", file=out)
    assert out.getvalue() == "a-1\n"
    assert ag.assert_stmt(True, lambda: "never built") is None
    with pytest.raises(AssertionError, match="^x is 3$"):
        ag.assert_stmt(False, lambda: "x is 3")
    with pytest.raises(AssertionError):
        ag.assert_stmt(0)


def test_every_overload_is_registered_for_converted_call():
    for name in ("len", "range", "enumerate", "zip", "print", "abs", "int", "float", "isinstance", "type"):
        assert BUILTIN_OVERLOADS[getattr(builtins, name)].__name__ == f"{name}_"


def test_staged_arguments_go_to_the_backend(toy):
    assert ag.len_(Toy([1, 2, 3])).value == 3
    assert ag.range_(0, Toy(3)).value == [0, 1, 2]
    assert ag.int_(Toy(2.5)).value == 2 and ag.float_(Toy(2)).value == 2.0
    ag.print_("x =", Toy(4))
    ag.assert_stmt(Toy(True), lambda: "msg")
    assert toy.calls[-2:] == [("print", ("x =", 4)), ("assert", True, "msg")]


def test_print_of_a_staged_value_is_pythons_when_the_backend_does_not_stage_print(bare_toy, capsys):
    toy = Toy(1)
    ag.print_("x =", toy)
    assert capsys.readouterr().out == f"x = {toy}\n"


def test_missing_builtin_capabilities_name_the_construct(bare_toy):
    with pytest.raises(UnsupportedCapabilityError, match="`enumerate` over a tensor"):
        ag.enumerate_(Toy([1]))
    with pytest.raises(UnsupportedCapabilityError, match=r"`int\(\)` of a tensor"):
        ag.int_(Toy(1.0))
