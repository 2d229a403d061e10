"""`Variable`: mutable state that functions read and update in program order.

A Variable keeps its value in a `VariableHandle`; the ops that read and write
it take the handle as their `handle` attribute, so a function that uses a
Variable from its closure needs no special capture. Assignments replace the
handle's array (they never write into it), and keep the dtype and shape the
Variable was created with.
"""
from __future__ import annotations

import itertools
import weakref
from typing import Optional

import numpy as np

from runtime import dtypes
from runtime.errors import user_location
from runtime.errors import InvalidArgumentError
from runtime.graph import building
from runtime.interpret import replay
from runtime.ops import array_ops, extra_array_ops, nd_ops, operators
from runtime.ops import registry
from runtime.ops.registry import Spec, apply, defop
from runtime.shape import TensorShape
from runtime.tensor import Reference, SymbolicTensor, _numpy_repr, convert_to_tensor



_SERIALS = itertools.count()


class VariableHandle:
    """The storage of one Variable: its current value, dtype, shape and name."""

    __slots__ = ("value", "dtype", "shape", "name", "trainable", "owner", "serial", "__weakref__")

    def __init__(self, value: np.ndarray, name: str):
        self.serial = next(_SERIALS)   # the order of creation, which GradientTape.watched_variables lists
        self.value = value
        self.dtype = dtypes.from_numpy(value.dtype)
        self.shape = TensorShape(value.shape)
        self.name = name
        self.trainable = True   # GradientTape watches trainable variables it sees read
        self.owner = None       # a weak reference to the Variable, for GradientTape.watched_variables

    def __repr__(self) -> str:
        return f"<VariableHandle {self.name}>"


def _read(handle):
    return handle.value


def _check(handle, value, op_name):
    value = np.asarray(value)
    if value.shape != handle.value.shape:
        raise InvalidArgumentError(f"{op_name}: can't assign a value of shape {value.shape} to the variable "
                                   f"'{handle.name}' of shape {handle.value.shape}.", op_name)
    return value


def _assign(value, handle):
    value = np.asarray(value)
    if not handle.shape.is_compatible_with(TensorShape(value.shape)):   # a Variable(shape=...) may change shape
        raise InvalidArgumentError(f"AssignVariableOp: can't assign a value of shape {value.shape} to the "
                                   f"variable '{handle.name}' of shape {handle.shape}.", "AssignVariableOp")
    kept = value.dtype if value.dtype.kind == "S" else handle.value.dtype   # bytes of any width ('S1', 'S3')
    handle.value = value.astype(kept, copy=True)
    return handle.value


def _assign_add(delta, handle):   # the delta has the variable's shape, as TensorFlow's (no broadcasting)
    handle.value = handle.value + _check(handle, delta, "AssignAddVariableOp")
    return handle.value


def _assign_sub(delta, handle):
    handle.value = handle.value - _check(handle, delta, "AssignSubVariableOp")
    return handle.value


def _handle_spec(*_inputs, handle) -> Spec:
    return Spec(handle.dtype, handle.shape)


def _assignment_spec(op_name: str):
    """The variable's spec, once the value's static shape is known to fit it (so a function refuses it when
    traced, and jit_compile=True too)."""
    def infer(value, handle) -> Spec:
        if not value.shape.is_compatible_with(handle.shape):
            raise InvalidArgumentError(f"{op_name}: can't assign a value of shape {value.shape} to the variable "
                                       f"'{handle.name}' of shape {handle.shape}.", op_name)
        return _handle_spec(handle=handle)
    return infer


READ = defop("ReadVariableOp", _read, _handle_spec, stateful=True)
ASSIGN = defop("AssignVariableOp", _assign, _assignment_spec("AssignVariableOp"), stateful=True)
ASSIGN_ADD = defop("AssignAddVariableOp", _assign_add, _assignment_spec("AssignAddVariableOp"), stateful=True)
ASSIGN_SUB = defop("AssignSubVariableOp", _assign_sub, _assignment_spec("AssignSubVariableOp"), stateful=True)
ASSIGNMENTS = (ASSIGN, ASSIGN_ADD, ASSIGN_SUB)


def _held_read(value, handle):
    return value


def _held_read_spec(value, handle) -> Spec:
    return Spec(handle.dtype, handle.shape)


# What a gradient rule's replay of a graph reads instead of a Variable it holds as a value
# (runtime/ops/held_variables.py): its input, the value the read saw in the forward pass. Tapes take its
# output as a read of `handle`, so gradients reach the Variable and not what computed the value.
HELD_READ = defop("HeldVariableRead", _held_read, _held_read_spec,
                  doc="inputs[0], the value a read of the Variable `handle` saw; tapes take it as a read of it")


