"""autograph.backends.jax: reverse-mode `jax.grad` through loops with a static bound (a masked `lax.scan`),
against the same loops written by hand with `lax.scan`, and their forward values against Python's."""
from __future__ import annotations

import pytest

from tests.autograph.backends._jax_util import jax, jit, jnp, primitives
from jax import lax  # noqa: E402

import autograph as ag  # noqa: E402


def grad_of(fn, argnums=0):
    return jax.jit(jax.grad(ag.convert(fn), argnums=argnums))


def close(a, b):
    assert float(a) == pytest.approx(float(b), rel=1e-5, abs=1e-6), (float(a), float(b))


# --- while with break and maximum_iterations -------------------------------------------------------

def grow(x, w):
    while x < 100.0:
        ag.set_loop_options(maximum_iterations=6)
        x = x * w + 0.5
        if x > 10.0:
            break
    return x


def grow_scan(x, w):
    def step(carry, _):
        x, done = carry
        live = jnp.logical_and(jnp.logical_not(done), x < 100.0)
        x = jnp.where(live, x * w + 0.5, x)
        return (x, jnp.logical_not(live) | (x > 10.0)), None
    return lax.scan(step, (x, False), None, length=6)[0][0]


def grow_python(x, w, cap=6):
    for _ in range(cap):
        if not x < 100.0:
            break
        x = x * w + 0.5
        if x > 10.0:
            break
    return x


@pytest.mark.parametrize("x, w", [(1.0, 1.5), (1.0, 3.0), (0.1, 1.1), (9.9, 2.0)])
def test_grad_through_a_while_with_break_and_maximum_iterations(x, w):
    for argnums in (0, 1):
        close(grad_of(grow, argnums)(x, w), jax.jit(jax.grad(grow_scan, argnums))(x, w))
    close(jax.grad(jit(grow), 1)(x, w), jax.grad(grow_scan, 1)(x, w))    # grad of the jitted function too
    close(jit(grow)(x, w), grow_python(x, w))
    close(grad_of(grow, 1)(x, w), jax.grad(grow_python, 1)(x, w))     # and Python's loop, differentiated eagerly
    assert "while" not in primitives(ag.convert(grow), x, w) and "scan" in primitives(ag.convert(grow), x, w)


def grow_forever(x, w):
    while True:               # Python's test: the first iteration runs in Python, the rest is staged
        ag.set_loop_options(maximum_iterations=6)
        x = x * w + 0.5
        if x > 10.0:
            break
    return x


def test_maximum_iterations_counts_the_iterations_run_in_python_before_staging():
    close(jit(grow_forever)(0.1, 1.1), grow_python(0.1, 1.1))


def capped(x, w):
    while x < 100.0:
        ag.set_loop_options(maximum_iterations=3)
        x = x * w
    return x


def test_maximum_iterations_still_stops_the_loop_and_its_gradient():
    close(jit(capped)(1.0, 2.0), 8.0)                       # stopped by the cap, as lax.while_loop does
    close(jit(capped)(30.0, 2.0), 120.0)                    # stopped by the test
    close(grad_of(capped, 1)(1.0, 2.0), 3 * 2.0 ** 2)       # d(w^3)/dw
    close(grad_of(capped, 1)(30.0, 2.0), 30.0 * 2 * 2.0)    # d(30 w^2)/dw


def counter_only(n):
    steps = 0
    while n > 1:
        ag.set_loop_options(maximum_iterations=50)
        n = n // 2
        steps += 1
    return steps


def python_zero_becomes_float(xs_sum, w):
    total = 0                 # a Python int the body makes a float: the loop carries a float after all
    while total < xs_sum:
        ag.set_loop_options(maximum_iterations=10)
        total += w
    return total


def test_loops_carrying_only_integers_keep_the_while_loop_and_python_numbers_are_promoted():
    assert "while" in primitives(ag.convert(counter_only), 40) and int(jit(counter_only)(40)) == 5
    assert "scan" in primitives(ag.convert(python_zero_becomes_float), 4.0, 1.5)
    out = jit(python_zero_becomes_float)(4.0, 1.5)
    # jit makes the Python floats 4.0 and 1.5 weakly typed arrays: the total is one too, as Python's float is
    assert float(out) == 4.5 and out.dtype == jnp.float32 and out.weak_type
    close(grad_of(python_zero_becomes_float, 1)(4.0, 1.5), 3.0)


# --- for with break / return over an array ---------------------------------------------------------

def weighted_until(w, xs):
    total = 0.0
    for x in xs:
        total += w * x
        if total > 3.0:
            break
    return total


def weighted_until_scan(w, xs):
    def step(carry, x):
        total, done = carry
        total = jnp.where(done, total, total + w * x)
        return (total, done | (total > 3.0)), None
    return lax.scan(step, (0.0, False), xs)[0][0]


def first_scaled_above(w, xs):
    for x in xs:
        if x * w > 1.0:
            return x * w * w
    return w


def first_scaled_above_scan(w, xs):
    def step(carry, x):
        out, done = carry
        hit = jnp.logical_and(jnp.logical_not(done), x * w > 1.0)
        return (jnp.where(hit, x * w * w, out), done | hit), None
    out, done = lax.scan(step, (0.0, False), xs)[0]
    return jnp.where(done, out, w)


ARRAYS = [[0.5, 1.0, 2.0, 4.0], [3.0, -1.0, 2.0], [0.1, 0.2], [5.0]]


