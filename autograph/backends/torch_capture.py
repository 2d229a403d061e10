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

The operators also reject a branch or body that changes its inputs in place
(`steps += 1` on a carried tensor: "body_fn might be modifying the input!",
once functionalized by `run_decompositions`, `torch.compile` or ONNX export).
So both modes copy on write: an op that would change in place a tensor the run
did not make (`x += 1`, `x.add_(1)`, `x[i] = v`, `out=x`) changes a copy, which
stands in for that tensor for the rest of the run. `Recorder` reports the
tensors it copied (`Run.changed`), and the backend gives the new values back to
them after the operator, as Python's in-place update would have. A view of a
tensor from outside (`row = x[0]`) is taken again of the copy once `x` is
changed (`_Tracked.swap`), so it sees the change, and a change through it
changes a copy of `x`; where the run does not read `x` itself, that change is an
error that says what to write instead.

What a Python name refers to after a staged statement (a number, or a tensor a
staged `if` may have kept) is torch_aliasing.py's; the modes here call its rules
on every op a run makes.
"""
from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass
from typing import Callable, Iterable

import torch
from torch.overrides import TorchFunctionMode
from torch.utils import _pytree as pytree

from autograph.backends import torch_aliasing as aliasing
from autograph.backends import torch_index, torch_numbers
from autograph.backends.torch_aliasing import (  # noqa: F401 - the rules, as the backend calls them
    after_staging, all_of, is_number, kept_paths, kept_where, note_kept, note_number, note_partly_number, number_kinds,
    note_rebound, note_view_given, notes_kept, number_where, partly_in, partly_of, rebound_by_loop, rebound_from)
from autograph.errors import StagingError, at_user_line

try:
    from torch.fx.experimental.proxy_tensor import disable_proxy_modes_tracing as _no_proxy_modes
except ImportError:                              # pragma: no cover - an older torch: the run is traced, then dead
    from contextlib import nullcontext as _no_proxy_modes

_local = threading.local()  # .active: this thread's Substitute modes in force, innermost last


def _active() -> list:
    try:
        return _local.active
    except AttributeError:
        _local.active = []
        return _local.active


class _Tracked(TorchFunctionMode):
    """Swaps tensors for their stand-ins in every op's arguments, and copies on write (see the module's
    docstring) every tensor that the run did not make."""

    def __init__(self, originals: Iterable[torch.Tensor] = (), stand_ins: Iterable[torch.Tensor] = (),
                 made: Iterable[torch.Tensor] = ()):
        super().__init__()
        self.originals: list = list(originals)    # held, so their ids stay unique
        self.mapping = {id(t): s for t, s in zip(self.originals, stand_ins)}
        self._made: list = list(made)
        self._made_ids = {id(t) for t in self._made}
        self.copied: dict = {}                     # id(copy) -> (the tensor it stands for, the op that changed it)
        self._gathered: dict = {}                  # id(xs[i]) -> (xs[i], xs, key, dim): see torch_index.py
        self.kept: dict = {}                       # what an `if` inside the run may have kept: see note_kept
        self.partly: dict = {}                     # the numbers on some paths only it made: see partly_of
        self.rebound: dict = {}                    # id(new) -> (new, t): see note_rebound
        self._views: dict = {}                     # id(view) -> (base's stand-in, the view of it, view): swap
        self._seen: set = set()                    # the ids of the tensors the run's ops read
        self._stand_ins = {id(s) for s in self.mapping.values()}
        self.read_after_change: set = set()        # ids of views read after the run changed their base in place
        self._stale: set = set()                   # ids of rows `xs[i]` read before `xs` changed: _rows_stale
        self._rows_now: dict = {}                  # id(xs[i]) -> the row read again after `xs` changed
        for t in self.originals:                   # a stand-in for a number stands for it
            if id(t) in self.mapping and aliasing.is_number(t):
                aliasing.register_number(self.mapping[id(t)])

    def __enter__(self):
        if getattr(aliasing.local, "tracked", None) is None:
            aliasing.local.tracked = []
        aliasing.local.tracked.append(self)
        return super().__enter__()

    def __exit__(self, *exc):
        aliasing.local.tracked.remove(self)
        return super().__exit__(*exc)

    def swap(self, value):
        """`value` as the run sees it: its stand-in, or, for a view of a tensor from outside the run (`row =
        y[0]`) whose base has a stand-in (a copy once changed in place), the same view of that stand-in, so that
        it sees a change of `y` made in place in the run, and a change through it changes `y`, as in Python."""
        if not isinstance(value, torch.Tensor):
            return value
        if id(value) in self._rows_now or id(value) in self._stale:
            return self._current_row(value)
        base = base_of(value)
        if base is not None and id(base) in self.mapping and not gathered(value):
            if id(self.mapping[id(base)]) in self.copied:
                self.read_after_change.add(id(value))
            return self._view_of(value, self.mapping[id(base)])
        return self.mapping.get(id(value), value)

    def _view_of(self, view: torch.Tensor, base: torch.Tensor) -> torch.Tensor:
        """`view` (of a tensor from outside the run) taken again of `base`, its base's stand-in; made once
        for each stand-in."""
        made = self._views.get(id(view))
        if made is None or made[0] is not base:
            made = self._views[id(view)] = (base, _taken_again(view, base), view)
        return made[1]

    def _read(self, args, kwargs) -> None:
        """Called with each op's arguments as the run gives them, before any swap."""
        self._seen.update(id(t) for t in aliasing.tensors((args, kwargs)))

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        self._read(args, kwargs)
        partly = aliasing.partly_noted()
        if partly and args and getattr(func, "__name__", "") in aliasing.REBINDING:
            wheres = aliasing.partly_of(args[0])
            if wheres is not None:
                return self._rebind_partly(func.__name__, args, kwargs, wheres)
        named = (args, kwargs)
        changes = self.kept and aliasing.changed_in_place(getattr(func, "__name__", ""), args, kwargs)  # as the run
        if self.mapping or self._rows_now or self._stale:                                     # names it
            args, kwargs = pytree.tree_map_only(torch.Tensor, self.swap, (args, kwargs))
        given, func = func, aliasing.as_numbers(func, getattr(func, "__name__", ""), args)
        if func is not given:                      # `n += 1` on a number rebinds `n`
            changes = None
        name = getattr(func, "__name__", "")
        args = torch_numbers.python_operands(name, args, kwargs)
        target = aliasing.changed_in_place(name, args, kwargs)
        if target is not None:
            args, kwargs = self._before_change(target, name, args, kwargs)
        out = self._call(func, name, args, kwargs)
        out = aliasing.note_numbers(func, out, args, kwargs)
        if partly:
            aliasing.note_partly_made(func, out, *named, self.partly)
        self._note_made(aliasing.tensors(out))
        if target is not None and self._gathered:
            self._rows_stale(self.swap(target), target)
            if id(target) in self._gathered:
                self._write_gathered_back(target)
        if isinstance(changes, torch.Tensor):
            aliasing.reach_kept(self._named(changes), self.kept, self._reading, lambda t: self._writable(t, name))
        return out

    def _rebind_partly(self, name: str, args: tuple, kwargs: dict, wheres: tuple) -> torch.Tensor:
        """`n op= v` on `args[0]`, which stands for a number where all of `wheres` hold (as `_rebind_partly`
        outside runs): its copy (see above) gets `n op v` where it is a tensor."""
        t = args[0]
        number = aliasing.all_of([self._reading(w) for w in wheres])
        swapped, swapped_kwargs = pytree.tree_map_only(torch.Tensor, self.swap, (args, kwargs))
        new = aliasing.REBINDING[name](*swapped, **swapped_kwargs)
        self._note_made([new])
        if new.shape == t.shape and new.dtype == t.dtype:
            into = self._writable(t, name)
            into.copy_(torch.where(number, into, new))
            aliasing.reach_kept(self._named(t), self.kept, self._reading, lambda u: self._writable(u, name))
            not_number = torch.logical_not(number)   # made here, where this mode does not see it: noted as made,
            self._note_made([not_number])          # or a later read of it would take it for a free tensor
            aliasing.note_kept(new, t, not_number)
            self.rebound[id(new)] = (new, t)
        self.partly[id(new)] = (new, wheres)
        return new

    def _named(self, t: torch.Tensor) -> list:
        """`t` and, for a view, its base, and the tensors the run's code knows by them (a stand-in's)."""
        found = aliasing.changed_tensors(t)
        found += [o for o in self.originals if any(self.mapping.get(id(o)) is f for f in found)]
        return found

    def _reading(self, t: torch.Tensor) -> torch.Tensor:
        """`t` as an op the run reads it with would see it (noted as free if it is from outside the run)."""
        self._read((t,), {})
        return self.swap(t)

    def _writable(self, t: torch.Tensor, op: str) -> torch.Tensor:
        """The tensor to change for `t` (which an `if` may have kept, and `op` changed in place through
        the other name) in the run: its stand-in, or a copy (see above)."""
        t = self.swap(t)
        return self._before_change(t, op, (t,), {})[0][0]

    def _before_change(self, target: torch.Tensor, op: str, args: tuple, kwargs: dict) -> tuple:
        """The op's arguments with `target`, which it changes in place, replaced by a copy if the run did
        not make it; an error if it is a view of a tensor the run did not make."""
        base = base_of(target)
        if base is not None and not gathered(target):
            if id(base) in self._made_ids:
                return args, kwargs
            if id(base) not in self._seen and id(base) not in self.mapping and id(base) not in self._stand_ins:
                raise StagingError(at_user_line(
                    f"this statement changes part of a tensor in place (`{op}` on a view of it: `row = x[0]; row "
                    "+= 1`) in a branch or loop body on tensors, and the tensor comes from outside it and is not "
                    "otherwise read there; PyTorch's cond and while_loop can't change their inputs. Write the "
                    "update as an assignment to the tensor itself (`x[0] = x[0] + 1`), or clone it first (`x = "
                    "x.clone()`)."))
            copy = self._view_of(target, self._copy(base, op))    # `row = y[0]; row += 1`: `y` changes
            return pytree.tree_map_only(torch.Tensor, lambda t: copy if t is target else t, (args, kwargs))
        if id(target) in self._made_ids:
            return args, kwargs
        copy = self._copy(target, op)
        return pytree.tree_map_only(torch.Tensor, lambda t: copy if t is target else t, (args, kwargs))

    def _call(self, func, name: str, args: tuple, kwargs: dict):
        """`func(*args, **kwargs)`; indexing with a 0-d integer tensor through torch_index.py."""
        if name in ("__getitem__", "__setitem__") and len(args) >= 2 and isinstance(args[0], torch.Tensor):
            rewritten = torch_index.rewrite(args[0], args[1])
            if rewritten is not None:
                return self._index(name, args, *rewritten)
        return aliasing.run_op(func, args, kwargs)

    def _index(self, name: str, args: tuple, key: tuple, dim: int):
        if name == "__setitem__":
            return torch_index.setitem(args[0], key, dim, args[2])
        out = torch_index.getitem(args[0], key, dim)
        if out._is_view():                         # of the copy that advanced indexing made
            self._note_made([out._base])
        self._gathered[id(out)] = (out, args[0], key, dim)
        return out

    def _rows_stale(self, changed: torch.Tensor, row: torch.Tensor) -> None:
        """`changed` was changed in place (through `row`, when that is a row `xs[i]`): the rows read from it
        before are stale copies, where Python's rows are views that see the change (`r = xs[i]; xs[i] = 0`
        makes `r` 0). Each is read again where the run next uses it (`_current_row`)."""
        bases = {id(changed), id(base_of(changed))}
        for key, (_, source, _, _) in self._gathered.items():
            if key != id(row) and (id(self.swap(source)) in bases or id(source) in bases):
                self._stale.add(key)

    def _current_row(self, row: torch.Tensor) -> torch.Tensor:
        """The row `row` (`xs[i]`) stands for now: read again from `xs` if `xs` changed since it was read."""
        now = self._rows_now.get(id(row), row)
        if id(now) in self._stale:
            self._stale.discard(id(now))
            _, source, key, dim = self._gathered[id(now)]
            now = self._index("__getitem__", (self.swap(source), key), key, dim)
            self._note_made([now])
            self._rows_now[id(row)] = now
        return now

    def _write_gathered_back(self, row: torch.Tensor) -> None:
        """`row = xs[i]` changed in place: give `xs[i]` its new value (in a copy of `xs` if it is from outside)."""
        _, source, key, dim = self._gathered[id(row)]
        source = self.swap(source)
        if id(source) not in self._made_ids:
            source = self._copy(source, "an in-place change of xs[i]")
        torch_index.setitem(source, key, dim, row)
        self._rows_stale(source, row)

    def _note_made(self, tensors: list) -> None:
        self._made.extend(tensors)
        self._made_ids.update(id(t) for t in tensors)

    def _copy(self, target: torch.Tensor, op: str) -> torch.Tensor:
        """A copy of `target` (which the run did not make) that stands in for it from now on."""
        copy = target.clone()          # inside the handler: this mode is not in force, the clone is traced
        self.originals.append(target)
        for key, value in list(self.mapping.items()):
            if value is target:
                self.mapping[key] = copy
        self.mapping[id(target)] = copy
        self._note_made([copy])
        self.copied[id(copy)] = (target, op)
        return copy