class Variable:
    """A mutable tensor (TensorFlow's `tf.Variable`)."""

    def __init__(self, initial_value, dtype=None, name: Optional[str] = None, trainable: bool = True, *,
                 shape=None, validate_shape: bool = True):
        """As TensorFlow's; `shape` (a TensorShape or list, None for a dimension that may change) lets
        `assign` give the Variable values of other shapes compatible with it. `validate_shape=False` changes
        nothing here: an initial value's shape is always known (TensorFlow 2's eager Variable keeps it too)."""
        if registry.context.graph is not None:
            check_variable_creation()
        elif registry.context.suspended is not None:
            _count_lifted_creation(registry.context.suspended)
        if callable(initial_value):
            initial_value = initial_value()
        value = convert_to_tensor(initial_value, dtype=dtype) if not isinstance(initial_value, Variable) \
            else initial_value.read_value()
        if isinstance(value, SymbolicTensor):
            value = initial_value_while_tracing(value)
        scoped = f"{registry.context.name_scope}{name or 'Variable'}:0"    # as TF 2: in its name scope, not unique
        self.handle = VariableHandle(np.array(value._value), scoped)
        if shape is not None:
            self.handle.shape = _declared_shape(shape, self.handle.shape)
        self.handle.trainable = trainable
        self.handle.owner = weakref.ref(self)

    @property
    def trainable(self) -> bool:
        return self.handle.trainable

    @property
    def dtype(self) -> dtypes.DType:
        return self.handle.dtype

    @property
    def shape(self) -> TensorShape:
        return self.handle.shape

    @property
    def name(self) -> str:
        return self.handle.name

    @property
    def ndim(self) -> int:
        return self.handle.shape.rank

    def read_value(self):
        return apply(READ, handle=self.handle)

    value = read_value

    def _as_tensor(self, dtype=None):
        if dtype is not None and dtypes.as_dtype(dtype) is not self.dtype:
            raise InvalidArgumentError(f"Variable '{self.name}' has dtype {self.dtype.name}, not "
                                       f"{dtypes.as_dtype(dtype).name}; use runtime.cast.")
        return self.read_value()

    def _update(self, op, value):
        value = convert_to_tensor(value, dtype_hint=self.dtype)
        if value.dtype is not self.dtype:
            raise InvalidArgumentError(f"{op.name}: variable '{self.name}' has dtype {self.dtype.name} but the "
                                       f"value is {value.dtype.name}; use runtime.cast.", op.name)
        if op is ASSIGN and not value.shape.is_compatible_with(self.shape):   # a ValueError, as TensorFlow's
            raise ValueError(f"{user_location()}: can't assign a value of shape {value.shape} to the variable "
                             f"'{self.name}' of shape {self.shape}. Give the Variable shape= with None for the "
                             "dimensions that may change (tf.Variable(x, shape=[None, 3])).")
        return apply(op, value, handle=self.handle)

    def assign(self, value, use_locking=None, name=None, read_value: bool = True):
        """Store `value`; returns the variable itself (None with read_value=False), as TensorFlow's does."""
        self._update(ASSIGN, value)
        return self if read_value else None

    def assign_add(self, delta, use_locking=None, name=None, read_value: bool = True):
        self._update(ASSIGN_ADD, delta)
        return self if read_value else None

    def assign_sub(self, delta, use_locking=None, name=None, read_value: bool = True):
        self._update(ASSIGN_SUB, delta)
        return self if read_value else None

    def _assign_slice(self, key, value, read_value: bool = True):
        """`self[key].assign(value)`: `value` (broadcast to the slice) in place of the elements `key` selects."""
        shape = self.shape.as_list()
        size = int(np.prod(shape, dtype=np.int64))
        selected = array_ops.reshape(array_ops.range(size), shape)[key]      # the flat positions the slice holds
        updates = extra_array_ops.broadcast_to(convert_to_tensor(value, dtype_hint=self.dtype), array_ops.shape(selected))
        flat = nd_ops.tensor_scatter_nd_update(array_ops.reshape(self.read_value(), [size]),
                                               array_ops.reshape(selected, [-1, 1]), array_ops.reshape(updates, [-1]))
        return self.assign(array_ops.reshape(flat, shape), read_value=read_value)

    def _getitem(self, key):
        """`v[key]`: the slice of its value, which `.assign` can change (see `Tensor.__getattr__`)."""
        sliced = self.read_value()[key]
        sliced._slice_of = (self, key)     # for `v[key].assign(value)`
        return sliced

    def scatter_nd_update(self, indices, updates, name=None):
        """Store `updates` at `indices` (`tensor_scatter_nd_update` of the value); returns the variable."""
        return self.assign(nd_ops.tensor_scatter_nd_update(self.read_value(), indices, updates), name=name)

    def scatter_nd_add(self, indices, updates, name=None):
        return self.assign(nd_ops.tensor_scatter_nd_add(self.read_value(), indices, updates), name=name)

    def scatter_nd_sub(self, indices, updates, name=None):
        return self.assign(nd_ops.tensor_scatter_nd_sub(self.read_value(), indices, updates), name=name)

    def numpy(self):
        value = self.handle.value
        return value[()] if value.ndim == 0 else value.copy()

    def __array__(self, dtype=None, copy=None):
        value = np.array(self.handle.value)
        return value if dtype is None else value.astype(dtype)

    def __bool__(self) -> bool:
        return bool(self.read_value())

    def __int__(self) -> int:
        return int(self.read_value())

    def __float__(self) -> float:
        return float(self.read_value())

    def __index__(self) -> int:
        return self.read_value().__index__()

    def __len__(self) -> int:
        return len(self.read_value())

    def __iter__(self):
        return iter(self.read_value())

    def __format__(self, spec: str) -> str:
        return format(self.numpy(), spec)

    def __hash__(self):
        raise TypeError(f"Variable is unhashable. Instead, use variable.ref() as the key. (Variable: {self!r})")

    def ref(self):
        """A hashable reference to this Variable (`.deref()` gives it back), as `Tensor.ref`."""
        return Reference(self)

    experimental_ref = ref

    def __repr__(self) -> str:
        return f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}, numpy={_numpy_repr(self.numpy())}>"