@pytest.mark.parametrize("xs", ARRAYS)
@pytest.mark.parametrize("w", [0.4, 1.3])
def test_grad_through_a_for_with_break_or_return_over_an_array(xs, w):
    xs = jnp.asarray(xs)
    for converted, hand in ((weighted_until, weighted_until_scan), (first_scaled_above, first_scaled_above_scan)):
        close(grad_of(converted)(w, xs), jax.jit(jax.grad(hand))(w, xs))
        close(jit(converted)(w, xs), converted(w, xs.tolist()))
        assert "while" not in primitives(ag.convert(converted), w, xs)


# --- for i in range(n), n static, inside jit --------------------------------------------------------

def compound(x, rate):
    for i in range(6):          # a Python range: the traced `break` stages the rest of it as a masked scan
        x = x * (1 + rate) + i
        if x > 20.0:
            break
    return x


def compound_scan(x, rate):
    def step(carry, i):
        x, done = carry
        x = jnp.where(done, x, x * (1 + rate) + i)
        return (x, done | (x > 20.0)), None
    return lax.scan(step, (x, False), jnp.arange(6))[0][0]


def polynomial(x):
    total = 0.0
    for i in range(5):          # no break: a Python loop, unrolled while tracing
        total += x ** i
    return total


def capped_range(x, n):
    for _ in range(n):          # a traced bound, capped: a scan of 4 steps
        ag.set_loop_options(maximum_iterations=4)
        x = x * 1.5
    return x


@pytest.mark.parametrize("x, rate", [(1.0, 0.5), (1.0, 2.0), (15.0, 0.1)])
def test_grad_through_a_for_over_a_static_range_inside_jit(x, rate):
    for argnums in (0, 1):
        close(grad_of(compound, argnums)(x, rate), jax.jit(jax.grad(compound_scan, argnums))(x, rate))
    close(jit(compound)(x, rate), compound(x, rate))
    close(grad_of(polynomial)(x), sum(i * x ** (i - 1) for i in range(1, 5)))


def test_maximum_iterations_caps_a_for_over_a_traced_range():
    for n in (0, 2, 4, 9):
        close(jit(capped_range)(2.0, n), 2.0 * 1.5 ** min(n, 4))
        close(grad_of(capped_range)(2.0, n), 1.5 ** min(n, 4))
    assert "scan" in primitives(ag.convert(capped_range), 2.0, 9)


# --- side effects: a print in a masked step does not run ------------------------------------------

def noisy(x):
    while x < 10.0:
        ag.set_loop_options(maximum_iterations=8)
        print("x", x)
        x = x * 2.0
    return x


def test_a_print_in_the_body_runs_once_per_iteration_not_per_step(capsys):
    close(jit(noisy)(1.5), 12.0)
    assert capsys.readouterr().out.splitlines() == ["x 1.5", "x 3.0", "x 6.0"]     # 3 iterations of 8 steps
    close(grad_of(noisy)(1.5), 8.0)
    assert len(capsys.readouterr().out.splitlines()) == 3


def test_vmap_and_forward_mode_through_the_masked_scan():
    xs = jnp.array([1.0, 1.0, 9.9])
    ws = jnp.array([1.5, 3.0, 2.0])
    batched = jax.vmap(ag.convert(grow))(xs, ws)
    assert [float(v) for v in batched] == pytest.approx([grow_python(x, w) for x, w in zip(xs.tolist(), ws.tolist())])
    tangent = jax.jvp(lambda w: jit(grow)(1.0, w), (1.5,), (1.0,))[1]
    close(tangent, jax.grad(grow_scan, 1)(1.0, 1.5))


def noisy_long(x):
    while x < 10.0:
        ag.set_loop_options(maximum_iterations=30)     # 30 steps: 5 chunks of 6
        print("x", x)
        x = x * 2.0
    return x


def test_empty_and_zero_bounds_and_a_partial_last_chunk(capsys):
    empty = jnp.zeros((0,))
    close(jit(weighted_until)(2.0, empty), 0.0)
    close(grad_of(weighted_until)(2.0, empty), 0.0)
    close(jit(capped_range)(2.0, 0), 2.0)
    xs = jnp.linspace(0.01, 0.27, 27)      # 27 rows: 5 chunks of 6 steps, the last 3 of them padding
    for w in (0.1, 1.0, 21.0):             # no break, a late break (row 23), an early one (row 4)
        close(grad_of(weighted_until)(w, xs), jax.grad(weighted_until_scan)(w, xs))
        close(jit(weighted_until)(w, xs), weighted_until(w, xs.tolist()))
    close(jit(noisy_long)(0.3), 19.2)
    assert len(capsys.readouterr().out.splitlines()) == 6                     # 6 iterations of 30 steps
    close(grad_of(noisy_long)(0.3), 64.0)


def doubled_below_ten(x):
    while x < 10.0:
        ag.set_loop_options(maximum_iterations=30)
        assert x < 10.0, "x reached 10"         # false on the state after the loop: masked steps must not check it
        x = x * 2.0
    return x


def test_an_assert_in_the_body_is_not_checked_in_masked_steps():
    close(ag.jax.jit(doubled_below_ten, checks=True)(0.3), 19.2)


def doubling(x):
    while x < 10.0:
        ag.set_loop_options(maximum_iterations=30)
        x = x * 2.0
    return x


def test_vmap_of_a_loop_in_chunks():
    xs = jnp.array([0.3, 5.0, 12.0])
    assert jax.vmap(ag.convert(doubling))(xs).tolist() == pytest.approx([19.2, 10.0, 12.0])
    assert jax.jit(jax.vmap(jax.grad(ag.convert(doubling))))(xs).tolist() == [64.0, 2.0, 1.0]
