"""`TensorArray`: a list of same-dtype tensors that works in graphs and loops.

Eagerly it is a Python list of tensors. While tracing it is a `variant`
tensor whose run-time value is a tuple of NumPy arrays, changed only by
functional ops (runtime/ops/list_ops.py: `TensorListWrite` returns a new list), so a TensorArray can be
a `while_loop` variable: it flattens to that one tensor.

    ta = runtime.TensorArray(runtime.int32, size=0, dynamic_size=True)
    ta = ta.write(0, x)        # always use the returned array
    ta.stack()                 # one tensor, the elements stacked on axis 0
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from runtime import dtypes, tensor_array_rows
from runtime.errors import InvalidArgumentError
from runtime.ops import array_ops, indexing, math_ops
from runtime.ops.list_ops import (TENSOR_LIST_FROM_TENSOR, TENSOR_LIST_NEW, TENSOR_LIST_POP, TENSOR_LIST_READ,
                                   TENSOR_LIST_SIZE, TENSOR_LIST_STACK, TENSOR_LIST_WRITE, grown, pop_item, read_item,
                                   stack_items)
from runtime.ops.registry import apply, context
from runtime.shape import TensorShape, as_shape
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor, constant, convert_to_tensor


class TensorArray:
    """A list of tensors of one dtype, usable as a loop variable."""

    def __init__(self, dtype, size=0, dynamic_size: bool = False, element_shape=None, clear_after_read=None,
                 name: Optional[str] = None, *, infer_shape: bool = True, tensor_array_name=None,
                 colocate_with_first_write_call=True, _handle=None, _items=None, _length=None):
        """As TensorFlow's; with `infer_shape=False` the elements may have different shapes (for `concat`)."""
        self.dtype = dtypes.as_dtype(dtype)
        self.dynamic_size = bool(dynamic_size)
        self._infer_shape = infer_shape
        self._length = _length if _handle is not None or _items is not None else _static_length(size, dynamic_size)
        self._element_shape = None if element_shape is None else as_shape(element_shape)
        if _handle is not None or _items is not None:
            self._handle, self._items = _handle, _items
        elif context.graph is None:
            self._handle, self._items = None, [None] * int(size)
        else:
            self._handle = apply(TENSOR_LIST_NEW, convert_to_tensor(size, dtype=dtypes.int32),
                                 element_dtype=self.dtype, name=name)
            self._items = None

    # -- loop-variable protocol (runtime.nest) -----------------------------------

    def _flatten(self) -> list:
        if self._handle is None:
            self._handle = self._handle_of_items()
            self._items = None
        return [self._handle]

    def _handle_of_items(self):
        """The list an eager TensorArray's items make: stacked when all are written, else written one by one
        into a new list, so that elements not written yet stay so (a function may write them)."""
        if self._items and all(v is not None for v in self._items):
            return apply(TENSOR_LIST_FROM_TENSOR, self.stack())
        handle = apply(TENSOR_LIST_NEW, convert_to_tensor(len(self._items), dtype=dtypes.int32),
                       element_dtype=self.dtype)
        for i, value in enumerate(self._items):
            if value is not None:
                handle = apply(TENSOR_LIST_WRITE, handle, convert_to_tensor(i, dtype=dtypes.int32), value,
                               dynamic_size=self.dynamic_size)
        return handle

    def _unflatten(self, leaves) -> "TensorArray":
        return self._like(_handle=leaves[0])

    def _like(self, **kwargs) -> "TensorArray":
        kwargs.setdefault("_length", self._length)
        return TensorArray(self.dtype, dynamic_size=self.dynamic_size, element_shape=self._element_shape,
                           infer_shape=self._infer_shape, **kwargs)

    # -- operations -------------------------------------------------------------------

    def write(self, index, value, name: Optional[str] = None) -> "TensorArray":
        value = convert_to_tensor(value, dtype_hint=self.dtype)
        if value.dtype is not self.dtype:
            article = "an" if value.dtype.name[0] in "aeiou" else "a"
            raise InvalidArgumentError(f"TensorArray of {self.dtype.name} can't hold {article} {value.dtype.name} "
                                       "value; use runtime.cast first.", "TensorListWrite")
        self._merge_element_shape(value.shape)
        if self._items is not None and isinstance(value, EagerTensor) and not _is_symbolic(index):
            items = list(grown(tuple(self._items), int(index), self.dynamic_size))
            items[int(index)] = value   # the tensor itself, so that GradientTapes follow it
            return self._like(_items=items)
        handle = self._flatten()[0]
        new_handle = apply(TENSOR_LIST_WRITE, handle, convert_to_tensor(index, dtype=dtypes.int32), value,
                           dynamic_size=self.dynamic_size, name=name)
        return self._like(_handle=new_handle)

    def read(self, index, name: Optional[str] = None):
        return self._read(index, name)

    def _read(self, index, name: Optional[str] = None, **from_end):
        if self._items is not None and not _is_symbolic(index):
            return read_item(tuple(self._items), int(index), self.dtype, **from_end)
        return apply(TENSOR_LIST_READ, self._flatten()[0], convert_to_tensor(index, dtype=dtypes.int32),
                     element_dtype=self.dtype, element_shape=self._element_shape, name=name, **from_end)

    # -- the list protocol of a list that a staged loop carries (autograph); TensorFlow's TensorArray has none

    def __getitem__(self, index):
        """`l[i]`: Python's indexing of a list, negative indices included; an `OutOfRangeError` (an
        `IndexError`) past either end, when the graph runs."""
        if isinstance(index, slice) or getattr(index, "shape", ()) != ():
            raise TypeError("a list that a loop over tensors carries (a TensorArray) is indexed by one int or "
                            "scalar tensor; slice it after the loop, where it is a stacked tensor.")
        return self._read(index, from_end=True)

    def __add__(self, values):
        """`l + [x, y]` and `l += [x, y]`: a new array with the values appended (a Python list's `+=` extends
        in place; an array is a value, and autograph rebinds `l` either way)."""
        if not isinstance(values, (list, tuple)):
            return NotImplemented
        out = self
        for value in values:
            out = out.write(out.size(), value)
        return out

    def _pop(self, index=-1, name: Optional[str] = None) -> tuple["TensorArray", object]:
        """What `x = l.pop(index)` does to a list that a staged loop carries as this array (autograph's
        `list_pop`): the array without that element (Python's negative indices count from the end), and
        the element. Not public: TensorFlow's TensorArray has no `pop`."""
        if self._items is not None and not _is_symbolic(index):
            rest, value = pop_item(tuple(self._items), index)
            return self._like(_items=list(rest)), value
        handle, value = apply(TENSOR_LIST_POP, self._flatten()[0], convert_to_tensor(index, dtype=dtypes.int32),
                              element_dtype=self.dtype, element_shape=self._element_shape, name=name)
        return self._like(_handle=handle, _length=None), value

    def stack(self, name: Optional[str] = None):
        if self._items is not None:
            if self._items and all(t is not None for t in self._items):
                return array_ops.stack(self._items)   # an op, so that GradientTapes follow the elements
            arrays = tuple(None if t is None else t._value for t in self._items)
            return EagerTensor._from_numpy(stack_items(arrays, self.dtype, self._element_shape))
        stacked = apply(TENSOR_LIST_STACK, self._handle, element_dtype=self.dtype, element_shape=self._element_shape,
                        name=name)
        dims = stacked.shape.dims
        if self._length is not None and dims is not None and dims[0] is None:   # a fixed size known when tracing
            stacked.set_shape([self._length, *dims[1:]])
        return stacked

    def gather(self, indices, name: Optional[str] = None):
        """The elements at `indices`, stacked (TensorFlow's `TensorArray.gather`): rows of `stack()`, so every
        element must have been written (an error names the gaps)."""
        return array_ops.gather(self.stack(), indices, name=name)

    def stacked_list(self):
        """The stacked tensor, as the list a staged loop carried is after the loop (`StackedList`)."""
        return stacked_list_of(self.stack())

    def unstack(self, value, name: Optional[str] = None) -> "TensorArray":
        value = convert_to_tensor(value, dtype=self.dtype)
        if value.shape.rank is not None and value.shape.rank > 0:
            self._merge_element_shape(value.shape[1:])
        if isinstance(value, EagerTensor) and context.graph is None:
            return self._like(_items=array_ops.unstack(value) if len(value._value) else [])
        rows = value.shape.dims[0] if value.shape.dims else None
        return self._like(_handle=apply(TENSOR_LIST_FROM_TENSOR, value, name=name), _length=rows)

    def size(self, name: Optional[str] = None):
        if self._items is not None:
            return EagerTensor._from_numpy(np.int32(len(self._items)))
        return apply(TENSOR_LIST_SIZE, self._handle, name=name)

    @property
    def element_shape(self) -> TensorShape:
        """The shape every element has, as far as known (TensorShape(None) before any is written)."""
        return TensorShape(None) if self._element_shape is None else self._element_shape

    @element_shape.setter
    def element_shape(self, shape) -> None:
        self._element_shape = None if shape is None else as_shape(shape)

    # -- many elements at once (runtime/tensor_array_rows.py) ----------------------------

    def scatter(self, indices, value, name: Optional[str] = None) -> "TensorArray":
        """Row k of `value` written at `indices[k]`."""
        return tensor_array_rows.scatter(self, indices, value)

    def split(self, value, lengths, name: Optional[str] = None) -> "TensorArray":
        """The rows of `value` cut into consecutive elements of `lengths` rows each."""
        return tensor_array_rows.split(self, value, lengths)

    def concat(self, name: Optional[str] = None):
        """The elements concatenated along their first axis."""
        return tensor_array_rows.concat(self)

    def identity(self) -> "TensorArray":
        return self

    def close(self, name: Optional[str] = None) -> None:
        """Nothing to release here (TensorFlow's frees the array's memory)."""

    def _merge_element_shape(self, shape: TensorShape) -> None:
        if not self._infer_shape:
            return
        if self._element_shape is None:
            self._element_shape = shape
        elif not self._element_shape.is_compatible_with(shape):
            raise InvalidArgumentError(f"TensorArray elements have shape {self._element_shape}; can't add one "
                                       f"of shape {shape}.", "TensorListWrite")

    def __repr__(self) -> str:
        mode = f"{len(self._items)} elements" if self._items is not None else "symbolic"
        return f"<TensorArray dtype={self.dtype.name} {mode}>"


