"""The list ops behind `TensorArray` (runtime/tensor_array.py) and their gradients.

A list's run-time value is a `ListValue`, a tuple of NumPy arrays; each op returns a new one (`TensorListWrite`
returns the list with one element replaced), so a list can be a `while_loop` variable. A list's gradient is a
list too, where None stands for an element whose gradient is zeros.
"""
from __future__ import annotations

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError, OutOfRangeError
from runtime.ops.registry import Spec, apply, defop
from runtime.shape import TensorShape, as_shape

variant = dtypes.variant


class ListValue(tuple):
    """The run-time value of a TensorArray in a graph (a `variant` tensor): its elements, NumPy arrays,
    or None for one not written yet. Gradients of lists are lists too, where None means zero."""

    __slots__ = ()
    shape = ()
    ndim = 0
    dtype = np.dtype(object)


def _new(size, element_dtype):
    return ListValue((None,) * int(size))


def _write(items, index, value, dynamic_size):
    items = grown(items, int(index), dynamic_size)
    index = int(index)
    return ListValue(items[:index] + (_element(value),) + items[index + 1:])


def grown(items: tuple, index: int, dynamic_size: bool) -> tuple:
    """`items`, padded with None up to `index` when the array may grow; an error if it may not."""
    if index < 0 or index >= len(items) and not dynamic_size:
        raise OutOfRangeError(f"TensorArray write: index {index} is out of range for a TensorArray of size "
                              f"{len(items)}; create it with dynamic_size=True to let it grow.", "TensorListWrite")
    return items + (None,) * (index + 1 - len(items))


def read_item(items, index, element_dtype, element_shape=None, from_end=False):
    """Element `index`; with `from_end`, a negative index counts from the end, as a Python list's."""
    index = int(index)
    if from_end and index < 0:
        index += len(items)
    if index < 0 or index >= len(items):
        raise OutOfRangeError(f"TensorArray read: index {index} is out of range (size {len(items)}).",
                              "TensorListRead")
    if items[index] is None:
        raise InvalidArgumentError(f"TensorArray read: element {index} was never written.", "TensorListRead")
    return items[index]


def pop_item(items, index, element_dtype=None, element_shape=None):
    """`list.pop(index)` on the items: the items without that element, and the element."""
    index = int(index)
    if not items:
        raise OutOfRangeError("TensorArray pop: trying to pop from an empty list (a list that a loop over "
                              "tensors carries is a TensorArray). Check its length first: `if len(l) > 0:`, or "
                              "`while len(l) > 0:` to drain it.", "TensorListPop")
    if not -len(items) <= index < len(items):
        raise OutOfRangeError(f"TensorArray pop: index {index} is out of range for a list of {len(items)} "
                              "elements.", "TensorListPop")
    index %= len(items)
    if items[index] is None:
        raise InvalidArgumentError(f"TensorArray pop: element {index} was never written.", "TensorListPop")
    return ListValue(items[:index] + items[index + 1:]), items[index]


def stack_items(items, element_dtype, element_shape):
    if any(v is None for v in items):
        missing = [i for i, v in enumerate(items) if v is None]
        raise InvalidArgumentError(f"TensorArray stack: elements {missing} were never written.", "TensorListStack")
    if not items:
        dims = element_shape.dims if element_shape is not None and element_shape.dims is not None else ()
        return np.zeros((0, *[d or 0 for d in dims]), element_dtype.as_numpy_dtype)
    try:
        return np.stack(items)
    except ValueError:
        shapes = sorted({v.shape for v in items})
        raise InvalidArgumentError(f"TensorArray stack: elements have different shapes {shapes}.",
                                   "TensorListStack") from None


def _list_spec(*_inputs, **_attrs) -> Spec:
    return Spec(variant, TensorShape(()))


TENSOR_LIST_NEW = defop("TensorListNew", _new, _list_spec)
TENSOR_LIST_WRITE = defop("TensorListWrite", _write, _list_spec)
TENSOR_LIST_READ = defop("TensorListRead", read_item,
                         lambda items, index, element_dtype, element_shape=None, from_end=False: Spec(
                             element_dtype, as_shape(element_shape)))
TENSOR_LIST_POP = defop("TensorListPop", pop_item,
                        lambda items, index, element_dtype, element_shape=None: [
                            _list_spec(), Spec(element_dtype, as_shape(element_shape))],
                        multi_output=True)
TENSOR_LIST_STACK = defop(
    "TensorListStack", stack_items,
    lambda items, element_dtype, element_shape: Spec(
        element_dtype, TensorShape(None) if element_shape is None or element_shape.dims is None
        else TensorShape((None, *element_shape.dims))))
TENSOR_LIST_SIZE = defop("TensorListSize", lambda items: np.int32(len(items)),
                         lambda items: Spec(dtypes.int32, TensorShape(())))
TENSOR_LIST_FROM_TENSOR = defop("TensorListFromTensor", lambda value: ListValue(value), _list_spec)



# --- ops that only gradients use: a list's gradient is a list, where None stands for zeros -----------------

