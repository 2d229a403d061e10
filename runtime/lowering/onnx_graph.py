"""The ONNX graphs that `to_onnx.py`'s rules write into: `Builder` (one per graph: the model's, an `If`
branch, a `Loop` body), the `Value`s rules read, unique readable names, and typed value infos.

A runtime `variant` tensor (a TensorArray, or a Python list staged in a loop) is an ONNX sequence of
tensors; its `Value` carries the dtype and shape of its elements (a `Spec`, as far as the writes tell),
which ONNX types need and the runtime's spec does not have.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from runtime import dtypes
from runtime.errors import LoweringError
from runtime.graph import made_at
from runtime.ops.registry import Spec

ELEMENT_TYPES = {dtypes.bool: TensorProto.BOOL, dtypes.float16: TensorProto.FLOAT16,
                 dtypes.float32: TensorProto.FLOAT, dtypes.float64: TensorProto.DOUBLE,
                 dtypes.int8: TensorProto.INT8, dtypes.int16: TensorProto.INT16, dtypes.int32: TensorProto.INT32,
                 dtypes.int64: TensorProto.INT64, dtypes.uint8: TensorProto.UINT8, dtypes.uint16: TensorProto.UINT16,
                 dtypes.uint32: TensorProto.UINT32, dtypes.uint64: TensorProto.UINT64}


@dataclass(frozen=True)
class Value:
    """An ONNX value: its name, the dtype and shape the runtime's graph gives it, and for a `variant`
    (a sequence) the `Spec` of its elements."""

    name: str
    dtype: dtypes.DType
    shape: object   # TensorShape
    element: Optional[Spec] = None

    @property
    def rank(self) -> Optional[int]:
        return self.shape.rank

    def __str__(self) -> str:
        return self.name


class Names:
    """Unique ONNX names across the model and its subgraphs, readable: `<op>/<ONNX op>`, then `_1`, `_2`;
    and the element `Spec` of each sequence-valued name."""

    def __init__(self):
        self.counts: dict[str, int] = {}
        self.used: set[str] = set()
        self.elements: dict[str, Spec] = {}
        self.known: dict[str, np.ndarray] = {}   # small values computed from constants alone (`Builder.fold`)

    def fresh(self, base: str) -> str:
        base = base.replace(":", "_") or "v"
        name = base
        while name in self.used:   # `Const_1` may be an op's own name as well as the second `Const`
            self.counts[base] = self.counts.get(base, 0) + 1
            name = f"{base}_{self.counts[base]}"
        self.used.add(name)
        return name


class Builder:
    """The nodes of one ONNX graph as rules add them. `rules` is the table (op name -> rule); `state` maps
    each Variable's storage to the ONNX name of its current value."""

    def __init__(self, rules: dict[str, Callable], names: Names, state: dict):
        self.rules = rules
        self.names = names
        self.state = state
        self.nodes: list = []
        self.op = None   # the op whose rule is running, for names and messages

    def child(self) -> "Builder":
        """A builder for a subgraph of this graph (an If branch, a Loop body), with the same Variables."""
        return Builder(self.rules, self.names, dict(self.state))

    def fresh(self, base: str) -> str:
        return self.names.fresh(base)

    # -- what rules call ----------------------------------------------------------------

    def node(self, op_type: str, *inputs, outputs: Optional[int] = None, **attrs):
        """Add a node; the name of its output, or a list of `outputs` names when that is given. (A rule
        returns names, or a `Value` where it knows more of the output's shape than the runtime's graph.)"""
        base = f"{self.op.name}/{op_type}" if self.op is not None else op_type
        names = [self.fresh(base) for _ in range(1 if outputs is None else outputs)]
        self.nodes.append(helper.make_node(op_type, [str(i) for i in inputs], names, name=names[0], **attrs))
        return names[0] if outputs is None else names

    def const(self, value) -> str:
        return self.node("Constant", value=numpy_helper.from_array(np.asarray(value)))

    def scalar(self, value, dtype) -> str:
        return self.const(np.asarray(value, dtype.as_numpy_dtype))

    def ints(self, values, scalar: bool = False) -> str:
        return self.const(np.asarray(values, np.int64).reshape(() if scalar else (-1,)))

    def cast(self, x, dtype) -> str:
        if isinstance(x, Value) and x.dtype is dtype:
            return x.name
        return self.node("Cast", x, to=ELEMENT_TYPES[dtype])

    def sequence(self, name: str, element: Spec) -> str:
        """Record that `name` is a sequence of tensors of the dtype and shape `element`; `name`."""
        self.names.elements[name] = element
        return name

    def static_rank(self, x: Value, what: str) -> int:
        if x.rank is None:
            raise LoweringError(f"{what} needs the tensor's rank while exporting to ONNX, and it is unknown")
        return x.rank

    # -- the interpreter's callback -------------------------------------------------------

    def apply_op(self, op, inputs: list) -> list:
        previous, self.op = self.op, op
        try:
            out = self.rules[op.type](self, *inputs, **op.attrs)
        except LoweringError as e:
            raise LoweringError(f"ONNX export of op {op.type} ('{op.name}' in graph '{op.graph.name}'): "
                                f"{e}{made_at(op)}", op.type) from None
        finally:
            self.op = previous
        names = out if op.opdef.multi_output else [out]
        values = [name if isinstance(name, Value) else Value(name, t.dtype, t.shape, self.names.elements.get(name))
                  for name, t in zip(names, op.outputs)]
        self.fold(op, inputs, values)
        return values

    def fold(self, op, inputs: list, values: list) -> None:
        """Note the values of `op`'s outputs where its inputs are known constants (a Const's own; small
        tensors only), so that an `If` whose predicate is one exports as the branch it takes."""
        known = self.names.known
        opdef = op.opdef
        if opdef.stateful or opdef.holds_graphs or op.type == "Placeholder" or \
                not all(getattr(v, "name", None) in known for v in inputs):
            return
        try:
            out = opdef.kernel(*[known[v.name] for v in inputs], **op.attrs)
        except Exception:   # noqa: BLE001 - not folded: the ONNX node computes it when the model runs
            return
        for value, result in zip(values, out if opdef.multi_output else [out]):
            result = np.asarray(result)
            if result.size <= 16 and result.dtype != object:
                known[value.name] = result

    # -- finishing a graph ----------------------------------------------------------------

    def subgraph(self, name: str, inputs: list, outputs: list) -> onnx.GraphProto:
        """This builder's nodes as a graph. `outputs` are Values: each names the value to return and its
        declared type. An output that is not a node's output here (an outer-scope value, an input) or that
        repeats another goes through an Identity of its own; the others are returned as they are (each
        node costs time on every iteration of a Loop)."""
        self.op = None
        made = {name for node in self.nodes for name in node.output}
        names, seen = [], set()
        for out in outputs:
            direct = out.name in made and out.name not in seen
            names.append(out.name if direct else self.node("Identity", out))
            seen.add(out.name)
        return helper.make_graph(self.nodes, name, [value_info(v) for v in inputs],
                                 [value_info(Value(n, v.dtype, v.shape, v.element)) for n, v in zip(names, outputs)])


