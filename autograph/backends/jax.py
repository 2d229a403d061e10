"""JAX as an autograph backend: Python `if`/`while`/`for` under `jax.jit`.

Imported lazily: `import autograph` never imports JAX. The first time a
converted function runs after the program imported `jax` (or a JAX value
reaches `autograph.backends.backend_for`), the registry imports this module,
which registers the backend. Use it as

    import jax
    import autograph as ag

    @ag.jax.jit                      # = jax.jit(ag.convert(f))
    def f(x):
        if x.sum() > 0:              # a lax.cond
            x = x * 2
        return x

Only tracers that are not concrete are staged (inside `jax.jit`, `vmap`,
`lax` bodies). Concrete arrays, and tracers of `jax.grad` outside `jit`,
keep Python semantics. What each construct becomes on a traced value:

| Python | JAX |
|---|---|
| `if`, `x if c else y` | `lax.cond` |
| `while` | `lax.while_loop`; with `set_loop_options(maximum_iterations=n)`, a masked `lax.scan` (below) |
| `for x in array` | `lax.scan` over the first axis; with `break`/`return`, a masked `lax.scan` (below) |
| `return` inside a loop | the loop stops; a zero of the returned value's type (from `jax.eval_shape`) stands in until then |
| `for i in range(n)` (traced `n`) | `lax.while_loop` over `i`; with `maximum_iterations`, a masked `lax.scan` |
| `for i in range(6)` that a traced `break` stops | the rest of the range: a masked `lax.scan` |
| `for k, i in enumerate(range(n))` (traced `n`) | the range's loop, `k` counted from `i`; `zip` over such a range, `reversed`, an item, `in` and `bool()` of it are StagingErrors; `if range(n)` tests its length |
| `and`, `or`, `not` | `lax.cond` on the left operand (lazy), `jnp.logical_not` |
| `print` | `jax.debug.print` |
| `assert` | `checkify.check` (wrap in `checkify.checkify`, or `ag.jax.jit(f, checks=True)`) |
| `list.append` in a loop | a preallocated array when the trip count is static; after the loop, a `StackedList` of it with a list's operators (see jax_lists.py) |

Reverse-mode `jax.grad` can't differentiate `lax.while_loop`: a loop with a static bound that carries a
float is a masked `lax.scan` instead, whatever the transformation; jax_scan.py says how, why and at what
cost.
"""
from __future__ import annotations

import builtins
import functools
import sys
from typing import Any, Callable, Optional

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from autograph import backends
from autograph.backends import iteration, jax_bools, jax_lists, jax_scan, jax_state, primitives, staging
from autograph.backends.jax_state import RULES
from autograph.errors import StagingError, at_user_line
from autograph.operators.variables import is_undefined

__all__ = ["jit", "BACKEND", "JaxRange", "JaxEnumerate", "JaxZip"]

try:                                        # JAX has no public "am I tracing?" API
    from jax._src.core import is_concrete as _is_concrete
    from jax._src.core import trace_ctx as _trace_ctx
except ImportError:                         # another JAX: treat every tracer as staged, always run generated code
    _trace_ctx = None

    def _is_concrete(value) -> bool:
        return False


def _is_staging() -> bool:
    """Is JAX tracing now (jit, grad, vmap, a lax body)? Cheap: read on every converted call."""
    return not _trace_ctx.is_top_level()


def _is_staged(value) -> bool:
    """A tracer without a concrete value (a `jit` argument), or one of our staged records."""
    if isinstance(value, jax.core.Tracer):
        return not _is_concrete(value)
    return True


# --- predicates and names -------------------------------------------------------------------------

def _predicate(value, construct: str):
    """`value` as a scalar bool array, as Python's truth test would see it (a range is true when it is not
    empty; an enumerate or zip object, an iterator, always is)."""
    if isinstance(value, (JaxRange, jax_lists.StackedList)):
        return _len(value) > 0
    if isinstance(value, iteration.StagedRows):
        return jnp.asarray(True)
    x = jnp.asarray(value)
    if x.shape != ():
        if x.size != 1:
            raise primitives.not_one_value(construct, f"an array of shape {x.shape}", "jnp.any(...) or jnp.all(...)")
        x = x.reshape(())
    return x if x.dtype == jnp.bool_ else x != 0