def adopt_element_shapes(packed, *traced) -> None:
    """Give each TensorArray of `packed` (a staged statement's results, new objects) without an element shape the
    one its place in `traced` (what a loop body or branch returned) learned from the writes traced there: a loop
    that runs zero times stacks an empty array of rows of that shape, as in TensorFlow."""
    if isinstance(packed, TensorArray):
        shapes = [t._element_shape for t in traced if isinstance(t, TensorArray) and t._element_shape is not None]
        if packed._element_shape is None and shapes:
            packed._element_shape = shapes[0]
    elif isinstance(packed, dict):
        for key, value in packed.items():
            adopt_element_shapes(value, *[t.get(key) for t in traced if isinstance(t, dict)])
    elif isinstance(packed, (tuple, list)):
        for i, value in enumerate(packed):
            adopt_element_shapes(value, *[t[i] for t in traced if isinstance(t, (tuple, list)) and i < len(t)])


def _static_length(size, dynamic_size: bool) -> Optional[int]:
    """The length of a TensorArray of fixed size, where tracing knows it (None for a dynamic one)."""
    from runtime.ops.packing import static_value
    if dynamic_size:
        return None
    value = static_value(size) if isinstance(size, SymbolicTensor) else size
    return None if value is None or np.ndim(value) != 0 else int(value)


