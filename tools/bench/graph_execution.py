"""Graph execution against hand-written NumPy, side by side in one run.

Run from the repository root: PYTHONPATH=. python tools/bench/graph_execution.py
"""
from __future__ import annotations

import time
import timeit

import numpy as np

import runtime as tf
from tools.bench.workloads import chain


def best(fn, number: int, repeat: int = 7) -> float:
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def power_benchmark() -> None:
    x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.int32, seed=1)
    x_np = x.numpy()

    def power(x, y):
        result = tf.eye(10, dtype=tf.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result

    def power_numpy(x, y):
        result = np.eye(10, dtype=np.int32)
        for _ in range(y):
            result = np.matmul(x, result)
        return result

    @tf.function
    def power_while_loop(x, y):  # the loop written by hand with runtime.while_loop
        _, result = tf.while_loop(lambda i, r: i < y, lambda i, r: (i + 1, tf.matmul(x, r)),
                                  (tf.constant(0), tf.eye(10, dtype=tf.int32)))
        return result

    graph = tf.function(power)
    y = tf.constant(100)
    expected = power_numpy(x_np, 100)
    assert (graph(x, 100).numpy() == expected).all() and (power_while_loop(x, y).numpy() == expected).all()
    t_np = best(lambda: power_numpy(x_np, 100), 1000)
    t_graph = best(lambda: graph(x, 100), 1000)
    t_staged = best(lambda: graph(x, y), 1000)
    t_hand = best(lambda: power_while_loop(x, y), 1000)
    t_eager = best(lambda: power(x, 100), 20)
    print("power(x, 100), 10x10 int32 matmuls (seed 003), per call (best of 7 x 1,000 calls):")
    print(f"  numpy {t_np * 1e6:7.1f}us | graph, while_loop by hand {t_hand * 1e6:7.1f}us ({t_hand / t_np:.2f}x) | "
          f"graph, Python for over tensor y (autograph While) {t_staged * 1e6:7.1f}us ({t_staged / t_np:.2f}x) | "
          f"graph, Python range (unrolled) {t_graph * 1e6:7.1f}us ({t_graph / t_np:.2f}x) | "
          f"eager {t_eager * 1e6:7.1f}us ({t_eager / t_np:.2f}x)")


def scalar_loop_benchmark() -> None:
    n = 10000

    @tf.function
    def count(n):
        i = tf.constant(0)
        s = tf.constant(0)
        while i < n:
            s += i
            i += 1
        return s

    @tf.function
    def count_while_loop(n):  # written by hand with runtime.while_loop
        return tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i), (tf.constant(0), tf.constant(0)))[1]

    @tf.function
    def count_python_ints(n):  # i and s start as Python ints: their arithmetic is overflow-checked (ExactInt32)
        i = 0
        s = 0
        while i < n:
            s += i
            i += 1
        return s

    one = np.int32(1)

    def count_numpy(n):
        i, s = np.int32(0), np.int32(0)
        while i < n:
            s = s + i
            i = i + one
        return s

    t_n = tf.constant(n)
    assert count(t_n).numpy() == count_while_loop(t_n).numpy() == count_numpy(np.int32(n))
    assert count_python_ints(t_n).numpy() == count_numpy(np.int32(n))
    t_graph = best(lambda: count(t_n), 5)
    t_ints = best(lambda: count_python_ints(t_n), 5)
    t_hand = best(lambda: count_while_loop(t_n), 5)
    t_np = best(lambda: count_numpy(np.int32(n)), 5)
    print(f"scalar while loop, {n} iterations: graph, while_loop by hand {t_hand / n * 1e6:.3f}us/iteration; "
          f"graph, Python while (autograph) {t_graph / n * 1e6:.3f}us/iteration; "
          f"the same on Python ints (i = 0, s = 0: checked) {t_ints / n * 1e6:.3f}us/iteration; "
          f"plain Python over NumPy scalars {t_np / n * 1e6:.3f}us/iteration")


def fifty_op_benchmark() -> None:
    rng = np.random.default_rng(0)
    weights = [rng.random((8, 8), dtype=np.float32) for _ in range(10)]

    def fifty_ops(x):
        for w in weights:  # 10 x 5 = 50 ops
            x = tf.tanh(tf.matmul(x, w) + 1.0) * 0.5 - 0.25
        return x

    def fifty_numpy(x):
        for w in weights:
            x = np.tanh(np.matmul(x, w) + np.float32(1.0)) * np.float32(0.5) - np.float32(0.25)
        return x

    x = tf.constant(rng.random((8, 8), dtype=np.float32))
    firsts = []
    for _ in range(5):
        fn = tf.function(fifty_ops)
        start = time.perf_counter()
        fn(x)
        firsts.append(time.perf_counter() - start)
    fn = tf.function(fifty_ops)
    np.testing.assert_allclose(fn(x).numpy(), fifty_numpy(x.numpy()), rtol=1e-5)
    ops = len(fn.get_concrete_function(x).graph.get_operations())
    t_steady = best(lambda: fn(x), 2000)
    x_np = x.numpy()
    t_np = best(lambda: fifty_numpy(x_np), 2000)
    print(f"50-op function ({ops} graph ops incl. placeholder and constants): first call (trace + compile + run) "
          f"{min(firsts) * 1e3:.2f}ms; steady call {t_steady * 1e6:.1f}us vs the same NumPy calls "
          f"{t_np * 1e6:.1f}us ({t_steady / t_np:.2f}x)")


def chain_benchmark() -> None:
    """The 1e6-element chain of issue 16, where the executor writes each step into the previous step's array
    (runtime/executor/passes.py `reusable_buffers`), as NumPy's temporary elision does for hand-written code."""
    x_np = np.random.default_rng(0).standard_normal(1_000_000).astype(np.float32)
    x = tf.constant(x_np)
    fn = tf.function(chain)

    def chain_numpy(x):
        return np.tanh(x * np.float32(2.0) + np.float32(1.0)) * x - np.float32(0.5)

    np.testing.assert_allclose(fn(x).numpy(), chain_numpy(x_np), rtol=1e-6)
    t_graph, t_np = [], []
    for _ in range(7):   # interleaved, best of each
        t_graph.append(best(lambda: fn(x), 20, repeat=1))
        t_np.append(best(lambda: chain_numpy(x_np), 20, repeat=1))
    print(f"chain tanh(x*2+1)*x-0.5 on 1e6 float32: graph {min(t_graph) * 1e6:.0f}us vs hand-written NumPy "
          f"{min(t_np) * 1e6:.0f}us ({min(t_graph) / min(t_np):.2f}x)")


if __name__ == "__main__":
    power_benchmark()
    scalar_loop_benchmark()
    fifty_op_benchmark()
    chain_benchmark()