# --- if ----------------------------------------------------------------------------------------------

def _cond(pred, true_fn, false_fn, names=(), construct: str = "this `if`"):
    """`if` on a traced value: `lax.cond` (staging.cond works out which values are static and each carried
    one's dtype; a Python bool both branches give is carried as an int: jax_bools.py)."""
    return jax_bools.cond(lambda p, t, f: staging.cond(RULES, _lax_cond, p, t, f, names, construct),
                          _predicate(pred, construct), true_fn, false_fn)


def _lax_cond(pred, true_run, false_run):
    """`lax.cond`, whose result is weakly typed only where both branches' are: lax.cond takes the weak type of
    one branch, so `y = x` (an int32 array) against `y = 1` made `y * int8_array` an int8 (300 became 44)."""
    weak = {}

    def watched(run, key):
        def traced():
            out = run()
            weak[key] = [jax_state.aval(v).weak_type for v in out]
            return out
        return traced
    out = lax.cond(pred, watched(true_run, True), watched(false_run, False))
    return [v if weak[True][k] and weak[False][k] else jax_state.strong(v) for k, v in enumerate(out)]


def _strong_carry(run: Callable) -> Callable:
    """A loop's `run` (staging.loop) whose carried values stay strongly typed when they start so: lax loops
    give a weakly typed result for a strong initial value that the body makes weak (`y = x` before a loop
    whose body sets `y = 1`; after no iteration `y * int8_array` was an int8, 300 became 44)."""
    def wrapped(init, unpack, pack, shapes):
        strong = [not jax_state.aval(v).weak_type for v in init]

        def packed(values) -> list:
            return [jax_state.strong(v) if s else v for v, s in zip(pack(values), strong)]
        return run(init, unpack, packed, shapes)
    return wrapped


# --- while -------------------------------------------------------------------------------------------

def _while_loop(test, body, state, opts):
    """`while` on a traced condition: `lax.while_loop` over the carried state; a masked `lax.scan` when
    `maximum_iterations` is a Python int and the loop carries a float (see jax_scan.py)."""
    where = "this `while` loop"
    jax_lists.reject_unknown_length(state.values, state.names, where)
    bools = jax_bools.Loop(state.values)
    test, body = bools.watch(test), bools.watch(body, body=True)
    limit = opts.get("maximum_iterations")
    n = jax_scan.static_bound(limit)

    def run(init, unpack, pack, shapes):
        def ok(carry):
            return _predicate(test(*unpack(carry)), where)

        def step(carry):
            return pack(body(*unpack(carry)))

        def while_loop(watch):
            if limit is None:   # no iteration counter unless `set_loop_options(maximum_iterations=...)` asks
                return lax.while_loop(ok, step, init)
            return lax.while_loop(lambda c: jnp.logical_and(ok(c[1]), c[0] < limit),
                                  lambda c: (c[0] + 1, watch(step(c[1]))), (jnp.asarray(0), init))[1]

        def masked():
            return jax_scan.masked_scan(n, lambda _, c: ok(c), lambda _, c: step(c), init, user_test=True)
        return jax_scan.lowered(n, init, masked, while_loop)

    return bools.after(staging.loop(RULES, _returns_defined(state, body), state.names, _strong_carry(run), where))


def _returns_defined(state: backends.LoopState, body: Callable, items: tuple = ()) -> tuple:
    """The state's values, with each return value that is undefined before this loop (there is a `return`
    inside it) replaced by zeros of the type the loop body gives it, learnt from an abstract trace of one
    iteration, `body(*items, *state)` (jax_state.probe_body)."""
    if not any(is_undefined(v) for v in state.values):
        return state.values
    return state.with_placeholders(lambda values: jax_state.probe_body(body, values, state.names, items)).values