def _declared_shape(shape, value_shape: TensorShape) -> TensorShape:
    declared = TensorShape(None) if shape is None else TensorShape(shape) if not isinstance(shape, TensorShape) \
        else shape
    if not declared.is_compatible_with(value_shape):
        raise ValueError(f"{user_location()}: a Variable's initial value has shape {value_shape}, which is not "
                         f"compatible with the shape {declared} it was given.")
    return declared


# --- Variables created while a function is traced ------------------------------------------

def check_variable_creation() -> None:
    """Called when a Variable is created while a graph is being built: refused on a trace after the first,
    and noted on the first (`runtime.function` then traces once more, where creating one again is refused)."""
    graph = registry.context.graph
    creation = getattr(graph, "variable_creation", None)
    if creation == "allowed":
        graph.created_variables = True
    elif creation == "again":
        raise ValueError(
            f"{user_location()}: a function decorated with runtime.function creates a Variable each time it is "
            "traced. As in TensorFlow, a function that created Variables on its first trace is traced once more "
            "and must not create them again: a graph can't make a fresh Variable on every call, as Python "
            "would. Create the Variable outside the function, or guard the creation (if self.v is None: ...).")
    elif creation == "second trace":
        raise ValueError(
            f"{user_location()}: a function decorated with runtime.function tried to create a Variable on a "
            "call that traced it again. Variables can be created on the first trace only: create them "
            "outside the function, or guard the creation (if self.v is None: ...).")


def _count_lifted_creation(graph) -> None:
    """A Variable made under `init_scope` while a function is traced (an optimizer's slots): as TensorFlow, it
    counts as the function's first trace creating Variables, so the function is traced once more (see
    `check_variable_creation`)."""
    while graph is not None and getattr(graph, "variable_creation", None) is None:
        graph = graph.outer_graph
    if graph is not None and graph.variable_creation == "allowed":
        graph.created_variables = True


def initial_value_while_tracing(value: SymbolicTensor):
    """The eager value of `value`, an initial value computed while a function is traced for a call.

    As in TensorFlow, a function may create Variables on its first trace only (typically guarded by
    `if self.v is None:`); the initializer runs once, now, on the call's own inputs."""
    graph = value.op.graph
    feeds = getattr(graph, "feeds", None)
    if feeds is None and getattr(graph, "variable_creation", None) == "allowed" and _without_inputs(value):
        feeds = []   # a constant initial value in the first trace of a function called by one being traced
    if graph is not registry.context.graph or feeds is None:
        raise ValueError(
            f"{user_location()}: a Variable's initial value must be known when it is created, but it is a "
            "symbolic tensor computed inside control flow or in a get_concrete_function trace. Create the "
            "Variable outside the function and pass it in or use it from the closure.")
    with building(None):
        return replay(graph, feeds, [value], with_effects=False)[0]


def _without_inputs(value: SymbolicTensor) -> bool:
    """Whether `value` is computed from constants only: no input or capture of its graph, no stateful op."""
    seen, todo = set(), [value.op]
    while todo:
        op = todo.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        if op.type == "Placeholder" or op.stateful:
            return False
        todo.extend(t.op for t in op.inputs)
    return True


operators.install(Variable, convert=lambda v: v.read_value())
Variable.__getitem__ = Variable._getitem     # after install, which gives the tensor's