def value_info(value: Value, dim_prefix: str = "") -> onnx.ValueInfoProto:
    """`value`'s ONNX type; unknown dimensions are named `<dim_prefix><i>` in the model's inputs and
    outputs, and left unnamed inside subgraphs."""
    if value.dtype is dtypes.variant:
        if value.element is None:
            raise LoweringError(f"the list '{value.name}' has no known element dtype")
        return helper.make_tensor_sequence_value_info(value.name, ELEMENT_TYPES[value.element.dtype], None)
    if value.dtype not in ELEMENT_TYPES:
        raise LoweringError(f"the dtype {value.dtype.name} of '{value.name}' has no ONNX element type")
    dims = value.shape.dims
    shape = None if dims is None else [d if d is not None else (f"{dim_prefix}{i}" if dim_prefix else None)
                                      for i, d in enumerate(dims)]
    return helper.make_tensor_value_info(value.name, ELEMENT_TYPES[value.dtype], shape)


def drop_unused_nodes(graph: onnx.GraphProto) -> None:
    """Remove the nodes (in `graph` and its subgraphs) whose outputs nothing reads, as the executor prunes
    them: the constants of an `If` written as the branch it takes, say (onnxruntime warns of each)."""
    while True:
        used: set = set()
        _note_uses(graph, used)
        if not _drop_nodes(graph, used):
            return


def _subgraphs(node):
    for attribute in node.attribute:
        if attribute.type == onnx.AttributeProto.GRAPH:
            yield attribute.g
        yield from attribute.graphs


def _note_uses(graph: onnx.GraphProto, used: set) -> None:
    used.update(out.name for out in graph.output)
    for node in graph.node:
        used.update(node.input)
        for sub in _subgraphs(node):
            _note_uses(sub, used)


def _drop_nodes(graph: onnx.GraphProto, used: set) -> bool:
    kept = [node for node in graph.node if any(name in used for name in node.output if name)]
    dropped = len(kept) < len(graph.node)
    if dropped:
        del graph.node[:]
        graph.node.extend(kept)
    for node in kept:
        for sub in _subgraphs(node):
            dropped |= _drop_nodes(sub, used)
    return dropped
