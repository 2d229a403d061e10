"""Tensors: the eager kind that holds a NumPy value, and the symbolic kind that
stands for an op's output in a graph being traced.

Python operators (`+`, `@`, `<`, `[]`, ...) are installed on `Tensor` by
`runtime.ops.operators`, so both kinds share them. Conversions from Python
values follow TensorFlow 2: `float` → float32, `int` → int32, `bool` → bool,
NumPy values keep their dtype, and a Python scalar next to a tensor takes the
tensor's dtype when it converts exactly.
"""
from __future__ import annotations

import numbers
from typing import Optional

import numpy as np

from runtime import dtypes
from runtime.carried_values import CarriedPythonValue
from runtime.errors import (InvalidArgumentError, NoValueInGraphError, OperatorNotAllowedInGraphError, user_frame,
                            user_location)
from runtime.shape import TensorShape, as_shape


class Tensor:
    """Base class of `EagerTensor` and `SymbolicTensor` (use it in isinstance)."""

    __slots__ = ()
    __array_priority__ = 100  # NumPy defers `ndarray + Tensor` to Tensor.__radd__

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def ndim(self) -> Optional[int]:
        return self.shape.rank

    def get_shape(self) -> TensorShape:
        return self.shape

    def __hash__(self):
        """A tensor's `==` is elementwise, so it is not hashable (TensorFlow's rule): a set or dict of tensors would
        find them by identity, not by value. Key by `t.ref()`."""
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    @property
    def assign(self):
        """`v[key].assign(value)`: a slice of a Variable (`_slice_of`, set by `Variable.__getitem__`) assigns to
        those elements of it, as TensorFlow's; other tensors have no `assign` (`hasattr` answers False). A
        property, not `__getattr__`, so that other attribute lookups on tensors stay fast."""
        try:
            variable, key = self._slice_of
        except AttributeError:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute 'assign'") from None
        return lambda value, name=None, read_value=True: variable._assign_slice(key, value, read_value)

    def ref(self) -> "Reference":
        """A hashable reference to this tensor, equal only to references to the same tensor (`.deref()` gives it)."""
        return Reference(self)

    experimental_ref = ref


class Reference:
    """What `Tensor.ref()` and `Variable.ref()` give: hashable, equal when it wraps the same object."""

    __slots__ = ("_wrapped",)

    def __init__(self, wrapped):
        self._wrapped = wrapped

    def deref(self):
        return self._wrapped

    def __hash__(self) -> int:
        return id(self._wrapped)

    def __eq__(self, other) -> bool:
        return isinstance(other, Reference) and other._wrapped is self._wrapped

    def __repr__(self) -> str:
        return f"<Reference wrapping {self._wrapped!r}>"


