"""A Python bool that a staged `if` or loop carries computes as Python's bool, an int, under torch.

Before, the torch backend carried it as a bool tensor, whose arithmetic is logical: `s + s` was True, `~s` False,
`-s` and `abs(s)` errors. The backend casts the tensor standing for it to an int where Python computes with the
int (torch_numbers.py); the programs are _carried_bool_programs.py's.
"""
from __future__ import annotations

import pytest

from tests.autograph.backends._carried_bool_programs import (arithmetic_after_a_loop, arithmetic_after_an_if,
                                                             compared_by_identity, plain, toggled)
from tests.autograph.backends._torch_modules import Converted, torch


@pytest.mark.parametrize("program", [arithmetic_after_a_loop, arithmetic_after_an_if])
def test_a_carried_bool_computes_as_python_s_bool_under_torch_export(program):
    exported = torch.export.export(Converted(program), (torch.tensor(2),)).module()
    for n in (0, 2):
        assert plain(exported(torch.tensor(n))) == program(n)


def test_a_bool_a_loop_negates_with_not_stays_python_s_bool_under_torch_compile():
    torch._dynamo.reset()
    compiled = torch.compile(Converted(toggled), fullgraph=True, backend="aot_eager")
    assert [int(compiled(torch.tensor(n))) for n in range(4)] == [toggled(n) for n in range(4)]


def bitwise(n):
    s = False
    if n > 0:
        s = True
    return s & False, s | False, s ^ True, s & 3


def test_bitwise_ops_of_a_carried_bool_give_a_bool_beside_a_bool_and_an_int_beside_an_int_under_torch():
    exported = torch.export.export(Converted(bitwise), (torch.tensor(2),)).module()
    got = exported(torch.tensor(2))
    assert [v.dtype for v in got] == [torch.bool, torch.bool, torch.bool, torch.int64]
    assert plain(got) == bitwise(2)


def test_is_true_or_false_of_a_carried_bool_is_python_s_answer_under_torch_export():
    exported = torch.export.export(Converted(compared_by_identity), (torch.tensor(2),)).module()
    assert [plain(exported(torch.tensor(n))) for n in (0, 3)] == [compared_by_identity(n) for n in (0, 3)]


def shifted(n):
    s = True
    if n > 1:
        s = False
    return s << 3, 1 << s


def test_shifts_of_a_carried_bool_shift_the_int_under_torch():
    exported = torch.export.export(Converted(shifted), (torch.tensor(2),)).module()
    assert [plain(exported(torch.tensor(n))) for n in (0, 3)] == [shifted(n) for n in (0, 3)]


def counted_until(n):
    go = True
    k = 0
    while go:
        k += 1
        if k > n:
            go = False
    return k, go


def test_a_while_on_a_carried_bool_alone_compiles_under_torch_compile():
    torch._dynamo.reset()
    compiled = torch.compile(Converted(counted_until), fullgraph=True, backend="aot_eager")
    assert [plain(compiled(torch.tensor(n))) for n in (0, 2)] == [counted_until(n) for n in (0, 2)]
