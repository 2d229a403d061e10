"""autograph.backends.jax (test_jax.py, continued): logical ops, print, assert and builtins under jax.jit, use
outside jit, and a table of programs converted under jax.jit against the original on Python values."""
from __future__ import annotations

import contextlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tests.autograph.backends._jax_util import jax, jit, jnp, primitives

import autograph as ag  # noqa: E402
from autograph import backends  # noqa: E402
from tests.autograph.backends.test_jax import relu, running_max  # noqa: E402
from autograph.errors import StagingError  # noqa: E402


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
