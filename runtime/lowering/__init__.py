"""Graphs to other engines, one rule per op: JAX/XLA for `function(jit_compile=True)` (`to_jax.py`, compiled by `jax_executable.py`), ONNX
models for `runtime.onnx.export` (`to_onnx.py`) — each imports its optional package, so it is imported on
first use — and Graphviz DOT pictures (`dot.py`). The graph walks they share are here."""
from __future__ import annotations


def jax_executable(graph, outputs: list, name: str):
    """`graph` lowered to JAX and jitted (`function(jit_compile=True)`); JAX is an optional extra."""
    try:
        from runtime.lowering.jax_executable import JaxExecutable   # imports jax, which nothing else needs
    except ImportError as e:
        if (e.name or "").split(".")[0] != "jax":
            raise
        raise ImportError(f"{name}: runtime.function(jit_compile=True) compiles with XLA through JAX, which is "
                          "not installed. Install the extra: pip install 'autograph-runtime[jax]' (or leave "
                          "jit_compile unset to use the NumPy executor).", name="jax") from None
    return JaxExecutable(graph, outputs, name)


def walk(graph):
    """Every op of `graph` and of the graphs nested in its ops, depth first."""
    for op in graph.operations:
        yield op
        for _, sub in op.subgraphs():
            yield from walk(sub)


def variable_handles(graph) -> list:
    """The storage of every Variable the graph reads or writes, in first-use order."""
    found: dict = {}
    for op in walk(graph):
        handle = op.attrs.get("handle")
        if handle is not None:
            found.setdefault(id(handle), handle)
    return list(found.values())
