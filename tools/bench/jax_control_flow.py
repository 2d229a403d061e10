"""Converted Python control flow vs hand-written `lax` under `jax.jit`, side by side.

For each workload — a data-dependent `if`, a `while` of about 1,000
iterations, a `for` over `range` with a traced bound, and a nested loop with
an `if` inside — it reports, for the converted function (`jax.jit(ag.convert(f))`)
and the hand-written `lax` version:

- the trace alone (`jax.jit(f).trace(...)`, where all of autograph's work happens), best of a few;
- the first call (trace + compile + run), best of a few fresh `jax.jit`s;
- the number of equations in each jaxpr (nested ones included), and of operations in the programs XLA
  compiles, with whether the compiled programs use the same operations (then the steady-state
  ratio can only differ by noise);
- the steady-state call once compiled (best of repeated, interleaved timed batches);
- the ratios converted / hand-written.

A second table covers loops with a static bound that carry a float (a `while` with
`maximum_iterations`, a `for` with `break` over an array or over `range(1000)`), which the backend
lowers to a masked `lax.scan` so that reverse-mode `jax.grad` works. Each runs twice, stopping early
(after about 10 iterations) and late (about 1,000), and reports, side by side in one run, the trace and
the steady-state call of the converted function (the masked scan), of the same loop written by hand
with `lax.while_loop` (what the backend emitted before, which stops at once but `jax.grad` can't
differentiate), and of a hand-written `lax.scan` with a `jnp.where` mask; then the steady-state
`jax.jit(jax.grad(...))` of the converted function and of the hand-written scan.

Run: python tools/bench/jax_control_flow.py [--repeat 7] [--number 200]
Target (issue 7): converted code within 5% of hand-written lax once compiled.
"""
from __future__ import annotations

import argparse
import re
import time

import jax
import jax.extend
import jax.numpy as jnp
from jax import lax

import autograph as ag


# --- workloads: (converted Python, hand-written lax, arguments) ------------------------------------

def clip_norm(x, limit):
    if jnp.linalg.norm(x) > limit:
        x = x * (limit / jnp.linalg.norm(x))
    else:
        x = x + 0.0
    return x


def clip_norm_lax(x, limit):
    return lax.cond(jnp.linalg.norm(x) > limit, lambda: x * (limit / jnp.linalg.norm(x)), lambda: x + 0.0)


def decay(x, n):
    i = 0
    while i < n:
        x = x * 0.999 + 0.001
        i += 1
    return x


def decay_lax(x, n):
    return lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 0.999 + 0.001), (0, x))[1]


def series(n):
    total = 0.0
    for i in range(n):
        total += 1.0 / (i + 1.0) ** 2
    return total


def series_lax(n):
    return lax.fori_loop(0, n, lambda i, t: t + 1.0 / (i + 1.0) ** 2, 0.0)


def nested(xs, n):
    total = 0.0
    for i in range(n):
        for x in xs:
            if x > i % 7:
                total += x
            else:
                total -= 1.0
    return total


def nested_lax(xs, n):
    def outer(i, total):
        def inner(t, x):
            return lax.cond(x > i % 7, lambda: t + x, lambda: t - 1.0), None
        return lax.scan(inner, total, xs)[0]
    return lax.fori_loop(0, n, outer, 0.0)


WORKLOADS = {
    "if (clip by norm, 100,000 floats)": (clip_norm, clip_norm_lax, (jnp.linspace(0.0, 1.0, 100_000), 3.0)),
    "while, 1,000 iterations on 256 floats": (decay, decay_lax, (jnp.linspace(0.0, 1.0, 256), 1000)),
    "for over range(n), n=1,000 traced": (series, series_lax, (1000,)),
    "nested: range(100) x 10-row scan x if": (nested, nested_lax, (jnp.linspace(0.0, 9.0, 10), 100)),
}


# --- loops with a static bound: (converted Python, lax.while_loop, lax.scan with a mask, {case: arguments}) --

