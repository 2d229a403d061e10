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
them after the operator, as Python's in-place update would have. An in-place
change through a view of such a tensor (`row = x[0]; row += 1`) can't be
redirected to a copy, and is an error that says what to write instead.

After a staged statement, for the rest of the converted function (the
`_AfterStaging` mode), two of Python's answers need help:

- A Python number that a staged `if` or loop carries is a 0-d tensor from then
  on, and torch's `n += 1` changes a tensor in place, where Python rebinds `n`
  to a new number: after `m = n`, `m` would change too. So the backend
  registers each tensor that stands for a Python number (`note_number`), what
  is computed from such tensors alone (`n * 3`, `-n`) stands for one
  too, and `n op= v` on one is `n = n op v` (in the modes above as well). A
  function that makes a tensor of a number gives a tensor, as in Python
  (`torch.as_tensor(n)` is a new tensor, not `n`). A staged `if` that gives a number in one branch
  only (`if c: n = 1 else: n = x.sum()`) gives a tensor standing for one where
  that branch was taken (`note_partly_number`): `n += 1` rebinds `n` and changes
  the tensor in place where it is not a number. An in-place change of what a
  branch gave as a view it made of a tensor seen elsewhere (`n = y[0]`) is an
  error (`note_view_given`): it would not reach that tensor.
- A staged `if` whose branch kept a tensor from outside (`m = y; if c: y = y *
  2`) gives a new tensor, where Python's `y` is `m` itself when `c` is false.
  The backend notes that (`note_kept`), and an in-place change of either (or
  of a view of either: `r = y[0]; r += 1`) is given to the other where the
  branch that kept it was taken, and on from there (a later `if` may have
  kept it again); likewise after a staged loop that replaces a tensor from
  outside, where it ran no iteration.