# --- for ---------------------------------------------------------------------------------------------

class JaxRange(iteration.StagedRange):
    """`range(start, stop, step)` with a traced bound, iterated by the backend's `for_loop`."""

    bound_kind = "traced"
    cast_hint = "Cast it with int(...) or use jnp.arange(...)."
    values_hint = ("For a list or comprehension, make the bound static (a Python int or static_argnums) or use "
                   "jnp.arange(...) with a static length.")

    def non_integer(self, bound):
        dtype = jnp.asarray(bound).dtype
        return None if jnp.issubdtype(dtype, jnp.integer) else str(dtype)

    def check_step(self, step) -> None:
        """A traced step of 0 is Python's ValueError when the program runs (a `jax.debug.callback` raising it:
        JAX reports it as a JaxRuntimeError), where the loop would run 0 times. Not a `checkify.check`, which
        a plain `jax.jit` can't compile."""
        jax.debug.callback(functools.partial(_fail_on_zero_step, at_user_line("range() arg 3 must not be zero")),
                           step)


def _fail_on_zero_step(message: str, step) -> None:
    if (np.asarray(step) == 0).any():          # (a batch of steps under vmap)
        raise ValueError(message)


def _sequence(value, what: str = "iteration"):
    # (jnp.asarray would raise a TypeError, which a user's `except TypeError:` would take for the code's own)
    if isinstance(value, JaxRange):
        raise StagingError(at_user_line(
            f"{what}() over a range() with a traced bound: its length is known only when the program runs, and "
            "jax.jit needs the lengths of the arrays a loop walks together. Loop over the range and index the "
            "other sequences, or give the range a static bound."))
    if isinstance(value, iteration.StagedRows):
        raise StagingError(at_user_line(
            f"{what}() over an enumerate() or zip() of traced arrays: loop over one enumerate() or zip() of the "
            "arrays themselves (enumerate(zip(xs, ys)) is one)."))
    x = jnp.asarray(value)
    if x.ndim == 0:
        raise StagingError(at_user_line(f"can't iterate over a 0-d array (shape {x.shape}) under jax.jit."))
    return x


class JaxEnumerate(iteration.CountingEnumerate):
    """`enumerate(array, start)` over a traced array, or `enumerate(range(...), start)` over a range with a traced
    bound (`range`: a `for` over it is the range's loop, counting)."""

    rows = staticmethod(_sequence)


class JaxZip(iteration.StagedZip):
    """`zip(a, b, ...)` with a traced array among them (stops at the shortest)."""

    rows = staticmethod(_sequence)

    def __iter__(self):                     # outside a `for` statement (a comprehension): shapes are static
        return self.python_items()


def _for_loop(iterable, body, state, extra_test, opts):
    """`for` over a traced array (its first axis), a traced `range` (or an enumerate of one: the range's loop,
    counting), or an enumerate/zip of arrays: a `lax.scan`
    over the rows; with `break` or `return`, a masked `lax.scan` when the loop carries a float (see
    jax_scan.py), else a `lax.while_loop` over the row index."""
    limit = opts.get("maximum_iterations")
    iterable, body = iteration.counting(iterable, body)
    bools = jax_bools.Loop(state.values)
    body, extra_test = bools.watch(body, skip=1, body=True), bools.watch(extra_test)
    return bools.after(_for_rows(iterable, body, state, extra_test, limit))


