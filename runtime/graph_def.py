"""`graph.as_graph_def()`: a graph as TensorFlow's GraphDef describes one, for code that inspects it.

A `GraphDef` holds `node` (one `NodeDef` per op, in program order: `name`,
`op`, `input` as "name", "name:1" or "^name" for a control dependency, `attr`,
`device`) and `library.function` (the graphs of `Cond`/`While` ops, each a
`FunctionDef` with `signature.name` and `node_def`). Attribute names are
TensorFlow's where they exist (`T`, `dtype`, `shape`, `value`, `then_branch`,
`body`, ...); others keep the runtime's name. `str()` prints protobuf text
format, as printing TensorFlow's GraphDef does. It is a description, not a
serialization: `runtime.save_function` saves graphs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from runtime import dtypes
from runtime.shape import TensorShape

# the runtime's attribute names for graphs, renamed to TensorFlow's
_GRAPH_ATTRS = {"then_graph": "then_branch", "else_graph": "else_branch", "cond_graph": "cond", "body_graph": "body"}


@dataclass
class NameAttrList:
    """A reference to a function of the library (TensorFlow's `func` attribute value)."""

    name: str


@dataclass
class NodeDef:
    name: str
    op: str
    input: list = field(default_factory=list)
    attr: dict = field(default_factory=dict)
    device: str = ""

    def __str__(self) -> str:
        return "\n".join(self._lines(""))

    def _lines(self, indent: str) -> list:
        lines = [f'{indent}name: "{self.name}"', f'{indent}op: "{self.op}"']
        lines += [f'{indent}input: "{name}"' for name in self.input]
        for key in sorted(self.attr):
            lines += [f"{indent}attr {{", f'{indent}  key: "{key}"', f"{indent}  value {{",
                      *_value_lines(self.attr[key], indent + "    "), f"{indent}  }}", f"{indent}}}"]
        return lines


@dataclass
class FunctionDef:
    signature: Any
    node_def: list


@dataclass
class OpSignature:
    name: str


@dataclass
class FunctionDefLibrary:
    function: list = field(default_factory=list)


@dataclass
class VersionDef:
    producer: int = 0


@dataclass
class GraphDef:
    node: list = field(default_factory=list)
    library: FunctionDefLibrary = field(default_factory=FunctionDefLibrary)
    versions: VersionDef = field(default_factory=VersionDef)

    def __str__(self) -> str:
        lines = []
        for node in self.node:
            lines += ["node {", *node._lines("  "), "}"]
        if self.library.function:
            lines.append("library {")
            for fn in self.library.function:
                lines += ["  function {", "    signature {", f'      name: "{fn.signature.name}"', "    }"]
                for node in fn.node_def:
                    lines += ["    node_def {", *node._lines("      "), "    }"]
                lines.append("  }")
            lines.append("}")
        return "\n".join(lines + ["versions {", f"  producer: {self.versions.producer}", "}"]) + "\n"


def as_graph_def(graph) -> GraphDef:
    """The GraphDef of `graph`: its ops as nodes, the graphs of its Cond/While ops as library functions."""
    library = FunctionDefLibrary()
    nodes = _nodes(graph, library)
    return GraphDef(nodes, library)


def _nodes(graph, library: FunctionDefLibrary) -> list:
    return [_node(op, library) for op in graph.operations]


def _node(op, library: FunctionDefLibrary) -> NodeDef:
    inputs = [_input_name(t) for t in op.inputs] + [f"^{dep.name}" for dep in op.control_inputs]
    return NodeDef(op.name, op.type, inputs, _attrs(op, library))


def _input_name(t) -> str:
    return t.op.name if t.value_index == 0 else f"{t.op.name}:{t.value_index}"


def _attrs(op, library: FunctionDefLibrary) -> dict:
    attrs = {}
    if op.subgraphs():   # TensorFlow's If/While: the dtypes of the inputs and outputs
        attrs["Tin"], attrs["Tout"] = [t.dtype for t in op.inputs], [t.dtype for t in op.outputs]
    elif op.inputs:
        attrs["T"] = op.inputs[0].dtype   # TensorFlow's name for the dtype of most ops
    for key, value in op.attrs.items():
        if key == "value" and op.type == "Const":
            attrs["dtype"] = op.outputs[0].dtype
        if hasattr(value, "operations"):   # a Cond/While graph: a function of the library
            library.function.append(FunctionDef(OpSignature(value.name), _nodes(value, library)))
            attrs[_GRAPH_ATTRS.get(key, key)] = NameAttrList(value.name)
        elif _describable(value):
            attrs[key] = value
    return attrs


def _describable(value) -> bool:
    simple = (bool, int, float, str, bytes, dtypes.DType, TensorShape, np.ndarray, np.generic, type(None))
    if isinstance(value, (list, tuple)):
        return all(isinstance(v, simple) for v in value)
    return isinstance(value, simple)


def _value_lines(value, indent: str) -> list:
    if isinstance(value, NameAttrList):
        return [f"{indent}func {{", f'{indent}  name: "{value.name}"', f"{indent}}}"]
    if isinstance(value, dtypes.DType):
        return [f"{indent}type: DT_{value.name.upper()}"]
    if isinstance(value, TensorShape):
        return [f"{indent}shape {{", *_shape_lines(value, indent + "  "), f"{indent}}}"]
    if isinstance(value, (np.ndarray, np.generic)):
        return _tensor_lines(np.asarray(value), indent)
    if isinstance(value, (list, tuple)):
        items = [line.strip() for v in value for line in _value_lines(v, "")]
        return [f"{indent}list {{", *(f"{indent}  {item}" for item in items), f"{indent}}}"]
    if isinstance(value, bool):
        return [f"{indent}b: {str(value).lower()}"]
    if isinstance(value, int):
        return [f"{indent}i: {value}"]
    if isinstance(value, float):
        return [f"{indent}f: {value!r}"]
    if value is None:
        return [f"{indent}placeholder: \"\""]
    text = value.decode("utf-8", "backslashreplace") if isinstance(value, bytes) else str(value)
    return [f'{indent}s: "{_escaped(text)}"']


def _shape_lines(shape: TensorShape, indent: str) -> list:
    if shape.dims is None:
        return [f"{indent}unknown_rank: true"]
    return [line for d in shape.dims
            for line in (f"{indent}dim {{", f"{indent}  size: {-1 if d is None else d}", f"{indent}}}")]


_VALUE_FIELD = {"f": "float_val", "c": "scomplex_val", "i": "int_val", "u": "int_val", "b": "bool_val",
                "S": "string_val"}


def _tensor_lines(array: np.ndarray, indent: str) -> list:
    dtype = dtypes.from_numpy(array.dtype)
    shape = TensorShape(array.shape)
    inner = indent + "  "
    lines = [f"{indent}tensor {{", f"{inner}dtype: DT_{dtype.name.upper()}", f"{inner}tensor_shape {{",
             *_shape_lines(shape, inner + "  "), f"{inner}}}"]
    if array.size <= 8:
        name = "double_val" if array.dtype == np.float64 else "int64_val" if array.dtype == np.int64 else \
            _VALUE_FIELD[array.dtype.kind]
        lines += [f"{inner}{name}: {_scalar_text(v)}" for v in array.flat]
    else:
        lines.append(f'{inner}tensor_content: "<{array.nbytes} bytes>"')
    return lines + [f"{indent}}}"]


def _scalar_text(v) -> str:
    if isinstance(v, (bytes, np.bytes_)):
        return f'"{_escaped(bytes(v).decode("utf-8", "backslashreplace"))}"'
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v)).lower()
    return repr(v.item() if hasattr(v, "item") else v)


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
