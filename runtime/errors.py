"""Errors raised by the runtime, as `runtime.errors.<Name>` (TensorFlow's names).

Each class also subclasses the matching builtin, so `except ValueError` works.
"""
from __future__ import annotations

import linecache
import os
import sys
import sysconfig

_PACKAGE_DIRS = tuple(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), name) + os.sep
                      for name in ("runtime", "autograph"))
_STDLIB = os.path.join(sysconfig.get_paths()["stdlib"], "")
_internal_files: dict[str, bool] = {}   # file name -> whether its code is not a user's


def internal_file(filename: str) -> bool:
    """Whether code in `filename` is not a user's: the runtime's or autograph's own, the executor's generated
    code, or a module of Python's standard library (`contextlib`, `string`, ...; not site-packages)."""
    internal = _internal_files.get(filename)
    if internal is None:
        parts = filename.split(os.sep)
        internal = _internal_files[filename] = filename.startswith(_PACKAGE_DIRS) or filename.startswith(
            "<runtime executor") or (filename.startswith(_STDLIB) and "site-packages" not in parts
                                     and "dist-packages" not in parts)
    return internal


def user_frame(depth: int = 1):
    """The innermost frame, from `depth` frames above the caller on, that runs a user's code, or None.

    Code made by `eval`/`exec` (file names like '<string>': a dataclass's `__eq__`, torch's tracing lambdas)
    is passed over for the code that made it; it is the answer only when nothing else is (a line typed at
    the interactive prompt, '<stdin>'). Cheap enough to run for every op traced."""
    frame = sys._getframe(depth + 1)
    made = None
    while frame is not None:
        filename = frame.f_code.co_filename
        if not internal_file(filename):
            if not filename.startswith("<"):
                return frame
            if made is None and "__name__" in frame.f_globals:   # a framework's eval has no module globals
                made = frame
        frame = frame.f_back
    return made


def user_location() -> str:
    """'file:line' of the innermost frame that runs a user's code (see `user_frame`)."""
    frame = user_frame(1)
    return "<unknown>" if frame is None else f"{frame.f_code.co_filename}:{frame.f_lineno}"


def _user_line() -> str:
    """'file:line: source' of the innermost frame that runs a user's code, or '' for a failure while a graph
    runs (the executor's message names the op and its line)."""
    if os.sep + "executor" + os.sep in sys._getframe(2).f_code.co_filename:
        return ""
    frame = user_frame(2)
    if frame is None:
        return ""
    code = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
    return f"{frame.f_code.co_filename}:{frame.f_lineno}" + (f": {code}" if code else "")


class OpError(Exception):
    """Base class of errors raised while running an op.

    `op_name` names the op (for example 'MatMul'); the message says which
    inputs were wrong and what to do.
    """

    def __init__(self, message: str, op_name: str | None = None):
        where = _user_line()  # the user's line that ran (eagerly) or traced the op, or called the function
        place = where.split(": ")[0]   # 'file:line': not repeated when the message already names that line
        super().__init__(f"{message}\n    at {where}" if where and place not in message else message)
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


class PythonValueDTypeError(InvalidArgumentError, TypeError):
    """A Python (or NumPy) value beside a tensor that can't take the tensor's dtype: a float with an int
    tensor (`tf.constant(1) * 2.5`), a bool with a number tensor. Both an `InvalidArgumentError` (what
    TensorFlow's `+` raises there) and a `TypeError` (what its `*`, `maximum` or `<` raise: "Cannot convert 2.5
    to EagerTensor of dtype int32").

        >>> tf.constant(1) * 2.5
        PythonValueDTypeError: Mul: cannot compute with int32 and float32 ...

    Fix: cast the tensor, `tf.cast(x, tf.float32) * 2.5`, or give a value of its dtype.
    """


class ArgumentDTypeError(InvalidArgumentError, TypeError):
    """A ConcreteFunction was called with a tensor of another dtype than the one it was traced for. Both an
    `InvalidArgumentError` (what TensorFlow raises) and a `TypeError` (what a Function raises for an argument
    that does not fit its input_signature).

        >>> double.get_concrete_function(tf.constant("a"))(tf.constant(1))
        ArgumentDTypeError: double: argument 0 is a int32 tensor of shape () where the traced signature has ...

    Fix: call the Function itself, which traces again for the new dtype, or cast the argument.
    """


class LeakedTensorError(InvalidArgumentError, TypeError):
    """A symbolic tensor kept from a function's trace (in a global, a list, an attribute) was used after it,
    eagerly or by another function: it has no value outside its graph. A `TypeError` too, what TensorFlow
    raises ("... is out of scope and cannot be used here").

        >>> @tf.function
        ... def leaky(a):
        ...     global x
        ...     x = a + 1
        ...     return a + 2
        >>> leaky(tf.constant(1)); x + 1
        LeakedTensorError: AddV2: got the symbolic tensor ... outside the function that created it ...

    Fix: return the tensor from the function and use the returned value.
    """


class NotWatchableError(ValueError, TypeError):
    """`GradientTape.watch` was given something that is no tensor or Variable, such as a Python float. A
    `ValueError`, what TensorFlow raises, and a `TypeError`.

        >>> tape.watch(3.0)
        NotWatchableError: GradientTape.watch: expected tensors or Variables, got float (3.0) ...

    Fix: `x = tf.constant(3.0)`, `tape.watch(x)`, and compute with `x`.
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


class NoValueInGraphError(AttributeError):
    """`t.numpy()` on a symbolic tensor, inside a function being traced: the value is only known when the
    graph runs. An AttributeError, as in TensorFlow, whose graph tensors have no `numpy`: so
    `hasattr(t, "numpy")` is False there (the usual test for an eager tensor), and the function's own
    `except AttributeError:` takes it (unlike an `OperatorNotAllowedInGraphError`, which converted code lets
    through: docs/limitations.md).

    Fix: return the tensor from the function and call `.numpy()` on the result.
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


class OutOfScopeError(NotImplementedError, AttributeError):
    """A TensorFlow name the runtime deliberately does not provide: Keras layers, `Sequential`, datasets,
    `fit`/`compile`, `tf.data`, ... (docs/tf-compat.md lists them). Also an AttributeError, so that
    `hasattr(tf, "image")` is False and `getattr(tf.keras, "layers", None)` is None, as for any name a
    module lacks.

        >>> tf.keras.layers.Dense(10)
        OutOfScopeError: tf.keras.layers is out of scope for runtime ...

    Fix: write the model as a `tf.keras.Model` (or `tf.Module`) holding `tf.Variable`s, with a `call`
    method, and train it with a `GradientTape` and an optimizer's `apply_gradients`.
    """