def _for_rows(iterable, body, state, extra_test, limit):
    if isinstance(iterable, JaxRange):
        jax_lists.reject_unknown_length(state.values, state.names, "this `for` loop over a range with a traced bound")
        return _range_loop(iterable, body, state, extra_test, limit)
    arrays, item = iteration.rows_and_item(iterable, _sequence)
    n = min(a.shape[0] for a in arrays)
    n = n if limit is None else min(n, int(limit))
    avals = (jax.ShapeDtypeStruct((), jnp.int32), tuple(jax.ShapeDtypeStruct(a.shape[1:], a.dtype) for a in arrays))
    xs = (jnp.arange(n) if isinstance(iterable, JaxEnumerate) else None, tuple(a[:n] for a in arrays))  # `i`

    def by_row(i, rows, *s):
        return body(item(i, rows), *s)

    def scanned(init, unpack, pack, shapes):       # no early exit: reverse-mode `jax.grad` goes through it
        return lax.scan(lambda carry, x: (pack(by_row(*x, *unpack(carry))), None), init, xs)[0]

    def indexed(init, unpack, pack, shapes):
        def go_on(carry):
            return _predicate(extra_test(*unpack(carry)), "this loop's `break`")

        def step(i, rows, carry):
            return pack(by_row(i, rows, *unpack(carry)))

        def masked():
            return jax_scan.masked_scan(n, lambda _, carry: go_on(carry), lambda x, carry: step(*x, carry), init, xs)

        def while_loop(watch):
            def body_fun(carry):
                i, carry = carry
                rows = tuple(lax.dynamic_index_in_dim(a, i, keepdims=False) for a in arrays)
                return i + 1, watch(step(i, rows, carry))
            return lax.while_loop(lambda c: jnp.logical_and(c[0] < n, go_on(c[1])), body_fun,
                                  (jnp.asarray(0), init))[1]
        return jax_scan.lowered(n, init, masked, while_loop)

    if extra_test is None:
        return jax_lists.with_lists(state.values, state.names, n, avals, by_row, lambda values: staging.loop(
            RULES, values, state.names, _strong_carry(scanned), "this `for` loop"))
    jax_lists.reject_unknown_length(state.values, state.names, "this `for` loop with a `break` or `return`")
    return staging.loop(RULES, _returns_defined(state, by_row, avals), state.names, _strong_carry(indexed),
                        "this `for` loop")


def _range_loop(r: JaxRange, body, state, extra_test, limit):
    """`for i in range(start, stop, step)` with a traced bound: a `lax.while_loop` over `i`; a masked
    `lax.scan` when its length is static (Python int bounds: a range a traced `break` stopped being a
    Python loop) or `maximum_iterations` is a Python int, and the loop carries a float."""
    dtype = jnp.result_type(*(jnp.asarray(b) for b in (r.start, r.stop, r.step)))
    start, stop, step = (jnp.asarray(b, dtype) for b in (r.start, r.stop, r.step))
    n = _range_bound(r, jax_scan.static_bound(limit))

    def in_range(i):
        return iteration.before_stop(i, stop, r.step if isinstance(r.step, int) else step, jnp.where)

    def run(init, unpack, pack, shapes):
        def go_on(ok, carry):
            return ok if extra_test is None else jnp.logical_and(
                ok, _predicate(extra_test(*unpack(carry)), "this loop's `break`"))

        def iteration(i, carry):
            return pack(body(i, *unpack(carry)))

        def masked():
            static = r.python_length() is not None          # (an `i` of a static range is always in range)
            return jax_scan.masked_scan(n, lambda i, c: go_on(jnp.asarray(True) if static else in_range(i), c),
                                        iteration, init, jnp.arange(n, dtype=dtype) * step + start)

        def while_loop(watch):
            def cond_fun(carry):
                i, count, carry = carry
                return go_on(in_range(i) if limit is None else jnp.logical_and(in_range(i), count < limit), carry)

            def body_fun(carry):
                i, count, carry = carry
                return i + step, None if count is None else count + 1, watch(iteration(i, carry))
            return lax.while_loop(cond_fun, body_fun, (start, None if limit is None else jnp.asarray(0), init))[2]
        return jax_scan.lowered(n, init, masked, while_loop)

    values = _returns_defined(state, body, (jax.ShapeDtypeStruct((), dtype),))
    return staging.loop(RULES, values, state.names, _strong_carry(run), "this `for` loop")


def _range_bound(r: JaxRange, limit: Optional[int]) -> Optional[int]:
    """The static number of iterations of `r` (capped by `limit`): its length if its bounds are Python ints,
    else `limit`."""
    length = r.python_length()
    if length is None:
        return limit
    return length if limit is None else min(length, limit)


