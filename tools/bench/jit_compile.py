"""`runtime.function(jit_compile=True)` beside hand-written `jax.jit` code, in one run.

Workloads (the graph rows of docs/performance.md and issue 16): a scalar `while` of 10,000 iterations,
collatz(27), fizzbuzz over 1..1,000 (counting, no printing), 100 steps of an RNN cell (32 units, a `for`
over `tf.range`), and the 1e6-element chain `tanh(x*2+1)*x-0.5`. For each: the NumPy executor, the same
function with `jit_compile=True`, and the computation written by hand with `jax.lax` under `jax.jit`;
first call (trace + lower + compile + run, fresh functions, best of 3) and steady state (best of
`--repeat` batches, the jit_compile and jax.jit batches interleaved, the executor's measured before them;
every result brought back as a NumPy array, which our calls do too).

Run from the repository root: PYTHONPATH=. python tools/bench/jit_compile.py [--repeat 7] [--layers]
(`--layers`: a steady call's time layer by layer, from the compiled program alone to `Function.__call__`,
and the general path that a call takes when the short one declines).
"""
from __future__ import annotations

import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

import runtime as tf
from tools.bench.workloads import chain, collatz, count, fizzbuzz, rnn


def count_jax(n):
    return lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] + c[0]), (0, 0))[1]


