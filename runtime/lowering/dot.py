"""A graph as Graphviz DOT text (`Graph.to_dot()`); `python -m runtime.dot` (runtime/dot.py) draws one.

One box per op, labelled with its name and type; one edge per input, labelled with the tensor's dtype and
shape (dotted for a control dependency between stateful ops); the graphs of a `Cond` or `While` as nested
clusters, joined to their op by a dashed edge. Placeholders are ellipses, the graph's outputs a `return` node.
"""
from __future__ import annotations

import shutil
import subprocess


def to_dot(graph) -> str:
    """DOT text for `graph` and the graphs nested in its ops."""
    lines = [f"digraph {_quote(graph.name)} {{", "  compound=true;", "  rankdir=TB;",
             '  node [shape=box, fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=9];']
    lines += _body(graph, "", "  ")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _node_id(prefix: str, op) -> str:
    return _quote(f"{prefix}{op.name}")


def _tensor_label(t) -> str:
    return f"{t.dtype.name}{t.shape}"


def _body(graph, prefix: str, indent: str) -> list[str]:
    lines = []
    for op in graph.operations:
        lines.append(f"{indent}{_node_id(prefix, op)} [{_node_attrs(op)}];")
        for t in op.inputs:
            lines.append(f"{indent}{_node_id(prefix, t.op)} -> {_node_id(prefix, op)} "
                         f"[label={_quote(_tensor_label(t))}];")
        for dep in op.control_inputs:
            lines.append(f"{indent}{_node_id(prefix, dep)} -> {_node_id(prefix, op)} [style=dotted];")
        for attr, sub in op.subgraphs():
            lines += _cluster(op, attr, sub, prefix, indent)
    if graph.outputs:
        ret = _quote(f"{prefix}return")
        lines.append(f'{indent}{ret} [label="return", shape=plaintext];')
        for t in graph.outputs:
            lines.append(f"{indent}{_node_id(prefix, t.op)} -> {ret} [label={_quote(_tensor_label(t))}];")
    return lines


def _node_attrs(op) -> str:
    if op.type == "Placeholder":
        return f"label={_quote(op.name)}, shape=ellipse"
    style = ", style=filled, fillcolor=lightyellow" if op.subgraphs() else ""
    label = op.type if op.name == op.type else f"{op.name}\n{op.type}"
    value = op.attrs.get("value") if op.type == "Const" else None
    if value is not None and getattr(value, "size", 2) == 1:
        label += f" = {value.item() if hasattr(value, 'item') else value}"
    return f"label={_quote(label)}{style}"


def _cluster(op, attr: str, sub, prefix: str, indent: str) -> list[str]:
    """The graph `sub` of `op` (whose node is in the graph of `prefix`) as a cluster, and the dashed edge to it."""
    inner = f"{prefix}{op.name}/{attr}/"
    name = _quote(f"cluster_{inner}")
    lines = [f"{indent}subgraph {name} {{",
             f"{indent}  label={_quote(f'{op.name}: {attr} ({sub.name})')};",
             f"{indent}  style=rounded; color=gray50;"]
    lines += _body(sub, inner, indent + "  ")
    lines.append(f"{indent}}}")
    if sub.operations:
        lines.append(f"{indent}{_node_id(prefix, op)} -> {_node_id(inner, sub.operations[0])} "
                     f"[lhead={name}, style=dashed, arrowhead=none];")
    return lines


def write(graph, path: str) -> list[str]:
    """Write `graph`'s DOT text to `path`, and the SVG beside it (`.svg`) when Graphviz's `dot` is
    installed; the paths written."""
    with open(path, "w") as f:
        f.write(to_dot(graph))
    written = [path]
    dot = shutil.which("dot")
    if dot is not None:
        svg = path.rsplit(".", 1)[0] + ".svg"
        subprocess.run([dot, "-Tsvg", path, "-o", svg], check=True)
        written.append(svg)
    return written
