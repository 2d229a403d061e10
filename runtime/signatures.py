"""Input signatures: `TensorSpec`, the trace-cache key of a call's arguments,
how a retrace is explained, and how signatures are printed.

The key follows TensorFlow: tensors (and NumPy arrays) by dtype and shape,
Python values by value, lists/tuples/dicts by structure, Variables by dtype,
shape and trainability (a trace made for one serves another: the function
copies its graph for that Variable, `ConcreteFunction.with_variables`). An object (an instance of a class of the user's, a set) is keyed by
identity and by what its attributes hold (`object_key`): TensorFlow keeps the
traced values when one changes between calls, or refuses an unhashable
object; Python sees the change, so a change traces again. `pretty_printed_signature()` text follows seed 003:

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
from runtime.errors import ArgumentDTypeError
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
    if is_variable(value):   # as TensorFlow's VariableSpec; the graph is bound to the Variable at the call
        return ("variable", value.dtype, tuple(value.shape.dims) if value.shape.dims is not None else None,
                bool(value.trainable))
    if value.__class__ is float and (value != value or value == 0.0):
        return (float, repr(value))  # nan equals itself here, and -0.0 differs from 0.0
    if _has_state(value):
        return object_key(value)
    try:
        hash(value)
    except TypeError:
        return ("object", Same(value))
    if value.__class__ in _TOLD_APART_BY_EQUALITY:
        return (type(value), value)
    try:
        return (type(value), _ValueAndRepr(value))
    except Exception:   # noqa: BLE001 - a repr that fails: the object itself
        return ("object", Same(value))


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


# --- objects: by identity and by what they hold -------------------------------------

class Same:
    """An object in a key, equal only to itself; held, so that its id is not reused while the key lives."""
    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other) -> bool:
        return isinstance(other, Same) and other.obj is self.obj

    def __repr__(self) -> str:
        return f"<{type(self.obj).__name__} object>"


_NOT_STATE = (type, types.ModuleType, types.FunctionType, types.MethodType, types.BuiltinFunctionType)
STATE_DEPTH = 3   # attributes of attributes of attributes; deeper objects by identity only
MAX_ITEMS = 1000  # a longer list, tuple or dict an object holds: by identity and length only (keys stay cheap)


def _has_state(value) -> bool:
    """Whether `value` is an object whose hash is its identity (or that has none) and whose attributes a
    function reads: a set, a bytearray, an instance of a class of the user's."""
    cls = value.__class__
    known = _STATE_CLASSES.get(cls)
    if known is None:
        known = _STATE_CLASSES[cls] = _class_has_state(cls)
    return known and (cls in (set, bytearray) or hasattr(value, "__dict__"))


def _class_has_state(cls) -> bool:
    if issubclass(cls, (set, bytearray)):
        return True
    if cls.__hash__ not in (object.__hash__, None) or issubclass(cls, _NOT_STATE):
        return False
    return not cls.__module__.startswith(("runtime.", "autograph."))   # the runtime's own objects: by identity


_STATE_CLASSES: dict = {}   # class -> whether its instances are keyed with what they hold (see _has_state)


def object_key(value):
    """The key of an object argument: the object itself, and a snapshot of what its attributes (and theirs,
    to `STATE_DEPTH`) hold, taken when the call is made. A function reads attributes while it is traced and
    the graph keeps what it read; a call after one changed traces again, as Python would see the change."""
    return ("object", Same(value), _state(value, STATE_DEPTH))


def _state(value, depth: int):
    if isinstance(value, bytearray):
        return bytes(value)
    if isinstance(value, set):
        return frozenset(value)
    return tuple([(name, _member_key(item, depth - 1)) for name, item in vars(value).items()])


def _member_key(value, depth: int):
    """What an attribute holds, for `object_key`: Python values by value, tensors, Variables and arrays by
    identity (a new tensor traces again; an array also by its bytes), containers item by item."""
    cls = value.__class__
    if cls in _BY_VALUE:
        return (cls, repr(value) if cls is float else value)
    keyer = _KEYERS.get(cls)
    if keyer is None:
        keyer = _KEYERS[cls] = _keyer(cls)
    return keyer(value, depth)


def _keyer(cls):
    """How `_member_key` keys the instances of `cls` (chosen once per class: a call costs one dict lookup)."""
    if cls is list or cls is tuple:
        return _sequence_key
    if cls is dict:
        return lambda value, depth: _long_key(value) or ("dict", _items_key(value, depth))
    if cls is np.ndarray:
        return lambda value, depth: (Same(value), value.dtype.str, value.shape,
                                     value.tobytes() if value.size <= 4096 else None)
    if issubclass(cls, list):       # subclasses: kept by identity too, as they may carry more than items
        return lambda value, depth: _long_key(value) or (Same(value), _sequence_key(value, depth)[1])
    if issubclass(cls, tuple):      # namedtuples, ...
        return lambda value, depth: _long_key(value) or (cls, _sequence_key(value, depth)[1])
    if issubclass(cls, dict):       # OrderedDict, defaultdict, ...
        return lambda value, depth: _long_key(value) or (Same(value), _items_key(value, depth))
    if _class_has_state(cls):
        return lambda value, depth: (Same(value), _state(value, depth)) if depth > 0 and _has_state(value) \
            else Same(value)
    return lambda value, depth: Same(value)


