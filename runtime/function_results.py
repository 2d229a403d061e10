"""What a traced function returns: its Python numbers, bools, strings and NumPy arrays made tensors, as
TensorFlow returns them; an object of another kind that holds a traced tensor refused where it is returned."""
from __future__ import annotations

import inspect

import numpy as np

from runtime import nest
from runtime.tensor import SymbolicTensor, Tensor, convert_to_tensor

_SCALARS = (bool, int, float, complex, str, bytes, np.generic, np.ndarray)


def as_results(result, fn):
    """`result`, what `fn` returned while traced, as the function returns it: Python numbers, bools, strings
    and NumPy arrays as tensors (`return 3` gives an int32 tensor; an array is not the one object every call
    returns, which a caller could change); None and other objects as they are, unless they hold a tensor of
    the trace (a dataclass of tensors), which is a TypeError naming `fn`."""
    leaves = nest.flatten(result)
    for leaf in leaves:
        if not isinstance(leaf, (Tensor, *_SCALARS)) and leaf is not None and not hasattr(leaf, "_as_tensor"):
            where = _traced_tensor_in(leaf, 3)
            if where is not None:
                raise TypeError(_holds_tensor_message(fn, leaf, where))
    if not any(isinstance(v, _SCALARS) for v in leaves):
        return result
    converted = [_as_tensor_if_it_fits(v) if isinstance(v, _SCALARS) else v for v in leaves]
    return nest.pack(result, converted) if nest.is_sequence(result) else converted[0]


def _as_tensor_if_it_fits(value):
    if isinstance(value, str):        # (an f-string of traced tensors may be refused: that error stands)
        return convert_to_tensor(value)
    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError):   # an int beyond int64, an array of objects: returned as it is
        return value


def _traced_tensor_in(value, depth: int):
    """Where inside `value` (an object a function returns) a symbolic tensor is (".a", "[0].b"), or None."""
    if isinstance(value, SymbolicTensor):
        return ""
    if depth == 0 or isinstance(value, (type, _SCALARS)) or value is None:
        return None
    if isinstance(value, (list, tuple, set, frozenset)):
        items = enumerate(value) if isinstance(value, (list, tuple)) else ((None, v) for v in value)
    elif isinstance(value, dict):
        items = value.items()
    else:
        state = getattr(value, "__dict__", None)
        slots = [s for cls in type(value).__mro__ for s in getattr(cls, "__slots__", ())
                 if isinstance(s, str) and s not in ("__dict__", "__weakref__")]
        found = dict(state) if isinstance(state, dict) else {}
        found.update({s: getattr(value, s) for s in slots if hasattr(value, s)})
        items = (("." + name, v) for name, v in found.items())
    for key, item in items:
        inner = _traced_tensor_in(item, depth - 1)
        if inner is not None:
            step = key if isinstance(key, str) and key.startswith(".") else "" if key is None else f"[{key!r}]"
            return step + inner
    return None


def _holds_tensor_message(fn, leaf, where: str) -> str:
    fn = inspect.unwrap(fn)
    code = getattr(fn, "__code__", None)
    name = getattr(fn, "__qualname__", getattr(fn, "__name__", "the function"))
    at = f"{code.co_filename}:{code.co_firstlineno}: " if code is not None else ""
    path = f" (at {where})" if where else ""
    return (f"{at}{name} returns a {type(leaf).__name__} that holds a tensor of the traced graph{path}. A function "
            "returns tensors, Python values and None, and lists, tuples, dicts and namedtuples of them; the tensor "
            "inside another object would be the trace's symbolic one on every call, not the call's value. Return "
            "the tensors themselves, e.g. as a tuple, dict or namedtuple.")
