"""The op library. Every op is defined once in `registry.OPS`; see registry.py."""
from runtime.ops import (array_ops, extra_array_ops, extra_math, indexing, logging_ops, math_ops, nn_ops,  # noqa: F401
                         operators, random_ops, sort_ops)
from runtime.ops.registry import OPS, OpDef, apply, defop  # noqa: F401
