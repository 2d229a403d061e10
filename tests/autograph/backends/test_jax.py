"""autograph.backends.jax: converted Python control flow under jax.jit against hand-written lax."""
from __future__ import annotations

import contextlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tests.autograph.backends._jax_util import jax, jit, jnp, primitives, same
from jax import lax  # noqa: E402

import autograph as ag  # noqa: E402
from autograph import backends  # noqa: E402
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


# --- logical ops, print, assert, builtins -----------------------------------------------------------

calls = []


def noted(x):
    jax.debug.callback(lambda: calls.append(1))
    return x > 1


def lazy_and(x):
    return x > 0 and noted(x)


def lazy_or(x):
    return x > 0 or noted(x)


def test_and_or_are_lazy_and_not_is_logical_not():
    calls.clear()
    assert bool(jit(lazy_and)(-1.0)) is False and bool(jit(lazy_and)(2.0)) is True
    jax.effects_barrier()
    assert len(calls) == 1                       # the right operand ran only for x = 2
    calls.clear()
    assert bool(jit(lazy_or)(1.0)) is True and bool(jit(lazy_or)(-3.0)) is False
    jax.effects_barrier()
    assert len(calls) == 1
    assert "cond" in primitives(jit(lazy_and), 1.0)
    assert bool(jit(lambda x: not x > 0)(-1.0)) is True
    assert "not" in primitives(jit(lambda x: not x > 0), 1.0)


def shout(x):
    print("x =", x, "{braces}")
    return x + 1


def test_print_is_jax_debug_print_and_runs_every_call(capsys):
    f = jit(shout)
    f(1.0)
    f(2.0)
    jax.effects_barrier()
    assert capsys.readouterr().out.splitlines() == ["x = 1.0 {braces}", "x = 2.0 {braces}"]


def counts_then_reports(x):
    i = 0
    while i < x:
        print("step", i, i * 0.5, sep="|", end=";\n")
        i += 1
    if x > 1:
        print(x, "big", [1, 2])
    return i


def test_prints_come_in_the_programs_order(capsys):
    jit(counts_then_reports)(jnp.int32(3))     # was "3 big [1, 2]" first: jax.debug.print is unordered by default
    jax.effects_barrier()
    out = capsys.readouterr().out
    counts_then_reports(jnp.int32(3))
    assert out == capsys.readouterr().out == "step|0|0.0;\nstep|1|0.5;\nstep|2|1.0;\n3 big [1, 2]\n"


def checked(x):
    assert x > 0, "x must be positive"
    return x * 2


def test_assert_needs_checkify_and_reports_the_message():
    f = ag.jax.jit(checked, checks=True)
    assert float(f(2.0)) == 4.0
    with pytest.raises(AssertionError, match="x must be positive"):
        f(-1.0)
    with pytest.raises(ValueError, match="checkify"):
        jit(checked)(1.0)


def casts(xs):
    return int(xs[0]), float(len(xs)), len(xs)


def test_int_float_len():
    i, f, n = jit(casts)(jnp.array([2.7, 1.0, 3.0]))
    assert int(i) == 2 and i.dtype == jnp.int32 and float(f) == 3.0 and f.dtype == jnp.float32 and n == 3


def range_lengths(n):
    return len(range(2, n, 3)), len(range(n, 0, -2)), len(range(n))


@pytest.mark.parametrize("n", [-1, 0, 1, 10])
def test_len_of_a_range_with_a_traced_bound(n):
    assert tuple(int(v) for v in jit(range_lengths)(n)) == range_lengths(n)


def stepped_sum(n, step):
    t = 0
    for i in range(0, n, step):
        t = t + i
    return t


def test_a_traced_step_of_zero_raises_pythons_error_when_the_program_runs():
    f = jit(stepped_sum)
    assert [int(f(10, k)) for k in (3, -1, 20)] == [stepped_sum(10, k) for k in (3, -1, 20)]
    with pytest.raises(Exception, match="range\\(\\) arg 3 must not be zero"):   # was 0: the loop ran no times
        jax.block_until_ready(f(10, 0))


# --- outside jit, the convenience, lazy import -------------------------------------------------------

def test_concrete_arrays_keep_python_semantics():
    x = jnp.asarray(2.0)
    assert backends.backend_for(x) is None
    assert float(ag.convert(relu)(x)) == 2.0
    assert [float(v) for v in ag.convert(running_max)(jnp.array([1.0, 5.0, 2.0]))[None]] == [5.0]
    assert float(jax.grad(ag.convert(relu))(3.0)) == 1.0     # concrete grad tracers: a Python if


def test_ag_jax_jit_takes_jit_options():
    @ag.jax.jit(static_argnums=1)
    def power(x, n):
        out = 1.0
        for _ in range(n):          # a Python range: unrolled
            out = out * x
        while out > 100:
            out = out / 10
        return out
    assert float(power(3.0, 5)) == pytest.approx(24.3)
    assert "while" in primitives(lambda x: power(x, 2), 3.0)
    assert any(b.name == "jax" for b in backends.registered())


