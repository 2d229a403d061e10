"""What one call of a traced `runtime.function` costs, by the kind of arguments it is given.

A call looks its arguments up in the trace cache (runtime/signatures.py). Tensors are keyed by dtype and
shape and Python values by value; an object of the user's class (a `tf.Module` subclass, say) is keyed by
identity and by a snapshot of what its attributes hold (`signatures.object_key`), so that a call after an
attribute changed traces again, as Python would see the change. This script measures that snapshot beside
the same call with tensor arguments only, in one run, and prints the ratios. A function that reads globals
(and a helper's) also compares them on each call with what its trace read (runtime/python_reads.py), so that
a call after the program rebinds one traces again. The graphs are all one `matmul` (and, reading globals, a
few scalar ops), so the figures are the call's overhead, not its work.

Run: PYTHONPATH=. python tools/bench/function_call_overhead.py
"""
from __future__ import annotations

import timeit

import numpy as np

import runtime as tf


def per_call(fn, number=2000) -> float:
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


class Dense(tf.Module):
    def __init__(self, width: int, name: str):
        super().__init__(name=name)
        self.w = tf.Variable(np.eye(width, dtype=np.float32))
        self.activation = "relu"
        self.units = width


class Stack(tf.Module):
    """A model of `depth` layers, each holding a Variable and Python settings: what the snapshot walks."""

    def __init__(self, depth: int, width: int = 4):
        super().__init__()
        self.layers = [Dense(width, f"dense_{i}") for i in range(depth)]
        self.dropout = 0.1

    @tf.function
    def method(self, x):            # `self` of a method
        return tf.matmul(x, self.layers[0].w)


class Settings:
    def __init__(self):
        self.scale, self.mode, self.sizes = 2.0, "train", [1, 2, 3]


@tf.function
def takes_tensor(x, w):
    return tf.matmul(x, w)


@tf.function
def takes_object(x, model):
    return tf.matmul(x, model.layers[0].w)


@tf.function
def takes_settings(x, settings):
    return tf.matmul(x, x) * settings.scale


SCALE, SHIFT, POWER = 2.0, 1.0, 3


def shifted(v):
    return v + SHIFT


@tf.function
def literals(x, w):             # the same graph as reads_globals', its numbers written in
    return (tf.matmul(x, w) * 2.0 + 1.0) * 3


@tf.function
def reads_globals(x, w):        # SCALE, SHIFT, POWER and the helper `shifted`
    return shifted(tf.matmul(x, w) * SCALE) * POWER


def main() -> None:
    x = tf.constant(np.ones((4, 4), np.float32))
    w = tf.constant(np.eye(4, dtype=np.float32))
    small, deep, settings = Stack(1), Stack(10), Settings()
    cases = [
        ("tensors only", lambda: takes_tensor(x, w)),
        ("3 more ops, numbers written in", lambda: literals(x, w)),
        ("3 more ops, 4 globals read", lambda: reads_globals(x, w)),
        ("a method (self)", lambda: deep.method(x)),
        ("object: 3 attributes", lambda: takes_settings(x, settings)),
        ("object: Module, 1 layer", lambda: takes_object(x, small)),
        ("object: Module, 10 layers", lambda: takes_object(x, deep)),
    ]
    for _, call in cases:    # trace each once before timing
        call()
    base = None
    print(f"{'arguments':32} {'per call':>10} {'vs tensors':>11}")
    for label, call in cases:
        t = per_call(call)
        base = base or t
        print(f"{label:32} {t * 1e6:8.1f}us {t / base:10.2f}x")


if __name__ == "__main__":
    main()
