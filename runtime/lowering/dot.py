"""A graph as Graphviz DOT text (`Graph.to_dot()`), and as a picture (`Graph.render(path)`, which runs
Graphviz's `dot`); `python -m runtime.dot` (runtime/dot.py) draws a function's graph from the command line.

One box per op, labelled with its name and type; one edge per input, labelled with the tensor's dtype and
shape (`float32[3,None]`, `int32[]` for a scalar; dotted for a control dependency between stateful ops); the
graphs of a `Cond` or `While` as nested clusters, joined to their op by a dashed edge. Placeholders are
ellipses, the graph's outputs a `return` node.
"""
from __future__ import annotations

import os
import shutil
import subprocess

from runtime.errors import GraphvizNotFoundError


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
    """`float32[3,None]`, `int32[]` (a scalar), `bool[...]` (unknown rank): the CLI's spec syntax."""
    dims = t.shape.dims
    if dims is None:
        return f"{t.dtype.name}[...]"
    return f"{t.dtype.name}[{','.join(str(d) for d in dims)}]"


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


TEXT_SUFFIXES = (".dot", ".gv")


def render(graph, path: str) -> str:
    """Write `graph`'s picture to `path`: DOT text for a `.dot` or `.gv` file, otherwise the format its
    suffix names (`.svg`, `.png`, `.pdf`), drawn by Graphviz's `dot`; `GraphvizNotFoundError` when `dot` is
    not installed. Returns `path`."""
    text = to_dot(graph)
    suffix = os.path.splitext(path)[1].lower()
    if suffix in TEXT_SUFFIXES:
        with open(path, "w") as f:
            f.write(text)
        return path
    dot = shutil.which("dot")
    if dot is None:
        raise GraphvizNotFoundError(
            f"Drawing {path} needs Graphviz's `dot` program, which is not on the PATH. Install Graphviz "
            "(apt-get install graphviz, brew install graphviz, conda install graphviz; https://graphviz.org), "
            f"or write the DOT text instead (a .dot file) and render it elsewhere.")
    subprocess.run([dot, f"-T{suffix.lstrip('.') or 'svg'}", "-o", path], input=text, text=True, check=True)
    return path
