"""How much slower converted code runs than the original on plain Python values.

Run: python tools/bench/autograph_python_overhead.py
Prints, per workload, the original's time, the converted function's time and the ratio, the same for
the generated code forced onto Python values and, when TensorFlow can be imported (in a separate venv:
pip install tensorflow-cpu==2.21.0), for TensorFlow's `tf.autograph.to_graph` of the same function.
`--no-tensorflow` skips TensorFlow.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import sys
import time
import timeit

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))  # this checkout, not an installed copy

import autograph as ag


def count_loop(n):
    s = 0
    i = 0
    while i < n:
        s += i
        i += 1
    return s


def collatz(n):
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def search(xs, target):
    for i, x in enumerate(xs):
        if x == target:
            return i
    return -1


def clipped_sum(xs, lo, hi):
    total = 0.0
    for x in xs:
        if x < lo or x > hi:
            continue
        total += x
    return total


WORKLOADS = [
    ("while loop, 1,000 iterations", count_loop, (1000,)),
    ("collatz(27): while + if, 111 steps", collatz, (27,)),
    ("for + early return over 1,000 items", search, (list(range(1000)), 999)),
    ("for + continue + or, 1,000 floats", clipped_sum, ([float(i % 50) for i in range(1000)], 5.0, 40.0)),
]


def measure(fn, args, number):
    # CPU time of this process, best of 9: on a shared machine wall time also measures the other jobs
    return min(timeit.repeat(lambda: fn(*args), number=number, repeat=9, timer=time.process_time)) / number


def main() -> None:
    parser = argparse.ArgumentParser(description="How much slower converted code runs than the original on "
                                                 "plain Python values.")
    parser.add_argument("--no-tensorflow", action="store_true", help="don't measure TensorFlow side by side")
    options = parser.parse_args()
    import runtime  # noqa: F401  (a registered framework, as in real use)

    tf = None if options.no_tensorflow else _tensorflow()
    print("converted: what users get (the original runs when no framework is tracing);")
    print("generated: the generated code forced to run on Python values (autograph.api.run_generated_code)")
    print(f"TensorFlow {tf.__version__}: tf.autograph.to_graph(fn), the same values\n" if tf else
          "TensorFlow not measured (not installed, or --no-tensorflow)\n")
    print(f"{'workload':40} {'original':>10} {'converted':>10} {'ratio':>6} {'generated':>10} {'ratio':>6}"
          + (f" {'TensorFlow':>11} {'ratio':>7}" if tf else ""))
    for label, fn, args in WORKLOADS:
        converted = ag.convert(fn)
        assert converted(*args) == fn(*args) == converted.generated(*args)
        number = 200
        t0, t1 = measure(fn, args, number), measure(converted, args, number)
        t2 = measure(converted.generated, args, number)
        line = f"{label:40} {t0 * 1e6:8.1f}us {t1 * 1e6:8.1f}us {t1 / t0:5.2f}x {t2 * 1e6:8.1f}us {t2 / t0:5.2f}x"
        if tf:
            theirs = tf.autograph.to_graph(fn)
            assert theirs(*args) == fn(*args)
            t3 = min(timeit.repeat(lambda: theirs(*args), number=3, repeat=5, timer=time.process_time)) / 3
            line += f" {t3 * 1e6:9.0f}us {t3 / t0:6.0f}x"
        print(line)


def _tensorflow():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    try:
        import tensorflow
    except ImportError:
        return None
    return tensorflow


if __name__ == "__main__":
    main()