class EagerTensor(Tensor):
    """A tensor with a value: a NumPy array or NumPy scalar, never mutated."""

    __slots__ = ("_value", "_dtype", "_slice_of")

    def __init__(self, value, dtype=None):
        array = np.asarray(value) if dtype is None else np.asarray(value, dtypes.as_dtype(dtype).as_numpy_dtype)
        array = as_bytes(array)
        self._value = array
        self._dtype = dtypes.from_numpy(array.dtype)

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._value.shape)

    @property
    def ndim(self) -> int:
        return self._value.ndim

    def numpy(self):
        """The value as a NumPy array of its own (a NumPy scalar for a 0-d tensor; for strings, as TensorFlow
        gives them, `bytes` or an object array of `bytes`): a copy, as TensorFlow's, so that changing it does
        not change the tensor."""
        value = self._value
        if self._dtype is dtypes.string:
            return _strings_as_objects(value)
        return value[()] if value.ndim == 0 else value.copy()

    def __array__(self, dtype=None, copy=None):
        """A read-only view (TensorFlow's too), or a copy where one is asked for: NumPy reads the tensor's
        values without a copy, and nothing writes to them through it."""
        if self._dtype is dtypes.string:
            value = np.asarray(self.numpy(), object)
        elif copy:
            value = self._value.copy()
        else:
            value = np.asarray(self._value).view()
            value.flags.writeable = False
        return value if dtype is None else value.astype(dtype)

    def __bool__(self) -> bool:
        if self._value.size != 1:
            raise ValueError(
                f"The truth value of a tensor of shape {self.shape} is ambiguous; "
                "use runtime.reduce_any or runtime.reduce_all.")
        return bool(self._value)

    def __index__(self) -> int:
        if not self._dtype.is_integer or self._value.size != 1:
            raise TypeError(f"Only a scalar integer tensor can be used as an index, not {self!r}.")
        return int(self._value)

    def __int__(self) -> int:
        return int(self._value)

    def __float__(self) -> float:
        return float(self._value)

    def __len__(self) -> int:
        if self._value.ndim == 0:
            raise TypeError("len() of a scalar tensor is not defined.")
        return len(self._value)

    def __iter__(self):
        if self._value.ndim == 0:
            raise TypeError("Cannot iterate over a scalar tensor.")
        from runtime.ops import registry  # import cycle: registry imports this module

        if registry.context.tapes:   # slices a tape records, so that gradients flow through the loop
            return (self[i] for i in range(len(self._value)))
        return (EagerTensor._from_numpy(v) for v in self._value)

    def __format__(self, spec: str) -> str:
        return format(self.numpy(), spec)

    def __repr__(self) -> str:
        return f"<tf.Tensor: shape={self.shape}, dtype={self._dtype.name}, numpy={_numpy_repr(self.numpy())}>"

    def __str__(self) -> str:
        value = self.numpy()
        text = str(value) if not isinstance(value, np.ndarray) else np.array2string(value, separator=" ")
        sep = "\n" if "\n" in text else ""
        return f"tf.Tensor({sep}{text}, shape={self.shape}, dtype={self._dtype.name})"

    @staticmethod
    def _from_numpy(value) -> "EagerTensor":
        t = object.__new__(EagerTensor)
        value = np.asarray(value)
        t._value = value
        t._dtype = dtypes.from_numpy(value.dtype)
        return t


def _strings_as_objects(value):
    value = np.asarray(value)
    return bytes(value[()]) if value.ndim == 0 else value.astype(object)


def as_bytes(array: np.ndarray) -> np.ndarray:
    """A NumPy str array ('<U3') as UTF-8 bytes ('S3'), how string tensors hold their values; others unchanged."""
    if array.dtype.kind == "U":
        return np.char.encode(array, "utf-8")
    if array.dtype == object and array.size and all(isinstance(v, (bytes, str)) for v in array.flat):
        return np.array([v.encode("utf-8") if isinstance(v, str) else v for v in array.flat],
                        dtype=bytes).reshape(array.shape)
    return array


def _numpy_repr(value) -> str:
    """The `numpy=` part of a tensor's or Variable's repr: on a line of its own when it has several, as TensorFlow."""
    if isinstance(value, np.ndarray):
        text = repr(value)
        return "\n" + text if "\n" in text else text
    return str(value)