def shrink(x, stop):
    while jnp.max(x) > stop:
        ag.set_loop_options(maximum_iterations=1000)
        x = x * 0.995
    return jnp.sum(x)


def shrink_while(x, stop):
    return jnp.sum(lax.while_loop(lambda c: (c[0] < 1000) & (jnp.max(c[1]) > stop),
                                  lambda c: (c[0] + 1, c[1] * 0.995), (0, x))[1])


def shrink_scan(x, stop):
    def step(x, _):
        return jnp.where(jnp.max(x) > stop, x * 0.995, x), None
    return jnp.sum(lax.scan(step, x, None, length=1000)[0])


def until(xs, stop):
    total = 0.0
    for x in xs:
        total += x
        if total > stop:
            break
    return total


def until_while(xs, stop):
    def body(c):
        i, total = c
        return i + 1, total + xs[i]
    return lax.while_loop(lambda c: (c[0] < xs.shape[0]) & (c[1] <= stop), body, (0, 0.0))[1]


def until_scan(xs, stop):
    def step(total, x):
        return jnp.where(total > stop, total, total + x), None
    return lax.scan(step, 0.0, xs)[0]


def growth(x, stop):
    for i in range(1000):
        x = x * 1.001 + 0.001
        if x > stop:
            break
    return x


def growth_while(x, stop):
    def body(c):
        i, x = c
        return i + 1, x * 1.001 + 0.001
    return lax.while_loop(lambda c: (c[0] < 1000) & ((c[0] == 0) | (c[1] <= stop)), body, (0, x))[1]


def growth_scan(x, stop):
    def step(c, _):
        x, done = c
        x = jnp.where(done, x, x * 1.001 + 0.001)
        return (x, done | (x > stop)), None
    return lax.scan(step, (x, False), None, length=1000)[0][0]


_FLOATS = jnp.linspace(1.0, 2.0, 256)
_ROWS = jnp.full(1000, 0.01)
BOUNDED = {
    "while, cap 1,000, 256 floats": (shrink, shrink_while, shrink_scan,
                                     {"stops at 11": (_FLOATS, 1.9), "stops at 1,000 (cap)": (_FLOATS, 0.0)}),
    "for x in xs (1,000 rows), break": (until, until_while, until_scan,
                                        {"stops at 11": (_ROWS, 0.105), "runs 1,000": (_ROWS, 100.0)}),
    "for i in range(1000), traced break": (growth, growth_while, growth_scan,
                                           {"stops at 10": (1.0, 1.01), "runs 1,000": (1.0, 100.0)}),
}


# --- timing ------------------------------------------------------------------------------------------