class Recorder(_Tracked):
    """Records the tensors that ops read but that were neither made by those ops nor given as `inputs`."""

    def __init__(self, inputs: Iterable[torch.Tensor] = ()):
        super().__init__()
        self.inputs: list = list(inputs)          # held, so their ids stay unique
        self._input_ids = {id(t) for t in self.inputs}
        self.free: dict = {}

    def note(self, values) -> None:
        """Record the free tensors among `values` (a branch's outputs may be free tensors unchanged)."""
        for t in aliasing.tensors(values):
            if id(t) not in self._made_ids and id(t) not in self._input_ids:
                self.free.setdefault(id(t), t)

    def _read(self, args, kwargs) -> None:
        super()._read(args, kwargs)
        self.note((args, kwargs))

    def original(self, value):
        """`value` as the run's caller knows it: a copy made on write is the tensor it stands for."""
        while isinstance(value, torch.Tensor) and id(value) in self.copied:
            value = self.copied[id(value)][0]
        return value


class Substitute(_Tracked):
    """Replaces, in every op's arguments, each tensor of `mapping` (by identity) with its stand-in."""

    def __enter__(self):
        _active().append(self)
        return super().__enter__()

    def __exit__(self, *exc):
        _active().remove(self)
        return super().__exit__(*exc)