class SymbolicTensor(CarriedPythonValue, Tensor):
    """An output of an op in a graph being traced; it has no value yet.

    Fields: `op` (the Operation), `value_index` (which output), dtype and a
    possibly partially known shape. Using it as a Python value raises
    `OperatorNotAllowedInGraphError`.
    """

    __slots__ = ("op", "value_index", "_dtype", "_shape", "_slice_of", "__weakref__")

    def __init__(self, op, value_index: int, dtype: dtypes.DType, shape):
        self.op = op
        self.value_index = value_index
        self._dtype = dtype
        self._shape = shape if shape.__class__ is TensorShape else as_shape(shape)

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def graph(self):
        return self.op.graph

    @property
    def name(self) -> str:
        return f"{self.op.name}:{self.value_index}"

    def set_shape(self, shape) -> None:
        self._shape = as_shape(shape)

    def __repr__(self) -> str:
        return f"<tf.Tensor '{self.name}' shape={self._shape} dtype={self._dtype.name}>"

    def __str__(self) -> str:
        """As TensorFlow prints a graph tensor: `Tensor("x:0", shape=(2,), dtype=int32)`."""
        shape = "" if self._shape.rank is None else f", shape={self._shape}"   # of unknown rank: none, as TensorFlow
        return f'Tensor("{self.name}"{shape}, dtype={self._dtype.name})'

    def _not_allowed(self, what: str, instead: str, error: type = OperatorNotAllowedInGraphError):

        raise error(
            f"{user_location()}: {what} a symbolic tensor ({self.name}) is not allowed while tracing a function: "
            f"its value is only known when the graph runs. {instead}")

    def __bool__(self):
        from autograph.operators.function_scope import is_converted

        frame = user_frame()
        if frame is not None and is_converted(frame.f_code):   # AutoGraph is on: a construct it does not stage
            self._not_allowed("Using as a Python bool",
                              "AutoGraph stages `if`, `while`, `for`, `and`/`or`/`not` and `a if c else b` on a "
                              "tensor; this bool is asked for elsewhere (a comprehension's `if`, `min`/`max`, "
                              "`sorted`, `any`/`all`, `==` inside `in`, or a function it did not convert). Write "
                              "it as an `if` statement or a loop, or use tensor ops (runtime.where, "
                              "runtime.minimum, runtime.reduce_any).")
        self._not_allowed("Using as a Python bool",
                          "Let AutoGraph convert the `if`/`while` (runtime.function(autograph=True)), "
                          "or use runtime.cond / runtime.while_loop.")

    def __index__(self):
        self._not_allowed("Using as a Python index", "Use runtime.gather or tensor indexing instead.")

    def __int__(self):
        self._not_allowed("Converting to int", "Keep the value a tensor, e.g. runtime.cast(t, runtime.int32).")

    def __float__(self):
        self._not_allowed("Converting to float", "Keep the value a tensor, e.g. runtime.cast(t, runtime.float32).")

    @property
    def numpy(self):
        """Absent, as on TensorFlow's graph tensors (`hasattr(t, "numpy")` is False): asking for it says why."""
        self._not_allowed("Calling .numpy() on", "Return the tensor from the function and call .numpy() on the result.",
                          NoValueInGraphError)

    def __array__(self, dtype=None, copy=None):
        self._not_allowed("Converting to a NumPy array", "Use runtime ops inside the function.")

    def __len__(self) -> int:
        dims = self._shape.dims
        if dims is None or not dims or dims[0] is None:
            self._not_allowed("Taking len() of", "Use runtime.shape(t)[0] or runtime.size(t).")
        return dims[0]

    def __iter__(self):
        dims = self._shape.dims
        if dims is not None and not dims:
            self.python_type_error("'{kind}' object is not iterable")
            self.refuse_python("Iterating over", "Python iterates a str's characters, which the graph knows only "
                               "when it runs (runtime.strings.unicode_split gives them as a tensor).")
            raise TypeError("Cannot iterate over a scalar tensor.")   # as the eager tensor (and TensorFlow)
        if dims is None or dims[0] is None:
            self._not_allowed("Iterating over",
                              "Let AutoGraph convert the loop, or use runtime.range / runtime.while_loop.")
        return (self[i] for i in range(dims[0]))

    def __contains__(self, item):
        # without it, Python's `in` iterates, and replaces __iter__'s error by "argument of type ... is not iterable"
        self._not_allowed("Using `in` on", "Python's `in` needs a Python bool: write "
                          "runtime.reduce_any(tensor == value) for a tensor result.")


# --- conversion ----------------------------------------------------------------

