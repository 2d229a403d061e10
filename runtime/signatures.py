"""Input signatures: `TensorSpec`, the trace-cache key of a call's arguments,
how a retrace is explained, and how signatures are printed.

The key follows TensorFlow: tensors (and NumPy arrays) by dtype and shape,
Python values by value, lists/tuples/dicts by structure, Variables by
identity. `pretty_printed_signature()` text follows seed 003:

    my_relu(x)
      Args:
        x: float32 Tensor, shape=()
      Returns:
        float32 Tensor, shape=()
"""
from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Optional

import numpy as np

from runtime import dtypes, nest
from runtime.shape import TensorShape, as_shape
from runtime.tensor import EagerTensor, Tensor, convert_to_tensor

@dataclass(frozen=True)
class TensorSpec:
    """The dtype and (possibly partial) shape a tensor argument must have."""

    shape: TensorShape
    dtype: dtypes.DType = dtypes.float32
    name: Optional[str] = None

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        object.__setattr__(self, "shape", as_shape(shape))
        object.__setattr__(self, "dtype", dtypes.as_dtype(dtype))
        object.__setattr__(self, "name", name)

    @classmethod
    def from_tensor(cls, tensor, name=None) -> "TensorSpec":
        return cls(tensor.shape, tensor.dtype, name)

    def is_compatible_with(self, value) -> bool:
        return self.dtype is value.dtype and self.shape.is_compatible_with(value.shape)

    def __repr__(self) -> str:
        return f"TensorSpec(shape={self.shape}, dtype={self.dtype!r}, name={self.name!r})"


# --- argument keys ---------------------------------------------------------------

def leaf_key(value):
    if isinstance(value, EagerTensor):
        return (value._dtype, value._value.shape)
    if isinstance(value, (Tensor, TensorSpec)):
        return (value.dtype, value.shape.dims)
    if hasattr(value, "handle") and hasattr(value, "assign"):  # Variable: captured by reference
        return ("variable", id(value))
    if value.__class__ is float and (value != value or value == 0.0):
        return (float, repr(value))  # nan equals itself here, and -0.0 differs from 0.0
    try:
        hash(value)
    except TypeError:
        return ("object", id(value))
    if value.__class__ in _TOLD_APART_BY_EQUALITY:
        return (type(value), value)
    try:
        return (type(value), _ValueAndRepr(value))
    except Exception:   # noqa: BLE001 - a repr that fails: the object itself
        return ("object", id(value))


# (functions and methods are equal only to themselves)
_TOLD_APART_BY_EQUALITY = frozenset({int, float, bool, str, bytes, type(None), type, types.FunctionType,
                                    types.BuiltinFunctionType, types.MethodType})


class _ValueAndRepr:
    """The key of a hashable argument whose equal values may still differ: Decimal('1.0') == Decimal('1.00')
    (which print differently), 0j == -0j, an `__eq__` of the user's that calls unlike objects equal. A trace
    made for one must not answer for the other: keyed by value and repr."""

    __slots__ = ("value", "text")

    def __init__(self, value):
        self.value, self.text = value, repr(value)

    def __eq__(self, other) -> bool:
        if other.__class__ is not _ValueAndRepr or self.text != other.text:
            return False
        try:
            return self.value is other.value or bool(self.value == other.value)
        except Exception:   # noqa: BLE001 - an `==` that fails or gives no bool: another value
            return False

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return self.text


def is_numpy(value) -> bool:
    return isinstance(value, (np.ndarray, np.generic))


def has_array(args, kwargs) -> bool:
    if not kwargs and not any(v.__class__ in (list, tuple, dict) for v in args):
        return any(is_numpy(v) for v in args)
    return any(is_numpy(v) for v in nest.flatten((args, kwargs)))


def array_to_tensor(value):
    """NumPy arrays and scalars are arguments like tensors (keyed by dtype and shape), as in TensorFlow."""
    return EagerTensor._from_numpy(value) if is_numpy(value) else value


def is_tensor_leaf(value) -> bool:
    return isinstance(value, (Tensor, TensorSpec))


