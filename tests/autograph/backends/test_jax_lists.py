"""autograph.backends.jax_lists: lists appended to in loops over traced values."""
from __future__ import annotations

import numpy as np
import pytest

from tests.autograph.backends._jax_util import jax, jit, jnp, same
from jax import lax  # noqa: E402

from autograph.errors import StagingError  # noqa: E402
from tests.autograph.backends import _stacked_list_programs as _stacked  # noqa: E402


# --- lists -------------------------------------------------------------------------------------------

def doubled(xs):
    out = []
    for x in xs:
        out.append(x * 2)
    return jnp.stack(out)


def pairs(m):
    out = [jnp.zeros(())]
    for row in m:
        for v in row:
            out.append(v + 1)
    return out


def recurrence(xs):
    out = [jnp.float32(1.0)]
    for x in xs:
        out.append(out[-1] * x + out[0])       # reads the list while the loop fills it
    return out


def test_list_append_in_a_static_loop_is_a_preallocated_array():
    np.testing.assert_allclose(jit(recurrence)(jnp.array([1.0, 2.0, 3.0])), [1.0, 2.0, 5.0, 16.0])
    xs = jnp.arange(4.0)
    same(jit(doubled)(xs), jax.jit(lambda xs: lax.scan(lambda c, x: (c, x * 2), 0, xs)[1])(xs))
    out = jit(pairs)(jnp.ones((2, 3)))
    np.testing.assert_allclose(out, [0.0] + [2.0] * 6)


def append_in_while(n):
    out = []
    i = 0
    while i < n:
        out.append(i)
        i += 1
    return out


def append_in_one_branch(xs):
    out = []
    for x in xs:
        if x > 0:
            out.append(x)
    return out


def test_lists_of_unknown_length_are_clear_errors():
    with pytest.raises(StagingError, match="'out' is a list appended to in this `while` loop"):
        jit(append_in_while)(3)
    with pytest.raises(StagingError, match="'out' changes structure in this .if. on a tensor: it is a list of 1 "
                                           "items on one path and a list of 0 items"):
        jit(append_in_one_branch)(jnp.ones(3))


def running_halves(xs):
    s = 0
    out = []
    for _ in xs:
        out.append(s)
        s = s + 0.5          # the loop carries s as a float32, the list was preallocated as int32
    return out


def item_or_300(xs):
    out = []
    for v in xs:
        if v > 0:
            out.append(v)
        else:
            out.append(300)
    return out


def test_an_append_the_preallocated_lists_dtype_would_change_is_refused():
    # .at[i].set cast it silently: [0, 0, 1] for [0, 0.5, 1.0], 44 for 300 in an int8 list
    with pytest.raises(StagingError, match="append of a float32 value to a list of int32 values"):
        jit(running_halves)(jnp.arange(3))
    with pytest.raises(StagingError, match="'out' is an int8 tensor .* and an int32 tensor .* one dtype"):
        jit(item_or_300)(jnp.array([1, -1], jnp.int8))


# --- after the loop: a list, with Python's list operators ------------------------------------------------

@pytest.mark.parametrize("name", sorted(_stacked.programs(_stacked.doubled_list)))
def test_a_list_a_staged_loop_built_keeps_pythons_meaning_after_the_loop(name):
    program = _stacked.programs(_stacked.doubled_list)[name]
    xs = jnp.array([1, 2, 3])
    assert _stacked.as_python(jit(program)(xs)) == _stacked.as_python(program(xs))
