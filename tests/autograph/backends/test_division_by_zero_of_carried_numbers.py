"""Division by zero of a Python number that a staged `if` or loop carries under torch: Python raises
ZeroDivisionError.

The torch backend checks the divisor of a division among numbers when the program runs (torch's own division
gives inf, nan, or for `//` of ints an error that names no line: torch_numbers.py). JAX:
test_jax_checks_for_division_by_zero.py.
"""
from __future__ import annotations

import pytest

from tests.autograph.backends._torch_modules import Converted as Module, torch


def int_floor_divided(n):
    s = 0
    for _ in range(n):
        s = s + 1
    return 10 // s


def float_divided(n):
    if n > 0:
        s = 0.0
    else:
        s = 4.0
    return 10.0 / s


def power_of_zero_or_two(n):
    s = 0.0 if n > 0 else 2.0
    return s ** -1


@pytest.mark.parametrize("program, good, zero", [(int_floor_divided, 2, 0), (float_divided, 0, 1),
                                                 (power_of_zero_or_two, 0, 1)],
                         ids=lambda v: getattr(v, "__name__", ""))
def test_division_by_zero_of_a_carried_number_fails_at_the_user_s_line_under_torch_export(program, good, zero):
    exported = torch.export.export(Module(program), (torch.tensor(good),)).module()
    assert float(exported(torch.tensor(good))) == program(good)
    with pytest.raises(RuntimeError, match=f"{__file__}:\\d+: ZeroDivisionError"):
        exported(torch.tensor(zero))


def divided_beside_a_tensor(x):
    s = 0.0
    if x.sum() > 0:
        s = 1.0
    return x / s


def test_a_division_of_the_program_s_tensor_by_a_carried_zero_keeps_torch_s_inf():
    exported = torch.export.export(Module(divided_beside_a_tensor), (torch.ones(2),)).module()
    assert exported(-torch.ones(2)).tolist() == [float("-inf")] * 2


def divided_by_zero_in_a_branch(n):
    s = 3
    if n > 0:
        s = 4
    if n > 5:
        r = s / 0
    else:
        r = s * 1.0
    return r


def constant_zero_divided_in_a_branch(n):
    s = 0
    for _ in range(n):
        s = s
    if n > 5:
        r = 10 / s
    else:
        r = 1.0
    return r


@pytest.mark.parametrize("program", [divided_by_zero_in_a_branch, constant_zero_divided_in_a_branch])
def test_a_division_by_zero_in_a_staged_branch_that_does_not_run_gives_python_s_value(program):
    exported = torch.export.export(Module(program), (torch.tensor(1),)).module()
    torch._dynamo.reset()
    compiled = torch.compile(Module(program), fullgraph=True, backend="aot_eager")
    assert float(exported(torch.tensor(1))) == float(compiled(torch.tensor(1))) == program(1)