# --- builtins, logical ops, print, assert ------------------------------------------------------------

def _len(value):
    if isinstance(value, jax_lists.JaxList):
        return len(value)
    return iteration.staged_len(value, PRIMITIVES, _array_len)


def _array_len(value):
    if jnp.ndim(value) == 0:
        raise TypeError(at_user_line("len() of a 0-d array (a scalar) is undefined"))
    return jnp.shape(value)[0]


def _print(*args, sep=" ", end="\n", file=None, flush=False):
    """`print` with a traced argument: `jax.debug.print`, which prints every time the function runs; ordered,
    so prints come in the program's order (unordered, XLA may run a print after one the program makes later)."""
    args = tuple(jax_bools.as_shown(arg) for arg in args)     # a carried Python bool shows True or False
    fmt, arrays = primitives.print_format(args, sep, lambda arg: any(   # arrays, and tuples of them
        isinstance(leaf, jax.Array) for leaf in jax.tree_util.tree_leaves(arg)))
    if end in (None, "\n") and file is None:
        jax.debug.print(fmt, *arrays, ordered=True)
    else:
        jax.debug.callback(functools.partial(_emit, fmt, "\n" if end is None else end, file, flush), *arrays,
                           ordered=True)


def _emit(fmt: str, end: str, file, flush: bool, *values) -> None:
    builtins.print(fmt.format(*values), end=end, file=file if file is not None else sys.stdout, flush=flush)


def _assert(condition, message_fn):
    """`assert` on a traced value: a `checkify.check`, reported at run time by `checkify.checkify`
    (`ag.jax.jit(f, checks=True)`). Under a plain `jax.jit`, JAX refuses to compile it and says to
    functionalize it with checkify: an assert is never silently dropped."""
    from jax.experimental import checkify

    message = message_fn() if message_fn is not None else "Assertion failed"
    template = primitives.format_template(message)    # an f-string of traced values: formatted when it fails
    fmt, args = template or (("{}", (message,)) if isinstance(message, jax.Array) else
                             (primitives.escape(str(message)), ()))
    checkify.check(_predicate(condition, "this `assert`"), fmt, *args)


def _reject_falling_off(did_return, message_fn):
    """A function that may end without `return` on a traced path: JAX could check at run time only under
    checkify, and a check under a plain `jax.jit` fails to compile without naming the user's code, so the
    function is rejected while tracing, with autograph's message."""
    raise StagingError(message_fn())


_PYTHON_KINDS = {"i": int, "u": int, "f": float, "c": complex}   # of a weakly typed value (bools: below)


def _python_type(value):
    """A weakly typed 0-d tracer may hold a Python number (one a staged `if` or loop carries, a Python scalar
    given to `jax.jit`) or an array computed from one (`jnp.sin(1.0)`): JAX keeps no record of which, so
    `isinstance` and `type` answer where both agree (`isinstance(s, jax.Array)`) and refuse where they differ."""
    if isinstance(value, jax.core.Tracer):
        if jax_bools.is_noted(value):   # a Python bool a staged statement carries, as an int
            return (bool,)
        aval = jax_state.aval(value)
        if aval.shape != ():
            return None
        if aval.dtype.kind == "b":      # JAX's bools are never weakly typed: a carried Python bool, a bool
            return bool, jax.Array      # given to jax.jit, or a comparison's array
        kind = _PYTHON_KINDS.get(aval.dtype.kind) if aval.weak_type else None
        if kind is float:               # a variable an int on some paths and a float on others is a weak float
            return int, float, jax.Array
        if kind is int:                 # and one a bool on some paths and an int on others a weak int
            return bool, int, jax.Array
        if kind is not None:
            return kind, jax.Array
    return None