"""
from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass
from typing import Callable, Iterable, Optional

import torch
from torch.overrides import TorchFunctionMode
from torch.utils import _pytree as pytree

from autograph.backends import torch_index
from autograph.errors import StagingError, at_user_line, user_location
from autograph.operators import function_scope

try:
    from torch.fx.experimental.proxy_tensor import disable_proxy_modes_tracing as _not_traced
except ImportError:                              # pragma: no cover - an older torch: the run is traced, then dead
    from contextlib import nullcontext as _not_traced
try:   # torch's error for Python meeting a traced value (`range(t)` in a function autograph does not convert)
    from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode as _DataDependent
except ImportError:                              # pragma: no cover - an older torch
    _DataDependent = ()

_local = threading.local()  # .active: this thread's Substitute modes in force, innermost last; .tracked: its
                            # _Tracked modes in force, innermost last; .numbers: the tensors standing for Python
                            # numbers, by id;
                            # .kept: id(t) -> [(t, other, where)], see note_kept; .after: this thread's
                            # _AfterStaging, while it is in force


def _active() -> list:
    try:
        return _local.active
    except AttributeError:
        _local.active = []
        return _local.active


def _tensors(tree) -> list:
    return [t for t in pytree.tree_leaves(tree) if isinstance(t, torch.Tensor)]


def _numbers() -> weakref.WeakValueDictionary:
    try:
        return _local.numbers
    except AttributeError:
        _local.numbers = weakref.WeakValueDictionary()
        return _local.numbers


def is_number(value) -> bool:
    """Does `value` stand for a Python number: a bool, int, float, or a tensor registered by `note_number`?"""
    if isinstance(value, torch.Tensor):
        return _numbers().get(id(value)) is value
    return value.__class__ in (bool, int, float)


def note_number(t) -> None:
    """Register `t`, a tensor a staged statement made of a Python number."""
    if isinstance(t, torch.Tensor):
        _numbers()[id(t)] = t
        after_staging()


def note_kept(t: torch.Tensor, original: torch.Tensor, where: torch.Tensor) -> None:
    """`t`, a staged `if`'s result, is `original` itself in Python where the 0-d bool `where` holds (the branch
    taken there kept it): an in-place change of either from now on is given to the other there (for the rest
    of the converted function, or of the branch or loop body being run, for an `if` inside one)."""
    if t.shape != original.shape or t.dtype != original.dtype:
        return
    tracked = getattr(_local, "tracked", None)
    if tracked:
        kept = tracked[-1].kept
    elif after_staging():
        kept = _local.kept
    else:
        return
    kept.setdefault(id(t), []).append((t, original, where))
    kept.setdefault(id(original), []).append((original, t, where))


def notes_kept() -> bool:
    """Will `note_kept` note what it is told: inside a branch or loop body, or with `_AfterStaging` in force?"""
    return bool(getattr(_local, "tracked", None)) or after_staging()


def kept_paths(kept: dict, start: torch.Tensor, goal: torch.Tensor) -> list:
    """The ways `start` may be `goal` by what `if`s kept (`kept`: see note_kept), each as the list of the
    conditions under which it is (`y` after `if a: if b: y = y * 2` is `y` before it where `~b`, or `~a`)."""
    paths, todo = [], [(start, [], {id(start)})]
    while todo:
        t, wheres, seen = todo.pop()
        for _, other, where in kept.get(id(t), ()):
            if other is goal:
                paths.append([*wheres, where])
            elif id(other) not in seen:
                todo.append((other, [*wheres, where], seen | {id(other)}))
    return paths


def kept_where(start: torch.Tensor, goal: torch.Tensor) -> Optional[torch.Tensor]:
    """Where `start` is `goal` by what the `if`s of the run being traced (a branch) kept: a 0-d bool, or None
    if nowhere."""
    tracked = getattr(_local, "tracked", None)
    where = None
    for wheres in kept_paths(tracked[-1].kept if tracked else {}, start, goal):
        path = wheres[0]
        for w in wheres[1:]:
            path = path & w
        where = path if where is None else where | path
    return where


def after_staging() -> bool:
    """Is `_AfterStaging` in force, entered now if need be? Not inside a branch or loop body, nor outside
    converted code."""
    if getattr(_local, "after", None) is None and not getattr(_local, "tracked", None):
        mode = _AfterStaging()
        if function_scope.enter_until_outermost_returns(mode):
            _local.after = mode
    return getattr(_local, "after", None) is not None


# `n op= v` on a tensor standing for a Python number (torch's `n.add_(v)`, `n.__iand__(v)`, ...): what Python
# does to the number, `n = n op v`
_REBINDING = {**{name: getattr(torch.Tensor, name[:-1]) for name in (
    "add_", "sub_", "mul_", "div_", "floor_divide_", "remainder_", "pow_")}, **{
    name: getattr(torch.Tensor, name.replace("__i", "__", 1)) for name in (
        "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__")}}


def _as_numbers(func, name: str, args: tuple):
    """`func` to run on `args`: an augmented assignment's in-place op on a number is its plain op."""
    if name in _REBINDING and args and is_number(args[0]):
        return _REBINDING[name]
    return func


# torch functions that make a tensor of a Python number (`torch.as_tensor(n)`), as they do in Python
_MAKE_TENSORS = frozenset({"as_tensor", "asarray", "tensor", "scalar_tensor", "full", "zeros_like", "ones_like",
                           "empty_like", "full_like", "rand_like", "randn_like", "randint_like"})


def _note_numbers(func, out, args: tuple, kwargs: dict):
    """`out` of `func`: an op on numbers alone gives a number (`n * 2`, `-n`, `max(n, 2)`, which export makes
    a clamp; and `n.to(...)`, which the backend uses), but a function that makes a tensor of one gives a
    tensor, as in Python: `torch.as_tensor(n)` is a new tensor (not `n` itself, which it returns for a 0-d
    tensor), and `+=` changes it in place."""
    if not isinstance(out, torch.Tensor) or not _numbers():
        return out
    given = _tensors((args, kwargs))
    if not given or not all(is_number(t) for t in given):
        return out
    if getattr(func, "__name__", "") not in _MAKE_TENSORS:
        _numbers()[id(out)] = out
    elif any(out is t for t in given):
        return out.clone()
    return out


