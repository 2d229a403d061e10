"""Per-op overhead of eager execution against calling NumPy directly.

Run: python tools/bench/eager_overhead.py
"""
from __future__ import annotations

import timeit

import numpy as np

import runtime as tf


def per_call(fn, number=20000) -> float:
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


def main() -> None:
    a_np = np.random.default_rng(0).random((10, 10), dtype=np.float32)
    a = tf.constant(a_np)
    cases = [
        ("add 10x10 float32", lambda: tf.add(a, a), lambda: np.add(a_np, a_np)),
        ("a * a (operator)", lambda: a * a, lambda: a_np * a_np),
        ("matmul 10x10", lambda: tf.matmul(a, a), lambda: np.matmul(a_np, a_np)),
        ("reduce_sum 10x10", lambda: tf.reduce_sum(a), lambda: np.add.reduce(a_np, axis=None, dtype=np.float32)),
    ]
    print(f"{'op':22} {'runtime':>10} {'numpy':>10} {'overhead':>10}")
    for label, ours, theirs in cases:
        t_ours, t_np = per_call(ours), per_call(theirs)
        print(f"{label:22} {t_ours * 1e6:8.2f}us {t_np * 1e6:8.2f}us {(t_ours - t_np) * 1e6:8.2f}us")


if __name__ == "__main__":
    main()
