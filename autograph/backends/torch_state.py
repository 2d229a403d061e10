"""The state that `torch.cond` and PyTorch's `while_loop` carry for converted code.

Converted code hands the PyTorch backend a tuple of the user's variables.
PyTorch's control-flow operators carry only tensors, so the state is
flattened with `torch.utils._pytree` into *dynamic* leaves (tensors, and
Python numbers lifted to 0-d tensors) and *static* leaves (strings, None,
functions, a Python value both branches agree on), which must come out of a
branch or a loop body unchanged. The checks here name the user's variable
when a loop changes a variable's dtype, shape or structure, or when the two
branches of an `if` disagree; a Python number in one branch takes the other
branch's dtype. A loop body that changes a list's length raises
`ListResized`, which the backend answers by unrolling a `for` loop whose
number of iterations is static.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

import torch
from torch.utils import _pytree as pytree

from autograph.backends.staging import same_static
from autograph.errors import StagingError, at_user_line

_NUMBERS = (bool, int, float)


class Retry(Exception):
    """Raised out of a traced branch or loop body when the state needs other dtypes: trace again."""

    def __init__(self, plan: tuple):
        super().__init__("retry with a new plan")
        self.plan = plan


@dataclass(frozen=True)
class Layout:
    """How a state tuple was flattened: per variable its pytree spec, and per leaf its variable's name."""

    names: tuple
    specs: tuple
    sizes: tuple
    leaf_names: tuple


def flatten(state: Sequence, names: Sequence[str]) -> tuple[list, Layout]:
    """The leaves of `state`, in order, and its layout."""
    names = tuple(names[i] if i < len(names) else f"value #{i}" for i in range(len(state)))
    specs, sizes, leaf_names, leaves = [], [], [], []
    for name, value in zip(names, state):
        flat, spec = pytree.tree_flatten(value)
        specs.append(spec)
        sizes.append(len(flat))
        leaf_names.extend([name] * len(flat))
        leaves.extend(flat)
    return leaves, Layout(names, tuple(specs), tuple(sizes), tuple(leaf_names))


def unflatten(leaves: Sequence, layout: Layout) -> tuple:
    out, at = [], 0
    for spec, size in zip(layout.specs, layout.sizes):
        out.append(pytree.tree_unflatten(list(leaves[at:at + size]), spec))
        at += size
    return tuple(out)


def check_structure(new_layout: Layout, layout: Layout, construct: str) -> None:
    for name, a, b in zip(layout.names, layout.specs, new_layout.specs):
        if a != b:
            raise StagingError(at_user_line(
                f"'{name}' changes structure in {construct} over tensors ({b} instead of {a}). Each variable must "
                "keep its structure (the same nesting of lists, tuples and dicts) on every path."))


def check_loop_structure(new_layout: Layout, layout: Layout, construct: str) -> None:
    """`check_structure` for the state a loop body gives back: a list that changes length is `ListResized`."""
    for name, a, b in zip(layout.names, layout.specs, new_layout.specs):
        if a != b and (lengths := _resized_list(a, b)):
            raise ListResized(name, a.type is list, *lengths, construct)
    check_structure(new_layout, layout, construct)


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


# --- dtypes ---------------------------------------------------------------------------------------

def number_dtype(value) -> torch.dtype:
    """The dtype a Python number is lifted to: bool, int64, or the default float dtype."""
    if value.__class__ is bool:
        return torch.bool
    return torch.int64 if isinstance(value, int) else torch.get_default_dtype()


def is_dynamic(leaf) -> bool:
    return isinstance(leaf, (torch.Tensor, *_NUMBERS))


def lift(leaf, dtype: Optional[torch.dtype]) -> torch.Tensor:
    """A dynamic leaf as a tensor of `dtype` (a Python number becomes a fresh 0-d tensor)."""
    if isinstance(leaf, torch.Tensor):
        return leaf
    return torch.tensor(leaf, dtype=dtype or number_dtype(leaf))


def describe(leaf) -> str:
    if isinstance(leaf, torch.Tensor):
        return f"a {str(leaf.dtype).removeprefix('torch.')} tensor of shape {tuple(leaf.shape)}"
    return f"the Python {type(leaf).__name__} {leaf!r}"


# --- if: which leaves are static, and the dtype of each dynamic one ------------------------------