def first_call(make, args, repeat: int) -> float:
    """Best of `repeat` fresh jits: trace + compile + one run, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        jax.clear_caches()
        fn = make()
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        best = min(best, time.perf_counter() - start)
    return best


def trace_time(make, args, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        jax.clear_caches()
        fn = make()
        start = time.perf_counter()
        fn.trace(*args)
        best = min(best, time.perf_counter() - start)
    return best


def equations(fn, args) -> int:
    def count(jaxpr) -> int:
        return sum(1 + sum(count(sub) for sub in jax.extend.core.jaxprs_in_params(e.params)) for e in jaxpr.eqns)
    return count(jax.make_jaxpr(fn)(*args).jaxpr)


def compiled_ops(fn, args) -> list:
    """The sorted operation names of the optimised XLA program."""
    return sorted(re.findall(r"= \S+ (\w[\w-]*)\(", jax.jit(fn).lower(*args).compile().as_text()))


def steady(fns: dict, args, repeat: int, number: int) -> dict:
    """Seconds per call of each compiled function: the best batch (the least disturbed by other processes
    on a shared machine), batches interleaved so drift hits both alike."""
    for fn in fns.values():
        jax.block_until_ready(fn(*args))
    samples: dict = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            start = time.perf_counter()
            for _ in range(number):
                out = fn(*args)
            jax.block_until_ready(out)
            samples[name].append((time.perf_counter() - start) / number)
    return {name: min(s) for name, s in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--number", type=int, default=100)
    opts = parser.parse_args()
    print(f"jax {jax.__version__} on {jax.devices()[0].platform}; steady state: best of {opts.repeat} batches "
          f"of {opts.number} calls\n")
    header = (f"{'workload':40} {'eqns':>7} {'XLA ops':>12} {'trace conv / lax (ms)':>22} {'first call (ms)':>16} "
              f"{'ratio':>5} {'steady conv / lax (us)':>23} {'ratio':>6}")
    print(header)
    print("-" * len(header))
    for name, (converted, hand, args) in WORKLOADS.items():
        expected, got = jax.jit(hand)(*args), jax.jit(ag.convert(converted))(*args)
        assert jnp.allclose(got, expected, rtol=1e-5), (name, got, expected)
        eqns = f"{equations(ag.convert(converted), args)}/{equations(hand, args)}"
        ops_c, ops_h = compiled_ops(ag.convert(converted), args), compiled_ops(hand, args)
        xla = f"{len(ops_c)}/{len(ops_h)} {'same' if ops_c == ops_h else 'diff'}"
        trace_c = trace_time(lambda: jax.jit(ag.convert(converted)), args, 5)
        trace_h = trace_time(lambda: jax.jit(hand), args, 5)
        first_c = first_call(lambda: jax.jit(ag.convert(converted)), args, 3)
        first_h = first_call(lambda: jax.jit(hand), args, 3)
        times = steady({"converted": jax.jit(ag.convert(converted)), "lax": jax.jit(hand)}, args,
                       opts.repeat, opts.number)
        c, h = times["converted"], times["lax"]
        print(f"{name:40} {eqns:>7} {xla:>12} {trace_c * 1e3:10.2f} / {trace_h * 1e3:<9.2f} {first_c * 1e3:7.1f} / "
              f"{first_h * 1e3:<6.1f} {first_c / first_h:5.2f} {c * 1e6:11.1f} / {h * 1e6:<9.1f} {c / h:6.3f}")
    bounded_loops(opts)


def bounded_loops(opts) -> None:
    print("\nLoops with a static bound that carry a float: converted (a masked lax.scan) against the same loop as a "
          "hand-written lax.while_loop and as a hand-written lax.scan with a jnp.where mask\n")
    header = (f"{'workload':36} {'case':22} {'trace conv / while / scan (ms)':>31} "
              f"{'steady conv / while / scan (us)':>32} {'conv/while':>10} {'grad conv / scan (us)':>22}")
    print(header)
    print("-" * len(header))
    for name, (converted, by_while, by_scan, cases) in BOUNDED.items():
        for case, args in cases.items():
            got = jax.jit(ag.convert(converted))(*args)
            for hand in (by_while, by_scan):
                assert jnp.allclose(got, jax.jit(hand)(*args), rtol=1e-5), (name, case, hand.__name__)
            jaxpr = str(jax.make_jaxpr(ag.convert(converted))(*args))
            assert "while" not in jaxpr, jaxpr
            makers = {"conv": lambda: jax.jit(ag.convert(converted)), "while": lambda: jax.jit(by_while),
                      "scan": lambda: jax.jit(by_scan)}
            traces = {k: trace_time(make, args, 5) for k, make in makers.items()}
            times = steady({k: make() for k, make in makers.items()}, args, opts.repeat, opts.number)
            grads = steady({"conv": jax.jit(jax.grad(ag.convert(converted))), "scan": jax.jit(jax.grad(by_scan))},
                           args, opts.repeat, opts.number)
            print(f"{name:36} {case:22} {traces['conv'] * 1e3:9.2f} / {traces['while'] * 1e3:5.2f} / "
                  f"{traces['scan'] * 1e3:<7.2f} {times['conv'] * 1e6:10.1f} / {times['while'] * 1e6:6.1f} / "
                  f"{times['scan'] * 1e6:<8.1f} {times['conv'] / times['while']:10.2f} "
                  f"{grads['conv'] * 1e6:10.1f} / {grads['scan'] * 1e6:<9.1f}")


if __name__ == "__main__":
    main()
