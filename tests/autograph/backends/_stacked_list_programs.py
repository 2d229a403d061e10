"""Programs on a list a staged loop built, used after the loop, for every backend that carries such lists
(test_jax_lists.py, test_tensorflow.py). `make(xs)` builds the list in a loop over the framework's array;
each program returns what Python's list operators give (before, `l + other` and `l * 2` were elementwise)."""
from __future__ import annotations

import numpy as np


def doubled_list(xs):
    out = []
    for x in xs:
        out.append(x * 2)
    return out


def programs(make) -> dict:
    def concatenated(xs):
        return make(xs) + make(xs)

    def slice_then_concatenate(xs):
        return make(xs)[1:] + [10]

    def reversed_and_repeated(xs):
        return make(xs)[::-1] * 2

    def compared(xs):
        return make(xs) == [2, 4, 6], make(xs) != [2, 4]

    def length(xs):
        return len(make(xs)) + 1

    def truth(xs):
        out = make(xs)
        if out:
            return 1
        return 0

    def summed_in_a_loop(xs):
        s = 0
        for v in make(xs):
            s = s + v
        return s

    def after_a_staged_if(xs):
        out = make(xs)
        if xs[0] > 0:
            out = out + [7]
        else:
            out = out + [8]
        return out + [1]

    return {f.__name__: f for f in (concatenated, slice_then_concatenate, reversed_and_repeated, compared, length,
                                    truth, summed_in_a_loop, after_a_staged_if)}


def as_python(value):
    """A result as Python values: lists (and list-like results) of numbers, tuples kept."""
    if isinstance(value, tuple):
        return tuple(as_python(v) for v in value)
    if isinstance(value, list) or hasattr(value, "rows"):
        return [as_python(v) for v in (value.rows if hasattr(value, "rows") else value)]
    return np.asarray(value).tolist()
