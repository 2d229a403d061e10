"""Resource bounds: many closures, deep nesting, huge functions, deep recursion.

Each case runs under a time guard (a worker thread joined with a timeout), so
a hang fails the test instead of stalling the suite.
"""
from __future__ import annotations

import gc
import importlib.util
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

import autograph as ag
import runtime as tf
from autograph import api


def _guarded(fn, timeout: float = 30.0):
    """fn() in a thread; its result, or its exception re-raised; a hang fails the test."""
    box: dict = {}

    def run():
        try:
            box["result"] = fn()
        except BaseException as e:  # noqa: BLE001 - re-raised below
            box["error"] = e

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), f"{fn.__name__} did not finish within {timeout} s"
    if "error" in box:
        raise box["error"]
    return box["result"]


def _load(tmp_path: Path, name: str, source: str):
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


# --- many closures and lambdas -----------------------------------------------------------------

def _make_closure(k):
    def scaled(x):
        if x > k:
            return x * k
        return x - k
    return scaled


def test_10000_closures_and_lambdas_do_not_grow_memory():
    def convert_many(start: int, count: int) -> None:
        for k in range(start, start + count):
            assert ag.convert(_make_closure(k))(k + 1) == (k + 1) * k
            assert ag.convert(lambda x, k=k: x + k)(1) == 1 + k

    def measure():
        convert_many(0, 500)                  # warm: the two conversions are made and cached
        conversions, cache_size = api._stats["conversions"], len(api._cache)
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        started = time.perf_counter()
        convert_many(500, 10_000)
        elapsed = time.perf_counter() - started
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        return conversions, cache_size, grown, elapsed

    conversions, cache_size, grown, elapsed = _guarded(measure, timeout=60)
    assert api._stats["conversions"] == conversions, "closures of one code object were converted again"
    assert len(api._cache) == cache_size
    # 20,000 converted functions were made; none may stay alive (a leak would be several MB).
    assert grown < 512 * 1024, f"memory grew by {grown} bytes over 10,000 closures and 10,000 lambdas"
    assert elapsed < 10, elapsed


def test_the_conversion_cache_is_bounded():
    assert api._CACHE_SIZE <= 10_000
    assert len(api._cache) <= api._CACHE_SIZE


# --- 50 nested ifs -------------------------------------------------------------------------------

def _nested_ifs_source(depth: int) -> str:
    lines = ["def nested(x):", "    y = 0"]
    for i in range(depth):
        indent = "    " * (i + 1)
        lines += [f"{indent}if x > {i}:", f"{indent}    y = y + 1"]
    lines.append("    return y")
    return "\n".join(lines) + "\n"


def test_50_nested_ifs_on_python_values_and_tensors(tmp_path):
    module = _load(tmp_path, "nested_ifs_50", _nested_ifs_source(50))
    converted = _guarded(lambda: ag.convert(module.nested))
    assert "ag__.if_stmt" in ag.to_code(module.nested)
    for x in (-1, 0, 7, 49, 60):
        assert converted(x) == module.nested(x)
    graph_fn = tf.function(module.nested)
    for x in (-1, 7, 60):
        assert int(_guarded(lambda: graph_fn(tf.constant(x))).numpy()) == module.nested(x)
    assert graph_fn.experimental_get_tracing_count() == 1


# --- a 5,000-statement function -------------------------------------------------------------------

def test_a_5000_statement_function_converts_and_runs(tmp_path):
    body = []
    for i in range(2500):
        body += [f"    a = a + {i % 7}", f"    b = b ^ (a & {i % 13})"]
    source = "def huge(a, b):\n" + "\n".join(body) + "\n    return a, b\n"
    module = _load(tmp_path, "huge_5000", source)
    started = time.perf_counter()
    converted = _guarded(lambda: ag.convert(module.huge), timeout=60)
    elapsed = time.perf_counter() - started
    assert elapsed < 20, f"converting 5,000 statements took {elapsed:.1f} s"  # ~2 s when the machine is idle
    assert converted(1, 2) == module.huge(1, 2)
    api.run_generated_code(True)
    try:
        assert converted(1, 2) == module.huge(1, 2)
    finally:
        api.run_generated_code(False)


# --- deep recursion ----------------------------------------------------------------------------

RECURSIVE = '''
def depth(n):
    if n == 0:
        return 0
    return 1 + depth(n - 1)


def scaled_depth(n, x):
    if n == 0:
        return x
    return scaled_depth(n - 1, x * 2)
'''


def test_recursion_of_converted_calls(tmp_path):
    module = _load(tmp_path, "recursive_user_code", RECURSIVE)
    converted = ag.convert(module.depth)
    api.run_generated_code(True)   # every level goes through converted_call and the generated code
    try:
        assert _guarded(lambda: converted(100)) == 100
        with pytest.raises(RecursionError):
            _guarded(lambda: converted(10 ** 6))
        assert _guarded(lambda: converted(50)) == 50   # still usable afterwards
    finally:
        api.run_generated_code(False)
    graph_fn = tf.function(module.scaled_depth)
    assert int(_guarded(lambda: graph_fn(20, tf.constant(1))).numpy()) == 2 ** 20