def _is_symbolic(value) -> bool:
    from runtime.tensor import SymbolicTensor

    return isinstance(value, SymbolicTensor)


# --- after the loop: the stacked list ---------------------------------------------------------------------

class StackedList(SymbolicTensor):
    """A Python list that a staged loop carried, after the loop: its stacked tensor, which every op takes as
    it is (`runtime.stack(l)` is `l`, `l[i]`, `len`, reductions ...). Where an operator means one thing on a
    list and another on a tensor, it keeps the list's meaning: `l + [x]` and `l + other_list` concatenate,
    `l * 2` repeats; the arithmetic Python refuses on a list (`l - 1`, `l / 2`, `-l`, ...) is a TypeError, as
    in Python, never an elementwise result. Ops give plain tensors."""

    __slots__ = ()
    is_stacked_list = True

    def __add__(self, other):
        if not isinstance(other, (list, tuple, StackedList)):   # a list + a tensor: TypeError in Python too
            _refuse("+", other)
        return stacked_list_of(array_ops.concat([self, _rows(other, self)], 0))

    def __radd__(self, other):
        if not isinstance(other, (list, tuple, StackedList)):
            _refuse("+", other)
        return stacked_list_of(array_ops.concat([_rows(other, self), self], 0))

    __iadd__ = __add__

    def __mul__(self, times):
        if not isinstance(times, int) or isinstance(times, bool):
            _refuse("*", times)
        rank = self.shape.rank
        if rank is None:
            raise TypeError("repeating a list a loop over tensors built (`l * n`) needs its rank; "
                            "use runtime.tile(l, ...) on the stacked tensor instead.")
        return stacked_list_of(array_ops.tile(self, [max(times, 0)] + [1] * (rank - 1)))

    __rmul__ = __mul__
    __imul__ = __mul__

    def __getitem__(self, key):   # a slice of a list is a list (`l[1:] + [x]` concatenates)
        out = indexing.getitem(self, key)
        return stacked_list_of(out) if isinstance(key, slice) else out

    def __eq__(self, other):
        """Python's list equality with a list (one bool: same length, equal items); a list equals no tuple,
        number or string (False); a tensor or array is compared elementwise, as with a list of tensors."""
        if isinstance(other, (list, StackedList)):
            return _lists_equal(self, other)
        if isinstance(other, (Tensor, np.ndarray)) or hasattr(other, "_as_tensor"):
            return math_ops.equal(self, other)
        return False

    def __ne__(self, other):
        equal = self.__eq__(other)
        return not equal if equal.__class__ is bool else math_ops.logical_not(equal)

    __hash__ = None   # as a list's

    def copy(self) -> "StackedList":
        return self   # a tensor never changes: the copy may be the list itself

    def __getattr__(self, name: str):   # only for names a tensor lacks
        """A list's method (`l.count(2)`) is refused (an `OperatorNotAllowedInGraphError`, which a converted
        function's `except` lets through: Python's list has it, so an AttributeError taken by `except
        AttributeError:` or `except Exception:` would give the handler's answer on every input)."""
        if name in _LIST_METHODS:
            self._not_allowed(
                f"Calling l.{name}() on",
                "It is a list that a loop over tensors built: after the loop it is its stacked tensor, which "
                "supports len(), indexing, slices, +, * and append/pop statements only. "
                + ("Rebind it instead (`l = l + more`)." if name == "extend" else
                   "Do this inside the loop, or on runtime.stack(l) with tensor ops."))
        raise AttributeError(f"'StackedList' object has no attribute {name!r}")

    def __setitem__(self, key, value):
        self._not_allowed("Assigning an item (`l[i] = v`) of", "It is a list that a loop over tensors built: after "
                          "the loop it is its stacked tensor, which can't change. Build the new list (`l = l[:i] + "
                          "[v] + l[i + 1:]`) or use runtime.tensor_scatter_nd_update(l, [[i]], [v]).")

    def __delitem__(self, key):
        self._not_allowed("Deleting an item (`del l[i]`) of", "It is a list that a loop over tensors built: after "
                          "the loop it is its stacked tensor, which can't change. Build the new list (`l = l[:i] + "
                          "l[i + 1:]`).")


