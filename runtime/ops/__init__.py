"""The op library. Every op is defined once in `registry.OPS`; see registry.py."""
from runtime.ops import array_ops, indexing, logging_ops, math_ops, operators, random_ops  # noqa: F401
from runtime.ops.registry import OPS, OpDef, apply, defop  # noqa: F401
