"""TensorArrays (the `TensorList*` ops, runtime/tensor_array.py) lowered to JAX for `function(jit_compile=True)`.

XLA needs every array's shape before the program runs, so a list is a preallocated buffer, `JaxList`:
`buffer` of shape [capacity, *element_shape] (zeros where nothing was written), `written` [capacity] (which
elements were written) and `size` (the list's length, traced). The element shape is that of the first value
written (a list's `buffer` is None until then); the capacity is static:

- a list made with a size known while lowering (`TensorArray(size=3)`, `map_fn`, `scan`, a jacobian's rows) has
  that many rows, a list made from a tensor (`unstack`) its rows;
- a `dynamic_size` list (a list a staged loop appends to, the history of a loop's gradient) grows by a row at
  each write outside loops; inside a loop its rows are given before the loop runs (`to_jax._while`): the rows
  one iteration appends (`appended`, learned by tracing the body once with `jax.eval_shape`) times the loop's
  trip count, known while lowering from `maximum_iterations` or from the loop's constant bounds
  (`static_trip_count`). A loop that appends to a list and whose trip count is not known while lowering is a
  `LoweringError` that asks for `maximum_iterations`, as TensorFlow's XLA does.

Where the executor raises (a read out of range or of an element never written, a write out of range, a stack
with gaps), the op is a check (jax_checks.py): the executor's error after the call. A write past the rows a
loop was given (an index the append count did not foresee) is a check too, never a dropped value.

A list's gradient is a list of the same kind where zeros stand for "no gradient" (None in the executor's
`ListValue`); a list can hold lists (a loop's gradient keeps each iteration's lists): then `buffer` is a
`JaxList` whose arrays have the extra leading axis.
"""
from __future__ import annotations

from typing import Optional

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from runtime import dtypes
from runtime.errors import LoweringError
from runtime.graph import made_at


@jax.tree_util.register_pytree_node_class
class JaxList:
    """A TensorArray's value under jit: `buffer` [capacity, ...] or None (no element shape yet), `written`
    [capacity] bool, `size` int32 scalar. Static (part of the pytree's structure): `dtype`, `capacity`,
    `static_size` (the length, when known while lowering), `appended` (writes that may have grown it since
    the loop that carries it began, for `jax_effects._while`) and `home`: how many loops' bodies are around the
    place it was made; the loops inside that many give it rows for their appends, and a write outside loops
    grows it."""

    def __init__(self, dtype, capacity: int, size, buffer=None, written=None, static_size: Optional[int] = None,
                 appended: int = 0, home: int = 0):
        self.dtype, self.capacity, self.size = dtype, capacity, size
        self.buffer, self.written = buffer, written
        self.static_size, self.appended, self.home = static_size, appended, home

    def tree_flatten(self):
        return ((self.buffer, self.written, self.size),
                (self.dtype, self.capacity, self.static_size, self.appended, self.home))

    @classmethod
    def tree_unflatten(cls, aux, children):
        buffer, written, size = children
        return cls(aux[0], aux[1], size, buffer, written, *aux[2:])

    def replace(self, **changes) -> "JaxList":
        fields = dict(dtype=self.dtype, capacity=self.capacity, size=self.size, buffer=self.buffer,
                      written=self.written, static_size=self.static_size, appended=self.appended, home=self.home)
        fields.update(changes)
        return JaxList(**fields)

    def __repr__(self) -> str:
        return f"<JaxList {self.dtype.name} capacity={self.capacity} static_size={self.static_size}>"


def is_list(value) -> bool:
    return isinstance(value, JaxList)


# --- rows of a buffer (an array, or a JaxList of stacked lists) ----------------------------------------------

def _tree_map(f, *trees):
    return jax.tree_util.tree_map(f, *trees)


def _zeros_rows(element, capacity: int):
    """A buffer of `capacity` zero elements shaped like `element` (an array, a JaxList, or their shapes)."""
    return _tree_map(lambda v: jnp.zeros((capacity, *jnp.shape(v)), v.dtype), element)


