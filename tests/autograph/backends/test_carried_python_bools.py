"""A Python bool that a staged `if` or loop carries computes as Python's bool, an int, under JAX and torch.

Python's `True + True` is 2, `~True` -2, `-True` -1, `abs(True)` 1. Before, the JAX backend carried such a bool as a
bool array and torch as a bool tensor, whose arithmetic is logical: `s + s` was True, `~s` False, `-s` and
`abs(s)` errors without a word about the user's line. JAX carries it as a weakly typed int (jax_bools.py), torch
casts the tensor standing for it to an int where Python computes with the int (torch_aliasing.py).
"""
from __future__ import annotations

import pytest

from tests.autograph.backends._jax_util import jax, jnp

import autograph as ag  # noqa: E402


def arithmetic_after_a_loop(n):
    s = True
    for _ in range(n):
        s = s
    return s + s, ~s, -s, abs(s), s + True, s * 3, s / 2, s + 0.5, s == 1, s < 2


def arithmetic_after_an_if(n):
    if n > 0:
        s = True
    else:
        s = False
    return s + s, ~s, -s, abs(s), s + True, s * 3, s / 2, s + 0.5, s == 1, s < 2


def toggled(n):
    s = True
    for _ in range(n):
        s = not s
    return s + s + 0


def found_flag(xs, t):
    found = False
    for x in xs:
        if x > t:
            found = True
    return found


def types_of_a_flag(n):
    found = False
    i = 0
    while i < n:
        if i == 3:
            found = True
        i += 1
    return isinstance(found, bool), type(found) is bool, isinstance(found, int)


def plain(values):
    return tuple(v.item() if hasattr(v, "item") else v for v in values)


@pytest.mark.parametrize("program", [arithmetic_after_a_loop, arithmetic_after_an_if])
@pytest.mark.parametrize("n", [0, 2])
def test_a_carried_bool_computes_as_python_s_bool_under_jax_jit(program, n):
    assert plain(jax.jit(ag.convert(program))(n)) == program(n)


@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_a_bool_a_loop_negates_with_not_stays_python_s_bool_under_jax_jit(n):
    assert int(jax.jit(ag.convert(toggled))(n)) == toggled(n)


@pytest.mark.parametrize("t", [0.5, 9.0])
def test_a_flag_a_jitted_function_returns_is_a_bool_array(t):
    got = jax.jit(ag.convert(found_flag))(jnp.array([1.0, 2.0]), t)
    assert got.dtype == jnp.bool_ and bool(got) is found_flag([1.0, 2.0], t)


def test_isinstance_and_type_of_a_carried_bool_answer_bool_under_jax_jit():
    assert plain(jax.jit(ag.convert(types_of_a_flag))(5)) == (True, True, True)


def printed_flag(n):
    s = False
    for _ in range(n):
        s = True
    print("flag", s)
    return s


def test_print_of_a_carried_bool_shows_true_or_false_under_jax_jit(capfd):
    jax.block_until_ready(jax.jit(ag.convert(printed_flag))(2))
    jax.effects_barrier()
    assert "flag True" in capfd.readouterr().out


def compared_flag(xs):
    found = False
    for x in xs:
        if x > 0:
            found = x > 1
    return found


def test_a_carried_bool_that_a_path_makes_a_bool_array_is_the_bool_array_jax_gives():
    for xs in ([2.0, 0.5], [0.5, 2.0], [-1.0]):
        got = jax.jit(ag.convert(compared_flag))(jnp.array(xs))
        assert got.dtype == jnp.bool_ and bool(got) is bool(compared_flag(jnp.array(xs)))


# --- torch -------------------------------------------------------------------------------------------------------

torch = pytest.importorskip("torch")


class Module(torch.nn.Module):
    def __init__(self, program):
        super().__init__()
        self.program = ag.convert(program)

    def forward(self, n):
        return self.program(n)


@pytest.mark.parametrize("program", [arithmetic_after_a_loop, arithmetic_after_an_if])
def test_a_carried_bool_computes_as_python_s_bool_under_torch_export(program):
    exported = torch.export.export(Module(program), (torch.tensor(2),)).module()
    for n in (0, 2):
        assert plain(exported(torch.tensor(n))) == program(n)


def test_a_bool_a_loop_negates_with_not_stays_python_s_bool_under_torch_compile():
    torch._dynamo.reset()
    compiled = torch.compile(Module(toggled), fullgraph=True, backend="aot_eager")
    assert [int(compiled(torch.tensor(n))) for n in range(4)] == [toggled(n) for n in range(4)]


def bitwise(n):
    s = False
    if n > 0:
        s = True
    return s & False, s | False, s ^ True, s & 3


def test_bitwise_ops_of_a_carried_bool_give_a_bool_beside_a_bool_and_an_int_beside_an_int_under_torch():
    exported = torch.export.export(Module(bitwise), (torch.tensor(2),)).module()
    got = exported(torch.tensor(2))
    assert [v.dtype for v in got] == [torch.bool, torch.bool, torch.bool, torch.int64]
    assert plain(got) == bitwise(2)


def compared_by_identity(n):
    f = True
    if n > 1:
        f = False
    return f is False, f is not True, f is True


def test_is_true_or_false_of_a_carried_bool_is_python_s_answer_under_jax_jit():
    f = jax.jit(ag.convert(compared_by_identity))
    assert [plain(f(n)) for n in (0, 3)] == [compared_by_identity(n) for n in (0, 3)]


def test_is_true_or_false_of_a_carried_bool_is_python_s_answer_under_torch_export():
    exported = torch.export.export(Module(compared_by_identity), (torch.tensor(2),)).module()
    assert [plain(exported(torch.tensor(n))) for n in (0, 3)] == [compared_by_identity(n) for n in (0, 3)]


def shifted(n):
    s = True
    if n > 1:
        s = False
    return s << 3, 1 << s


def test_shifts_of_a_carried_bool_shift_the_int_under_torch():
    exported = torch.export.export(Module(shifted), (torch.tensor(2),)).module()
    assert [plain(exported(torch.tensor(n))) for n in (0, 3)] == [shifted(n) for n in (0, 3)]
