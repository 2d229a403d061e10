"""Graphs to other engines, one rule per op: JAX/XLA for `function(jit_compile=True)`
(`to_jax.py`, which imports JAX, so it is imported on first use) and Graphviz DOT pictures (`dot.py`)."""
from __future__ import annotations


def jax_executable(graph, outputs: list, name: str):
    """`graph` lowered to JAX and jitted (`function(jit_compile=True)`); JAX is an optional extra."""
    try:
        from runtime.lowering.to_jax import JaxExecutable   # imports jax, which nothing else needs
    except ImportError as e:
        if (e.name or "").split(".")[0] != "jax":
            raise
        raise ImportError(f"{name}: runtime.function(jit_compile=True) compiles with XLA through JAX, which is "
                          "not installed. Install the extra: pip install 'autograph-runtime[jax]' (or leave "
                          "jit_compile unset to use the NumPy executor).", name="jax") from None
    return JaxExecutable(graph, outputs, name)
