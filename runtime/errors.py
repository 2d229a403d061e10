"""Errors raised by the runtime, as `runtime.errors.<Name>` (TensorFlow's names).

Each class also subclasses the matching builtin, so `except ValueError` works.
"""
from __future__ import annotations

import linecache
import os
import sys

_PACKAGE_DIRS = tuple(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), name) + os.sep
                      for name in ("runtime", "autograph"))


def _user_line() -> str:
    """'file:line: source' of the innermost frame outside runtime, autograph and generated executor code."""
    frame = sys._getframe(2)
    if os.sep + "executor" + os.sep in frame.f_code.co_filename:
        return ""  # a run-time failure: the executor's message names the op and its generated line
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(_PACKAGE_DIRS) and not filename.startswith("<"):
            code = linecache.getline(filename, frame.f_lineno).strip()
            return f"{filename}:{frame.f_lineno}" + (f": {code}" if code else "")
        frame = frame.f_back
    return ""


class OpError(Exception):
    """Base class of errors raised while running an op.

    `op_name` names the op (for example 'MatMul'); the message says which
    inputs were wrong and what to do.
    """

    def __init__(self, message: str, op_name: str | None = None):
        where = _user_line()  # the user's line that ran (eagerly) or traced the op, or called the function
        super().__init__(f"{message}\n    at {where}" if where and where.split(":")[0] not in message else message)
        self.message = message
        self.op_name = op_name


class InvalidArgumentError(OpError, ValueError):
    """An op received arguments it cannot work with.

    Raised for mismatched shapes, out-of-range indices, and dtypes that do not
    match (TensorFlow never promotes dtypes implicitly).

        >>> tf.constant([1, 2]) + tf.constant([1.0, 2.0])   # int32 + float32
        InvalidArgumentError: AddV2: cannot compute with int32 and float32 ...

    Fix: make the dtypes agree with `tf.cast`, or the shapes with `tf.reshape`.
    """


class DTypeNotAllowedError(InvalidArgumentError, TypeError):
    """An op is not defined on its operands' dtype: arithmetic (`+ - * / // % **`, `maximum`, `minimum`,
    `matmul`) and ordering (`< <= > >=`) on bool tensors, as in TensorFlow, where Python would treat
    `True` as 1. It is both an `InvalidArgumentError` (what TensorFlow raises eagerly) and a `TypeError`
    (what it raises while tracing).

        >>> (x > 0) + (x > 2)
        DTypeNotAllowedError: AddV2 is not defined on bool tensors ...

    Fix: cast first, `tf.cast(x > 0, tf.int32) + tf.cast(x > 2, tf.int32)`.
    """


class OutOfRangeError(OpError, IndexError):
    """An index or a read went past the end (for example a TensorArray read)."""


class OperatorNotAllowedInGraphError(TypeError):
    """A symbolic tensor was used where a Python value is needed.

    Inside `runtime.function`, tensors are symbolic: `if t:`, `bool(t)`,
    `int(t)`, `for x in t` (of unknown length) and `t.numpy()` cannot work,
    because the value is only known when the graph runs.

    Fix: let AutoGraph convert the control flow (the default with
    `runtime.function`), or use `runtime.cond`, `runtime.while_loop` and
    `runtime.range` explicitly.
    """


class UnimplementedError(OpError, NotImplementedError):
    """An op has no kernel or rule for this case."""


class LoweringError(UnimplementedError):
    """A graph can't be lowered to another engine: `function(jit_compile=True)` met an op with no JAX
    lowering rule, or `runtime.onnx.export` an op with no ONNX mapping (the message names the op and the
    line that made it).

        @runtime.function(jit_compile=True)
        def f(x):
            return runtime.sort(x)      # LoweringError: ... op Sort ... made at f.py:3

    Fix: leave `jit_compile` unset for that function (the NumPy executor runs every op), or add a rule
    for the op to `runtime/lowering/to_jax.py` (`to_onnx.py` for export).
    """


class GraphvizNotFoundError(FileNotFoundError):
    """A graph was to be drawn as a picture (`Graph.render("g.svg")`, `python -m runtime.dot ... -o g.svg`)
    but Graphviz's `dot` program is not on the PATH.

    Fix: install Graphviz (`apt-get install graphviz`, `brew install graphviz`), or write the DOT text
    (`-o g.dot`, `graph.to_dot()`) and render it where Graphviz is installed.
    """


class OutOfScopeError(NotImplementedError):
    """A TensorFlow name the runtime deliberately does not provide: Keras layers, `Sequential`, datasets,
    `fit`/`compile`, `tf.data`, ... (docs/tf-compat.md lists them).

        >>> tf.keras.layers.Dense(10)
        OutOfScopeError: tf.keras.layers is out of scope for runtime ...

    Fix: write the model as a `tf.keras.Model` (or `tf.Module`) holding `tf.Variable`s, with a `call`
    method, and train it with a `GradientTape` and an optimizer's `apply_gradients`.
    """
