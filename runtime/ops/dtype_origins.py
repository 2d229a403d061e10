"""Where a loop variable got its dtype, for the message of an op whose operands' dtypes differ.

A loop keeps each variable's dtype, so `s = 0` (or `s = tf.constant(0)`) before a staged loop makes `s` an
int32 tensor in the body, and `s = s + tf.cast(i, tf.float32)` there fails. The message names the variable,
says where its dtype comes from (recorded by `record`: the staged loop for its placeholders, autograph for a
Python number it typed) and which cast fixes it: the narrower operand is cast to the wider dtype (an int to a
float), which for a loop variable means giving it the wider dtype before the loop.

    AddV2: cannot compute with int32 and float32: 's' is int32: it is int32 when the loop at f.py:4 starts,
    and a loop keeps each variable's dtype. Make 's' float32 before the loop: start it as a float (0.0, not 0),
    or write s = runtime.cast(s, runtime.float32) before the loop.
"""
from __future__ import annotations

import numpy as np

from runtime import dtypes
from runtime.ops import registry


def record(graph, t, name: str, why: str) -> None:
    """`t` (a tensor of `graph`, or an eager value used in it) is the loop variable `name`, of its dtype `why`."""
    graph.dtype_origins[id(t)] = (t, name, why)


def of(t):
    """(name, why) recorded for `t` in the graph being built or `t`'s own graph, or None."""
    for graph in (getattr(getattr(t, "op", None), "graph", None), registry.context.graph):
        found = None if graph is None else graph.dtype_origins.get(id(t))
        if found is not None and found[0] is t:
            return found[1:]
    return None


def mismatch(op_name: str, x, y) -> str:
    """The message for `op_name` on operands `x` and `y` of different dtypes."""
    a, b = x.dtype, y.dtype
    head = f"{op_name}: cannot compute with {a.name} and {b.name}"
    for mine, other in ((x, y), (y, x)):
        found = of(mine)
        if found is not None:
            return f"{head}: {_explained(mine, other, *found)}"
    wide = _wider(a, b)
    narrow = b if wide is a else a
    return (f"{head}; runtime never converts dtypes implicitly. Use runtime.cast(<the {narrow.name} operand>, "
            f"runtime.{wide.name}) so both operands have the same dtype.")


def _explained(var, other, name: str, why: str) -> str:
    d, o = var.dtype, other.dtype
    text = f"'{name}' is {d.name}: {why}, and a loop keeps each variable's dtype."
    if _wider(d, o) is o:
        start = "a float (0.0, not 0)" if o.is_floating and d.is_integer else f"a {o.name} value"
        return (f"{text} Make '{name}' {o.name} before the loop: start it as {start}, or write "
                f"{name} = runtime.cast({name}, runtime.{o.name}) before the loop.")
    return f"{text} Cast the other operand: runtime.cast(<the {o.name} operand>, runtime.{d.name})."


def _wider(a: dtypes.DType, b: dtypes.DType) -> dtypes.DType:
    """The dtype of the two that holds the other's values (a float over an int): the one to cast to."""
    if a.is_floating != b.is_floating:
        return a if a.is_floating else b
    try:
        return a if np.dtype(a.as_numpy_dtype).itemsize >= np.dtype(b.as_numpy_dtype).itemsize else b
    except TypeError:
        return a