def _changed_tensors(target: Optional[torch.Tensor]) -> list:
    """The tensors an in-place change of `target` changes: it, and its base if it is a view."""
    if target is None:
        return []
    return [target, target._base] if target._is_view() else [target]


def _reach_kept(changed: list, kept: dict, current: Callable = lambda t: t,
                writable: Callable = lambda t: t) -> None:
    """An in-place change of the tensors `changed` (see _changed_tensors) given to each tensor a staged `if`
    may have kept in their place (`kept`: see note_kept), and on from those to theirs (`m = y; if a: y = y *
    2` then `if b: y = y + 1`). `current(t)`: the tensor holding `t`'s value (or the condition `t`), and
    `writable(t)`: the one to change for `t`."""
    todo = list(changed)
    seen = {id(t) for t in todo}
    while todo:
        changed = todo.pop()
        for _, other, where in kept.get(id(changed), ()):
            if id(other) not in seen:
                seen.add(id(other))
                into = writable(other)
                into.copy_(torch.where(current(where), current(changed), into))
                todo.append(other)


class _AfterStaging(TorchFunctionMode):
    """For the rest of a converted function after a staged statement: augmented assignments to numbers
    rebind, and in-place changes reach what a staged `if` may have kept (see the module's docstring)."""

    def __enter__(self):
        _local.kept, _local.partly, _local.views = {}, {}, {}
        return super().__enter__()

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        if _local.views:
            _check_not_a_view_given(_changed_tensors(_changed_in_place(name, args, kwargs)))
        wheres = _partly(args[0]) if name in _REBINDING and args else None
        if wheres is not None:
            return _rebind_partly(_REBINDING[name](*args, **kwargs), args[0], wheres)
        func = _as_numbers(func, name, args)
        out = _note_numbers(func, _run(func, args, kwargs), args, kwargs)
        if _local.partly:
            _note_partly_made(func, out, args, kwargs, _local.partly)
        if _local.kept:     # (a number's `n += 1` ran as `n + 1` above: nothing was changed in place)
            _reach_kept(_changed_tensors(_changed_in_place(getattr(func, "__name__", ""), args, kwargs)),
                        _local.kept)
        return out

    def __exit__(self, *exc):
        _local.after = None
        _local.kept, _local.partly, _local.views = {}, {}, {}
        _numbers().clear()
        return super().__exit__(*exc)


def note_partly_number(t, number) -> None:
    """`t`, a staged `if`'s result, stands for a Python number where the 0-d bool `number` holds (or all of
    a tuple of them: one branch gave a number, `if c: n = 1 else: n = x.sum()`), and is a tensor elsewhere:
    `n += 1` on it rebinds `n` there, and changes the tensor in place elsewhere; what is computed from it and
    numbers alone (`n * 2`) is a number where it is (see `_partly`)."""
    if not isinstance(t, torch.Tensor):
        return
    wheres = number if isinstance(number, tuple) else (number,)
    tracked = getattr(_local, "tracked", None)
    if tracked:
        tracked[-1].partly[id(t)] = (t, wheres)
    elif after_staging():
        _local.partly[id(t)] = (t, wheres)


def _partly(t) -> Optional[tuple]:
    """The 0-d bools (as the code names them) where all of which `t` stands for a Python number, if it does
    on some paths only: noted by the run being traced that made it (`partly` of a `_Tracked`), by one
    enclosing it, or outside them (`_local.partly`). Each table maps id(t) -> (t, those bools)."""
    if not isinstance(t, torch.Tensor):
        return None
    for mode in reversed(getattr(_local, "tracked", None) or ()):
        entry = mode.partly.get(id(t))
        if entry is not None and entry[0] is t:
            return entry[1]
    entry = (getattr(_local, "partly", None) or {}).get(id(t))
    return entry[1] if entry is not None and entry[0] is t else None