_LIST_METHODS = frozenset({"extend", "insert", "remove", "clear", "sort", "reverse", "index", "count"})


def _python_refusal(symbol: str):
    def refused(self, *other):
        _refuse(symbol, other[0] if other else None)
    return refused


for _name, _symbol in [("__sub__", "-"), ("__rsub__", "-"), ("__truediv__", "/"), ("__rtruediv__", "/"),
                       ("__floordiv__", "//"), ("__rfloordiv__", "//"), ("__mod__", "%"), ("__rmod__", "%"),
                       ("__pow__", "**"), ("__rpow__", "**"), ("__neg__", "unary -"), ("__pos__", "unary +"),
                       ("__abs__", "abs()"), ("__matmul__", "@"), ("__rmatmul__", "@"), ("__and__", "&"),
                       ("__rand__", "&"), ("__or__", "|"), ("__ror__", "|"), ("__xor__", "^"), ("__rxor__", "^"),
                       ("__invert__", "~")]:
    setattr(StackedList, _name, _python_refusal(_symbol))


def _refuse(symbol: str, other) -> None:
    kind = "" if other is None else f" and {type(other).__name__}"
    raise TypeError(f"unsupported operand for {symbol}: a list (built by a loop over tensors){kind}. After a "
                    "staged loop the list is its stacked tensor, but Python's operators mean what they mean on a "
                    "list; for the tensor's elementwise meaning, write runtime.stack(l) first (a plain tensor).")