def _python_kind(value, inside: bool = False) -> Optional[int]:
    """0 bool, 1 int, 2 float, 3 complex, 4 str or bytes for Python scalars and nested lists/tuples of them;
    `_EMPTY` for lists with no value in them (`[]`, `[[], []]`), which fit any dtype and default to float32,
    as in TensorFlow. None for anything else, and for lists that mix strings and numbers. NumPy scalars and
    arrays keep their own dtype, but `inside` a list they count by kind, as TensorFlow's: `[np.int64(1), 2]` is
    int32 (the list's float dtype is its first value's: `first_float_dtype`)."""
    if isinstance(value, (np.generic, np.ndarray)):
        return _NUMPY_KINDS.get(value.dtype.kind) if inside else None
    if isinstance(value, bool):
        return 0
    if isinstance(value, numbers.Integral):
        return 1
    if isinstance(value, numbers.Real):
        return 2
    if isinstance(value, numbers.Complex):
        return 3
    if isinstance(value, (str, bytes)):
        return _STRING
    if isinstance(value, (list, tuple)):
        kinds = [_python_kind(v, inside=True) for v in value]
        if None in kinds or (_STRING in kinds and set(kinds) - {_STRING, _EMPTY}):
            return None
        return max(kinds, default=_EMPTY)
    return None


_EMPTY, _STRING = -1, 4
_NUMPY_KINDS = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3, "S": _STRING, "U": _STRING}


def first_float_dtype(value) -> dtypes.DType:
    """The dtype of a list of numbers with a float in it, as TensorFlow infers it: its first value's, when that is a
    NumPy float (`[np.float64(1), 2.0]` is float64), else float32 (`[1.0, np.float64(2)]`, `[1, np.float16(2)]`)."""
    while type(value) in (list, tuple) and value:
        value = value[0]
    if isinstance(value, (np.floating, np.ndarray)) and value.dtype.kind == "f":
        return dtypes.from_numpy(value.dtype)
    return dtypes.float32
_DEFAULT_FOR_KIND = {_EMPTY: dtypes.float32, 0: dtypes.bool, 1: dtypes.int32, 2: dtypes.float32,
                     3: dtypes.complex128, _STRING: dtypes.string}


def _dtype_accepts_kind(dtype: dtypes.DType, kind: int) -> bool:
    if kind == _EMPTY:
        return True
    if dtype.is_bool:
        return kind == 0
    if dtype.is_string:
        return kind == _STRING
    if dtype.is_integer:
        return kind == 1
    if dtype.is_complex:
        return kind in (1, 2, 3)
    return kind in (1, 2)


def to_numpy(value, dtype: Optional[dtypes.DType] = None, *, exact: bool = True) -> np.ndarray:
    """A NumPy array for a Python or NumPy value, with TensorFlow's dtype rules.

    With `exact`, a Python value must fit `dtype` without changing kind
    (no float into an int tensor, no int that overflows)."""
    kind = _python_kind(value)
    if kind is None:
        array = np.array(value)     # a copy of an array or buffer: changing it later does not change the tensor
        if array.dtype.kind == "U" and type(value) in (list, tuple):
            raise TypeError(f"Cannot convert {short_repr(value)} to a tensor: it mixes strings and other values.")
        array = as_bytes(array)
        if array.dtype == object:
            raise TypeError(f"Cannot convert {value!r} to a tensor: its elements are not numbers, bools or "
                            "strings of one kind (nested lists must be rectangular and hold only those).")
        if dtype is not None and array.dtype != dtype.as_numpy_dtype:
            array = array.astype(dtype.as_numpy_dtype)
        return array
    inferred = dtype is None
    if inferred:
        dtype = _DEFAULT_FOR_KIND[kind]
        if kind == 1:
            dtype = _int_dtype_for(value)
        elif kind == 2:
            dtype = first_float_dtype(value)
    elif exact and not _dtype_accepts_kind(dtype, kind):
        raise TypeError(f"Cannot convert {short_repr(value)} to a tensor of dtype {dtype.name}: "
                        f"a Python {['bool', 'int', 'float', 'complex', 'str'][kind]} does not convert exactly. "
                        f"Write a value of the right kind, or use runtime.cast.")
    if kind == _STRING:
        return _string_array(value)
    try:
        array = np.array(value, dtype=dtype.as_numpy_dtype)   # past float32's range: inf, as TensorFlow's
    except OverflowError:
        raise TypeError(f"Cannot convert {short_repr(value)} to a tensor of dtype {dtype.name}: out of range.") from None
    except ValueError:
        raise _not_rectangular(value) from None
    if inferred and kind == 2 and not np.isfinite(array).all() and overflows(value, dtype):
        raise ValueError(f"Cannot convert {short_repr(value)} to a tensor: a Python float in it is out of float32's "
                         "range (float32 is the default dtype for Python floats; pass dtype=float64 to keep it).")
    return array


