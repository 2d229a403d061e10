"""autograph.backends.jax: `return` inside loops over traced values (the backend's probe and zeros_like)."""
from __future__ import annotations

import pathlib

import pytest

from tests.autograph.backends._jax_util import jax, jit, jnp, primitives

import autograph as ag  # noqa: E402
from autograph.errors import StagingError  # noqa: E402


# --- return inside loops over traced values --------------------------------------------------------

def first_above(xs, t):
    for x in xs:            # a masked lax.scan over the rows: after the return, steps pass the state on
        if x > t:
            return x
    return -1.0


def first_square_above(n, limit):
    for i in range(n):      # a traced bound
        if i * i > limit:
            return i
    return -1


def first_pair_over(xs, ys, limit):
    for x in xs:
        for y in ys:
            if x * y > limit:
                return x, y
    return 0.0, 0.0


def classify(xs, t):
    for x in xs:
        if x > t:
            if x > 2 * t:
                return 2, x
            else:
                return 1, x
        elif x < -t:
            return -1, x
    return 0, 0.0


def doubled_once_over(limit):
    i, s = 0, 0.0           # Python numbers: the loop carries them as arrays, and so must its probe
    while i < limit:
        s = s + 1.5
        if s > 4:
            return s * 2
        i += 1
    return s


def total_until(xs, limit):
    total = 0.0
    for x in xs:
        total += x
        if total > limit:
            return total
    return -total


def zero_or_last(xs):
    for x in xs:
        if x < 0:
            return 0         # a Python int here, a float array after the loop: the placeholder stays weakly typed
    return xs[-1] * 2


def as_python(value):
    return jax.tree_util.tree_map(lambda v: v.item(), value)


ROWS = [[1.0, 2.0, 3.0], [0.5, -3.0, 5.0], [0.5, 1.5, 5.0], [0.0, 0.0, 0.0], [9.0, -9.0, 1.0]]


def test_return_inside_a_for_over_an_array_matches_python():
    with_threshold = [jit(f) for f in (first_above, classify, total_until)]
    last = jit(zero_or_last)
    for xs in ROWS:
        for t in (-1.0, 0.5, 1.0, 2.5, 10.0):
            for converted, original in zip(with_threshold, (first_above, classify, total_until)):
                assert as_python(converted(jnp.asarray(xs), t)) == original(xs, t), (original.__name__, xs, t)
        assert as_python(last(jnp.asarray(xs))) == zero_or_last(xs), xs
    assert "while" not in primitives(jit(first_above), jnp.asarray(ROWS[0]), 1.0)    # a scan: see test_jax_grad.py


def test_return_inside_a_for_over_a_traced_range_and_a_while():
    squares, doubled = jit(first_square_above), jit(doubled_once_over)
    for n in (0, 3, 10):
        for limit in (-1, 5, 20):
            assert int(squares(n, limit)) == first_square_above(n, limit), (n, limit)
    for limit in (0, 1, 2, 3, 10):
        assert float(doubled(limit)) == doubled_once_over(limit), limit
    assert doubled(10).dtype == jnp.float32


def test_return_of_a_tuple_from_nested_loops():
    xs, ys, pair = [1.0, 2.0, 3.0], [1.0, 2.0], jit(first_pair_over)
    for limit in (0.5, 3.5, 5.5, 7.0):
        assert as_python(pair(jnp.asarray(xs), jnp.asarray(ys), limit)) == first_pair_over(xs, ys, limit), limit


def test_return_inside_a_loop_under_vmap():
    kinds, values = jax.vmap(ag.convert(classify), in_axes=(0, None))(jnp.asarray(ROWS), 1.0)
    assert list(zip(kinds.tolist(), values.tolist())) == [classify(xs, 1.0) for xs in ROWS]


def return_in_loop(xs):
    total = 0.0
    for x in xs:
        if x < 0:
            return total
        total += x


def return_in_one_branch(x):
    if x > 0:
        return x


def test_a_function_that_may_end_without_return_on_a_traced_path_is_a_clear_error():
    for fn, args in ((return_in_loop, (jnp.ones(3),)), (return_in_one_branch, (1.0,))):
        with pytest.raises(StagingError, match=f"{fn.__name__} ends without a `return`") as info:
            jit(fn)(*args)
        assert f"{pathlib.Path(__file__).name}:{fn.__code__.co_firstlineno}" in str(info.value)
    assert float(ag.convert(return_in_one_branch)(2.0)) == 2.0        # concrete values: Python semantics
