"""The README's demo: plain Python control flow, converted and run as a graph.

Run it with `python examples/demo.py`.
"""
import timeit

import autograph as ag
import runtime as tf


def collatz_steps(n):
    """How many Collatz steps take n to 1 (a data-dependent while and if)."""
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def main() -> None:
    print("Generated code (autograph.to_code):\n")
    print(ag.to_code(collatz_steps))

    graph_fn = tf.function(collatz_steps)
    x = tf.constant(27)
    print("Python int:     collatz_steps(27) =", collatz_steps(27))
    print("eager tensor:  ", collatz_steps(x), "(the Python function, run op by op)")
    print("graph function:", graph_fn(x))
    print("traced graph ops:", len(graph_fn.get_concrete_function(x).graph.get_operations()))

    eager_calls, graph_calls = 20, 200   # an eager call runs each op through Python: ~100x slower
    eager = timeit.timeit(lambda: collatz_steps(x), number=eager_calls) / eager_calls
    graph = timeit.timeit(lambda: graph_fn(x), number=graph_calls) / graph_calls
    print(f"\nper call: eager {eager * 1e3:.3f} ms, graph {graph * 1e3:.3f} ms "
          f"({eager / graph:.1f}x faster as a graph)")


if __name__ == "__main__":
    main()