def overflows(value, dtype: dtypes.DType) -> bool:
    """Whether a finite Python float in `value` is inf as `dtype` (a Python float never overflows to inf)."""
    if not dtype.is_floating:
        return False
    narrow = np.array(value, dtype=dtype.as_numpy_dtype)   # NumPy's overflow warning is filtered (runtime/__init__)
    return bool((np.isinf(narrow) & np.isfinite(np.array(value, dtype=np.float64))).any())


def _string_array(value) -> np.ndarray:
    """Nested lists of str (UTF-8 encoded) and bytes as a NumPy bytes array; `''` keeps its length-0 item."""
    def encode(v):
        if isinstance(v, (list, tuple)):
            return [encode(x) for x in v]
        return v.encode("utf-8") if isinstance(v, str) else v
    try:
        return np.array(encode(value), dtype=bytes)
    except ValueError as e:
        raise ValueError(f"Cannot convert {short_repr(value)} to a tensor: {e}. Nested lists must be rectangular.") \
            from None


def _int_dtype_for(value) -> dtypes.DType:
    """int32 unless a value needs int64, as TensorFlow does (NumPy integers in a list too)."""
    try:
        wide = np.array(value, dtype=np.int64)
    except OverflowError:
        return dtypes.int64      # past int64 too: converting says so
    except ValueError:
        raise _not_rectangular(value) from None
    fits = wide.size == 0 or (int(wide.min()) >= -2**31 and int(wide.max()) < 2**31)
    return dtypes.int32 if fits else dtypes.int64


def _not_rectangular(value) -> ValueError:
    return ValueError(f"Can't convert non-rectangular Python sequence to Tensor: {short_repr(value)} (nested lists "
                      "must all have the same length at each level).")


