"""Cost of the operators on plain Python values: a 1,000-iteration loop with an
`if` inside, written as plain Python and as the generated code calls
`while_stmt`/`if_stmt`, side by side, with the ratio.

Run: python tools/bench/operators_overhead.py
Target (issue 4): converted code at most 3x the original on Python values
(TensorFlow 2.21's AutoGraph is about 800x on such a loop).
"""
from __future__ import annotations

import pathlib
import sys
import time
import timeit

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))  # this checkout, not an installed copy

import autograph as ag__
from autograph import backends


def plain(n):
    i = 0
    s = 0
    while i < n:
        if i % 3 == 0:
            s = s + i
        else:
            s = s - 1
        i = i + 1
    return s


def through_operators(n):
    """What the transpiler emits for `plain` (`ag.to_code(plain)`: the branch and loop functions share
    `i` and `s` through `nonlocal`), minus the FunctionScope."""
    i = 0
    s = 0

    def loop_test():
        return i < n

    def loop_body():
        nonlocal i, s

        def if_true():
            nonlocal s
            s = s + i

        def if_false():
            nonlocal s
            s = s - 1
        ag__.if_stmt(i % 3 == 0, if_true, if_false, ("s",))
        i = i + 1
    ag__.while_stmt(loop_test, loop_body, ("i", "s"))
    return s


def scaffold_only(n):
    """The generated form with every operator replaced by what it does on Python values, inline:
    the cost of the nested functions themselves, which the operators cannot remove."""
    i = 0
    s = 0

    def loop_test():
        return i < n

    def loop_body():
        nonlocal i, s

        def if_true():
            nonlocal s
            s = s + i

        def if_false():
            nonlocal s
            s = s - 1
        if i % 3 == 0:
            if_true()
        else:
            if_false()
        i = i + 1
    while loop_test():
        loop_body()
    return s


def best(fn, n, number=200) -> float:
    # CPU time of this process: on a shared machine wall time also measures the other jobs
    return min(timeit.repeat(lambda: fn(n), number=number, repeat=7, timer=time.process_time)) / number


def main() -> None:
    import runtime  # noqa: F401  (a framework registered, as in real use: the type cache must still make it cheap)

    n = 1000
    assert plain(n) == through_operators(n) == scaffold_only(n)
    print(f"registered backends: {[b.name for b in backends.registered()]}")
    base = best(plain, n)
    print(f"{'1,000-iteration while + if on Python ints':48} {'time':>10} {'vs plain':>9}")
    times = {}
    for label, fn in [("plain Python", plain),
                      ("generated scaffold, operators inlined", scaffold_only),
                      ("+ while_stmt/if_stmt (the generated form)", through_operators)]:
        times[label] = t = best(fn, n)
        print(f"{label:48} {t * 1e6:8.1f}us {t / base:8.2f}x")
    overhead = times["+ while_stmt/if_stmt (the generated form)"] - times["generated scaffold, operators inlined"]
    print(f"operators' own cost: {overhead / n * 1e9:.0f} ns per iteration (one while test, one if)")
    per_call = min(timeit.repeat(lambda: backends.backend_for(1.5), number=100_000, repeat=5,
                                 timer=time.process_time)) / 100_000
    print(f"\nbackend_for(python float), cached: {per_call * 1e9:.0f} ns per call")


if __name__ == "__main__":
    main()