# JAX's errors for Python meeting a traced value (`x.item()`, `bool(x)`, `int(x)`, `np.asarray(x)`, `x[x > 0]`):
# a converted function's `except` clauses let them through (converters/exceptions.py), as they would not be
# raised on concrete values, where Python's answer comes from
_GRAPH_ERRORS = tuple(getattr(jax.errors, name) for name in (
    "ConcretizationTypeError", "TracerIntegerConversionError", "TracerArrayConversionError",
    "UnexpectedTracerError", "NonConcreteBooleanIndexError") if hasattr(jax.errors, name))

PRIMITIVES = primitives.Primitives(cond=_cond, minimum=jnp.minimum, maximum=jnp.maximum, sign=jnp.sign,
                                   index=jnp.asarray, length=iteration.first_dimension)

BACKEND = backends.register_backend(backends.Backend(
    name="jax",
    staged_types=(jax.core.Tracer, JaxRange, JaxEnumerate, JaxZip, jax_lists.StackedList),
    is_staged=_is_staged,
    modules=("jax", "jaxlib"),
    is_staging=_is_staging if _trace_ctx is not None else None,
    graph_errors=_GRAPH_ERRORS,
    cond=_cond,
    while_loop=_while_loop,
    for_loop=_for_loop,
    range=JaxRange,
    len=_len,
    enumerate=JaxEnumerate,
    zip=JaxZip,
    int=lambda x: jnp.asarray(x).astype(int),
    float=lambda x: jnp.asarray(x).astype(float),
    logical_and=functools.partial(primitives.logical_and, PRIMITIVES),
    logical_or=functools.partial(primitives.logical_or, PRIMITIVES),
    logical_not=lambda x: jax_bools.from_array(jnp.logical_not(_predicate(x, "`not`"))),
    print=_print,
    assert_=_assert,
    list_from=jax_lists.JaxList.from_python,
    list_types=(jax_lists.JaxList,),
    list_append=jax_lists.append,
    list_pop=jax_lists.pop,
    list_stack=jax_lists.after_loop,
    probe=jax_state.probe,
    zeros_like=jax_state.zeros_like,
    check_returned=_reject_falling_off,
    python_type=_python_type,
    leaving=lambda value: jax_bools.leaving(value) if _trace_ctx is None or _is_staging() else value,
))


# --- the convenience -------------------------------------------------------------------------------

def jit(fn: Optional[Callable] = None, /, *, checks=False, **jit_kwargs: Any) -> Callable:
    """`jax.jit(autograph.convert(fn), **jit_kwargs)`; usable as `@jit` or `@jit(static_argnums=...)`.

    With `checks=True` the function is also wrapped in `checkify.checkify`, so an `assert` on a traced
    value raises `AssertionError` (with the assert's message) when it fails at run time. `checks` may also be a
    set of checkify's errors: `checkify.user_checks | checkify.div_checks` also raises Python's
    ZeroDivisionError where the program divides by zero (every division in it: `x / 0.0` of an array too, where
    JAX gives inf), and `checkify.index_checks` an IndexError for an index out of bounds."""
    if fn is None:
        return functools.partial(jit, checks=checks, **jit_kwargs)
    from autograph.api import convert

    jitted = jax.jit(convert(fn), **jit_kwargs)
    if checks is False:
        return jitted
    from jax.experimental import checkify

    checked = checkify.checkify(jitted, errors=checkify.user_checks if checks is True else checks)

    @functools.wraps(fn)
    def run(*args, **kwargs):
        error, out = checked(*args, **kwargs)
        message = error.get()
        if message is not None:
            raise _python_error(error.get_exception(), message)
        return out
    return run


def _python_error(error, message: str) -> Exception:
    """The Python exception for checkify's `error` (its text `message`): Python's ZeroDivisionError, IndexError,
    AssertionError for a failed `assert`, else checkify's own (its classes are not public: by name)."""
    kind = type(error).__name__
    if kind == "DivisionByZeroError":
        return ZeroDivisionError(f"{message} (checkify's div_checks: a division in the jitted function)")
    if kind == "OOBError":
        return IndexError(message)
    if kind == "FailedCheckError":
        return AssertionError(message.removesuffix(" (`check` failed)"))
    return error