def encode(value):
    """A hashable key for an argument: structure plus leaf keys."""
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(encode(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple((k, encode(value[k])) for k in nest.sorted_keys(value)))
    return leaf_key(value)


def differ(old_key, new_key) -> bool:
    try:
        return bool(old_key != new_key)
    except (TypeError, ValueError):  # keys holding values that don't compare to a bool
        return True


def describe(leaf_key) -> str:
    if isinstance(leaf_key, tuple) and len(leaf_key) == 2 and isinstance(leaf_key[0], dtypes.DType):
        return f"{leaf_key[0].name} tensor of shape {tuple(leaf_key[1]) if leaf_key[1] is not None else '<unknown>'}"
    if isinstance(leaf_key, tuple) and len(leaf_key) == 2 and isinstance(leaf_key[0], type):
        value = leaf_key[1]
        shown = value if leaf_key[0] is float and isinstance(value, str) else repr(value)
        return f"Python {leaf_key[0].__name__} {shown}"
    if isinstance(leaf_key, tuple) and leaf_key and leaf_key[0] in ("list", "tuple", "dict"):
        return f"a {leaf_key[0]} of {len(leaf_key[1])}"
    return repr(leaf_key)


def relax(previous_structure, current):
    """Specs that accept both the previous trace's inputs and the current ones."""
    old_leaves = nest.flatten(previous_structure)
    new_leaves = nest.flatten(current)
    if len(old_leaves) != len(new_leaves) or not nest.same_structure(previous_structure, current):
        return current
    relaxed = []
    for old, new in zip(old_leaves, new_leaves):
        if is_tensor_leaf(old) and is_tensor_leaf(new) and old.dtype is new.dtype:
            relaxed.append(TensorSpec(old.shape.most_specific_compatible_shape(new.shape), new.dtype))
        else:
            relaxed.append(new)
    return nest.pack(current, relaxed)


def spec_text(value) -> str:
    if is_tensor_leaf(value):
        return f"{value.dtype.name} Tensor, shape={value.shape}"
    return nested_text(value)


def nested_text(value) -> str:
    """A nested argument, its tensors shown as TensorSpecs (as TensorFlow prints them)."""
    if is_tensor_leaf(value):
        return f"TensorSpec(shape={value.shape}, dtype={value.dtype.name})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {nested_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (tuple, list)):
        inner = ", ".join(nested_text(v) for v in value)
        if isinstance(value, list):
            return f"[{inner}]"
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


def returns_text(outputs) -> list[str]:
    if isinstance(outputs, Tensor):
        return [f"    {spec_text(outputs)}"]
    leaves = nest.flatten(outputs)
    if not nest.is_sequence(outputs):
        return [f"    {outputs!r}"]
    counter = iter(range(1, len(leaves) + 1))
    placeholders = nest.pack(outputs, [f"<{next(counter)}>" for _ in leaves])
    lines = [f"    {plain(placeholders)}"]
    for i, leaf in enumerate(leaves, 1):
        text = spec_text(leaf) if isinstance(leaf, Tensor) else repr(leaf)
        lines.append(f"      <{i}>: {text}")
    return lines


def plain(structure) -> str:
    return repr(structure).replace("'", "")


def match_signature(name: str, args: tuple, specs: tuple) -> list:
    """The tensors of a call's `args`, converted and checked against the traced `specs` (a tuple of
    TensorSpecs and Python values); Python values must equal the traced ones."""
    tensors: list = []
    for i, (value, spec) in enumerate(zip(args, specs)):
        _match(name, i, value, spec, tensors)
    return tensors


def _match(name: str, i: int, value, spec, tensors: list) -> None:
    if isinstance(spec, TensorSpec):
        tensor = convert_to_tensor(value, dtype_hint=spec.dtype)
        if not spec.is_compatible_with(tensor):
            raise TypeError(f"{name}: argument {i} is a {tensor.dtype.name} tensor of shape {tensor.shape} where "
                            f"the traced signature has {spec}.")
        tensors.append(tensor)
    elif isinstance(spec, dict) and isinstance(value, dict) and nest.sorted_keys(value) == nest.sorted_keys(spec):
        for key in nest.sorted_keys(spec):  # the order of nest.flatten, which made the placeholders
            _match(name, i, value[key], spec[key], tensors)
    elif isinstance(spec, (tuple, list)) and isinstance(value, (tuple, list)) and len(value) == len(spec):
        for item, item_spec in zip(value, spec):
            _match(name, i, item, item_spec, tensors)
    elif nest.is_sequence(spec) or differ(leaf_key(value), leaf_key(spec)):
        raise TypeError(f"{name}: argument {i} is {value!r}, but this concrete function was traced for "
                        f"{spec_text(spec)}; call the Function itself to trace one for this value.")