def _length_of(t) -> Optional[int]:
    """The static first dimension of `t`, or None."""
    return t.shape.dims[0] if t.shape.dims else None


def _lists_equal(a: StackedList, other) -> Tensor:
    """`a == other` for two lists: a bool tensor, False where the lengths differ (a `Cond`, since the rows
    can be compared only then)."""
    from runtime import control_flow   # import cycle: control_flow imports TensorArrays
    n = len(other) if isinstance(other, list) else _length_of(other)
    if n is not None and _length_of(a) is not None and n != _length_of(a):
        return False   # lengths differ: Python's answer before it compares any item
    try:
        b = _rows(other, a) if not isinstance(other, StackedList) else other
    except (TypeError, ValueError, InvalidArgumentError) as e:   # Python compares across types (0 == 0.0)
        raise TypeError(f"`==` between a list of {a.dtype.name} items that a loop over tensors built and items "
                        f"it can't hold ({e}): Python would compare the values across types, a tensor can't. "
                        "Compare items of the list's dtype, or cast the list with runtime.cast.") from None
    if b.dtype is not a.dtype or not a.shape[1:].is_compatible_with(b.shape[1:]):
        raise TypeError(f"`==` between a list of {a.dtype.name} items of shape {a.shape[1:]} that a loop over "
                        f"tensors built and {b.dtype.name} items of shape {b.shape[1:]}: a tensor can't compare "
                        "them as Python would. Compare items of the list's dtype and shape.")
    if _length_of(a) is not None and _length_of(b) is not None:
        return math_ops.reduce_all(math_ops.equal(a, b)) if _length_of(a) == _length_of(b) else False
    same_length = math_ops.equal(array_ops.shape(a)[0], array_ops.shape(b)[0])
    return control_flow.cond(same_length, lambda: math_ops.reduce_all(math_ops.equal(a, b)),
                             lambda: constant(False))


def _rows(values, like: StackedList):
    if isinstance(values, Tensor):
        return values
    if not values:   # `l + []`: nothing to add, with l's element shape
        return array_ops.zeros_like(like)[:0]
    return array_ops.stack([convert_to_tensor(v, dtype=like.dtype) for v in values])


def stacked_list_of(tensor):
    """`tensor` (the stacked list a staged loop built) marked so that operators keep a list's meaning."""
    if tensor.__class__ is SymbolicTensor:
        tensor.__class__ = StackedList
    return tensor
