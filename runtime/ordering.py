"""`tf.control_dependencies`, `tf.no_op` and `tf.group`, for TensorFlow programs that use them.

They have nothing to order here: the runtime runs a function's stateful ops (assignments, prints, assertions,
random draws) in program order and never prunes them, as TensorFlow 2's automatic control dependencies do, and
a pure op's value does not depend on when it runs. So `control_dependencies` only checks what it is given, and
`no_op` and `group` give None (eagerly, as TensorFlow's do) or a constant while tracing.
"""
from __future__ import annotations

import contextlib

from runtime.ops.registry import context
from runtime.tensor import Tensor, constant


def _is_dependency(value) -> bool:
    return value is None or isinstance(value, Tensor) or hasattr(value, "_as_tensor") or callable(value)


@contextlib.contextmanager
def control_dependencies(control_inputs):
    """A block whose ops run after `control_inputs` (tensors, Variables or ops), as every op here already
    does after the stateful ops before it in the program."""
    inputs = [] if control_inputs is None else list(control_inputs)
    for value in inputs:
        if not _is_dependency(value):
            raise TypeError(f"control_dependencies: expects tensors, Variables or ops, got "
                            f"{type(value).__name__} {value!r}.")
    yield None


def no_op(name=None):
    """Nothing to run: None eagerly; while tracing, a constant that stands for the op."""
    return None if context.graph is None else constant(True, name=name or "NoOp")


def group(*inputs, name=None):
    """Runs `inputs` (already in program order here): None eagerly, as TensorFlow's; a constant while tracing."""
    for value in inputs:
        if not _is_dependency(value) and not isinstance(value, (list, tuple)):
            raise TypeError(f"group: expects tensors or ops, got {type(value).__name__}.")
    return no_op(name)
