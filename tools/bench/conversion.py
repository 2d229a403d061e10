"""Conversion cost: cold conversion time per function on a corpus, side by side with TensorFlow's
AutoGraph when TensorFlow is installed, growth with size, and the size of the generated code.

Run: python tools/bench/conversion.py
TensorFlow is measured in the same run when it can be imported (it is not a dependency of this
project; in a separate venv: pip install tensorflow-cpu==2.21.0 pytest, then run this script there).
`--no-tensorflow` skips it.
"""
from __future__ import annotations

import argparse
import importlib.util
import inspect
import os
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))   # measure this tree's autograph, not an installed one

import autograph as ag  # noqa: E402
from autograph import api  # noqa: E402


def corpus() -> list:
    from tests.autograph import programs
    fns = [fn for fn, _ in programs.PROGRAMS] + [programs.short_circuit, programs.record]
    for name in ("demo",):
        spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        fns += [obj for obj in vars(module).values() if inspect.isfunction(obj) and obj.__module__ == name]
    fns += [_line_search, _fizzbuzz, _power, _relu, _calc, _normalize]
    return fns


def _calc(a, b, c):
    d = a * b + c
    e = a * b * c
    return d, e


def _relu(x):
    if x > 0:
        return x
    else:
        return 0


def _power(x, y):
    result = 1
    for _ in range(y):
        result = x * result
    return result


def _fizzbuzz(max_num):
    counter = 0
    for num in range(1, max_num + 1):
        if num % 3 == 0 and num % 5 == 0:
            print('FizzBuzz')
        elif num % 3 == 0:
            print('Fizz')
        elif num % 5 == 0:
            print('Buzz')
        else:
            print(num)
        counter += 1
    return counter


def _line_search(fn, init_x, grad, rate=1.0):
    value = fn(init_x)
    grad_norm = sum(g * g for g in grad)
    init_value = value
    x = init_x
    while value > init_value - rate * grad_norm:
        x = [a - rate * g for a, g in zip(init_x, grad)]
        value = fn(x)
        rate /= 2.0
    return x, value


def _normalize(xs, eps=1e-6):
    total = 0.0
    count = 0
    for x in xs:
        if x is None:
            continue
        total += x
        count += 1
    if count == 0:
        return []
    mean = total / count
    out = []
    for x in xs:
        out.append(0.0 if x is None else (x - mean) / (abs(mean) + eps))
    return out


# CPU time of this process: the machine is shared, and wall time on a loaded machine measures the others.
clock = time.process_time


def cold_time(fn, what=ag.convert) -> float:
    """Best of 5: `what(fn)` with the conversion cache emptied first."""
    best = float("inf")
    for _ in range(5):
        api._cache.clear()
        api._function_cache.clear()
        start = clock()
        what(fn)
        best = min(best, clock() - start)
    return best


