"""autograph.backends.jax: converted Python control flow under jax.jit against hand-written lax."""
from __future__ import annotations

import contextlib

import numpy as np
import pytest

from tests.autograph.backends._jax_util import jax, jit, jnp, primitives, same
from jax import lax  # noqa: E402

import autograph as ag  # noqa: E402
from tests.autograph.backends._programs import piecewise  # noqa: E402
from autograph.errors import StagingError  # noqa: E402


# --- if ----------------------------------------------------------------------------------------------

def relu(x):
    if x > 0:
        y = x
    else:
        y = 0          # a Python int: promoted to x's dtype, as jnp.where would
    return y


def relu_lax(x):
    return lax.cond(x > 0, lambda: x, lambda: jnp.zeros_like(x))


def sign_sum(x):
    if jnp.sum(x) > 0:
        y, n = x * x, 1
    else:
        y, n = -x // 2, -1
    return y, n


def sign_sum_lax(x):
    return lax.cond(jnp.sum(x) > 0, lambda: (x * x, 1), lambda: (-x // 2, -1))


@pytest.mark.parametrize("x", [3.0, -2.0, 0.0])
def test_if_is_lax_cond(x):
    same(jit(relu)(x), jax.jit(relu_lax)(x))
    assert "cond" in primitives(jit(relu), x)


@pytest.mark.parametrize("x", [[1, 2, 3], [-4, 1, -1]])
def test_if_with_several_variables(x):
    x = jnp.asarray(x)
    same(jit(sign_sum)(x), jax.jit(sign_sum_lax)(x))


def early_return(x):
    if x < 0:
        return -x
    return x * 3


def test_return_in_both_paths_and_conditional_expression():
    assert float(jit(early_return)(-2.0)) == 2.0 and float(jit(early_return)(2.0)) == 6.0
    assert float(jit(lambda x: x if x > 1 else 2 * x)(3.0)) == 3.0


def test_grad_through_a_converted_if():
    def f(x):
        if x > 1:
            y = x ** 3
        else:
            y = 2 * x
        return y

    def f_lax(x):
        return lax.cond(x > 1, lambda: x ** 3, lambda: 2 * x)
    for x in (2.0, 0.5):
        assert float(jax.grad(jit(f))(x)) == pytest.approx(float(jax.grad(f_lax)(x)))
    assert float(jax.grad(jit(f))(2.0)) == pytest.approx(12.0)


def test_vmap_of_a_converted_if_selects_per_element():
    np.testing.assert_allclose(jax.vmap(ag.convert(relu))(jnp.array([-1.0, 2.0, 0.5])), [0.0, 2.0, 0.5])


def mixed_dtypes(x):
    if x > 0:
        y = jnp.int32(1)
    else:
        y = jnp.float32(2)
    return y


def test_branches_with_different_dtypes_name_the_variable():
    with pytest.raises(StagingError, match="'y' is an int32 tensor .* in one branch"):
        jit(mixed_dtypes)(1.0)


def zero_first(x):
    if x > 0:
        y = 0          # the branch traced first is cast too (both orders of weak and strong)
    else:
        y = x
    return y


def append_in_both_branches(x):
    out = [x]
    if x > 0:
        out.append(x + 1)
    else:
        out.append(x - 1)
    return out


def keeps_a_string(x):
    mode = "up"
    label = ""
    if x > 0:
        x = x + 1
        label = mode
    return x, label


def changes_a_string(x):
    mode = "up"
    if x > 0:
        mode = "down"
    return x, mode


def test_python_scalars_lists_and_static_values_in_branches():
    assert [float(jit(zero_first)(v)) for v in (2.0, -2.0)] == [0.0, -2.0]
    assert jit(zero_first)(2.0).dtype == jnp.float32
    assert [float(v) for v in jit(append_in_both_branches)(1.0)] == append_in_both_branches(1.0)
    assert [float(v) for v in jit(append_in_both_branches)(-1.0)] == append_in_both_branches(-1.0)
    with pytest.raises(StagingError, match="'label' is the Python str 'up' in one branch of this `if`"):
        jit(keeps_a_string)(1.0)          # "" vs "up": depends on the traced condition
    with pytest.raises(StagingError, match="'mode' is the Python str 'down' in one branch"):
        jit(changes_a_string)(1.0)


def test_an_elif_chain_with_python_numbers_traces_linearly(capsys):
    f = jit(piecewise)
    got = [float(f(v)) for v in (-1.0, 3.5, 9.0)]
    traces = capsys.readouterr().out.count("traced leaf")
    assert got == [piecewise(v) for v in (-1.0, 3.5, 9.0)] == [0, 4, 18.0]
    assert 1 <= traces <= 2 * 10         # without the dtype hints: 2 ** 10


def test_non_scalar_condition_is_a_clear_error():
    with pytest.raises(StagingError, match=r"shape \(3,\).*jnp.any"):
        jit(relu)(jnp.ones(3))


# --- while -----------------------------------------------------------------------------------------

def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def collatz_lax(n):
    def body(c):
        n, steps = c
        return lax.cond(n % 2 == 0, lambda: n // 2, lambda: 3 * n + 1), steps + 1
    return lax.while_loop(lambda c: c[0] != 1, body, (n, 0))[1]


@pytest.mark.parametrize("n", [1, 6, 27])
def test_while_is_lax_while_loop(n):
    same(jit(collatz_steps)(n), jax.jit(collatz_lax)(n))
    assert int(jit(collatz_steps)(n)) == collatz_steps(n)
    assert {"while", "cond"} <= primitives(jit(collatz_steps), n)


def halve_until(x, limit):
    total = 0.0          # Python numbers entering the loop become arrays
    while x > limit:
        x = x / 2
        total += x
    return x, total


def test_python_numbers_in_a_staged_loop_become_arrays():
    x, total = jit(halve_until)(jnp.float32(100.0), jnp.float32(1.0))
    assert (float(x), float(total)) == halve_until(100.0, 1.0)
    assert total.dtype == jnp.float32


def while_break(n):
    i = 0
    while True:
        i += 1
        if i * i >= n:
            break
    return i


def test_break_in_a_traced_while():
    for n in (1, 10, 49):
        assert int(jit(while_break)(n)) == while_break(n)


def changes_dtype(n):
    x = jnp.int32(1)
    i = 0
    while i < n:
        x = x * 1.5
        i += 1
    return x


def changes_shape(n):
    x = jnp.zeros(1)
    while jnp.sum(x) < n:
        x = jnp.concatenate([x, jnp.ones(1)])
    return x


def test_loop_variable_changing_dtype_or_shape_names_it():
    with pytest.raises(StagingError, match="'x' changes dtype from int32 to float32"):
        jit(changes_dtype)(3)
    with pytest.raises(StagingError, match=r"'x' changes shape from \[1\] to \[2\] .* keeps one shape"):
        jit(changes_shape)(3.0)


def capped(x):
    while x < 10:
        ag.set_loop_options(maximum_iterations=3)
        x = x + 1
    return x


def pair_loop(x):
    pair = (x, x * 2)
    while pair[0] < 10:
        pair = (pair[0] + 1, pair[1] * 2)
    return pair


def test_loop_options_nested_state_and_vmap():
    assert float(jit(capped)(1.0)) == 4.0 and float(jit(capped)(9.5)) == 10.5
    same(jit(pair_loop)(1.0), jax.tree_util.tree_map(jnp.float32, pair_loop(1.0)))
    batched = jax.vmap(ag.convert(pair_loop))(jnp.array([1.0, 8.0]))
    np.testing.assert_allclose(batched[1], [1024.0, 64.0])


# --- for ---------------------------------------------------------------------------------------------

def sum_range(n):
    total = 0
    for i in range(n):
        total += i * i
    return total


def sum_range_lax(n):
    return lax.fori_loop(0, n, lambda i, t: t + i * i, 0)


@pytest.mark.parametrize("n", [0, 1, 7])
def test_for_over_range_with_a_traced_bound(n):
    same(jit(sum_range)(n), jax.jit(sum_range_lax)(n))
    assert "while" in primitives(jit(sum_range), n)


def stepped(start, stop):
    out = 0
    for i in range(start, stop, -3):
        out = out * 10 + i
    return out


def float_range(x):
    t = 0
    for i in range(x):
        t += i
    return t


def test_range_needs_integer_bounds():
    with pytest.raises(StagingError, match="range.. needs integers, got a float32 bound"):
        jit(float_range)(3.0)


def test_range_with_a_negative_step():
    for start, stop in ((10, 0), (2, 5), (9, -1)):
        assert int(jit(stepped)(start, stop)) == stepped(start, stop)


def running_max(xs):
    best = xs[0]
    for x in xs:
        if x > best:
            best = x
    return best


def test_for_over_an_array_iterates_its_first_axis():
    xs = jnp.array([3.0, 9.0, 1.0, 4.0])
    hand = jax.jit(lambda xs: lax.scan(lambda b, x: (lax.cond(x > b, lambda: x, lambda: b), None), xs[0], xs)[0])
    same(jit(running_max)(xs), hand(xs))
    assert {"scan", "cond"} <= primitives(jit(running_max), xs)
    rows = jnp.arange(6.0).reshape(3, 2)
    assert float(jit(lambda m: sum_rows(m))(rows)[1]) == 9.0


def sum_rows(m):
    acc = jnp.zeros(2)
    for row in m:
        acc = acc + row
    return acc


def test_grad_through_a_for_over_an_array():
    def loss(w, xs):
        total = 0.0
        for x in xs:
            total += jnp.tanh(w * x)
        return total
    xs = jnp.array([0.5, -1.0, 2.0])
    expected = jax.grad(lambda w: jnp.sum(jnp.tanh(w * xs)))(0.3)
    assert float(jax.grad(jit(loss))(0.3, xs)) == pytest.approx(float(expected), rel=1e-5)


def first_negative_index(xs):
    found = -1
    for i, x in enumerate(xs):
        if x < 0:
            found = i
            break
    return found


def skip_odd(xs, ys):
    total = 0.0
    for x, y in zip(xs, ys):
        if x % 2 == 1:
            continue
        total += x * y
    return total


def test_enumerate_zip_break_and_continue_over_arrays():
    for xs in ([1.0, 2.0, -3.0, -4.0], [1.0, 2.0]):
        assert int(jit(first_negative_index)(jnp.asarray(xs))) == first_negative_index(xs)
    xs, ys = jnp.arange(5.0), jnp.arange(10.0, 13.0)          # zip stops at the shortest
    assert float(jit(skip_odd)(xs, ys)) == skip_odd([0.0, 1.0, 2.0, 3.0, 4.0], [10.0, 11.0, 12.0])


def outside_for_statements(xs, ys):
    weighted = [i * x for i, x in enumerate(xs)]
    return sum(a * b for a, b in zip(xs, ys)), jnp.stack(weighted)


def list_of_traced_range(n):
    return list(range(n))


def test_enumerate_zip_and_range_outside_a_for_statement():
    xs = jnp.arange(3.0)
    same(jit(outside_for_statements)(xs, xs), outside_for_statements(xs, xs))
    with pytest.raises(StagingError, match="range.. with a traced bound has no length"):
        jit(list_of_traced_range)(3)


# fuzz mode g (tools/fuzz/jaxg.py), hand-shrunk: `enumerate(range(n))` of a traced `n` raised a TypeError from
# jnp.asarray, and a user's `except TypeError:` took it for the code's own error, returning its handler's value

def enumerate_traced_range(a, b):
    s = 0
    for i, v in enumerate(range(b, a, 2), 3):
        s += i * 10 + v
    return s


def enumerate_traced_range_break(a, b):
    s = 0
    for i, v in enumerate(range(a % 7), 2):
        if v > b:
            break
        s += i * 10 + v
    return s


def enumerate_traced_range_under_except(a):
    s = 0
    try:
        for i, v in enumerate(range(a % 4)):
            s += i * 10 + v
    except TypeError:
        s = -1
    return s


@pytest.mark.parametrize("a, b", [(0, 0), (9, -1), (8, 3), (-4, 2)])
def test_enumerate_over_a_range_with_a_traced_bound_is_the_ranges_loop_counting(a, b):
    assert int(jit(enumerate_traced_range)(a, b)) == enumerate_traced_range(a, b)
    assert int(jit(enumerate_traced_range_break)(a, b)) == enumerate_traced_range_break(a, b)
    assert int(jit(enumerate_traced_range_under_except)(a)) == enumerate_traced_range_under_except(a)


def zip_traced_range(a):
    s = 0
    try:
        for i, v in zip(range(a % 4), [5, 6, 7]):
            s += i * 10 + v
    except TypeError:
        s = -1
    return s


def reversed_traced_range(a):
    s = 0
    try:
        for i in reversed(range(a % 4)):
            s += i
    except TypeError:
        s = -1
    return s


def item_of_traced_range(a):
    try:
        return range(a % 4 + 1)[0]
    except TypeError:
        return -1


def in_traced_range(a, b):
    try:
        return b in range(a % 4)
    except TypeError:
        return -1


def sum_of_traced_range(a):
    try:
        return sum(range(a % 4))
    except ValueError:        # a StagingError is a ValueError: autograph's own errors pass the user's `except`
        return -1


def suppressed_sum_of_traced_range(a):
    s = -1
    with contextlib.suppress(ValueError):     # nor may a `with` swallow one
        s = sum(range(a % 4))
    return s


def enumerate_of_enumerate(xs):
    s = 0
    for i, (j, x) in enumerate(enumerate(xs)):
        s += i + j + x
    return s


@pytest.mark.parametrize("fn, args, message", [
    (zip_traced_range, (3,), "zip.. over a range.. with a traced bound"),
    (reversed_traced_range, (3,), "reversed.. of a range.. with a traced bound"),
    (item_of_traced_range, (3,), "an item of a range.. with a traced bound"),
    (in_traced_range, (3, 1), "`in` a range.. with a traced bound"),
    (sum_of_traced_range, (3,), "range.. with a traced bound has no length"),
    (suppressed_sum_of_traced_range, (3,), "range.. with a traced bound has no length"),
    (enumerate_of_enumerate, (jnp.arange(3),), "enumerate.. over an enumerate.. or zip.."),
])
def test_what_a_traced_range_cant_do_is_a_staging_error_no_except_clause_takes(fn, args, message):
    # each was a TypeError (or a StagingError, a ValueError) that the function's own `except` caught: -1
    with pytest.raises(StagingError, match=message):
        jit(fn)(*args)


def truth_of_ranges(a):
    r = range(a % 4)
    return (1 if r else 0), (not r), (1 if enumerate(r) else 0)


@pytest.mark.parametrize("a", [0, 3, 4, 6])
def test_the_truth_of_a_traced_range_is_its_length(a):
    # `if range(n)` raised jnp.asarray's TypeError inside the staged `if`; `not range(n)` jnp.logical_not's
    assert tuple(int(v) for v in jit(truth_of_ranges)(a)) == truth_of_ranges(a)


def negated(x):
    return not x


def test_not_is_pythons_truth_test():
    # `not` goes through the condition's checks: an array of several values has no truth value (it was negated
    # element by element); one value, of any shape, is one truth value
    with pytest.raises(StagingError, match="the condition of `not` is an array of shape"):
        jit(negated)(jnp.arange(3))
    assert bool(jit(negated)(jnp.zeros((1, 1)))) is True and bool(jit(negated)(jnp.asarray(2.5))) is False
