"""Weakly typed values: what dtype a Python number carried by a staged loop should take.

A Python number has no dtype of its own; in `s = 0; for i in tf.range(n): s = s + tf.cast(i, tf.float32)` the
loop makes `s` a float32, as JAX's weak types do. To find out, the loop's test and body are traced once in a
throwaway graph (autograph's probe) with `s` as a *weak* placeholder: an int32 placeholder for an int, a
float32 one for a float. While `registry.context.weak` holds a `WeakProbe`, the ops see weak tensors:

- a Python scalar converted by an op is weak too; an op whose inputs are all weak gives a weak result of the
  same dtype (`s * 3`, `abs(s)`; not `s < 3` or a cast);
- a weak and a strong operand of different dtypes (`s + x` with `x` float32) *meet*: the weak one is cast to
  the strong one's dtype where its Python kind converts exactly (an int to any number type, a float to a
  float type), and the probe records the dtype and the user's line for each loop variable it came from.

The loop then carries each variable with the first dtype it met; one that met none (`s = s * 3`) keeps the
placeholder's, the dtype `runtime.constant` gives a Python number; an int the loop computes from Python
numbers only stays a Python int, whose arithmetic raises instead of wrapping around (runtime/ops/python_ints.py).
"""
from __future__ import annotations

from typing import Optional

from runtime import dtypes


class WeakProbe:
    """The weak tensors of one probe trace, by id, with the loop variables (slot indices) each derives
    from, and the dtypes those variables met (slot -> [(dtype, 'file:line')])."""

    def __init__(self):
        self._weak: dict = {}        # id(tensor) -> (tensor, kind: int | float, slots: frozenset)
        self.met: dict = {}

    def placeholder(self, graph, value, slot: int, name: str):
        """A weak placeholder of `graph` for the Python number `value`, the loop variable `slot`."""
        kind = int if value.__class__ is int else float
        t = graph.placeholder(dtypes.int32 if kind is int else dtypes.float32, (), name)
        self._mark(t, kind, frozenset((slot,)))
        return t

    def _mark(self, t, kind, slots) -> None:
        self._weak[id(t)] = (t, kind, slots)

    def info(self, t):
        return self._weak.get(id(t))

    def python(self, value, t) -> None:
        """`t` was converted from the Python scalar `value`: it is weak (and of no loop variable)."""
        if value.__class__ in (int, float):
            self._mark(t, value.__class__, frozenset())

    def alias(self, t, view) -> None:
        """`view` (a capture of `t` in a nested graph) is as weak as `t`."""
        found = self.info(t)
        if found is not None:
            self._mark(view, found[1], found[2])

    def propagate(self, inputs, outputs) -> None:
        """An op whose inputs are all weak gives weak outputs of the inputs' dtype."""
        if not inputs:
            return
        found = [self.info(t) for t in inputs]
        if any(f is None for f in found):
            return
        kind = float if any(f[1] is float for f in found) else int
        slots = frozenset().union(*(f[2] for f in found))
        for out in outputs:
            if out.dtype is inputs[0].dtype:
                self._mark(out, kind, slots)

    def meet(self, x, y, where: str):
        """`x` and `y` with one dtype where one is weak and can take the other's dtype (a weak int also takes a
        weak float's); else as they are."""
        if x.dtype is y.dtype:
            return x, y
        wx, wy = self.info(x), self.info(y)
        if wy is not None and (wx is None or wy[1] is int and wx[1] is float):   # y takes x's dtype
            return self._meet(x, y, wx, wy, where)
        if wx is not None and (wy is None or wx[1] is int and wy[1] is float):   # x takes y's dtype
            y, x = self._meet(y, x, wy, wx, where)
        return x, y

    def _meet(self, strong, weak, strong_info, weak_info, where: str):
        from runtime.ops import math_ops   # import cycle: math_ops imports the op helpers

        _, kind, slots = weak_info
        if not accepts(strong.dtype, kind):
            return strong, weak
        for slot in slots:   # (dtype, 'file:line', whether what it met is a Python number too)
            self.met.setdefault(slot, []).append((strong.dtype, where, strong_info is not None))
        cast = math_ops.cast(weak, strong.dtype)
        if strong_info is not None:   # both weak: the result stays weak
            self._mark(cast, float if float in (kind, strong_info[1]) else int, slots | strong_info[2])
        return strong, cast

    def chosen(self, slot: int) -> Optional[tuple]:
        """(dtype, 'file:line', met a Python number) that loop variable `slot` met first, or None."""
        met = self.met.get(slot)
        return met[0] if met else None


def accepts(dtype: dtypes.DType, kind) -> bool:
    if dtype.is_bool or not (dtype.is_integer or dtype.is_floating):
        return False
    return kind is int or dtype.is_floating