def _partly_noted() -> bool:
    """Is any tensor noted as a number on some paths only (see `_partly`)?"""
    return bool(getattr(_local, "partly", None)) or any(m.partly for m in getattr(_local, "tracked", None) or ())


def _partly_given(args: tuple, kwargs: dict) -> tuple:
    """Where all the tensors among an op's arguments stand for numbers, when some do on some paths only and
    the others are numbers (the union of their `_partly` bools); () otherwise."""
    wheres: list = []
    for t in _tensors((args, kwargs)):
        if is_number(t):
            continue
        found = _partly(t)
        if found is None:
            return ()
        wheres += [w for w in found if not any(w is v for v in wheres)]
    return tuple(wheres)


def _note_partly_made(func, out, args: tuple, kwargs: dict, table: dict) -> None:
    """`out` of `func` on `args` (as the code names them) in `table`, if it stands for a number where they do
    (`k = n * 2`; not `torch.as_tensor(n)`: see `_note_numbers`)."""
    if isinstance(out, torch.Tensor) and getattr(func, "__name__", "") not in _MAKE_TENSORS and not is_number(out):
        wheres = _partly_given(args, kwargs)
        if wheres:
            table[id(out)] = (out, wheres)


def partly_of(t) -> Optional[tuple]:
    """The 0-d bools where all of which `t` stands for a Python number, if it does on some paths only."""
    return _partly(t)


def all_of(wheres) -> torch.Tensor:
    """The 0-d bool where all of `wheres` hold."""
    where = wheres[0]
    for w in wheres[1:]:
        where = where & w
    return where


def number_where(value):
    """Where `value` stands for a Python number, read by the branch or loop body being traced: True
    (everywhere), None (nowhere), or a 0-d bool tensor."""
    if is_number(value):
        return True
    wheres = _partly(value)
    if wheres is None:
        return None
    tracked = getattr(_local, "tracked", None)
    return all_of([tracked[-1]._reading(w) for w in wheres] if tracked else wheres)


def partly_in(run: "Run", value) -> Optional[tuple]:
    """`_partly(value)` for a value `run` gave: as that run noted it, or from outside it."""
    entry = run.partly.get(id(value)) if isinstance(value, torch.Tensor) else None
    return entry[1] if entry is not None and entry[0] is value else _partly(value)


def note_view_given(t: torch.Tensor) -> None:
    """`t`, a staged `if`'s result, is in Python a view a branch made of another tensor (`n = y[0]`) that is
    seen elsewhere: an in-place change of `t` from now on is an error (it would not reach that tensor)."""
    if _outside_runs(t):
        _local.views[id(t)] = t


def _outside_runs(t) -> bool:
    """Is `t` a tensor noted outside a branch or loop body, with `_AfterStaging` in force?"""
    return isinstance(t, torch.Tensor) and not getattr(_local, "tracked", None) and after_staging()


def _check_not_a_view_given(changed: list) -> None:
    if any(_local.views.get(id(t)) is t for t in changed):
        raise StagingError(at_user_line(
            "this statement changes in place a tensor that a branch of a staged `if` before it gave as a view "
            "of another tensor (`n = y[0]` in a branch); after the `if` it is a new tensor, and the change "
            "would not reach the other one. Change that tensor itself (`y[0] += 1` in the branch), or give "
            "a copy in the branch (`n = y[0].clone()`)."))


def _rebind_partly(new: torch.Tensor, t: torch.Tensor, wheres: tuple) -> torch.Tensor:
    """`n op= v` on `t`, which stands for a number where all of `wheres` hold: `new` (`t op v`) is `n` from
    now on; where `t` is a tensor, it is `t` itself in Python, changed in place."""
    if new.shape == t.shape and new.dtype == t.dtype:
        number = all_of(wheres)
        t.copy_(torch.where(number, t, new))
        _reach_kept([t], _local.kept)
        note_kept(new, t, ~number)
    _local.partly[id(new)] = (new, wheres)
    return new


