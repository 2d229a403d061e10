"""Optimisation passes over one graph, run once per concrete function.

Each pass is a plain function that reads the graph and returns what it found;
none of them mutates the graph, so the traced graph a user inspects stays as
traced. Together they produce a `Plan` for the code generator:

- `fold_constants`: a pure op whose inputs are all constants is run now and
  its outputs become constants (an op that fails is left for run time, where
  non-strict execution may skip it).
- `eliminate_common_subexpressions`: a pure op applied to the same inputs with
  the same attributes as an earlier one reuses the earlier outputs.
- `prune`: only ops needed for the outputs, and stateful ops (with what they
  need), are kept — graph execution is non-strict.
- `reusable_buffers`: an elementwise NumPy ufunc whose input is an array this
  graph made (by another ufunc) and nothing reads afterwards writes its result
  into that array (`out=`) instead of allocating one: a chain like
  `tanh(x * 2 + 1) * x - 0.5` allocates once, as hand-written NumPy does with
  its temporary elision.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from runtime.graph import Graph, Operation

_FOLD_LIMIT = 4096  # elements; larger results stay ops so plans stay small


@dataclass
class Plan:
    """What the code generator needs for one graph."""

    ops: list[Operation]                                  # live ops, in order
    constants: dict[int, object] = field(default_factory=dict)  # id(tensor) -> value
    alias: dict[int, object] = field(default_factory=dict)      # id(tensor) -> canonical tensor
    reuse: dict[int, object] = field(default_factory=dict)      # id(op) -> the input whose array it writes into


def plan(graph: Graph, outputs: list) -> Plan:
    constants = fold_constants(graph)
    alias = eliminate_common_subexpressions(graph, constants)
    ops = prune(graph, outputs, constants, alias)
    return Plan(ops, constants, alias, reusable_buffers(ops, outputs, constants, alias))


def _is_pure(op: Operation) -> bool:
    return not op.stateful and op.opdef.name != "Placeholder" and (not op.attrs or not any(
        isinstance(v, Graph) for v in op.attrs.values()))


def fold_constants(graph: Graph) -> dict[int, object]:
    constants: dict[int, object] = {}
    for op in graph.operations:
        if op.type == "Const":
            constants[id(op.outputs[0])] = _as_value(op.attrs["value"])
            continue
        if not _is_pure(op) or not all(id(t) in constants for t in op.inputs) or _known_too_big(op):
            continue
        try:
            with np.errstate(all="ignore"):
                result = op.opdef.kernel(*(constants[id(t)] for t in op.inputs), **op.attrs)
        except Exception:  # noqa: BLE001 - left for run time, where it may be pruned
            continue
        results = result if op.opdef.multi_output else [result]
        if any(_size(r) > _FOLD_LIMIT for r in results):
            continue
        for t, r in zip(op.outputs, results):
            constants[id(t)] = _as_value(r)
    return constants


def _size(value) -> int:
    """How many items a folded value holds: a list's (a tuple of arrays of any shapes, or None) summed."""
    if isinstance(value, tuple):
        return sum(_size(v) for v in value if v is not None)
    return np.size(value)


def _known_too_big(op: Operation) -> bool:
    """An output whose traced shape already says it is over the folding limit: don't compute it now."""
    for t in op.outputs:
        dims = t.shape.dims
        if dims is not None and None not in dims and int(np.prod(dims, dtype=np.int64)) > _FOLD_LIMIT:
            return True
    return False


def _as_value(value):
    """Keep 0-d values as NumPy scalars: they are much faster in Python loops."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value[()]
    return value


def eliminate_common_subexpressions(graph: Graph, constants: dict[int, object]) -> dict[int, object]:
    alias: dict[int, object] = {}
    seen: dict[tuple, Operation] = {}
    for op in graph.operations:
        if not _is_pure(op) or not op.outputs:
            continue
        if op.type != "Const" and id(op.outputs[0]) in constants:
            continue  # folded: constants are merged by value instead
        key = _key(op, alias, constants)
        if key is None:
            continue
        first = seen.setdefault(key, op)
        if first is not op:
            for mine, theirs in zip(op.outputs, first.outputs):
                alias[id(mine)] = theirs
    return alias


def _key(op: Operation, alias: dict, constants: dict):
    if op.type == "Const":
        value = np.asarray(op.attrs["value"])
        if value.size > 64:
            return None
        return ("Const", value.dtype.str, value.shape, value.tobytes())
    try:
        attrs = tuple(sorted((k, _freeze(v)) for k, v in op.attrs.items())) if op.attrs else ()
        hash(attrs)
    except TypeError:
        return None
    if alias:
        inputs = tuple([id(alias.get(id(t), t)) for t in op.inputs])
    else:
        inputs = tuple([id(t) for t in op.inputs])
    return (op.type, inputs, attrs)


def _freeze(value):
    if isinstance(value, np.ndarray):
        raise TypeError("arrays are not compared")
    if isinstance(value, list):
        return ("list", tuple(_freeze(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, _freeze(v)) for k, v in value.items())))
    return (type(value).__name__, value)


def prune(graph: Graph, outputs: list, constants: dict, alias: dict) -> list[Operation]:
    """The ops to run: those the outputs need, and every stateful op."""
    needed: set[int] = set()
    stack = [op for op in graph.operations if op.stateful]
    for t in outputs:
        t = alias.get(id(t), t)
        if id(t) not in constants:
            stack.append(t.op)
    while stack:
        op = stack.pop()
        if id(op) in needed:
            continue
        needed.add(id(op))
        for t in op.inputs:
            t = alias.get(id(t), t)
            if id(t) not in constants:
                stack.append(t.op)
    return [op for op in graph.operations if id(op) in needed]


def _makes_fresh_array(op: Operation) -> bool:
    """An op the code generator writes as a plain NumPy ufunc call, so its output (an array, when its shape has
    a dimension) is a new array that nothing else holds: not a view, a constant, an input or a Variable's value."""
    return isinstance(op.opdef.kernel, np.ufunc) and not op.attrs and len(op.outputs) == 1


def _array_shape(t):
    dims = t.shape.dims
    return tuple(dims) if dims and None not in dims else None


def reusable_buffers(ops: list[Operation], outputs: list, constants: dict, alias: dict) -> dict[int, object]:
    """For each ufunc op that can write into one of its inputs' arrays, that input: made by a ufunc of this
    graph, of the op's static shape (with at least one dimension) and dtype, and read by nothing else (the op is
    its only reader in this graph, through CSE aliases and nested graphs' inputs too, and it is not an output)."""
    readers: dict[int, int] = {}
    for op in ops:
        for t in set(id(alias.get(id(t), t)) for t in op.inputs):
            readers[t] = readers.get(t, 0) + 1
    for t in outputs:
        t = alias.get(id(t), t)
        readers[id(t)] = readers.get(id(t), 0) + 1
    reuse: dict[int, object] = {}
    taken: set[int] = set()
    for op in ops:
        if not _makes_fresh_array(op) or _array_shape(op.outputs[0]) is None:
            continue
        out = op.outputs[0]
        for t in op.inputs:
            t = alias.get(id(t), t)
            if (id(t) not in constants and id(t) not in taken and readers.get(id(t)) == 1 and t.op in ops
                    and _makes_fresh_array(t.op) and t.dtype is out.dtype and _array_shape(t) == _array_shape(out)):
                reuse[id(op)] = t
                taken.add(id(t))
                break
    return reuse