def _add_lists(a, b):
    longer, shorter = (a, b) if len(a) >= len(b) else (b, a)
    summed = [x if y is None else y if x is None else _add_elements(x, y) for x, y in zip(longer, shorter)]
    return ListValue((*summed, *longer[len(shorter):]))


def _add_elements(x, y):
    return _add_lists(x, y) if isinstance(x, ListValue) else x + y


def _element(value):
    """A value to keep in a list: a list as it is, anything else as a NumPy array."""
    return value if isinstance(value, ListValue) else np.asarray(value)


def _zeros_like_element(like):
    return ListValue(()) if isinstance(like, ListValue) else np.zeros_like(like)


def _element_gradient(grads, index, like):
    """The gradient of the value written at `index`: that element of the list's gradient, or zeros."""
    index = int(index)
    found = grads[index] if 0 <= index < len(grads) else None
    return _zeros_like_element(like) if found is None else found


def _without_element(grads, index):
    """The gradient of the list a write replaced element `index` of: that element gets none."""
    index = int(index)
    if not 0 <= index < len(grads):
        return grads
    return ListValue(grads[:index] + (None,) + grads[index + 1:])


def _read_gradient(items, index, grad):
    """The gradient of a list `index` was read from: `grad` there, zeros elsewhere. `items` may be a list's
    gradient (TensorListElementGrad's rule reads one), which can be shorter than the list: lengthened."""
    index = int(index)
    out = [None] * max(len(items), index + 1)
    out[index] = _element(grad)
    return ListValue(out)


def _stack_gradient(grads, like):
    """The gradient of the tensor a list was made from: its elements' gradients stacked, zeros where none."""
    rows = [np.zeros_like(like[i]) if i >= len(grads) or grads[i] is None else grads[i] for i in range(len(like))]
    return np.stack(rows) if rows else np.zeros_like(like)


def _pop_gradient(rest_grads, element_grad, items, index):
    """The gradient of the list an element was popped from: `element_grad` back in its place."""
    index = int(index) % len(items)
    rest = tuple(rest_grads) + (None,) * (len(items) - 1 - len(rest_grads))
    return ListValue(rest[:index] + (_element(element_grad),) + rest[index:])


def _like_third(grads, index, like) -> Spec:
    return Spec(like.dtype, like.shape)


TENSOR_LIST_ZEROS = defop("TensorListZeros", lambda: ListValue(()), _list_spec,
                          doc="the zero gradient of a list: no element has a gradient")
TENSOR_LIST_ADD = defop("TensorListAdd", _add_lists, _list_spec, doc="two lists' gradients summed element by element")
TENSOR_LIST_ELEMENT_GRAD = defop("TensorListElementGrad", _element_gradient, _like_third)
TENSOR_LIST_WITHOUT_ELEMENT = defop("TensorListWithoutElement", _without_element, _list_spec)
TENSOR_LIST_READ_GRAD = defop("TensorListReadGrad", _read_gradient, _list_spec)
TENSOR_LIST_STACK_GRAD = defop("TensorListStackGrad", _stack_gradient,
                               lambda grads, like: Spec(like.dtype, like.shape))
TENSOR_LIST_POP_GRAD = defop("TensorListPopGrad", _pop_gradient, _list_spec)


# --- the gradient rules of the list ops (runtime/ops/gradients.py puts them in its table) -------------

def _list_write(grad, inputs, output, **attrs):
    items, index, value = inputs
    return (apply(TENSOR_LIST_WITHOUT_ELEMENT, grad, index), None,
            apply(TENSOR_LIST_ELEMENT_GRAD, grad, index, value))


def _list_read(grad, inputs, output, **attrs):
    items, index = inputs
    return apply(TENSOR_LIST_READ_GRAD, items, index, grad), None


def _list_pop(grads, inputs, outputs, **attrs):
    items, index = inputs
    return apply(TENSOR_LIST_POP_GRAD, grads[0], grads[1], items, index), None


def _list_stack(grad, inputs, output, **attrs):
    return (apply(TENSOR_LIST_FROM_TENSOR, grad),)


def _list_from_tensor(grad, inputs, output):
    return (apply(TENSOR_LIST_STACK_GRAD, grad, inputs[0]),)


def _list_element_grad(grad, inputs, output):
    grads, index, like = inputs
    return apply(TENSOR_LIST_READ_GRAD, grads, index, grad), None, None


def _list_read_grad(grad, inputs, output):
    items, index, value = inputs
    return None, None, apply(TENSOR_LIST_ELEMENT_GRAD, grad, index, value)


GRADIENT_RULES = {
    "TensorListWrite": _list_write,
    "TensorListRead": _list_read,
    "TensorListPop": _list_pop,
    "TensorListStack": _list_stack,
    "TensorListFromTensor": _list_from_tensor,
    "TensorListAdd": lambda grad, inputs, output: (grad, grad),
    "TensorListWithoutElement": lambda grad, inputs, output: (apply(TENSOR_LIST_WITHOUT_ELEMENT, grad, inputs[1]),
                                                           None),
    "TensorListElementGrad": _list_element_grad,
    "TensorListReadGrad": _list_read_grad,
    "TensorListStackGrad": lambda grad, inputs, output: (apply(TENSOR_LIST_FROM_TENSOR, grad), None),
}