def _row(buffer, index):
    """Row `index` (zeros of a buffer with no rows: JAX refuses to index one, in a branch never taken too)."""
    def row(b):
        if b.shape[0] == 0:
            return jnp.zeros(b.shape[1:], b.dtype)
        return lax.dynamic_index_in_dim(b, index, keepdims=False)
    return _tree_map(row, buffer)


def _with_row(buffer, index, value):
    """Row `index` set to `value` (nothing where the index is past the rows: the write's check fails there)."""
    def set_row(b, v):
        return b if b.shape[0] == 0 else b.at[index].set(jnp.asarray(v).astype(b.dtype), mode="drop")
    return _tree_map(set_row, buffer, value)


def _padded(buffer, capacity: int):
    def pad(b):
        extra = capacity - b.shape[0]
        return b if extra == 0 else jnp.concatenate([b, jnp.zeros((extra, *b.shape[1:]), b.dtype)])
    return _tree_map(pad, buffer)


def element_spec(buffer):
    """The shape and dtype of one element of `buffer`, as a tree of `jax.ShapeDtypeStruct`."""
    return _tree_map(lambda b: jax.ShapeDtypeStruct(b.shape[1:], b.dtype), buffer)


def _same_spec(a, b) -> bool:
    flat_a, tree_a = jax.tree_util.tree_flatten(a)
    flat_b, tree_b = jax.tree_util.tree_flatten(b)
    return tree_a == tree_b and all(x.shape == y.shape and x.dtype == y.dtype for x, y in zip(flat_a, flat_b))


def _element(value, dtype):
    """A value to store: a list as it is, anything else as a JAX array of the list's dtype."""
    if is_list(value):
        return value
    return jnp.asarray(value).astype(jax.dtypes.canonicalize_dtype(dtype.as_numpy_dtype))


def _refuse_shapes(op, have, new) -> LoweringError:
    return LoweringError(
        f"jit_compile=True can't lower {op.type} '{op.name}': a TensorArray's elements have different shapes "
        f"({_describe(have)} and {_describe(new)}), and XLA keeps a list as one array.{made_at(op)}\n"
        "Use jit_compile=None for this function, or pad the elements to one shape.", op.type)


def _describe(spec) -> str:
    return "a list" if is_list(spec) else f"{list(spec.shape)}"


# --- joining the lists two branches or two iterations give -------------------------------------------------

def join(a: JaxList, b: JaxList, op) -> JaxList:
    """The structure that holds both `a` and `b` (the widest; shapes only, as `jax.ShapeDtypeStruct`s)."""
    capacity = max(a.capacity, b.capacity)
    spec = _joined_spec(a, b, op)
    static_size = a.static_size if a.static_size == b.static_size else None
    dtype = b.dtype if a.dtype is dtypes.variant else a.dtype   # a gradient's zeros list has no dtype of its own
    return JaxList(dtype, capacity, jax.ShapeDtypeStruct((), jnp.int32),
                   None if spec is None else _tree_map(lambda s: jax.ShapeDtypeStruct((capacity, *s.shape), s.dtype),
                                                       spec),
                   None if spec is None else jax.ShapeDtypeStruct((capacity,), jnp.bool_),
                   static_size, max(a.appended, b.appended), min(a.home, b.home))


def _joined_spec(a: JaxList, b: JaxList, op):
    if a.buffer is None or b.buffer is None:
        if a.buffer is None and b.buffer is None:
            return None
        return element_spec(b.buffer if a.buffer is None else a.buffer)
    return join_elements(element_spec(a.buffer), element_spec(b.buffer), op)


def join_elements(a, b, op):
    """The element that holds elements `a` and `b`: the same array shape, or for lists, `join`."""
    if is_list(a) and is_list(b):
        return a if _same_spec(a, b) else join(a, b, op)
    if is_list(a) or is_list(b) or not _same_spec(a, b):
        raise _refuse_shapes(op, a, b)
    return a


def _fit_rows(buffer, element):
    """Every row of `buffer` given the structure of `element` (rows that are lists, widened)."""
    if not is_list(element) or _same_spec(element_spec(buffer), element):
        return buffer
    return jax.vmap(lambda row: fit(row, element))(buffer)


