"""Data types, with TensorFlow 2's rules.

A `DType` is a singleton per type (`runtime.float32 is as_dtype('float32')`).
Python values get TensorFlow's defaults: a Python `float` is float32, an `int`
is int32, a `bool` is bool. Two tensors of different dtypes never promote
implicitly; a Python scalar combined with a tensor takes the tensor's dtype
when it converts exactly (see `runtime.tensor.convert_to_tensor`).
"""
from __future__ import annotations

import builtins
from dataclasses import dataclass
from functools import cached_property

import numpy as np


@dataclass(frozen=True, eq=False, repr=False)
class DType:
    """One tensor element type; compare with `is` or `==`."""

    name: str
    as_numpy_dtype: type

    @cached_property    # np.issubdtype costs microseconds, and ops ask on every call
    def is_floating(self) -> bool:
        return np.issubdtype(self.as_numpy_dtype, np.floating)

    @cached_property    # np.issubdtype costs microseconds, and ops ask on every call
    def is_integer(self) -> bool:
        return np.issubdtype(self.as_numpy_dtype, np.integer)

    @cached_property    # np.issubdtype costs microseconds, and ops ask on every call
    def is_unsigned(self) -> bool:
        return np.issubdtype(self.as_numpy_dtype, np.unsignedinteger)

    @property
    def is_bool(self) -> bool:
        return self.as_numpy_dtype is np.bool_

    @cached_property    # np.issubdtype costs microseconds, and ops ask on every call
    def is_complex(self) -> bool:
        return np.issubdtype(self.as_numpy_dtype, np.complexfloating)

    @property
    def is_string(self) -> bool:
        return self.as_numpy_dtype is np.bytes_

    @property
    def is_numeric(self) -> bool:
        return not (self.is_bool or self.is_string)

    @property
    def real_dtype(self) -> "DType":
        """float32 for complex64, float64 for complex128, the dtype itself otherwise (TensorFlow's name)."""
        return {"complex64": float32, "complex128": float64}.get(self.name, self)

    @property
    def size(self) -> int:
        """Bytes per element (TensorFlow's `DType.size`; a string tensor's element is a pointer: 8)."""
        return np.dtype(self.as_numpy_dtype).itemsize

    @property
    def min(self):
        self._check_ordered("min")
        info = np.finfo if self.is_floating else np.iinfo
        return info(self.as_numpy_dtype).min

    @property
    def max(self):
        self._check_ordered("max")
        info = np.finfo if self.is_floating else np.iinfo
        return info(self.as_numpy_dtype).max

    def _check_ordered(self, what: str) -> None:
        if self.is_complex or self.is_string:
            raise TypeError(f"{self.name} has no {what}: its values are not ordered.")

    def __eq__(self, other) -> bool:
        if isinstance(other, DType):
            return self is other
        try:
            return self is as_dtype(other)
        except TypeError:
            return NotImplemented

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: '{self.name}'>"  # what print(tf.float32) shows in TensorFlow

    def __reduce__(self):
        return as_dtype, (self.name,)


float16 = DType("float16", np.float16)
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
uint8 = DType("uint8", np.uint8)
uint16 = DType("uint16", np.uint16)
uint32 = DType("uint32", np.uint32)
uint64 = DType("uint64", np.uint64)
bool = DType("bool", np.bool_)  # noqa: A001 - TensorFlow's name
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)
string = DType("string", np.bytes_)  # values are NumPy bytes arrays (kind 'S'); numpy() gives bytes objects
half, double = float16, float64

ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool, complex64, complex128,
       string)
variant = DType("variant", np.object_)   # a TensorArray's value in a graph; not a user dtype
_BY_NAME = {d.name: d for d in ALL}
_BY_NUMPY = {np.dtype(d.as_numpy_dtype): d for d in ALL}
_BY_PYTHON = {builtins.float: float32, builtins.int: int32, builtins.bool: bool, builtins.complex: complex128,
              builtins.str: string, builtins.bytes: string}


def as_dtype(value) -> DType:
    """Return the `DType` for a DType, a name, a NumPy dtype or a Python type."""
    if isinstance(value, DType):
        return value
    if isinstance(value, str) and value in _BY_NAME:
        return _BY_NAME[value]
    if value in _BY_PYTHON:
        return _BY_PYTHON[value]
    try:
        found = _BY_NUMPY.get(np.dtype(value)) or _string_kind(np.dtype(value))
    except TypeError:
        found = None
    if found is None:
        names = ", ".join(_BY_NAME)
        raise TypeError(f"Cannot convert {value!r} to a runtime dtype; supported dtypes are {names}.")
    return found


def _string_kind(np_dtype: np.dtype):
    """`string` for NumPy's bytes and str dtypes of any width ('S3', '<U5'), else None."""
    return string if np_dtype.kind in "SU" else None


def from_numpy(np_dtype: np.dtype) -> DType:
    """The DType of a NumPy dtype, or a TypeError naming what is supported."""
    found = _BY_NUMPY.get(np_dtype) or _string_kind(np_dtype)
    if found is None:
        return as_dtype(np_dtype)
    return found


def __getattr__(name: str):
    """`tf.dtypes.cast`, `complex` and `saturate_cast`: ops, imported on first use (the ops import this module)."""
    if name in ("cast", "saturate_cast", "complex"):
        from runtime.ops import complex_ops, extra_math, math_ops
        return {"cast": math_ops.cast, "saturate_cast": extra_math.saturate_cast, "complex": complex_ops.complex}[name]
    raise AttributeError(f"module 'runtime.dtypes' has no attribute '{name}'")