@contextlib.contextmanager
def _not_traced():
    """Ops run here are not recorded in the graph being traced. Nor are buffer assignments
    (`self.count += 1` on a module's buffer): `torch.export` maps each one to its graph node through a global
    buffer registration hook, which fails without a proxy mode ("proxy_mode must not be None"); the
    assignment that counts is made again when the statement is traced."""
    hooks = getattr(torch.nn.modules.module, "_global_buffer_registration_hooks", {})
    saved = dict(hooks)
    hooks.clear()
    try:
        with _no_proxy_modes():
            yield
    finally:
        hooks.update(saved)


def base_of(t: torch.Tensor):
    """The tensor `t` is a view of, or None. Read with the modes off: an enclosing mode would give its
    stand-in's base instead."""
    with torch._C.DisableTorchFunction():
        return t._base if t._is_view() else None


def _taken_again(view: torch.Tensor, base: torch.Tensor) -> torch.Tensor:
    """The view `view` is of its base, taken of `base`, a tensor of the same shape and strides."""
    old = base_of(view)
    if base.shape != old.shape or base.stride() != old.stride():
        return view._view_func(base)
    offset = view.storage_offset() - old.storage_offset() + base.storage_offset()
    return base.as_strided(view.shape, view.stride(), offset)


def tracking() -> bool:
    """Is a branch or loop body running under one of this module's modes?"""
    return bool(getattr(aliasing.local, "tracked", None))


