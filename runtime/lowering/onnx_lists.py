"""TensorArrays and Python lists staged in loops, exported as ONNX sequences (to_onnx.py's rules for the
`TensorList*` ops; the gradients' list ops are not exported). A sequence has no unwritten elements, so only a
list that starts empty is exported; a write at the length appends, a write inside replaces.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from runtime import dtypes
from runtime.errors import LoweringError
from runtime.lowering.onnx_graph import ELEMENT_TYPES, Value
from runtime.ops import packing
from runtime.ops.registry import Spec
from runtime.shape import TensorShape


def _list_new(g, size, element_dtype):
    if packing.static_value(g.op.inputs[0]) != 0:
        raise LoweringError("only a TensorArray created with size=0 (and dynamic_size=True) is exported: an ONNX "
                            "sequence has no unwritten elements")
    empty = g.node("SequenceEmpty", dtype=ELEMENT_TYPES[element_dtype])
    return g.sequence(empty, Spec(element_dtype, TensorShape(None)))


def _list_write(g, items, index, value, dynamic_size):
    """Element `index` replaced, or appended when `index` is the length (`If`: ONNX has no set-item).
    An index past the end is an error in onnxruntime, where the executor would leave a gap."""
    position = g.cast(index, dtypes.int64)
    kind = Value(items.name, items.dtype, items.shape, items.element)
    replace, append = g.child(), g.child()
    replaced = replace.node("SequenceInsert", replace.node("SequenceErase", items, position), value, position)
    appended = append.node("SequenceInsert", items, value, position)
    inside = g.node("Less", position, g.node("SequenceLength", items))
    written = g.node("If", inside, then_branch=replace.subgraph("replace", [], [_renamed(kind, replaced)]),
                     else_branch=append.subgraph("append", [], [_renamed(kind, appended)]))
    return g.sequence(written, Spec(items.element.dtype, value.shape))


def _renamed(value: Value, name: str) -> Value:
    return Value(name, value.dtype, value.shape, value.element)


def _list_read(g, items, index, element_dtype, element_shape=None, from_end=False):
    return _element(g, g.node("SequenceAt", items, g.cast(index, dtypes.int64)), items, g.op.outputs[0])


def _list_pop(g, items, index, element_dtype=None, element_shape=None):
    position = g.cast(index, dtypes.int64)
    rest = g.sequence(g.node("SequenceErase", items, position), items.element)
    return [rest, _element(g, g.node("SequenceAt", items, position), items, g.op.outputs[1])]


def _element(g, name: str, items: Value, output) -> Value:
    """An element read from `items`, shaped as the writes made it when the graph's shape is unknown."""
    shape = output.shape if output.shape.rank is not None else items.element.shape
    return Value(name, output.dtype, shape)


def _list_stack(g, items, element_dtype, element_shape):
    """`ConcatFromSequence` on a new axis, or for an empty list the kernel's zeros of shape (0, *element_shape)
    (`If`: ONNX can't concatenate nothing); its shape from the elements written when the graph's is unknown."""
    dims = element_shape.dims if element_shape is not None and element_shape.dims is not None else ()
    empty, full = g.child(), g.child()
    nothing = empty.const(np.zeros((0, *[d or 0 for d in dims]), element_dtype.as_numpy_dtype))
    stacked = full.node("ConcatFromSequence", items, axis=0, new_axis=1)
    result = Value("", element_dtype, TensorShape(None))
    is_empty = g.node("Equal", g.node("SequenceLength", items), g.ints(0, scalar=True))
    stacked = g.node("If", is_empty, then_branch=empty.subgraph("empty", [], [_renamed(result, nothing)]),
                     else_branch=full.subgraph("stack", [], [_renamed(result, stacked)]))
    shape = g.op.outputs[0].shape
    if shape.rank is None and items.element.shape.rank is not None:
        shape = TensorShape((None, *items.element.shape.dims))
    return Value(stacked, element_dtype, shape)


def _list_size(g, items):
    return g.cast(g.node("SequenceLength", items), dtypes.int32)


def _list_from_tensor(g, value):
    element = TensorShape(None if value.rank is None else value.shape.dims[1:])
    return g.sequence(g.node("SplitToSequence", value, axis=0, keepdims=0), Spec(value.dtype, element))


MAPPINGS: dict[str, Callable] = {
    "TensorListNew": _list_new, "TensorListWrite": _list_write, "TensorListRead": _list_read,
    "TensorListPop": _list_pop, "TensorListStack": _list_stack, "TensorListSize": _list_size,
    "TensorListFromTensor": _list_from_tensor,
}