def _run(func, args: tuple, kwargs: dict):
    """`func(*args, **kwargs)`, run by one of these modes: torch's data-dependent error, which names the
    innermost frame that called the op as the one that raised it (this one), gets a note naming the user's."""
    try:
        return func(*args, **kwargs)
    except _DataDependent as error:
        _note_user_line(error)
        raise


DATA_DEPENDENT_NOTE = "(autograph) a traced tensor is used as a Python value here"


def _note_user_line(error: Exception) -> None:
    where = user_location(2)
    if where is None or any(DATA_DEPENDENT_NOTE in note for note in getattr(error, "__notes__", ())):
        return
    error.add_note(at_user_line(
        f"{DATA_DEPENDENT_NOTE} (`range(t)`, `int(t)`, `if t:`), which PyTorch can't do while it traces. "
        "In a function autograph converts, an `if` or loop on a tensor is staged; a helper it does not convert "
        "(a generator, a function of a module it leaves alone) must keep tensors tensors."))


_IN_PLACE_OPERATORS = frozenset({"__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__",
                                  "__ipow__", "__imatmul__", "__iand__", "__ior__", "__ixor__", "__ilshift__",
                                  "__irshift__", "__setitem__", "__delitem__"})


def _changed_in_place(name: str, args: tuple, kwargs: dict) -> Optional[torch.Tensor]:
    """The tensor the op called `name` changes in place: `out=`, or the first argument of `x.add_(...)`,
    `torch.relu_(x)`, `x += y`, `x[i] = v` or an op called with `inplace=True`."""
    out = kwargs.get("out")
    if isinstance(out, torch.Tensor):
        return out
    if not args or not isinstance(args[0], torch.Tensor):
        return None
    if name in _IN_PLACE_OPERATORS or kwargs.get("inplace") is True or (
            name.endswith("_") and not name.endswith("__") and name != "requires_grad_"):
        return args[0]
    return None


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
        self.partly: dict = {}                     # the numbers on some paths only it made: see `_partly`
        for t in self.originals:                   # a stand-in for a number stands for it
            if id(t) in self.mapping and is_number(t):
                _numbers()[id(self.mapping[id(t)])] = self.mapping[id(t)]

    def __enter__(self):
        if getattr(_local, "tracked", None) is None:
            _local.tracked = []
        _local.tracked.append(self)
        return super().__enter__()

    def __exit__(self, *exc):
        _local.tracked.remove(self)
        return super().__exit__(*exc)

    def swap(self, value):
        return self.mapping.get(id(value), value) if isinstance(value, torch.Tensor) else value

    def _read(self, args, kwargs) -> None:
        """Called with each op's arguments as the run gives them, before any swap."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        self._read(args, kwargs)
        partly = _partly_noted()
        if partly and args and getattr(func, "__name__", "") in _REBINDING:
            wheres = _partly(args[0])
            if wheres is not None:
                return self._rebind_partly(func.__name__, args, kwargs, wheres)
        named = (args, kwargs)
        changes = self.kept and _changed_in_place(getattr(func, "__name__", ""), args, kwargs)  # as the run
        if self.mapping:                                                                      # names it
            args, kwargs = pytree.tree_map_only(torch.Tensor, self.swap, (args, kwargs))
        given, func = func, _as_numbers(func, getattr(func, "__name__", ""), args)
        if func is not given:                      # `n += 1` on a number rebinds `n`
            changes = None
        name = getattr(func, "__name__", "")
        target = _changed_in_place(name, args, kwargs)
        if target is not None:
            args, kwargs = self._before_change(target, name, args, kwargs)
        out = self._call(func, name, args, kwargs)
        out = _note_numbers(func, out, args, kwargs)
        if partly:
            _note_partly_made(func, out, *named, self.partly)
        self._note_made(_tensors(out))
        if target is not None and id(target) in self._gathered:
            self._write_gathered_back(target)
        if isinstance(changes, torch.Tensor):
            _reach_kept(self._named(changes), self.kept, self._reading, lambda t: self._writable(t, name))
        return out

    def _rebind_partly(self, name: str, args: tuple, kwargs: dict, wheres: tuple) -> torch.Tensor:
        """`n op= v` on `args[0]`, which stands for a number where all of `wheres` hold (as `_rebind_partly`
        outside runs): its copy (see above) gets `n op v` where it is a tensor."""
        t = args[0]
        number = all_of([self._reading(w) for w in wheres])
        swapped, swapped_kwargs = pytree.tree_map_only(torch.Tensor, self.swap, (args, kwargs))
        new = _REBINDING[name](*swapped, **swapped_kwargs)
        self._note_made([new])
        if new.shape == t.shape and new.dtype == t.dtype:
            into = self._writable(t, name)
            into.copy_(torch.where(number, into, new))
            _reach_kept(self._named(t), self.kept, self._reading, lambda u: self._writable(u, name))
            note_kept(new, t, ~number)
        self.partly[id(new)] = (new, wheres)
        return new

    def _named(self, t: torch.Tensor) -> list:
        """`t` and, for a view, its base, and the tensors the run's code knows by them (a stand-in's)."""
        found = _changed_tensors(t)
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
        if target._is_view() and id(target._base) not in self._made_ids:
            raise StagingError(at_user_line(
                f"this statement changes part of a tensor in place (`{op}` on a view of it: `row = x[0]; row += 1`) "
                "in a branch or loop body on tensors, and the tensor comes from outside it; PyTorch's cond and "
                "while_loop can't change their inputs. Write the update as an assignment to the tensor itself "
                "(`x[0] = x[0] + 1`), or clone it first (`x = x.clone()`)."))
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
        return _run(func, args, kwargs)

    def _index(self, name: str, args: tuple, key: tuple, dim: int):
        if name == "__setitem__":
            return torch_index.setitem(args[0], key, dim, args[2])
        out = torch_index.getitem(args[0], key, dim)
        if out._is_view():                         # of the copy that advanced indexing made
            self._note_made([out._base])
        self._gathered[id(out)] = (out, args[0], key, dim)
        return out

    def _write_gathered_back(self, row: torch.Tensor) -> None:
        """`row = xs[i]` changed in place: give `xs[i]` its new value (in a copy of `xs` if it is from outside)."""
        _, source, key, dim = self._gathered[id(row)]
        source = self.swap(source)
        if id(source) not in self._made_ids:
            source = self._copy(source, "an in-place change of xs[i]")
        torch_index.setitem(source, key, dim, row)

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
        for t in _tensors(values):
            if id(t) not in self._made_ids and id(t) not in self._input_ids:
                self.free.setdefault(id(t), t)

    def _read(self, args, kwargs) -> None:
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
    it may have kept (see note_kept)."""

    out: object
    free: list
    changed: list      # [(tensor, its new value, op name)]
    kept: dict
    partly: dict       # the numbers on some paths only it made: see `_partly`


def record(fn: Callable, inputs: Iterable[torch.Tensor] = ()) -> Run:
    """Run `fn()` once, noting its free tensors (other than `inputs`, the tensors the caller passes it) and
    what it changes in place (on copies). The run is not recorded in the graph being traced (its ops would be
    dead code, some of them not pure)."""
    with _not_traced(), Recorder(inputs) as recorder:
        out = fn()
        recorder.note(out)
        recorder.note([_partly(t) for t in _tensors(out)])   # read by `number_where` where the branch is traced
    changed = [(target, recorder.swap(target), op) for target, op in recorder.copied.values()]
    return Run(pytree.tree_map_only(torch.Tensor, recorder.original, out), list(recorder.free.values()), changed,
               recorder.kept, recorder.partly)


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
