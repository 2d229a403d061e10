"""Ops that make, reshape and select tensors."""
from __future__ import annotations

import numpy as np

from runtime import dtypes
from runtime.ops.registry import Spec, apply, defop, unary_same
from runtime.shape import TensorShape
from runtime.tensor import convert_to_tensor


def _const_infer(value: np.ndarray) -> Spec:
    return Spec(dtypes.from_numpy(value.dtype), TensorShape(value.shape))


CONST = defop("Const", lambda value: value, _const_infer, doc="A constant; `value` is the attribute.")
IDENTITY = defop("Identity", lambda x: x, unary_same)


def identity(input, name=None):
    return apply(IDENTITY, convert_to_tensor(input), name=name)