def test_import_autograph_does_not_import_jax_and_the_backend_loads_on_use(tmp_path):
    (tmp_path / "user.py").write_text(textwrap.dedent("""
        def clip(x):
            if x > 1:
                x = x - 1
            return x
    """))
    script = textwrap.dedent("""
        import sys
        import autograph as ag
        assert 'jax' not in sys.modules, 'import autograph imported jax'
        import jax
        import user
        assert float(jax.jit(ag.convert(user.clip))(3.0)) == 2.0
        assert float(ag.jax.jit(user.clip)(0.5)) == 0.5
        print('ok')
    """)
    env_path = f"{tmp_path}:{sys.path[0] if sys.path[0] else '.'}"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                            cwd=str(tmp_path), env={"PYTHONPATH": env_path + ":" + _repo_root(),
                                                    "PATH": "/usr/bin:/bin", "JAX_PLATFORMS": "cpu"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def _repo_root() -> str:
    import pathlib
    return str(pathlib.Path(ag.__file__).resolve().parent.parent)


# --- a table of programs: converted under jax.jit vs the original on Python values -----------------

def loop_continue_break_else(a, b):
    s = 0
    i = 0
    while i < a:
        i += 1
        if i % 3 == 0:
            continue
        if s > 20 and b > 0:
            break
        s = s + i * b if i % 2 else s - b
    else:
        s = s + 100
    return s


def nested_for_else(a, b):
    t = 0
    for i in range(a):
        for j in range(b):
            if j > i:
                break
            t += i * j
        else:
            t -= 1
    return t


def elif_chain_in_while(a, b):
    x, y = a, b
    while x > 0 or y > 0:
        if x > y:
            x -= 2
        elif x == y:
            x -= 1
            y -= 1
        else:
            y -= 3
    return x, y


def not_and_ternary(a, b):
    r = 0
    if not (a > 2 and b < 3):
        r = a - b
    elif a == b:
        r = 7
    return r if r > 0 else -r


def stepped_range_continue(a, b):
    c = 0
    for k in range(a, b, 2):
        if k < 0:
            continue
        c += k
    return c


def and_in_while_test(a, b):
    found = False
    i = 0
    while i < a and not found:
        i += 1
        found = i * b > 6
    return i, found


PROGRAMS = [loop_continue_break_else, nested_for_else, elif_chain_in_while, not_and_ternary,
            stepped_range_continue, and_in_while_test]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda f: f.__name__)
def test_programs_agree_with_python_on_every_input(program):
    f = jit(program)
    for a in range(-2, 6):
        for b in range(-2, 5):
            got = jax.tree_util.tree_map(lambda v: v.item(), f(a, b))
            assert (list(got) if isinstance(got, tuple) else got) == (
                list(program(a, b)) if isinstance(program(a, b), tuple) else program(a, b)), (a, b)


def int8_or_300(x):
    if x > 0:
        y = jnp.int8(3)
    else:
        y = 300
    return y


def test_a_python_int_that_the_other_branch_dtype_cannot_hold_is_refused():
    # 300 as int8 would be 44: JAX's weak typing wraps it silently; the staged `if` names the variable instead
    with pytest.raises(StagingError, match="'y' is an int8 tensor .* and the Python int 300 .* an int can't become "
                                           "int8 without changing its value"):
        jit(int8_or_300)(1)


def x_or_one(c, x):
    if c > 0:
        y = x
    else:
        y = 1
    return y * jnp.ones(2, jnp.int8)


def x_until_one(x, n):
    y = x
    for _ in range(n):
        y = 1
    return y * jnp.ones(2, jnp.int8)


def x_until_one_over(x, xs):
    y = x
    for _ in xs:
        y = 1
    return y * jnp.ones(2, jnp.int8)


def one_or_two_and_a_half(c):
    if c > 0:
        y = 1
    else:
        y = 2.5
    return y * jnp.ones(2, jnp.float16)


def test_a_variable_strongly_typed_on_one_path_stays_strong_after_an_if_or_a_loop():
    # lax.cond and lax loops took the weak type of one path: the int32 300 came out weak, and an int8 times it
    # was an int8, 44
    x = jnp.int32(300)
    for c in (0, 1):
        out = jit(x_or_one)(c, x)
        assert out.dtype == jnp.int32 and out.tolist() == ([300, 300] if c else [1, 1])
    for f, arg in ((x_until_one, 0), (x_until_one_over, jnp.zeros(0))):
        out = jit(f)(x, arg)
        assert out.dtype == jnp.int32 and out.tolist() == [300, 300], f.__name__
    # two Python numbers stay weak, as Python's numbers would promote: 1 and 2.5 times a float16 are float16
    for c, want in ((1, 1.0), (0, 2.5)):
        out = jit(one_or_two_and_a_half)(c)
        assert out.dtype == jnp.float16 and out.tolist() == [want, want]


