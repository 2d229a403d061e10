"""Loops with a static bound as a masked `lax.scan`, which reverse-mode `jax.grad` can differentiate.

Reverse-mode `jax.grad` can't differentiate `lax.while_loop`. So the JAX backend (jax.py) lowers a loop
with a static bound (`maximum_iterations` given as a Python int, the rows of an array, a `range` with
Python int bounds) that carries a float or complex value to a masked `lax.scan` (`masked_scan`): n steps
carrying a `done` flag, the loop's test and body each under `lax.cond`, so that they run (prints too)
only until the loop ends, and the state after the loop, and its gradient, are the loop's.

When: always, for such a loop. The lowering depends on the loop alone, never on whether it is being
differentiated, because JAX gives no reliable sign of that while tracing: under `jax.grad(jax.jit(f))`
(and `jax.grad` of an `ag.jax.jit` function) `f` is traced with no differentiation in sight (jit traces
it, then differentiates the jaxpr), and a `lax.cond` branch or a loop body is traced afresh under any
transformation. A lowering chosen by detecting differentiation would work under `jax.jit(jax.grad(f))`
and fail under `jax.grad(jax.jit(f))`, or for a loop inside an `if`.

At what cost (tools/bench/jax_control_flow.py, docs/performance.md): a compiled loop that runs to its
bound takes about 1.4-2.5x the time of a `lax.while_loop` (the `lax.cond`s); one that stops early runs
about 2 sqrt(n) steps, not n, because the steps are grouped in chunks that are skipped whole; tracing
takes a few ms more. Cheaper where it can be: a loop that carries only integers and booleans passes no
gradient on, so it stays a `lax.while_loop`, which stops at once (`lowered`), as does a `while` without
`maximum_iterations` (unbounded: reverse mode can't go through it).

jax.py calls `lowered` to pick the lowering, `masked_scan` to build the scan, `static_bound` to read
`maximum_iterations`.
"""
from __future__ import annotations

import math
import operator
from typing import Callable, Optional

import jax
import jax.numpy as jnp
from jax import lax

from autograph.backends import jax_state


def static_bound(limit) -> Optional[int]:
    """`maximum_iterations` as a Python int; None when absent or traced."""
    if limit is None or isinstance(limit, jax.core.Tracer):
        return None
    return max(operator.index(limit), 0)


def lowered(n: Optional[int], init: list, masked: Callable[[], list], while_loop: Callable) -> list:
    """A loop of static bound `n` (or None) lowered: `masked()`, a masked `lax.scan`, when `n` is static and the
    loop carries a float or complex leaf; else `while_loop(watch)`, a `lax.while_loop` whose body passes its
    new leaves through `watch`. A loop carrying only integers and booleans passes no gradient on, so it keeps
    the while loop's early exit, unless its body turns a Python int into a float (`s = 0` then `s += x`):
    `watch` finds that while the while loop is traced, and the loop is scanned instead."""
    if n is not None and any(_inexact(x) for x in init):
        return masked()
    if n is None:
        return while_loop(lambda new: new)
    try:
        return while_loop(_integers_only)
    except _CarriesFloat:
        return masked()


def _inexact(x) -> bool:
    return jnp.issubdtype(jax_state.aval(x).dtype, jnp.inexact)


class _CarriesFloat(Exception):
    """Raised out of a `lax.while_loop`'s body trace: the loop carries a float after all; scan it."""


def _integers_only(new: list) -> list:
    if any(_inexact(x) for x in new):
        raise _CarriesFloat()
    return new


# Below this many steps the scan is not cut in chunks: a loop stopping early would save at most n - 2 sqrt(n)
# masked steps, and the outer scan and its `lax.cond` double the trace (a scalar `while` capped at 24: 7.6 ms
# in chunks against 3.7 ms, and no faster a call once compiled, at load 3.9 on 2 cores).
_CHUNKED_FROM = 25


def masked_scan(n: int, go_on, step, init: list, xs=None, user_test: bool = False) -> list:
    """At most `n` iterations as a `lax.scan` of `n` steps carrying a `done` flag, which reverse-mode
    `jax.grad` can differentiate (it cannot differentiate `lax.while_loop`). While not done, a step asks
    `go_on(x, carry)` (the loop's test, its `break` or `return`) and runs `step(x, carry)` only if it says
    so, each under `lax.cond` (the test only if it is the user's, `user_test`: a `break` or `return` is a
    flag): once the loop ends the state stops changing, and the test and the body (prints included) run as
    often as in a `lax.while_loop`. The steps are grouped in about sqrt(n) chunks of about sqrt(n) steps,
    a chunk skipped as a whole once done, so that a loop stopping early costs about 2 sqrt(n) steps, not n
    (tools/bench/jax_control_flow.py). `step` gives the carried leaves their carried types (staging.loop's
    `pack`)."""
    size = max(1, math.isqrt(max(n - 1, 0)) + 1) if n >= _CHUNKED_FROM else max(n, 1)  # ceil(sqrt(n)) a chunk
    chunks = -(-n // size)
    padded = chunks * size != n

    def one_step(carry, x):
        done, leaves = carry
        x, valid = x if padded else (x, None)
        skip = done if valid is None else jnp.logical_or(done, jnp.logical_not(valid))
        if user_test:
            go = lax.cond(skip, lambda: jnp.asarray(False), lambda: go_on(x, leaves))
        else:
            go = jnp.logical_and(jnp.logical_not(skip), go_on(x, leaves))
        return (jnp.logical_not(go), lax.cond(go, lambda: step(x, leaves), lambda: leaves)), None

    def one_chunk(carry, x):
        return lax.cond(carry[0], lambda: carry, lambda: lax.scan(one_step, carry, x, length=size)[0]), None

    carry = (jnp.asarray(False), list(init))
    if chunks == 1:
        return lax.scan(one_step, carry, xs, length=n)[0][1]
    xs = jax.tree_util.tree_map(lambda a: _in_chunks(a, chunks, size), xs)
    if padded:
        xs = (xs, (jnp.arange(chunks * size) < n).reshape(chunks, size))
    return lax.scan(one_chunk, carry, xs, length=chunks)[0][1]


def _in_chunks(a, chunks: int, size: int):
    """`a` (n rows) as `chunks` rows of `size`, padded with zeros."""
    pad = chunks * size - a.shape[0]
    if pad:
        a = jnp.concatenate([a, jnp.zeros((pad, *a.shape[1:]), a.dtype)])
    return a.reshape(chunks, size, *a.shape[1:])
