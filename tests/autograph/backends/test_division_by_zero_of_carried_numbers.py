"""Division by zero of a Python number that a staged `if` or loop carries: Python raises ZeroDivisionError.

Under torch the backend checks the divisor of a division among numbers when the program runs (torch's own
division gives inf, nan, or for `//` of ints an error that names no line); under JAX nothing can see the
division, so `ag.jax.jit(f, checks=checkify.user_checks | checkify.div_checks)` raises Python's
ZeroDivisionError where checkify finds one (a plain `jax.jit` gives inf or an arbitrary int: docs/backends.md).
"""
from __future__ import annotations

import pytest

from tests.autograph.backends._jax_util import jax

import autograph as ag  # noqa: E402


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


def test_jit_with_division_checks_raises_python_s_zero_division_error_where_a_carried_int_is_zero():
    from jax.experimental import checkify

    f = ag.jax.jit(int_floor_divided, checks=checkify.user_checks | checkify.div_checks)
    assert int(f(2)) == 5
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        f(0)


def asserted(n):
    assert n < 10, "too big"
    return n


def test_jit_with_checks_true_still_raises_assertion_error_for_an_assert():
    with pytest.raises(AssertionError, match="too big"):
        ag.jax.jit(asserted, checks=True)(20)


torch = pytest.importorskip("torch")


class Module(torch.nn.Module):
    def __init__(self, program):
        super().__init__()
        self.program = ag.convert(program)

    def forward(self, n):
        return torch.as_tensor(self.program(n))


def power_of_zero_or_two(n):
    if n > 0:
        s = 0.0
    else:
        s = 2.0
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