def _long_key(value):
    """A container longer than `MAX_ITEMS`: by identity and length only (keys stay cheap); else None."""
    return (Same(value), len(value)) if len(value) > MAX_ITEMS else None


def _sequence_key(value, depth: int):
    return _long_key(value) or (value.__class__.__name__, tuple([_member_key(item, depth) for item in value]))


def _items_key(value, depth: int):
    return tuple([(_member_key(k, depth), _member_key(v, depth)) for k, v in value.items()])


_KEYERS: dict = {}   # class -> its `_keyer`


_BY_VALUE = frozenset({bool, int, float, complex, str, bytes, type(None)})


def is_numpy(value) -> bool:
    return isinstance(value, (np.ndarray, np.generic))


def has_array(args, kwargs) -> bool:
    if not kwargs and not any(v.__class__ in (list, tuple, dict) for v in args):
        return any(is_numpy(v) for v in args)
    return any(is_numpy(v) for v in nest.flatten((args, kwargs)))


def array_to_tensor(value):
    """NumPy arrays and scalars are arguments like tensors (keyed by dtype and shape), as in TensorFlow: an
    array copied, as a tensor made of it is (the program may change it after the call, and an output may be
    the argument itself)."""
    if isinstance(value, np.ndarray):
        return EagerTensor._from_numpy(np.array(value))
    return EagerTensor._from_numpy(value) if is_numpy(value) else value


def is_variable(value) -> bool:
    return hasattr(value, "handle") and hasattr(value, "assign")


def variables_aliased(leaves: list) -> tuple:
    """Which Variable arguments are the same Variable (TensorFlow traces `f(a, a)` apart from `f(a, b)`): for
    each Variable among `leaves`, the position of its first occurrence."""
    first: dict = {}
    return tuple(first.setdefault(id(v), i) for i, v in enumerate(v for v in leaves if is_variable(v)))


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
    if isinstance(leaf_key, tuple) and leaf_key and leaf_key[0] == "object":
        held = repr(leaf_key[2]) if len(leaf_key) > 2 else ""
        held = held if len(held) <= 80 else held[:77] + "..."
        return f"{type(leaf_key[1].obj).__name__} object{' holding ' + held if held else ''}"
    if isinstance(leaf_key, tuple) and len(leaf_key) == 4 and leaf_key[0] == "variable":
        shape = "<unknown>" if leaf_key[2] is None else leaf_key[2]
        return f"{'' if leaf_key[3] else 'non-trainable '}{leaf_key[1].name} Variable of shape {shape}"
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


def mismatch_error(tensor, spec: TensorSpec) -> type:
    """The error for a tensor that does not fit a traced `spec`: of another dtype, an InvalidArgumentError
    (as TensorFlow) that is also a TypeError; of another shape only, a TypeError."""
    return ArgumentDTypeError if tensor.dtype != spec.dtype else TypeError


def match_signature(name: str, args: tuple, specs: tuple, traced_key=leaf_key) -> list:
    """The tensors of a call's `args`, converted and checked against the traced `specs` (a tuple of
    TensorSpecs and Python values); Python values must equal the traced ones (`traced_key` of a spec: the key
    it had when traced)."""
    tensors: list = []
    for i, (value, spec) in enumerate(zip(args, specs)):
        _match(name, i, value, spec, tensors, traced_key)
    return tensors


def _match(name: str, i: int, value, spec, tensors: list, traced_key) -> None:
    if isinstance(spec, TensorSpec):
        tensor = convert_to_tensor(value, dtype_hint=spec.dtype)
        if not spec.is_compatible_with(tensor):
            raise mismatch_error(tensor, spec)(f"{name}: argument {i} is a {tensor.dtype.name} tensor of shape "
                                               f"{tensor.shape} where the traced signature has {spec}.")
        tensors.append(tensor)
    elif isinstance(spec, dict) and isinstance(value, dict) and nest.sorted_keys(value) == nest.sorted_keys(spec):
        for key in nest.sorted_keys(spec):  # the order of nest.flatten, which made the placeholders
            _match(name, i, value[key], spec[key], tensors, traced_key)
    elif isinstance(spec, (tuple, list)) and isinstance(value, (tuple, list)) and len(value) == len(spec):
        for item, item_spec in zip(value, spec):
            _match(name, i, item, item_spec, tensors, traced_key)
    elif value is spec and differ(leaf_key(value), traced_key(spec)):
        raise TypeError(f"{name}: argument {i}, {value!r}, holds other values than when this concrete function "
                        "was traced (an attribute changed since); call the Function itself to trace one for them.")
    elif nest.is_sequence(spec) or differ(leaf_key(value), traced_key(spec)):
        raise TypeError(f"{name}: argument {i} is {value!r}, but this concrete function was traced for "
                        f"{spec_text(spec)}; call the Function itself to trace one for this value.")