def with_capacity(like: JaxList, capacity: int) -> JaxList:
    """`join`'s result with `capacity` rows."""
    if like.buffer is None:
        return like.replace(capacity=capacity)
    rows = _tree_map(lambda s: jax.ShapeDtypeStruct((capacity, *s.shape[1:]), s.dtype), like.buffer)
    return like.replace(capacity=capacity, buffer=rows, written=jax.ShapeDtypeStruct((capacity,), jnp.bool_))


def fit(value, like):
    """`value` (a list, or anything else, returned as it is) given the structure of `like` (`join`'s result):
    more zero rows, its element shape, `like`'s static facts."""
    if not is_list(value) or like is None:
        return value
    if value.capacity > like.capacity:   # pragma: no cover - join takes the widest
        raise AssertionError("a list can't shrink")
    if like.buffer is None:
        buffer, written = None, None
    elif value.buffer is None:
        buffer = _zeros_rows(element_spec(like.buffer), like.capacity)
        written = jnp.zeros((like.capacity,), jnp.bool_)
    else:
        rows = _fit_rows(value.buffer, element_spec(like.buffer))
        buffer, written = _padded(rows, like.capacity), _padded(value.written, like.capacity)
    return value.replace(dtype=like.dtype, capacity=like.capacity, buffer=buffer, written=written,
                         static_size=like.static_size, appended=like.appended, home=like.home)


def structure(value):
    """What must stay the same for a loop or both branches: a list's static facts and shapes; None for others."""
    if not is_list(value):
        return None
    return jax.tree_util.tree_structure(value), [(jnp.shape(v), jnp.result_type(v))
                                                 for v in jax.tree_util.tree_leaves(value)]


# --- the ops -------------------------------------------------------------------------------------------------

def new(lowering, size, element_dtype):
    from runtime.control_flow import static_value   # a graph walk; imported late (control_flow imports ops)
    known = static_value(lowering.op.inputs[0])
    if known is None:
        known = lowering.static_of(lowering.op.inputs[0])
    if known is None:
        raise LoweringError(
            f"jit_compile=True can't lower the TensorArray '{lowering.op.name}': its size is computed when the "
            f"function runs, and XLA needs it before.{made_at(lowering.op)}\nUse jit_compile=None for this "
            "function, or give the TensorArray a size known when tracing (a Python int, a static shape).",
            lowering.op.type)
    n = int(known)
    return JaxList(element_dtype, n, jnp.int32(n), static_size=n, home=lowering.loop_depth)


def from_tensor(value):
    value = jnp.asarray(value)
    n = value.shape[0]
    return JaxList(_dtype_of(value), n, jnp.int32(n), value, jnp.ones((n,), jnp.bool_), static_size=n)


def _dtype_of(value):
    return dtypes.as_dtype(np.dtype(value.dtype))


def write(lowering, items: JaxList, index, value, dynamic_size):
    """The list with element `index` set; and where the executor raises (an index out of range), or the rows
    given are too few, the failure (a traced bool). A loop around the write since the list was made gave it
    its rows; else the write grows it."""
    op = lowering.op
    in_loop = lowering.loop_depth > items.home
    index = jnp.asarray(index, jnp.int32)
    value = _element(value, items.dtype)
    items, value = _with_shape(items, value, op)
    if dynamic_size and not in_loop:
        items = _grown(lowering, items)
    fails = (index < 0) | (index >= (items.capacity if dynamic_size else items.size))
    written = _with_row(items.written, index, True)
    size = jnp.maximum(items.size, index + 1) if dynamic_size else items.size
    static_size = items.static_size if not dynamic_size else _static_grown(lowering, items)
    out = items.replace(buffer=_with_row(items.buffer, index, value), written=written, size=size,
                        static_size=static_size, appended=items.appended + (1 if dynamic_size else 0))
    return out, fails


