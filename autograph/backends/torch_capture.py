"""Closures for PyTorch's control-flow operators: find the tensors a branch uses, and pass them in.

`torch.cond` and `while_loop` trace their branch and body functions into
sub-graphs whose only inputs are the operands they are given; a tensor a
branch reads from its closure (`y` in `if c: z = y * 2`) must be an operand,
or the sub-graph would bake in the tensor's trace-time value. Converted code
is all closures, so the backend:

1. runs the branch once under `Recorder`, a `TorchFunctionMode` that notes
   every tensor an op reads which the branch did not make (its free tensors);
2. passes those as operands, and traces the branch again under `Substitute`,
   which swaps each free tensor for the operand the operator traced in its
   place.

Substitutions nest: a branch inside a branch resolves its free tensors through
the enclosing substitution, so the operands it passes are the enclosing
sub-graph's own inputs.
"""
from __future__ import annotations

import threading
from typing import Callable, Iterable

import torch
from torch.overrides import TorchFunctionMode
from torch.utils import _pytree as pytree

try:
    from torch.fx.experimental.proxy_tensor import disable_proxy_modes_tracing as _not_traced
except ImportError:                              # pragma: no cover - an older torch: the run is traced, then dead
    from contextlib import nullcontext as _not_traced

_local = threading.local()  # .active: this thread's Substitute modes in force, innermost last


def _active() -> list:
    try:
        return _local.active
    except AttributeError:
        _local.active = []
        return _local.active


def _tensors(tree) -> list:
    return [t for t in pytree.tree_leaves(tree) if isinstance(t, torch.Tensor)]


class Recorder(TorchFunctionMode):
    """Records the tensors that ops read but that were made neither by those ops nor given as `made`."""

    def __init__(self, made: Iterable[torch.Tensor] = ()):
        super().__init__()
        self._made: list = list(made)             # held, so their ids stay unique while recording
        self._made_ids = {id(t) for t in self._made}
        self.free: dict = {}

    def note(self, values) -> None:
        """Record the free tensors among `values` (a branch's outputs may be free tensors unchanged)."""
        for t in _tensors(values):
            if id(t) not in self._made_ids:
                self.free.setdefault(id(t), t)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        self.note((args, kwargs))
        out = func(*args, **kwargs)
        made = _tensors(out)
        self._made.extend(made)
        self._made_ids.update(id(t) for t in made)
        return out


class Substitute(TorchFunctionMode):
    """Replaces, in every op's arguments, each tensor of `mapping` (by identity) with its stand-in."""

    def __init__(self, originals: list, stand_ins: Iterable[torch.Tensor]):
        super().__init__()
        self.originals = originals                # held, so their ids stay unique
        self.mapping = {id(t): s for t, s in zip(originals, stand_ins)}

    def swap(self, value):
        return self.mapping.get(id(value), value) if isinstance(value, torch.Tensor) else value

    def __torch_function__(self, func, types, args=(), kwargs=None):
        args, kwargs = pytree.tree_map_only(torch.Tensor, self.swap, (args, kwargs or {}))
        return func(*args, **kwargs)

    def __enter__(self):
        _active().append(self)
        return super().__enter__()

    def __exit__(self, *exc):
        _active().remove(self)
        return super().__exit__(*exc)


def resolve(t: torch.Tensor) -> torch.Tensor:
    """`t` as the innermost sub-graph being traced sees it (its stand-in, if it was substituted)."""
    for mode in reversed(_active()):
        t = mode.swap(t)
    return t


def record(fn: Callable, made: Iterable[torch.Tensor] = ()):
    """Run `fn()` once, noting its free tensors: (its result, the free tensors in first-use order). The
    run is not recorded in the graph being traced (its ops would be dead code, some of them not pure)."""
    with _not_traced(), Recorder(made) as recorder:
        out = fn()
    recorder.note(out)
    return out, list(recorder.free.values())


def substituted(fn: Callable, originals: list) -> Callable:
    """`fn` taking `originals`' stand-ins as its trailing arguments, `fn(*leading)` seeing them instead."""
    k = len(originals)

    def run(*args):
        leading, stand_ins = (args[:-k], args[-k:]) if k else (args, ())
        with Substitute(originals, stand_ins):
            return fn(*leading)
    return run


def untraced(fn: Callable):
    """`fn()`, run without recording its ops in the graph being traced (autograph's `probe`)."""
    with _not_traced():
        return fn()