def short_repr(value) -> str:
    """`repr(value)`, cut to 40 characters, for error messages."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def constant(value, dtype=None, shape=None, name: Optional[str] = None) -> Tensor:
    """A tensor from a Python or NumPy value (TensorFlow's `tf.constant`)."""
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(value, EagerTensor):
        array = value._value if dtype in (None, value.dtype) else np.asarray(value._value).astype(dtype.as_numpy_dtype)
    elif _holds_staged_text(value):     # an f-string of traced tensors (in a list): formatted when the graph runs
        return convert_to_tensor(value, dtype=dtype, name=name)
    else:
        array = to_numpy(value, dtype)
    if shape is not None:
        array = _reshape_constant(array, shape)
    return _make_constant(array, name)


def is_staged_text(value) -> bool:
    """Is `value` autograph's f-string of traced tensors: a str that is also a tensor (`_as_tensor`)?"""
    return isinstance(value, str) and value.__class__ is not str and hasattr(value, "_as_tensor")


def _holds_staged_text(value) -> bool:
    """Is `value` such an f-string, or (while a graph is built: they exist only then) a list or tuple holding one?"""
    if type(value) not in (list, tuple):
        return is_staged_text(value)
    from runtime.ops import registry  # import cycle: registry imports this module

    return registry.context.graph is not None and any(_holds_staged_text(v) for v in value)


def _reshape_constant(array: np.ndarray, shape) -> np.ndarray:
    shape = tuple(as_shape(shape).as_list())
    if array.size == 1:
        return np.full(shape, array.reshape(()), dtype=array.dtype)
    if array.size != int(np.prod(shape)):
        raise TypeError(f"Cannot make a constant of shape {shape} from {array.size} values.")
    return array.reshape(shape)


def _make_constant(array: np.ndarray, name: Optional[str]) -> Tensor:
    from runtime.ops import registry  # import cycle: registry imports this module

    graph = registry.context.graph
    if graph is not None:
        if array.ndim == 0 and name is None:  # one Const per scalar value and dtype in a graph
            key = (array.dtype.str, array.tobytes())  # bytes: -0.0 and 0.0 stay apart
            found = graph.scalar_constants.get(key)
            if found is None:
                found = graph.scalar_constants[key] = registry.apply(registry.OPS["Const"], value=array)
            return found
        return registry.apply(registry.OPS["Const"], value=array, name=name)
    t = object.__new__(EagerTensor)
    t._value = array
    t._dtype = dtypes.from_numpy(array.dtype)
    return t


def is_carried_python_float(value) -> bool:
    """Whether `value` is a Python float a staged statement carries: a float64 marked by runtime/ops/python_ints.py
    (which takes the dtype a Python float would where it meets tensors)."""
    if value.__class__ is not SymbolicTensor or value.dtype is not dtypes.float64:
        return False
    found = value.op.graph.python_ints.get(id(value))
    return found is not None and found[2] in ("float", "int or float")


def _python_float_as(value, dtype):
    """A Python float a staged statement carries (a float64 marked by runtime/ops/python_ints.py) converted to the
    float `dtype` asked for, as TensorFlow converts a Python float (`ta.write(i, s)` of a float32 TensorArray,
    `v.assign(s)`, `tf.where(c, s, x)`, `tf.sqrt(s)`: float32)."""
    target = dtypes.as_dtype(dtype)
    if not target.is_floating or target is dtypes.float64 or not is_carried_python_float(value):
        return value
    from runtime.ops.math_ops import cast   # import cycle: the ops import this module

    return cast(value, target)


def convert_to_tensor(value, dtype=None, dtype_hint=None, name: Optional[str] = None) -> Tensor:
    """Return `value` as a Tensor (tensors pass through; Variables are read)."""
    if isinstance(value, Tensor):
        target = dtype if dtype is not None else dtype_hint
        if target is not None and value.__class__ is SymbolicTensor and value.dtype is dtypes.float64:
            value = _python_float_as(value, target)
        if dtype is not None and value.dtype is not dtypes.as_dtype(dtype):
            raise InvalidArgumentError(
                f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} for a tensor of dtype "
                f"{value.dtype.name}; use runtime.cast to change it.")
        return value
    convert = getattr(value, "_as_tensor", None)  # a Variable; autograph's f-string of traced tensors (None after
    if convert is not None:                       # its trace: then its text)
        converted = convert(dtype)
        if converted is not None:
            return converted
    if type(value) in (list, tuple) and (_python_kind(value) is None or _holds_staged_text(value)):
        from runtime.ops import packing  # import cycle: the ops import this module

        if packing.holds_tensor(value):  # TensorFlow's auto-packing: a Pack of the elements
            return convert_to_tensor(packing.pack(value, dtype or dtype_hint), dtype=dtype)
    if dtype is None and dtype_hint is not None:
        hinted = dtypes.as_dtype(dtype_hint)
        kind = _python_kind(value)
        if kind is not None and _dtype_accepts_kind(hinted, kind):
            dtype = hinted
    return constant(value, dtype=dtype, name=name)

