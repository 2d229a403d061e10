"""The op library. Every op is defined once in `registry.OPS`; see registry.py."""
from runtime.ops import array_ops, math_ops, operators  # noqa: F401  (registers ops)
from runtime.ops.registry import OPS, OpDef, apply, defop  # noqa: F401
