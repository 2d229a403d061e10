"""Bitwise ops on integer tensors (TensorFlow's `tf.bitwise`), and `&`, `|`, `^`, `~` on them.

Not differentiable. On bool tensors the operators stay the logical ops; on
float tensors they are an error, as in TensorFlow.
"""
from __future__ import annotations

import numpy as np

from runtime.errors import InvalidArgumentError
from runtime.ops.convert import binary_operands
from runtime.ops.registry import apply, broadcast_binary, defop, unary_same
from runtime.tensor import convert_to_tensor

BITWISE_AND = defop("BitwiseAnd", np.bitwise_and, broadcast_binary)
BITWISE_OR = defop("BitwiseOr", np.bitwise_or, broadcast_binary)
BITWISE_XOR = defop("BitwiseXor", np.bitwise_xor, broadcast_binary)


def clamped_shift(shift, clip):
    """TensorFlow's shifts: the shift clamped to [0, bits - 1] (1 << 32 is int32's -2**31, 5 << -1 is 5), where
    C's (and NumPy's) is undefined past the width. `clip` is np.clip or jnp.clip."""
    def kernel(x, y):
        bits = np.dtype(x.dtype).itemsize * 8
        return shift(x, clip(y, 0, bits - 1).astype(y.dtype))
    kernel.__name__ = shift.__name__
    return kernel


LEFT_SHIFT = defop("LeftShift", clamped_shift(np.left_shift, np.clip), broadcast_binary)
RIGHT_SHIFT = defop("RightShift", clamped_shift(np.right_shift, np.clip), broadcast_binary)
INVERT = defop("Invert", np.invert, unary_same)


def _integers(op, x, y=None):
    operands = (convert_to_tensor(x),) if y is None else binary_operands(x, y, op.name)
    if not operands[0].dtype.is_integer:
        raise InvalidArgumentError(f"{op.name}: expects integer tensors, got {operands[0].dtype.name}; bitwise ops "
                                   "are defined on integers (and &, |, ^, ~ on bools).", op.name)
    return operands


def bitwise_and(x, y, name=None):
    return apply(BITWISE_AND, *_integers(BITWISE_AND, x, y), name=name)


def bitwise_or(x, y, name=None):
    return apply(BITWISE_OR, *_integers(BITWISE_OR, x, y), name=name)


def bitwise_xor(x, y, name=None):
    return apply(BITWISE_XOR, *_integers(BITWISE_XOR, x, y), name=name)


def left_shift(x, y, name=None):
    return apply(LEFT_SHIFT, *_integers(LEFT_SHIFT, x, y), name=name)


def right_shift(x, y, name=None):
    return apply(RIGHT_SHIFT, *_integers(RIGHT_SHIFT, x, y), name=name)


def invert(x, name=None):
    return apply(INVERT, *_integers(INVERT, x), name=name)