def _with_shape(items: JaxList, value, op) -> tuple:
    """`items` with a buffer for elements like `value` (allocated at the first write), and `value` fitted to it
    (lists of lists: both widened to hold either)."""
    spec = element_spec(_zeros_rows(value, 1))
    if items.buffer is None:
        return items.replace(buffer=_zeros_rows(spec, items.capacity),
                             written=jnp.zeros((items.capacity,), bool)), value
    have = element_spec(items.buffer)
    if _same_spec(have, spec):
        return items, value
    element = join_elements(have, spec, op)
    return items.replace(buffer=_fit_rows(items.buffer, element)), fit(value, element)


def _grown(lowering, items: JaxList) -> JaxList:
    """A dynamic list written outside loops: room for the write (up to its index when that is known while
    lowering, else one more row: a write further on fails its check)."""
    index = lowering.static_of(lowering.op.inputs[1])
    capacity = items.capacity + 1 if index is None else max(items.capacity, int(index) + 1)
    return items.replace(capacity=capacity, buffer=_padded(items.buffer, capacity),
                         written=_padded(items.written, capacity))


def _static_grown(lowering, items: JaxList):
    index = lowering.static_of(lowering.op.inputs[1])
    if items.static_size is None or index is None:
        return None
    return max(items.static_size, int(index) + 1)


def read(items: JaxList, index, element_dtype, element_shape=None, from_end=False):
    """Element `index` and where the executor raises (out of range, or never written)."""
    index = jnp.asarray(index, jnp.int32)
    if from_end:
        index = jnp.where(index < 0, index + items.size, index)
    in_range = (index >= 0) & (index < items.size)
    if items.buffer is None:
        return _unwritten(element_dtype, element_shape), jnp.asarray(True)
    fails = ~in_range | ~_row(items.written, jnp.clip(index, 0, items.capacity - 1))
    return _row(items.buffer, jnp.clip(index, 0, items.capacity - 1)), fails


def _unwritten(element_dtype, element_shape):
    """A read of a list nothing was written to fails its check; its value, zeros of the static shape."""
    if element_shape is None or not element_shape.is_fully_defined():
        raise LoweringError("jit_compile=True can't lower a read of a TensorArray that is never written with an "
                            "element shape unknown while tracing; use jit_compile=None for this function.")
    return jnp.zeros(tuple(element_shape.as_list()), jax.dtypes.canonicalize_dtype(element_dtype.as_numpy_dtype))


def stack(items: JaxList, element_dtype, element_shape):
    """The elements stacked, and where the executor raises (elements never written) or XLA can't give the
    length (a list whose length is not known while lowering must fill the rows it was given)."""
    if items.buffer is None:
        if items.capacity and (element_shape is None or not element_shape.is_fully_defined()):
            raise LoweringError("jit_compile=True can't stack a TensorArray nothing is written to whose element "
                                "shape is unknown while tracing; use jit_compile=None for this function.")
        dims = [] if element_shape is None or element_shape.dims is None else [d or 0 for d in element_shape.dims]
        dtype = jax.dtypes.canonicalize_dtype(element_dtype.as_numpy_dtype)
        return jnp.zeros((items.capacity, *dims), dtype), jnp.asarray(items.capacity > 0)
    n = items.capacity if items.static_size is None else items.static_size
    fails = ~jnp.all(items.written[:n])
    if items.static_size is None:
        fails = fails | (items.size != items.capacity)
    return items.buffer[:n], fails


def pop(items: JaxList, index, element_dtype=None, element_shape=None):
    """The list without element `index` (negative from the end) and the element, and where the executor raises."""
    index = jnp.asarray(index, jnp.int32)
    position = jnp.where(index < 0, index + items.size, index)
    fails = (items.size == 0) | (position < 0) | (position >= items.size)
    if items.buffer is None:
        return (items, _unwritten(element_dtype, element_shape)), jnp.asarray(True)
    safe = jnp.clip(position, 0, items.capacity - 1)
    fails = fails | ~_row(items.written, safe)
    rows = jnp.arange(items.capacity)
    source = jnp.where(rows >= position, jnp.minimum(rows + 1, items.capacity - 1), rows)
    shifted = _tree_map(lambda b: jnp.take(b, source, axis=0), items.buffer)
    last = rows == items.size - 1
    buffer = _tree_map(lambda b: jnp.where(_column(last, b), jnp.zeros_like(b), b), shifted)
    written = jnp.where(last, False, jnp.take(items.written, source))
    static_size = None if items.static_size is None else items.static_size - 1
    rest = items.replace(buffer=buffer, written=written, size=jnp.maximum(items.size - 1, 0), static_size=static_size)
    return (rest, _row(items.buffer, safe)), fails


