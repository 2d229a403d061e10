"""`ag.jax.jit(f, checks=...)` with checkify's division checks: Python's ZeroDivisionError where a carried int is
zero (a plain `jax.jit` can't see the division: `10 // s` gives an arbitrary int, docs/backends.md)."""
from __future__ import annotations

import pytest

from tests.autograph.backends._jax_util import jax  # noqa: F401 - skips without JAX

import autograph as ag  # noqa: E402


def share(n):
    parts = 0
    while parts < n:
        parts += 1
    return 10 // parts


def test_jit_with_division_checks_raises_python_s_zero_division_error_where_a_carried_int_is_zero():
    from jax.experimental import checkify

    f = ag.jax.jit(share, checks=checkify.user_checks | checkify.div_checks)
    assert int(f(2)) == 5
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        f(0)


def asserted(n):
    assert n < 10, "too big"
    return n


def test_jit_with_checks_true_still_raises_assertion_error_for_an_assert():
    with pytest.raises(AssertionError, match="too big"):
        ag.jax.jit(asserted, checks=True)(20)