def f16_or(x, number):
    if x > 0:
        y = x
    else:
        y = number
    return y


@pytest.mark.parametrize("number", [1e5, 1e-8])
def test_a_python_float_the_other_branch_float_dtype_overflows_or_flushes_to_zero_is_refused(number):
    # as float16, 1e5 is inf and 1e-8 is 0
    with pytest.raises(StagingError, match="'y' is a float16 tensor .* can't become float16"):
        ag.jax.jit(f16_or, static_argnums=1)(jnp.float16(1), number)
    assert ag.jax.jit(f16_or, static_argnums=1)(jnp.float16(-1), 0.1).dtype == jnp.float16      # rounding is fine


def tenths_of(n, start):
    s = start
    i = 0
    while i < n:
        s = s / 10
        i += 1
    return s


@pytest.mark.parametrize("start, message", [(1e39, "the Python float 1e\\+39 before this `while` loop .* can't "
                                                    "become float32"),
                                            (2 ** 40, "the Python int 1099511627776 before .* can't become int32")])
def test_a_python_number_its_loop_dtype_cannot_hold_is_refused_naming_it(start, message):
    # 1e39 was carried as inf; 2**40 raised JAX's own OverflowError, naming no variable
    with pytest.raises(StagingError, match="'s' is " + message):
        ag.jax.jit(tenths_of, static_argnums=1)(2, start)


def big_or_one(c):
    if c > 0:
        y = 2 ** 40
    else:
        y = 1
    return y


def test_a_python_int_beyond_int32_in_a_branch_is_refused_naming_it():
    # the branch traced first lifted 2**40 to JAX's int32 and raised JAX's OverflowError, naming no variable
    with pytest.raises(StagingError, match="'y' is the Python int 1099511627776 .* an int32 tensor, which can't "
                                           "hold 1099511627776 exactly"):
        jit(big_or_one)(1)


def none_until_a_row(xs):
    m = None
    for v in xs:
        m = v
    return m


def dict_keys_differ(c, x):
    if c > 0:
        y = {"a": x}
    else:
        y = {"b": x}
    return y


def test_structure_errors_say_none_and_the_dict_keys():
    # they said "a NoneType", and "a dict of 1 vs a dict of 1"
    with pytest.raises(StagingError, match="'m' changes structure .*: it is None on one path and a single value"):
        jit(none_until_a_row)(jnp.arange(2))
    with pytest.raises(StagingError, match=r"a dict with keys \['a'\] at .* vs a dict with keys \['b'\]"):
        jit(dict_keys_differ)(1, 2)


def join_later(c, c2, x8):
    y = 300 if c > 0 else 1          # a weakly typed int32 whose value tracing does not know
    if c2 > 0:
        z = y
    else:
        z = x8
    return z


def float_join_later(c, xh):
    y = 1e5 if c > 0 else 2.0
    if c > 1:
        z = y
    else:
        z = xh
    return z


def small_constant_or_int8(c, x8):
    return x8 if c > 0 else 3        # a Python 3 fits int8: the result is int8, as jnp.where gives it


def test_a_weak_array_is_not_joined_into_a_dtype_that_may_not_hold_it():
    # JAX's weak typing would make z an int8 (300 wraps to 44) and a float16 (1e5 becomes inf)
    with pytest.raises(StagingError, match="'z' is an int32 tensor .* and an int8 tensor"):
        jit(join_later)(1, 1, jnp.int8(3))
    with pytest.raises(StagingError, match="'z' is a float32 tensor .* and a float16 tensor"):
        jit(float_join_later)(2, jnp.float16(1))
    out = jit(small_constant_or_int8)(-1, jnp.int8(5))
    assert int(out) == 3 and out.dtype == jnp.int8


def item_in_try(x):
    try:
        y = x.item() + 1          # concrete in Python; a ConcretizationTypeError on a tracer
        r = 1
    except Exception:
        r = 2
    return r


def test_a_concretization_error_passes_the_users_except_clause():
    # the user's `except Exception` took it for the program's own error: 2 where Python gives 1
    assert item_in_try(np.float32(3.0)) == 1
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jit(item_in_try)(jnp.float32(3.0))


def item_in_suppressing_with(x):
    r = 0
    with contextlib.suppress(Exception):
        y = x.item()              # concrete in Python; a ConcretizationTypeError on a tracer
        r = 1
    return r


def test_a_suppressing_with_does_not_swallow_a_concretization_error():
    # contextlib.suppress swallowed it under jax.jit: 0 where Python gives 1 (converters/exceptions.py)
    assert item_in_suppressing_with(np.float32(3.0)) == 1
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jit(item_in_suppressing_with)(jnp.float32(3.0))
