"""PyTorch's values as autograph/backends/staging.py sees them (`RULES`), and lists that change length.

`torch.cond` and PyTorch's `while_loop` carry only tensors, each of one dtype
and shape. A Python number is carried as a 0-d tensor (int64, the default
float dtype, bool), widened as the loop or the other branch needs (`total = 0`
before `total += x` carries x's dtype); its value must fit (300 is no int8, 0.5
no int64). A loop body that changes a list's length raises `ListResized`,
which the backend answers by unrolling a `for` loop whose number of iterations
is static.
"""
from __future__ import annotations

from typing import Optional

import torch
from torch.utils import _pytree as pytree

from autograph.backends import staging, torch_capture
from autograph.errors import StagingError, at_user_line

SCALARS = (bool, int, float, complex)


def number_dtype(value) -> torch.dtype:
    """The dtype a Python number is lifted to: bool, int64, the default float dtype, or complex."""
    if value.__class__ is bool:
        return torch.bool
    if isinstance(value, int):
        return torch.int64
    return torch.get_default_dtype() if isinstance(value, float) else torch.complex64


def lift(leaf, dtype: Optional[torch.dtype]) -> torch.Tensor:
    """A dynamic leaf as a tensor of `dtype` (a Python number becomes a fresh 0-d tensor)."""
    if isinstance(leaf, torch.Tensor):
        return leaf if dtype is None or leaf.dtype == dtype else leaf.to(dtype)
    dtype = dtype or number_dtype(leaf)
    if torch_capture.in_subgraph():        # a constant tensor in a branch or body breaks run_decompositions
        return torch.full((), leaf, dtype=dtype)
    return torch.tensor(leaf, dtype=dtype)   # leaves no op in the graph when an unrolled loop does not use it


def _kind(dtype: torch.dtype) -> str:
    return "b" if dtype == torch.bool else "c" if dtype.is_complex else "f" if dtype.is_floating_point else "i"


# Does the Python number keep its value as `dtype`? A bool does as any number (True is 1, as torch.where makes
# it); the others as staging.number_kept says.
_takes = staging.number_takes(_kind, lambda d: (torch.iinfo(d).min, torch.iinfo(d).max),
                              lambda n, d: torch.tensor(n, dtype=d).item())


def _promote(a: torch.dtype, b: torch.dtype) -> torch.dtype:
    return torch.promote_types(a, b)


RULES = staging.LeafRules(
    framework="PyTorch", is_tensor=lambda v: isinstance(v, torch.Tensor),
    flatten=pytree.tree_flatten, unflatten=lambda spec, leaves: pytree.tree_unflatten(leaves, spec),
    number_dtype=number_dtype, dtype=lambda t: t.dtype,
    shape=lambda t: tuple(d if isinstance(d, int) else None for d in t.shape),   # symbolic sizes: torch decides
    lift=lift, takes=_takes, promote=_promote, scalars=SCALARS,
    describe_dtype=lambda d: str(d).removeprefix("torch."), cast_hint="cast one of them with .to(...)",
    loop_shape_hint="PyTorch's while_loop needs every loop variable to keep its shape: preallocate it at its "
                    "final shape (torch.zeros) and fill it.")


def check_resized(new_layout: staging.Layout, layout: staging.Layout, construct: str) -> None:
    """A loop body that makes a list of the loop's state longer or shorter raises `ListResized`."""
    for name, a, b in zip(layout.names, layout.treedefs, new_layout.treedefs):
        if a != b and (lengths := _resized_list(a, b)):
            raise ListResized(name, a.type is list, *lengths, construct)


def _resized_list(a: pytree.TreeSpec, b: pytree.TreeSpec) -> Optional[tuple]:
    """(length before, length after) of a list that `b` has longer or shorter than `a`, at any depth, when
    that is where the two structures first differ."""
    if a.type is list and b.type is list and a.num_children != b.num_children:
        return a.num_children, b.num_children
    if a.type is not b.type or a.context != b.context or a.num_children != b.num_children:
        return None
    return next((_resized_list(x, y) for x, y in zip(a.children(), b.children()) if x != y), None)


_PREALLOCATE = "preallocate a tensor (torch.zeros) and fill it, or stack the values with torch.cat"


class ListResized(StagingError):
    """A loop body made a list of the loop's state longer (`append`) or shorter (`pop`). A staged loop
    can't carry it; a `for` loop with a static number of iterations runs unrolled instead, and other
    loops raise `cannot_unroll`, which says why."""

    def __init__(self, name: str, top_level: bool, before: int, after: int, construct: str):
        self.what = f"the list '{name}'" if top_level else f"a list in '{name}'"
        self.before, self.after, self.construct = before, after, construct
        super().__init__(at_user_line(f"{self._changes()} The torch backend cannot change a list's length in a "
                                      f"staged loop: {_PREALLOCATE}."))

    def _changes(self) -> str:
        return (f"{self.what} changes length in {self.construct} over tensors ({self.before} elements before, "
                f"{self.after} after).")

    def cannot_unroll(self, why: str, fix: str) -> StagingError:
        """The error for a loop that can't be unrolled because `why`; `fix` is what to do other than preallocate."""
        return StagingError(at_user_line(
            f"{self._changes()} The torch backend changes a list's length only by unrolling the loop, which it "
            "does for a `for` over a tensor whose first dimension is static, without `break` or `return`; "
            f"this loop can't be unrolled: {why}. {fix}, or {_PREALLOCATE}."))
