"""Eight threads converting, tracing and calling the same and different functions at once.

The functions are loaded from a fresh file, so their code objects have never
been converted: the conversion counter (`autograph.api._stats`) must go up by
exactly one per function however many threads ask at once, each shared
`runtime.function` must trace once per input signature, and every result must
equal the original Python function's on Python values.
"""
from __future__ import annotations

import importlib.util
import sys
import textwrap
import threading
from pathlib import Path

import autograph as ag
import runtime as tf
from autograph import api

THREADS = 8
INPUTS = [0, 1, 2, 3, 5, 6, 7, 9]

SOURCE = textwrap.dedent('''
    def collatz_steps(n):
        steps = n * 0
        while n > 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps


    def sum_of_multiples(n):
        s = n * 0
        i = n * 0
        while i < n:
            if i % 3 == 0 or i % 5 == 0:
                s += i
            i += 1
        return s


    def relu_or_half(x):
        if x > 2:
            return x * x
        else:
            return -x // 2


    def power(x, y):
        r = x * 0 + 1
        for _ in range(y):
            r = r * x
        return r
''')


def _load(tmp_path: Path):
    path = tmp_path / "concurrent_user_code.py"
    path.write_text(SOURCE)
    spec = importlib.util.spec_from_file_location("concurrent_user_code", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _calls(module):
    """(name, python function, args builder) for every call each thread makes."""
    return [
        ("collatz_steps", module.collatz_steps, lambda n: (n,)),
        ("sum_of_multiples", module.sum_of_multiples, lambda n: (n,)),
        ("relu_or_half", module.relu_or_half, lambda n: (n,)),
        ("power", module.power, lambda n: (n % 4, n % 5)),
    ]


def _worker(tid: int, module, functions: dict, barrier: threading.Barrier, out: dict, errors: list) -> None:
    try:
        barrier.wait()
        calls = _calls(module)
        calls = calls[tid % len(calls):] + calls[:tid % len(calls)]   # threads start on different functions
        results = {}
        for name, fn, make_args in calls:
            converted = ag.convert(fn)
            ag.to_code(fn)
            for n in INPUTS:
                args = make_args(n)
                results[(name, "python", n)] = converted(*args)
                for dtype in (tf.int32, tf.int64):
                    value = functions[name](*(tf.constant(a, dtype) for a in args))
                    results[(name, dtype.name, n)] = int(value.numpy())
        out[tid] = results
    except BaseException as e:  # noqa: BLE001 - reported by the main thread
        errors.append(e)


def test_threads_share_conversions_and_traces(tmp_path):
    module = _load(tmp_path)
    functions = {name: tf.function(fn) for name, fn, _ in _calls(module)}
    before = api._stats["conversions"]
    barrier = threading.Barrier(THREADS)
    out: dict = {}
    errors: list = []
    threads = [threading.Thread(target=_worker, args=(i, module, functions, barrier, out, errors))
               for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    if errors:
        raise errors[0]
    assert api._stats["conversions"] - before == len(functions), "a function was converted more than once"
    for name, fn in functions.items():
        assert fn.experimental_get_tracing_count() == 2, f"{name} traced more than once per signature"
    expected = {}
    for name, fn, make_args in _calls(module):
        for n in INPUTS:
            value = fn(*make_args(n))
            expected.update({(name, kind, n): value for kind in ("python", "int32", "int64")})
    for tid in range(THREADS):
        assert out[tid] == expected, f"thread {tid} disagrees with the Python functions"


def test_concurrent_conversion_of_one_new_function_happens_once(tmp_path):
    module = _load(tmp_path)
    before = api._stats["conversions"]
    barrier = threading.Barrier(THREADS)
    sources, errors = [], []

    def convert():
        try:
            barrier.wait()
            sources.append(ag.to_code(module.relu_or_half))
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=convert) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not errors, errors
    assert len(sources) == THREADS and len(set(sources)) == 1
    assert api._stats["conversions"] - before == 1
