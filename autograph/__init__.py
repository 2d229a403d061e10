"""AutoGraph-style source-to-source transpiler for Python control flow.

`convert` rewrites a function so that `if`/`while`/`for`/`and`/`or`/`not`
whose conditions are staged tensors become a framework's functional control
flow, while Python values keep plain Python semantics. Generated code refers to
this package as `ag__`, so the run-time operators are exported here too.
"""
from autograph import backends
from autograph.api import callee, convert, converted_call, do_not_convert, set_loop_options, to_code, to_graph
from autograph.backends import Backend, register_backend
from autograph.errors import (AutoGraphError, ConversionError, StagingError, disable_traceback_filtering,
                              enable_traceback_filtering, is_traceback_filtering_enabled)
from autograph.operators import *  # noqa: F401,F403  (ag__.if_stmt etc. in generated code)
from autograph.operators import __all__ as _operators
from autograph.verbosity import get_verbosity, set_verbosity
from autograph._version import __version__

__all__ = ["convert", "to_graph", "to_code", "do_not_convert", "set_loop_options", "converted_call", "callee",
           "ConversionError", "AutoGraphError", "StagingError", "backends", "Backend", "register_backend",
           "enable_traceback_filtering", "disable_traceback_filtering", "is_traceback_filtering_enabled",
           "set_verbosity", "get_verbosity", "__version__",
           *_operators]


def __getattr__(name: str):
    """`autograph.jax` and `autograph.tensorflow` (the backends: `ag.jax.jit`, `ag.tensorflow.function`), imported on
    first use so `import autograph` never imports a framework; and `ag__.tracing_errors` in generated `except` clauses, computed when an exception is matched, so that
    it holds the frameworks registered by then (converters/exceptions.py)."""
    if name == "jax":
        from autograph.backends import jax as jax_backend
        return jax_backend
    if name == "tensorflow":
        from autograph.backends import tensorflow as tensorflow_backend
        return tensorflow_backend
    if name == "tracing_errors":
        return backends.tracing_errors()
    raise AttributeError(f"module 'autograph' has no attribute {name!r}")
