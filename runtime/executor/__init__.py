"""The graph executor: optimisation passes, then generated Python (see codegen.py)."""
from runtime.executor.codegen import Executable, compile_graph  # noqa: F401