def _column(mask, like):
    return jnp.reshape(mask, (mask.shape[0],) + (1,) * (jnp.ndim(like) - 1))


def size(items: JaxList):
    return jnp.asarray(items.size, jnp.int32)


# --- the gradients' list ops: zeros stand for "no gradient" --------------------------------------------------

def zeros():
    return JaxList(dtypes.variant, 0, jnp.int32(0))


def add(a: JaxList, b: JaxList):
    if a.buffer is None or b.buffer is None:
        wide = a if b.buffer is None else b
        capacity = max(a.capacity, b.capacity)
        return _widened(wide, capacity).replace(size=jnp.maximum(a.size, b.size))
    capacity = max(a.capacity, b.capacity)
    a, b = _widened(a, capacity), _widened(b, capacity)
    return a.replace(buffer=_sum(a.buffer, b.buffer), written=a.written | b.written, size=jnp.maximum(a.size, b.size),
                     static_size=None)


def _widened(items: JaxList, capacity: int) -> JaxList:
    if items.buffer is None:
        return items.replace(capacity=capacity)
    return items.replace(capacity=capacity, buffer=_padded(items.buffer, capacity),
                         written=_padded(items.written, capacity))


def _sum(x, y):
    if is_list(x):
        return add(x, y)
    return x + y


def element_gradient(grads: JaxList, index, like):
    """Element `index` of a list's gradient, zeros like `like` where it has none."""
    index = jnp.asarray(index, jnp.int32)
    if grads.buffer is None:
        return _zeros_like(like)
    inside = (index >= 0) & (index < grads.capacity)
    found = _row(grads.buffer, jnp.clip(index, 0, max(grads.capacity - 1, 0)))
    found = _tree_map(lambda leaf: jnp.where(inside, leaf, jnp.zeros_like(leaf)), found)
    return found if is_list(like) else found.astype(jnp.asarray(like).dtype)


def _zeros_like(like):
    if is_list(like):
        return _tree_map(jnp.zeros_like, like)
    return jnp.zeros_like(jnp.asarray(like))


def without_element(grads: JaxList, index):
    if grads.buffer is None:
        return grads
    index = jnp.asarray(index, jnp.int32)
    keep = jnp.arange(grads.capacity) != index
    buffer = _tree_map(lambda b: jnp.where(_column(keep, b), b, jnp.zeros_like(b)), grads.buffer)
    return grads.replace(buffer=buffer, written=grads.written & keep)


def read_gradient(items: JaxList, index, grad):
    """The gradient of the list `index` was read from: `grad` there, zeros elsewhere."""
    index = jnp.asarray(index, jnp.int32)
    grad = grad if is_list(grad) else jnp.asarray(grad)
    buffer = _with_row(_zeros_rows(grad, items.capacity), index, grad)
    written = _with_row(jnp.zeros((items.capacity,), jnp.bool_), index, True)
    return JaxList(items.dtype, items.capacity, items.size, buffer, written, items.static_size)


def stack_gradient(grads: JaxList, like):
    """The gradient of the tensor a list was made from: the list's gradient rows, zeros where none."""
    like = jnp.asarray(like)
    n = like.shape[0]
    if grads.buffer is None:
        return jnp.zeros_like(like)
    rows = _padded(grads.buffer, max(n, grads.capacity))[:n]
    return rows.astype(like.dtype)


LOWERINGS = {
    "TensorListFromTensor": from_tensor,
    "TensorListSize": size,
    "TensorListZeros": zeros,
    "TensorListAdd": add,
    "TensorListElementGrad": element_gradient,
    "TensorListWithoutElement": without_element,
    "TensorListReadGrad": read_gradient,
    "TensorListStackGrad": stack_gradient,
}