def collatz_jax(n):
    def body(c):
        n, steps = c
        return jnp.where(n % 2 == 0, n // 2, 3 * n + 1), steps + 1
    return lax.while_loop(lambda c: c[0] != 1, body, (n, 0))[1]


def fizzbuzz_jax(max_num):
    def body(num, c):
        fizz, buzz, both = c
        return lax.cond(num % 15 == 0, lambda: (fizz, buzz, both + 1), lambda: lax.cond(
            num % 3 == 0, lambda: (fizz + 1, buzz, both), lambda: lax.cond(
                num % 5 == 0, lambda: (fizz, buzz + 1, both), lambda: (fizz, buzz, both))))
    return lax.fori_loop(1, max_num + 1, body, (0, 0, 0))


RNG = np.random.default_rng(0)
W = RNG.standard_normal((32, 32)).astype(np.float32) * 0.1
U = RNG.standard_normal((32, 32)).astype(np.float32) * 0.1
XS = RNG.standard_normal((100, 1, 32)).astype(np.float32)


def rnn_jax(h, xs, w, u):
    return lax.fori_loop(0, xs.shape[0], lambda t, h: jnp.tanh(h @ w + xs[t] @ u), h)


def chain_jax(x):
    return jnp.tanh(x * 2.0 + 1.0) * x - 0.5


CHAIN_X = RNG.standard_normal(1_000_000).astype(np.float32)
WORKLOADS = {   # name: (runtime function, hand-written jax, arguments, iterations per call for a per-iteration figure)
    "scalar while, 10,000 iterations": (count, count_jax, (np.int32(10_000),), 10_000),
    "collatz(27): while + if": (collatz, collatz_jax, (np.int32(27),), 111),
    "fizzbuzz 1..1,000: for + if/elif": (fizzbuzz, fizzbuzz_jax, (np.int32(1_000),), 1_000),
    "RNN, 100 steps of 32 units": (rnn, rnn_jax, (np.zeros((1, 32), np.float32), XS, W, U), 100),
    "chain tanh(x*2+1)*x-0.5, 1e6 floats": (chain, chain_jax, (CHAIN_X,), 1),
}


def first_call(make, args) -> float:
    best = float("inf")
    for _ in range(3):
        jax.clear_caches()   # jax.jit of the same Python function would otherwise reuse its compiled program
        fn = make()
        start = time.perf_counter()
        np.asarray(fn(*args))
        best = min(best, time.perf_counter() - start)
    return best


def steady(calls: dict, repeat: int) -> dict:
    """Seconds per call of each `name: (function, arguments)`, best batch; batches interleaved (so that the
    machine's load falls on every function alike) and sized to about 20 ms."""
    numbers = {}
    for name, (fn, args) in calls.items():
        _numpy(fn(*args))   # the first call traces and compiles: not a steady call to size the batches by
        start = time.perf_counter()
        _numpy(fn(*args))
        numbers[name] = max(1, int(0.02 / max(time.perf_counter() - start, 1e-7)))
    samples: dict = {name: [] for name in calls}
    for _ in range(repeat):
        for name, (fn, args) in calls.items():
            start = time.perf_counter()
            for _ in range(numbers[name]):
                _numpy(fn(*args))
            samples[name].append((time.perf_counter() - start) / numbers[name])
    return {name: min(s) for name, s in samples.items()}


def _numpy(result):
    return [np.asarray(r) for r in (result if isinstance(result, (tuple, list)) else [result])]


def layers(repeat: int) -> None:
    """Where a steady jit_compile call's time goes, beside the hand-written program (best of `repeat`
    interleaved batches): the jitted program alone, the whole call (`Function.__call__`, which takes the
    short path `JaxExecutable.eager_call`), and the general path's layers (generated `run`, `_call_flat`)."""
    for name, (fn, hand, args, _) in WORKLOADS.items():
        tensors = [tf.constant(a) for a in args]
        function = tf.function(fn, jit_compile=True)
        function(*tensors)
        concrete = function.get_concrete_function(*tensors)
        executable = concrete._compiled()
        values = [t._value for t in tensors]
        jitted = jax.jit(hand)
        calls = {"jax.jit by hand + np.asarray": (jitted, args),
                 "our jitted program + np.asarray": (executable._jitted, values),
                 "Function.__call__ (short path)": (function, tensors),
                 "general path: + generated run (NumPy outputs)": (executable.run, values),
                 "+ ConcreteFunction._call_flat": (concrete._call_flat, (tensors,))}
        times = steady(calls, repeat)
        print(f"{name}: " + "; ".join(f"{k} {v * 1e6:.1f}" for k, v in times.items()) + " us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--layers", action="store_true", help="where a steady call's time goes, layer by layer")
    opts = parser.parse_args()
    if opts.layers:
        return layers(opts.repeat)
    print(f"jax {jax.__version__} on {jax.devices()[0].platform}; steady state: best of {opts.repeat} batches\n")
    header = (f"{'workload':38} {'first call: executor / jit_compile / jax.jit (ms)':>50} "
              f"{'steady: executor / jit_compile / jax.jit (us)':>48} {'jit_compile / jax.jit':>22}")
    print(header)
    print("-" * len(header))
    for name, (fn, hand, args, iterations) in WORKLOADS.items():
        tensors = [tf.constant(a) for a in args]
        expected = _numpy(tf.function(fn)(*tensors))
        for got in (_numpy(tf.function(fn, jit_compile=True)(*tensors)), _numpy(jax.jit(hand)(*args))):
            for g, e in zip(got, expected):
                np.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-5)
        first_ex = first_call(lambda: tf.function(fn), tensors)
        first_jit = first_call(lambda: tf.function(fn, jit_compile=True), tensors)
        first_jax = first_call(lambda: jax.jit(hand), args)
        times = steady({"executor": (tf.function(fn), tensors)}, opts.repeat)
        # apart from the executor: a call right after a batch of the executor's takes longer (more for ours)
        times.update(steady({"jit": (tf.function(fn, jit_compile=True), tensors), "jax": (jax.jit(hand), args)},
                            opts.repeat))
        ex, jit, jx = times["executor"], times["jit"], times["jax"]
        per = f" ({jit / iterations * 1e6:.4f} / {jx / iterations * 1e6:.4f} us per iteration)" if iterations > 1 else ""
        print(f"{name:38} {first_ex * 1e3:16.1f} / {first_jit * 1e3:8.1f} / {first_jax * 1e3:8.1f}      "
              f"{ex * 1e6:14.1f} / {jit * 1e6:9.1f} / {jx * 1e6:9.1f}   {jit / jx:8.2f}x{per}")


if __name__ == "__main__":
    main()
