"""TensorShape: a tuple of dimensions, any of which may be unknown (`None`).

A shape of unknown rank has `dims is None`. Shapes compare equal to tuples and
lists (`t.shape == (2, 3)`), as TensorFlow's do.
"""
from __future__ import annotations

from typing import Iterable, Optional


class TensorShape:
    """The (possibly partially known) shape of a tensor."""

    __slots__ = ("dims",)

    def __init__(self, dims: Optional[Iterable[Optional[int]]]):
        if isinstance(dims, TensorShape):
            dims = dims.dims
        self.dims = None if dims is None else tuple(None if d is None else int(d) for d in dims)

    @property
    def rank(self) -> Optional[int]:
        return None if self.dims is None else len(self.dims)

    ndims = rank

    def is_fully_defined(self) -> bool:
        return self.dims is not None and None not in self.dims

    def as_list(self) -> list:
        if self.dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self.dims)

    def num_elements(self) -> Optional[int]:
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self.dims:
            n *= d
        return n

    def is_compatible_with(self, other) -> bool:
        other = as_shape(other)
        if self.dims is None or other.dims is None:
            return True
        if len(self.dims) != len(other.dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self.dims, other.dims))

    def assert_is_compatible_with(self, other) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {as_shape(other)} are incompatible")

    def merge_with(self, other) -> "TensorShape":
        """The shape that keeps what each knows (TensorFlow's): `[2, None]` with `[None, 3]` is `[2, 3]`;
        a ValueError where they disagree."""
        other = as_shape(other)
        if self.dims is None or other.dims is None:
            return other if self.dims is None else self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape(b if a is None else a for a, b in zip(self.dims, other.dims))

    def concatenate(self, other) -> "TensorShape":
        other = as_shape(other)
        return TensorShape(None) if self.dims is None or other.dims is None else TensorShape(self.dims + other.dims)

    __add__ = concatenate

    def __radd__(self, other) -> "TensorShape":
        return as_shape(other).concatenate(self)

    def most_specific_compatible_shape(self, other) -> "TensorShape":
        """The shape that keeps what both agree on (used to relax retracing)."""
        other = as_shape(other)
        if self.dims is None or other.dims is None or len(self.dims) != len(other.dims):
            return TensorShape(None)
        return TensorShape(a if a == b else None for a, b in zip(self.dims, other.dims))

    def __len__(self) -> int:
        if self.dims is None:
            raise ValueError("Cannot take the length of a shape with unknown rank.")
        return len(self.dims)

    def __iter__(self):
        if self.dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self.dims)

    def __getitem__(self, key):
        if self.dims is None:
            return None if isinstance(key, int) else TensorShape(None)
        if isinstance(key, slice):
            return TensorShape(self.dims[key])
        return self.dims[key]

    def __eq__(self, other) -> bool:
        try:
            other = as_shape(other)
        except TypeError:
            return NotImplemented
        return self.dims == other.dims

    def __hash__(self) -> int:
        return hash(self.dims)

    def __repr__(self) -> str:
        return "TensorShape(None)" if self.dims is None else f"TensorShape({list(self.dims)})"

    def __str__(self) -> str:
        if self.dims is None:
            return "<unknown>"
        if len(self.dims) == 1:
            return f"({self.dims[0]},)"
        return "(" + ", ".join(str(d) for d in self.dims) + ")"


def as_shape(value) -> TensorShape:
    """A TensorShape from a TensorShape, a tuple/list of dims, or None (unknown)."""
    if isinstance(value, TensorShape):
        return value
    if value is None:
        return TensorShape(None)
    if isinstance(value, (tuple, list)):
        return TensorShape(value)
    raise TypeError(f"Cannot interpret {value!r} as a shape; use a tuple or list of ints (None for unknown).")