def gathered(t: torch.Tensor) -> bool:
    """Is `t` a row `xs[i]` read with a staged counter (torch_index.py) in an enclosing run? Such a row is a
    copy that the run writes back into `xs` when it changes, so a branch may change it in place (on a copy,
    given back after the branch)."""
    return any(id(t) in mode._gathered for mode in getattr(aliasing.local, "tracked", ()))


def in_subgraph() -> bool:
    """Is a branch or loop body being traced into its operator's sub-graph?"""
    return bool(_active())


def resolve(t: torch.Tensor) -> torch.Tensor:
    """`t` as the innermost sub-graph being traced sees it (its stand-in, if it was substituted)."""
    for mode in reversed(_active()):
        t = mode.swap(t)
    return t


@dataclass
class Run:
    """What `record` saw: `fn`'s result (a copy made on write given as the tensor it stands for), the free
    tensors in first-use order, and `changed`: each tensor from outside that the run changed in place, with
    the copy holding its new value and the name of the first op that changed it; `kept`: what the `if`s in
    it may have kept (see note_kept); `partly`: the numbers on some paths only it made; `rebound`: what
    `n op= v` on those made (see note_rebound)."""

    out: object
    free: list
    changed: list      # [(tensor, its new value, op name)]
    kept: dict
    partly: dict
    rebound: dict
    read_after_change: set = frozenset()     # ids of views read after the run changed their base in place


def record(fn: Callable, inputs: Iterable[torch.Tensor] = ()) -> Run:
    """Run `fn()` once, noting its free tensors (other than `inputs`, the tensors the caller passes it) and
    what it changes in place (on copies). The run is not recorded in the graph being traced (its ops would be
    dead code, some of them not pure)."""
    with _not_traced(), Recorder(inputs) as recorder:
        out = fn()
        recorder.note(out)
        recorder.note([aliasing.partly_of(t) for t in aliasing.tensors(out)])   # read by `number_where` when traced
    changed = [(target, recorder.swap(target), op) for target, op in recorder.copied.values()]
    return Run(pytree.tree_map_only(torch.Tensor, recorder.original, out), list(recorder.free.values()), changed,
               recorder.kept, recorder.partly, recorder.rebound, recorder.read_after_change)


def substituted(fn: Callable, originals: list) -> Callable:
    """`fn` taking `originals`' stand-ins as its trailing arguments, `fn(*leading)` seeing them instead."""
    k = len(originals)

    def run(*args):
        leading, stand_ins = (args[:-k], args[-k:]) if k else (args, ())
        with Substitute(originals, stand_ins):
            return fn(*leading)
    return run


def untraced(fn: Callable):
    """`fn()`, run without recording its ops in the graph being traced (autograph's `probe`), and without
    changing the tensors it is given in place (it changes copies)."""
    with _not_traced(), _Tracked():
        return fn()
