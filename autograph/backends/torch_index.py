"""`xs[i]` and `xs[i] = v` where `i` is a 0-d integer tensor: the counter of a staged `for i in range(n)`.

PyTorch reads a 0-d integer tensor used as an index as a Python int
(`.item()`), which fails while tracing when its value depends on data ("Could
not extract specialized integer from data-dependent expression"). Inside the
branches and loop bodies the backend stages, `torch_capture`'s modes give such
indexing here instead: each 0-d integer tensor in the key becomes a one-element
index tensor (advanced indexing, which traces), and the size-1 dimension that
this adds is squeezed out again, so the result has the shape Python's `xs[int(i)]`
would have. Negative indices count from the end, and an index out of range
fails when the program runs, as PyTorch's indexing does.

The result of `xs[i]` is a copy, not a view: an in-place change of it (`row =
xs[i]; row += 1`, or `xs[i] += 1`) is written back into `xs[i]` at once, and
torch_capture reads it again where it is used after `xs` changed in place, as
Python's view would see the change.
"""
from __future__ import annotations

from typing import Optional

import torch


def _is_counter(k) -> bool:
    return isinstance(k, torch.Tensor) and k.dim() == 0 and not k.is_floating_point() and not k.is_complex() \
        and k.dtype != torch.bool


def _is_other_advanced(k) -> bool:
    return isinstance(k, (list, torch.Tensor)) and not _is_counter(k)


def rewrite(x: torch.Tensor, key) -> Optional[tuple]:
    """(the key with each 0-d integer tensor as a one-element index, the dimension that adds), or None when the
    key has no 0-d integer tensor or also holds other advanced indices (lists, tensors of indices or masks)."""
    parts = key if isinstance(key, tuple) else (key,)
    counters = [n for n, k in enumerate(parts) if _is_counter(k)]
    if not counters or any(_is_other_advanced(k) for k in parts):
        return None
    new = tuple(k.reshape(1) if n in counters else k for n, k in enumerate(parts))
    adjacent = counters == list(range(counters[0], counters[-1] + 1))
    return new, _dims_before(x, parts, counters[0]) if adjacent else 0


def _dims_before(x: torch.Tensor, parts: tuple, stop: int) -> int:
    """How many dimensions of the result the key's parts before `stop` produce."""
    consuming = sum(1 for k in parts if k is not None and k is not Ellipsis)
    dims = 0
    for k in parts[:stop]:
        if k is Ellipsis:
            dims += x.dim() - consuming
        elif k is None or isinstance(k, slice):
            dims += 1
    return dims


def getitem(x: torch.Tensor, new_key: tuple, dim: int) -> torch.Tensor:
    return x[new_key].squeeze(dim)


def setitem(x: torch.Tensor, new_key: tuple, dim: int, value) -> None:
    region = x[new_key]
    shape = region.shape[:dim] + region.shape[dim + 1:]
    x[new_key] = torch.as_tensor(value, dtype=x.dtype, device=x.device).expand(shape).unsqueeze(dim)