def tensorflow_converter():
    """`cold(fn)`: TensorFlow's cold conversion time of `fn` (best of 5, its conversion cache emptied
    first), or None when TensorFlow can't be imported. Uses TensorFlow's private transpiler cache, the
    one `tf.autograph.to_graph` reads (the same in TensorFlow 2.4 to 2.21)."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    try:
        import tensorflow as tf
        from tensorflow.python.autograph.impl import api as tf_api
        from tensorflow.python.autograph.pyct import cache as tf_cache
    except ImportError:
        return None, None

    def cold(fn) -> float:
        best = float("inf")
        for _ in range(5):
            tf_api._TRANSPILER._cache = tf_cache.CodeObjectCache()
            start = clock()
            tf.autograph.to_graph(fn)
            best = min(best, clock() - start)
        return best

    return cold, tf.__version__


def nonblank(text: str) -> int:
    return len([line for line in text.splitlines() if line.strip()])


def generated_function(n_statements: int, directory: pathlib.Path):
    """A function of about n statements: blocks of assignments, ifs and loops."""
    lines = ["def big(x, n):", "    s = 0"]
    count = 1
    i = 0
    while count < n_statements:
        lines += [f"    if x > {i}:", f"        s = s + {i}", "    else:", f"        s = s - x",
                  f"    for j{i} in range(n):", f"        s += j{i}", f"    t{i} = s * 2"]
        count += 7
        i += 1
    lines.append("    return s")
    path = directory / f"big_{n_statements}.py"
    path.write_text("\n".join(lines) + "\n")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.big


def main() -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--no-tensorflow", action="store_true", help="don't measure TensorFlow side by side")
    options = parser.parse_args()
    print(f"autograph from {pathlib.Path(ag.__file__).parent}")
    tf_cold, tf_version = (None, None) if options.no_tensorflow else tensorflow_converter()
    print(f"TensorFlow {tf_version} measured side by side" if tf_cold else
          "TensorFlow not measured (not installed, or --no-tensorflow): the summary compares with 12 ms, "
          "its fastest cold conversion on this machine")
    fns = corpus()
    times, code_times, ratios, tf_times = [], [], [], []
    for fn in fns:
        times.append(cold_time(fn))
        code_times.append(cold_time(fn, ag.to_code))
        ratios.append(nonblank(ag.to_code(fn)) / nonblank(inspect.getsource(fn)))
        tf_times.append(_tensorflow_time(tf_cold, fn))
    print(f"corpus: {len(fns)} functions (CPU time, best of 5)")
    print(f"  {'function':28} {'lines':>5} {'convert':>9} {'TensorFlow':>10} {'faster':>7} {'out/in lines':>12}")
    rows = sorted(zip(fns, times, ratios, tf_times), key=lambda x: nonblank(inspect.getsource(x[0])))
    for fn, t, r, tf_t in rows:
        tf_cell = f"{tf_t * 1e3:8.2f}ms {tf_t / t:6.1f}x" if isinstance(tf_t, float) else f"{tf_t or '-':>17}"
        print(f"  {fn.__name__:28} {nonblank(inspect.getsource(fn)):5} {t * 1e3:7.2f}ms {tf_cell} {r:11.2f}x")
    print(f"  cold conversion (ag.convert: parse, convert, compile): median {statistics.median(times) * 1e3:.2f}ms, "
          f"max {max(times) * 1e3:.2f}ms")
    measured = [(t, tf_t) for t, tf_t in zip(times, tf_times) if isinstance(tf_t, float)]
    if measured:
        speedups = [tf_t / t for t, tf_t in measured]
        print(f"  TensorFlow {tf_version}, the same functions: median {statistics.median(tf_t for _, tf_t in measured) * 1e3:.1f}ms "
              f"({len(measured)} converted, {len(fns) - len(measured)} rejected); this project is faster by "
              f"median {statistics.median(speedups):.1f}x, min {min(speedups):.1f}x")
    else:
        print(f"  vs TensorFlow's 12 ms (its fastest, not measured here): median "
              f"{12e-3 / statistics.median(times):.1f}x faster, slowest function {12e-3 / max(times):.1f}x")
    print(f"  cold to_code (the above plus unparsing): median {statistics.median(code_times) * 1e3:.2f}ms, "
          f"max {max(code_times) * 1e3:.2f}ms")
    print(f"  generated/source non-blank lines: median {statistics.median(ratios):.2f}x, max {max(ratios):.2f}x")
    print("growth with size:")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (50, 250, 1000, 4000):
            fn = generated_function(n, pathlib.Path(tmp))
            api._cache.clear()
            start = clock()
            ag.to_code(fn)
            elapsed = clock() - start
            print(f"  {n:5} statements: {elapsed * 1e3:8.1f}ms ({elapsed / n * 1e6:.0f}us per statement)")
            assert ag.convert(fn).generated(3, 2) == fn(3, 2)


def _tensorflow_time(tf_cold, fn):
    """TensorFlow's time for `fn`, or why there is none."""
    if tf_cold is None:
        return None
    try:
        return tf_cold(fn)
    except Exception as e:  # noqa: BLE001 - TensorFlow rejects loop `else:` clauses, for one
        print(f"  TensorFlow rejects {fn.__name__}: {type(e).__name__}: {e}".splitlines()[0])
        return "rejects"


if __name__ == "__main__":
    main()
