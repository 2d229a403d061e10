"""A Python bool that a staged `if` or loop carries computes as Python's bool, an int, under JAX (torch:
test_carried_python_bools_under_torch.py).

Python's `True + True` is 2, `~True` -2, `-True` -1, `abs(True)` 1. Before, the JAX backend carried such a bool as a
bool array and torch as a bool tensor, whose arithmetic is logical: `s + s` was True, `~s` False, `-s` and
`abs(s)` errors without a word about the user's line. JAX carries it as a weakly typed int (jax_bools.py), torch
casts the tensor standing for it to an int where Python computes with the int (torch_numbers.py).
"""
from __future__ import annotations

import pytest

from tests.autograph.backends._jax_util import jax, jnp

import autograph as ag  # noqa: E402
from autograph.backends.conformance import _found_flag as found_flag  # noqa: E402
from tests.autograph.backends._carried_bool_programs import (  # noqa: E402
    arithmetic_after_a_loop, arithmetic_after_an_if, compared_by_identity, plain, toggled)


def types_of_a_flag(n):
    found = False
    i = 0
    while i < n:
        if i == 3:
            found = True
        i += 1
    return isinstance(found, bool), type(found) is bool, isinstance(found, int)


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


def test_is_true_or_false_of_a_carried_bool_is_python_s_answer_under_jax_jit():
    f = jax.jit(ag.convert(compared_by_identity))
    assert [plain(f(n)) for n in (0, 3)] == [compared_by_identity(n) for n in (0, 3)]



def stacked_flags(xs):
    found = False
    for x in xs:
        if x > 1.5:
            found = True
    return ~jnp.array([found, True]), jnp.stack([found, False]).dtype == jnp.bool_


def test_a_jax_function_given_a_carried_bool_gets_a_bool_array():
    xs = jnp.array([1.0, 2.0])
    got = jax.jit(ag.convert(stacked_flags))(xs)
    want = stacked_flags(xs)
    assert got[0].tolist() == want[0].tolist() and bool(got[1]) is bool(want[1]) is True


def _indexed_by_flag(xs, t):
    found = False
    for x in xs:
        if x > t:
            found = True
    return xs[found]


def _flag_and_mask(xs, t):
    found = False
    for x in xs:
        if x > t:
            found = True
    both = found & (xs > 0)
    return both, jnp.sum(jnp.where(both, xs, 0.0))


def test_a_carried_bool_meeting_an_array_by_indexing_or_a_bitwise_op_is_the_bool_it_stands_for():
    xs = jnp.array([1.0, -2.0, 3.0])
    # the int it is carried as would index row 1: JAX's own answer for a traced bool index is this error
    with pytest.raises(Exception, match="boolean indices must be concrete"):
        jax.jit(ag.convert(_indexed_by_flag))(xs, 2.0)
    both, total = jax.jit(ag.convert(_flag_and_mask))(xs, 2.0)
    assert both.dtype == jnp.bool_ and both.tolist() == [True, False, True] and float(total) == 4.0
