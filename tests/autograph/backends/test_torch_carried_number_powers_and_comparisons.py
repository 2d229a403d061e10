"""Powers and comparisons of Python numbers that a staged `if` or loop carries under torch, as Python's.

A carried Python int is an int64 tensor and a float a float32 one (torch's default dtype): `16777217 ==
16777216.0` compared them as float32 (True; Python: False), `2 ** -n` was the int 0 (Python: 0.25), `(-8.0) **
(1/3)` nan (Python: a complex number) and `2.0 ** 1024` inf (Python: OverflowError). torch_numbers.py compares an
int and a float in float64, and makes the others errors at the user's line when the program runs.
"""
from __future__ import annotations

import pytest

from tests.autograph.backends._torch_modules import Converted as Module, torch


def int_against_float(n):
    if n > 0:
        s = 16777217
    else:
        s = 2
    return s == 16777216.0


def to_the_minus_one(n):
    if n > 0:
        s = 2
    else:
        s = 4
    return s ** -1


def test_a_carried_int_compared_with_a_float_is_compared_exactly():
    exported = torch.export.export(Module(int_against_float), (torch.tensor(1),)).module()
    assert bool(exported(torch.tensor(1))) is False and bool(exported(torch.tensor(0))) is False


def test_a_carried_int_to_a_negative_power_written_in_the_program_is_python_s_float():
    exported = torch.export.export(Module(to_the_minus_one), (torch.tensor(1),)).module()
    assert [float(exported(torch.tensor(n))) for n in (1, 0)] == [0.5, 0.25]


def to_a_negative_carried_power(n):
    if n > 0:
        s = -2
    else:
        s = 2
    return 2 ** s


def cube_root(n):
    if n > 0:
        s = -8.0
    else:
        s = 8.0
    return s ** (1 / 3)


def overflowing_power(n):
    if n > 0:
        s = 2.0
    else:
        s = 1.0
    return s ** 1024


@pytest.mark.parametrize("program, message", [
    (to_a_negative_carried_power, "an int is raised to a negative power"),
    (cube_root, "a negative number is raised to a fractional power"),
    (overflowing_power, "OverflowError: the power is past the float's range")],
    ids=lambda v: getattr(v, "__name__", ""))
def test_a_power_python_would_not_give_as_torch_does_fails_at_the_user_s_line(program, message):
    exported = torch.export.export(Module(program), (torch.tensor(0),)).module()
    assert float(exported(torch.tensor(0))) == pytest.approx(program(0))
    with pytest.raises(RuntimeError, match=f"{__file__}:\\d+: {message}"):
        exported(torch.tensor(1))