STATIC = "static"


def branch_plan(first: Sequence, second: Sequence, names: Sequence[str]) -> tuple:
    """Per leaf: STATIC (both branches give the same Python value) or the dtype both must have."""
    return tuple(_leaf_plan(a, b, name) for a, b, name in zip(first, second, names))


def _leaf_plan(a, b, name: str):
    if not isinstance(a, torch.Tensor) and not isinstance(b, torch.Tensor) and same_static(a, b):
        return STATIC
    if not (is_dynamic(a) and is_dynamic(b)):
        raise StagingError(at_user_line(
            f"'{name}' is {describe(a)} in one branch of this tensor-dependent `if` and {describe(b)} in the "
            "other. torch.cond can only choose between tensors (or numbers): give it the same non-tensor value "
            "in both branches, or make it a tensor in both."))
    ta, tb = isinstance(a, torch.Tensor), isinstance(b, torch.Tensor)
    if ta and tb:
        if a.dtype != b.dtype:
            raise StagingError(at_user_line(
                f"'{name}' is {describe(a)} in one branch of this tensor-dependent `if` and {describe(b)} in "
                "the other. torch.cond needs the same dtype from both branches: cast one with .to(...)."))
        return a.dtype
    if ta or tb:
        return (a if ta else b).dtype
    return torch.promote_types(number_dtype(a), number_dtype(b))


def check_branch_shapes(first: Sequence, second: Sequence, names: Sequence[str]) -> None:
    """Branch outputs of different shapes: torch.cond's own error does not name the variable."""
    for a, b, name in zip(first, second, names):
        if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and _shapes_differ(a, b):
            raise StagingError(at_user_line(
                f"'{name}' is {describe(a)} in one branch of this tensor-dependent `if` and {describe(b)} in the "
                "other. torch.cond needs the same shape from both branches."))


def _shapes_differ(a: torch.Tensor, b: torch.Tensor) -> bool:
    if a.dim() != b.dim():
        return True
    for x, y in zip(a.shape, b.shape):
        if isinstance(x, int) and isinstance(y, int) and x != y:   # symbolic sizes: torch decides
            return True
    return False


# --- loops ----------------------------------------------------------------------------------------

def loop_plan(leaves: Sequence) -> tuple:
    """The initial plan of a loop: STATIC for non-numbers, else the leaf's dtype."""
    return tuple(leaf.dtype if isinstance(leaf, torch.Tensor) else number_dtype(leaf) if is_dynamic(leaf)
                 else STATIC for leaf in leaves)


def check_loop_leaf(new, old_value, carried: Optional[torch.Tensor], dtype, name: str, construct: str,
                    plan: tuple, index: int, from_number: bool) -> Any:
    """One leaf coming out of a loop body: the tensor to carry on (or the unchanged static value)."""
    if dtype == STATIC:
        if not same_static(new, old_value):
            raise StagingError(at_user_line(
                f"'{name}' changes from {describe(old_value)} to {describe(new)} in this tensor-dependent "
                f"{construct}. Only tensors and numbers can change in a staged loop: make it a tensor."))
        return new
    if not is_dynamic(new):
        raise StagingError(at_user_line(
            f"'{name}' changes from {describe(carried)} to {describe(new)} in this tensor-dependent {construct}."
            " A loop variable must stay a tensor of one dtype and shape."))
    if isinstance(new, torch.Tensor) and new.dtype != dtype:
        if from_number:        # `total = 0` before the loop, `total = total + x` in it: carry x's dtype
            raise Retry(plan[:index] + (torch.promote_types(dtype, new.dtype),) + plan[index + 1:])
        raise StagingError(at_user_line(
            f"'{name}' changes dtype from {str(dtype).removeprefix('torch.')} to "
            f"{str(new.dtype).removeprefix('torch.')} in this tensor-dependent {construct}. Cast it back with "
            ".to(...), or give it the right dtype before the loop."))
    tensor = lift(new, dtype)
    if _shapes_differ(tensor, carried):
        raise StagingError(at_user_line(
            f"'{name}' changes shape from {tuple(carried.shape)} to {tuple(tensor.shape)} in this "
            f"tensor-dependent {construct}. PyTorch's while_loop needs every loop variable to keep its shape."))
    return tensor
