"""What ordinary gradient programs cost: a GradientTape eagerly, inside a traced function (per call and per
trace), and outside one (a Call op and its compiled gradient graph). None of the first four assigns a
Variable, so none needs the values a gradient rule holds (runtime/ops/held_variables.py): this is the
common path that holding must not slow down. The last two rows compare a loop whose gradient holds a
Variable it assigns with the same loop carrying the value itself.

Run from the repository root: PYTHONPATH=. python tools/bench/gradient_programs.py
To compare two checkouts, run it alternately from each (the machine's load changes between runs).
"""
from __future__ import annotations

import time
import timeit

import numpy as np

import runtime as tf


def best(fn, number: int, repeat: int = 7) -> float:
    """The best per-call CPU time (process time: less disturbed by other processes than wall time)."""
    return min(timeit.repeat(fn, number=number, repeat=repeat, timer=time.process_time)) / number


def main() -> None:
    w = tf.Variable(np.full([4, 4], 0.5, np.float32))
    b = tf.Variable(np.zeros([4], np.float32))
    x = tf.constant(np.random.default_rng(0).random((8, 4), dtype=np.float32))

    def eager_step():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.tanh(tf.matmul(x, w) + b))
        return tape.gradient(y, [w, b])

    def loss(x):
        h = x
        for _ in tf.range(5):               # a While reading w and b
            h = tf.tanh(tf.matmul(h, w) + b)
        if tf.reduce_sum(h) > 0:            # a Cond reading w
            h = h * tf.reduce_sum(w)
        return tf.reduce_sum(h)

    def step(x):
        with tf.GradientTape() as tape:
            y = loss(x)
        return tape.gradient(y, [w, b])

    inside = tf.function(step)
    outside_loss = tf.function(loss)

    def outside_step():
        with tf.GradientTape() as tape:
            y = outside_loss(x)
        return tape.gradient(y, [w, b])

    def trace():
        return tf.function(step).get_concrete_function(x)

    v = tf.Variable(np.float32(0.7))

    @tf.function
    def assigning_step(x):               # the loop assigns what it reads: the gradient holds v's values
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(x)
            for _ in tf.range(5):
                v.assign_add(0.1)
                y = y + v * v
        return tape.gradient(y, v)

    @tf.function
    def reading_step(x):                 # the same loop reading a value it carries: nothing held
        with tf.GradientTape() as tape:
            tape.watch(x)
            y, u = tf.reduce_sum(x), tf.reduce_sum(x) * 0.0 + 0.7
            for _ in tf.range(5):
                u = u + 0.1
                y = y + u * u
        return tape.gradient(y, x)

    inside(x), outside_step(), assigning_step(x)
    rows = [("eager tape, 3 ops", best(eager_step, 2000, repeat=15)),
            ("tape inside function: call", best(lambda: inside(x), 500, repeat=15)),
            ("tape outside function: call + gradient", best(outside_step, 500, repeat=15)),
            ("tape inside function: trace", best(trace, 10, repeat=15)),
            ("loop carrying a value: call", best(lambda: reading_step(x), 500, repeat=15)),
            ("loop assigning a Variable it reads: call", best(lambda: assigning_step(x), 500, repeat=15))]
    for label, seconds in rows:
        print(f"{label:42} {seconds * 1e6:10.1f}us")


if __name__ == "__main__":
    main()
