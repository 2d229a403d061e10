"""`runtime.onnx.export` models run by onnxruntime beside the NumPy executor, in one run.

Workloads: those of tools/bench/jit_compile.py (a scalar `while` of 10,000 iterations, collatz(27),
fizzbuzz over 1..1,000, 100 steps of a 32-unit RNN, the 1e6-element chain `tanh(x*2+1)*x-0.5`). For each:
the export itself (trace + `export` + `onnx.checker`, best of 3), onnxruntime's session creation, and the
steady state of the executor (a call of the `runtime.function`) and of `InferenceSession.run` on the same
NumPy inputs (best of `--repeat` batches of ~20 ms), after checking that both give the same results.

Run from the repository root: PYTHONPATH=. python tools/bench/onnx_export.py [--repeat 5]
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import onnxruntime as ort

import runtime as tf
from tools.bench.workloads import chain, collatz, count, fizzbuzz, rnn


RNG = np.random.default_rng(0)
WORKLOADS = {
    "scalar while, 10,000 iterations": (count, (np.int32(10_000),)),
    "collatz(27): while + if": (collatz, (np.int32(27),)),
    "fizzbuzz 1..1,000: for + if/elif": (fizzbuzz, (np.int32(1_000),)),
    "RNN, 100 steps of 32 units": (rnn, (np.zeros((1, 32), np.float32),
                                         *(RNG.standard_normal(s).astype(np.float32) * 0.1
                                           for s in ((100, 1, 32), (32, 32), (32, 32))))),
    "chain tanh(x*2+1)*x-0.5, 1e6 floats": (chain, (RNG.standard_normal(1_000_000).astype(np.float32),)),
}


def session(model) -> ort.InferenceSession:
    options = ort.SessionOptions()
    options.log_severity_level = 3
    return ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])


def best_of(fn, times: int = 3) -> float:
    found = []
    for _ in range(times):
        start = time.perf_counter()
        fn()
        found.append(time.perf_counter() - start)
    return min(found)


def steady(fns: dict, repeat: int) -> dict:
    """Seconds per call of each function, best of `repeat` interleaved batches of about 20 ms."""
    numbers = {name: max(1, int(0.02 / best_of(fn))) for name, fn in fns.items()}
    samples: dict = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            start = time.perf_counter()
            for _ in range(numbers[name]):
                fn()
            samples[name].append((time.perf_counter() - start) / numbers[name])
    return {name: min(s) for name, s in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    opts = parser.parse_args()
    print(f"onnxruntime {ort.__version__}, opset {tf.onnx.OPSET}")
    print("| workload | export: trace + export + check | session creation | steady: executor / onnxruntime | "
          "onnxruntime / executor |")
    print("|---|---|---|---|---|")
    for name, (fn, args) in WORKLOADS.items():
        tensors = [tf.constant(a) for a in args]
        specs = [tf.TensorSpec(a.shape, tf.as_dtype(a.dtype)) for a in args]
        export_time = best_of(lambda: tf.onnx.export(tf.function(fn), None, *specs))
        model = tf.onnx.export(tf.function(fn), None, *specs)
        session_time = best_of(lambda: session(model))
        sess = session(model)
        feeds = {i.name: np.asarray(a) for i, a in zip(model.graph.input, args)}
        graph = tf.function(fn)
        expected = graph(*tensors)
        expected = [np.asarray(e) for e in (expected if isinstance(expected, (tuple, list)) else [expected])]
        for got, want in zip(sess.run(None, feeds), expected):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
        times = steady({"executor": lambda: graph(*tensors), "onnxruntime": lambda: sess.run(None, feeds)},
                       opts.repeat)
        ex, rt = times["executor"] * 1e6, times["onnxruntime"] * 1e6
        print(f"| {name} | {export_time * 1e3:.1f} ms | {session_time * 1e3:.1f} ms | {ex:,.1f} / {rt:,.1f} µs | "
              f"{rt / ex:.2f}× |")


if __name__ == "__main__":
    main()
