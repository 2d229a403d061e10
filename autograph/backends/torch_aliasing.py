"""What a Python name refers to when the torch backend stages statements: numbers, and tensors kept.

Staging makes new tensors where Python would keep a value as it was, and torch
changes tensors in place where Python rebinds a name. So for the rest of a
converted function after a staged statement (the `_AfterStaging` mode), and in
the branches and loop bodies torch_capture.py runs (its `_Tracked` modes, which
call the rules here), two of Python's answers need help.

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
  the tensor in place where it is not a number, after the `if` and in later
  branches; what is computed from it and numbers alone is a number where it is;
  a later `if` or loop that gives it, or what is computed from it, gives a number
  where that is one (`partly_of`, `number_where`), and a loop body's `n += 1` on it
  changes it in place where it is a tensor (`note_rebound`). An in-place change of what a
  branch gave as a view it made of a tensor seen elsewhere (`n = y[0]`) is an
  error (`note_view_given`): it would not reach that tensor.
- A staged `if` whose branch kept a tensor from outside (`m = y; if c: y = y *
  2`) gives a new tensor, where Python's `y` is `m` itself when `c` is false.
  The backend notes that (`note_kept`), and an in-place change of either (or
  of a view of either: `r = y[0]; r += 1`) is given to the other where the
  branch that kept it was taken, and on from there (a later `if` may have
  kept it again); likewise after a staged loop that replaces a tensor from
  outside, where it ran no iteration.

The state is per thread (`local`): the `_Tracked` modes in force, each with the
`kept` and `partly` it noted, and the tables of the code outside them.
"""
from __future__ import annotations

import threading
import weakref
from typing import Callable, Optional

import torch
from torch.overrides import TorchFunctionMode
from torch.utils import _pytree as pytree

from autograph.backends import torch_numbers
from autograph.errors import StagingError, at_user_line, user_location
from autograph.operators import function_scope

try:   # torch's error for Python meeting a traced value (`range(t)` in a function autograph does not convert)
    from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode as _DataDependent
except ImportError:                              # pragma: no cover - an older torch
    _DataDependent = ()

local = threading.local()  # .tracked: this thread's _Tracked modes in force (torch_capture.py), innermost last;
                           # .numbers: the tensors standing for Python numbers, by id; outside those modes,
                           # .kept: id(t) -> [(t, other, where)], see note_kept; .partly: see partly_of;
                           # .views: see note_view_given; .after: this thread's _AfterStaging, while in force


def tensors(tree) -> list:
    """The tensors among the leaves of `tree`."""
    return [t for t in pytree.tree_leaves(tree) if isinstance(t, torch.Tensor)]


def _numbers() -> weakref.WeakValueDictionary:
    try:
        return local.numbers
    except AttributeError:
        local.numbers = weakref.WeakValueDictionary()
        return local.numbers


def is_number(value) -> bool:
    """Does `value` stand for a Python number: a bool, int, float, or a tensor registered by `note_number`?"""
    if isinstance(value, torch.Tensor):
        return _numbers().get(id(value)) is value
    return value.__class__ in (bool, int, float)


def python_type(value) -> Optional[tuple]:
    """The backend's `python_type`: the Python type of a 0-d tensor standing for a Python number (`is_number`),
    by its dtype; where it does on some paths only (`partly_of`), that type or torch.Tensor (and int or float for
    a float tensor: the number may be an int the tensor's dtype made a float), whose answers may differ."""
    if not isinstance(value, torch.Tensor) or value.dim() != 0:
        return None
    kind = (bool if value.dtype is torch.bool else complex if value.dtype.is_complex
            else float if value.dtype.is_floating_point else int)
    if is_number(value):
        return _mixed_kinds().get(id(value), (kind,))
    if partly_of(value) is None:
        return None
    return (int, float, torch.Tensor) if kind is float else (kind, torch.Tensor)


def note_number(t, kinds: tuple = ()) -> None:
    """Register `t`, a tensor a staged statement made of a Python number; `kinds`, the Python types it may be
    where those differ (a staged `if` assigning 1 on one path and 2.5 on the other: int or float)."""
    if isinstance(t, torch.Tensor):
        register_number(t)
        if len(set(kinds)) > 1:
            _mixed_kinds()[id(t)] = tuple(sorted(set(kinds), key=lambda kind: kind.__name__))
        after_staging()


def number_kinds(value) -> tuple:
    """The Python types a Python number, or a tensor standing for one, may be."""
    return (type(value),) if value.__class__ in (bool, int, float) else python_type(value) or ()


def register_number(t: torch.Tensor) -> None:
    """Register `t` as standing for a Python number (a branch's stand-in for one), entering no mode."""
    _numbers()[id(t)] = t
    _mixed_kinds().pop(id(t), None)


def _mixed_kinds() -> dict:
    """id of a tensor standing for a number -> the Python types it may be, where more than one (`note_number`)."""
    try:
        return local.mixed
    except AttributeError:
        local.mixed = {}
        return local.mixed


def after_staging() -> bool:
    """Is `_AfterStaging` in force, entered now if need be? Not inside a branch or loop body, nor outside
    converted code."""
    if getattr(local, "after", None) is None and not getattr(local, "tracked", None):
        mode = _AfterStaging()
        if function_scope.enter_until_outermost_returns(mode):
            local.after = mode
    return getattr(local, "after", None) is not None


class _AfterStaging(TorchFunctionMode):
    """For the rest of a converted function after a staged statement: augmented assignments to numbers
    rebind, and in-place changes reach what a staged `if` may have kept (see the module's docstring)."""

    def __enter__(self):
        local.kept, local.partly, local.views = {}, {}, {}
        return super().__enter__()

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        if local.views:
            _check_not_a_view_given(changed_tensors(changed_in_place(name, args, kwargs)))
        wheres = partly_of(args[0]) if name in REBINDING and args else None
        if wheres is not None:
            return _rebind_partly(REBINDING[name](*args, **kwargs), args[0], wheres)
        func = as_numbers(func, name, args)
        args = torch_numbers.python_operands(getattr(func, "__name__", ""), args, kwargs)
        out = note_numbers(func, run_op(func, args, kwargs), args, kwargs)
        if local.partly:
            note_partly_made(func, out, args, kwargs, local.partly)
        if local.kept:     # (a number's `n += 1` ran as `n + 1` above: nothing was changed in place)
            reach_kept(changed_tensors(changed_in_place(getattr(func, "__name__", ""), args, kwargs)),
                       local.kept)
        return out

    def __exit__(self, *exc):
        local.after = None
        local.kept, local.partly, local.views = {}, {}, {}
        _numbers().clear()
        return super().__exit__(*exc)


# `n op= v` on a tensor standing for a Python number (torch's `n.add_(v)`, `n.__iand__(v)`, ...): what Python
# does to the number, `n = n op v`
REBINDING = {**{name: getattr(torch.Tensor, name[:-1]) for name in (
    "add_", "sub_", "mul_", "div_", "floor_divide_", "remainder_", "pow_")}, **{
    name: getattr(torch.Tensor, name.replace("__i", "__", 1)) for name in (
        "__iand__", "__ior__", "__ixor__", "__ilshift__", "__irshift__")}}


def as_numbers(func, name: str, args: tuple):
    """`func` to run on `args`: an augmented assignment's in-place op on a number is its plain op."""
    if name in REBINDING and args and is_number(args[0]):
        return REBINDING[name]
    return func


# torch functions that make a tensor of a Python number (`torch.as_tensor(n)`), as they do in Python
_MAKE_TENSORS = frozenset({"as_tensor", "asarray", "tensor", "scalar_tensor", "full", "zeros_like", "ones_like",
                           "empty_like", "full_like", "rand_like", "randn_like", "randint_like"})


def note_numbers(func, out, args: tuple, kwargs: dict):
    """`out` of `func`: an op on numbers alone gives a number (`n * 2`, `-n`, `max(n, 2)`, which export makes
    a clamp; and `n.to(...)`, which the backend uses), but a function that makes a tensor of one gives a
    tensor, as in Python: `torch.as_tensor(n)` is a new tensor (not `n` itself, which it returns for a 0-d
    tensor), and `+=` changes it in place."""
    if not isinstance(out, torch.Tensor) or not _numbers():
        return out
    given = tensors((args, kwargs))
    if not given or not all(is_number(t) for t in given):
        return out
    if getattr(func, "__name__", "") not in _MAKE_TENSORS:
        _numbers()[id(out)] = out
    elif any(out is t for t in given):
        return out.clone()
    return out


def note_partly_number(t, number) -> None:
    """`t`, a staged `if`'s result, stands for a Python number where the 0-d bool `number` holds (or all of
    a tuple of them: one branch gave a number, `if c: n = 1 else: n = x.sum()`), and is a tensor elsewhere:
    `n += 1` on it rebinds `n` there, and changes the tensor in place elsewhere; what is computed from it and
    numbers alone (`n * 2`) is a number where it is (see `partly_of`)."""
    if not isinstance(t, torch.Tensor):
        return
    wheres = number if isinstance(number, tuple) else (number,)
    tracked = getattr(local, "tracked", None)
    if tracked:
        tracked[-1].partly[id(t)] = (t, wheres)
    elif after_staging():
        local.partly[id(t)] = (t, wheres)


def partly_of(t) -> Optional[tuple]:
    """The 0-d bools (as the code names them) where all of which `t` stands for a Python number, if it does
    on some paths only: noted by the run being traced that made it (`partly` of a `_Tracked`), by one
    enclosing it, or outside them (`local.partly`). Each table maps id(t) -> (t, those bools)."""
    if not isinstance(t, torch.Tensor):
        return None
    for mode in reversed(getattr(local, "tracked", None) or ()):
        entry = mode.partly.get(id(t))
        if entry is not None and entry[0] is t:
            return entry[1]
    entry = (getattr(local, "partly", None) or {}).get(id(t))
    return entry[1] if entry is not None and entry[0] is t else None


def partly_noted() -> bool:
    """Is any tensor noted as a number on some paths only (see `partly_of`)?"""
    return bool(getattr(local, "partly", None)) or any(m.partly for m in getattr(local, "tracked", None) or ())


def _partly_given(args: tuple, kwargs: dict) -> tuple:
    """Where all the tensors among an op's arguments stand for numbers, when some do on some paths only and
    the others are numbers (the union of their `partly_of` bools); () otherwise."""
    wheres: list = []
    for t in tensors((args, kwargs)):
        if is_number(t):
            continue
        found = partly_of(t)
        if found is None:
            return ()
        wheres += [w for w in found if not any(w is v for v in wheres)]
    return tuple(wheres)


def note_partly_made(func, out, args: tuple, kwargs: dict, table: dict) -> None:
    """`out` of `func` on `args` (as the code names them) in `table`, if it stands for a number where they do
    (`k = n * 2`; not `torch.as_tensor(n)`: see `note_numbers`)."""
    if isinstance(out, torch.Tensor) and getattr(func, "__name__", "") not in _MAKE_TENSORS and not is_number(out):
        wheres = _partly_given(args, kwargs)
        if wheres:
            table[id(out)] = (out, wheres)


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
    wheres = partly_of(value)
    if wheres is None:
        return None
    tracked = getattr(local, "tracked", None)
    return all_of([tracked[-1]._reading(w) for w in wheres] if tracked else wheres)


def partly_in(run, value) -> Optional[tuple]:
    """`partly_of(value)` for a value `run` (torch_capture.Run) gave: as that run noted it, or from outside it."""
    entry = run.partly.get(id(value)) if isinstance(value, torch.Tensor) else None
    return entry[1] if entry is not None and entry[0] is value else partly_of(value)


def _rebind_partly(new: torch.Tensor, t: torch.Tensor, wheres: tuple) -> torch.Tensor:
    """`n op= v` on `t`, which stands for a number where all of `wheres` hold: `new` (`t op v`) is `n` from
    now on; where `t` is a tensor, it is `t` itself in Python, changed in place."""
    if new.shape == t.shape and new.dtype == t.dtype:
        number = all_of(wheres)
        t.copy_(torch.where(number, t, new))
        reach_kept([t], local.kept)
        note_kept(new, t, torch.logical_not(number))
    local.partly[id(new)] = (new, wheres)
    return new


def note_rebound(new: torch.Tensor, t: torch.Tensor) -> None:
    """In the branch or loop body being run, `new` is what `n op= v` made of `t`, a number on some paths
    only (see `_Tracked._rebind_partly`), or a staged `if` that gave either: where `t` is a tensor, `new` is
    `t` itself, changed in place."""
    tracked = getattr(local, "tracked", None)
    if tracked:
        tracked[-1].rebound[id(new)] = (new, t)


def rebound_from(run, value) -> Optional[torch.Tensor]:
    """The tensor that `value`, which `run` (torch_capture.Run) gave, is by `n op= v` where it is a tensor
    (see `note_rebound`), followed back to one it did not make that way; None if it is not one."""
    found = None
    while isinstance(value, torch.Tensor):
        entry = run.rebound.get(id(value))
        if entry is None or entry[0] is not value:
            break
        value = found = entry[1]
    return found


def rebound_by_loop(initial: torch.Tensor, final: torch.Tensor, wheres: tuple) -> None:
    """A staged loop gave `final` for `initial`, which stands for a number where all of `wheres` hold and
    which its body changed in place elsewhere (`n += 1`: see `note_rebound`): `initial` gets the new value
    where it is a tensor, and is `final` itself there from now on."""
    number = all_of(wheres)
    initial.copy_(torch.where(number, initial, final))
    note_kept(final, initial, torch.logical_not(number))
    note_rebound(final, initial)        # in a loop body (or a branch) inside another loop


def note_kept(t: torch.Tensor, original: torch.Tensor, where: torch.Tensor) -> None:
    """`t`, a staged `if`'s result, is `original` itself in Python where the 0-d bool `where` holds (the branch
    taken there kept it): an in-place change of either from now on is given to the other there (for the rest
    of the converted function, or of the branch or loop body being run, for an `if` inside one)."""
    if t.shape != original.shape or t.dtype != original.dtype:
        return
    tracked = getattr(local, "tracked", None)
    if tracked:
        kept = tracked[-1].kept
    elif after_staging():
        kept = local.kept
    else:
        return
    kept.setdefault(id(t), []).append((t, original, where))
    kept.setdefault(id(original), []).append((original, t, where))


def notes_kept() -> bool:
    """Will `note_kept` note what it is told: inside a branch or loop body, or with `_AfterStaging` in force?"""
    return bool(getattr(local, "tracked", None)) or after_staging()


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
    tracked = getattr(local, "tracked", None)
    where = None
    for wheres in kept_paths(tracked[-1].kept if tracked else {}, start, goal):
        path = wheres[0]
        for w in wheres[1:]:
            path = path & w
        where = path if where is None else where | path
    return where


def changed_tensors(target: Optional[torch.Tensor]) -> list:
    """The tensors an in-place change of `target` changes: it, and its base if it is a view."""
    if target is None:
        return []
    return [target, target._base] if target._is_view() else [target]


def reach_kept(changed: list, kept: dict, current: Callable = lambda t: t,
               writable: Callable = lambda t: t) -> None:
    """An in-place change of the tensors `changed` (see changed_tensors) given to each tensor a staged `if`
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


_IN_PLACE_OPERATORS = frozenset({"__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__",
                                  "__ipow__", "__imatmul__", "__iand__", "__ior__", "__ixor__", "__ilshift__",
                                  "__irshift__", "__setitem__", "__delitem__"})


def changed_in_place(name: str, args: tuple, kwargs: dict) -> Optional[torch.Tensor]:
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


def note_view_given(t: torch.Tensor) -> None:
    """`t`, a staged `if`'s result, is in Python a view a branch made of another tensor (`n = y[0]`) that is
    seen elsewhere: an in-place change of `t` from now on is an error (it would not reach that tensor)."""
    if _outside_runs(t):
        local.views[id(t)] = t


def _outside_runs(t) -> bool:
    """Is `t` a tensor noted outside a branch or loop body, with `_AfterStaging` in force?"""
    return isinstance(t, torch.Tensor) and not getattr(local, "tracked", None) and after_staging()


def _check_not_a_view_given(changed: list) -> None:
    if any(local.views.get(id(t)) is t for t in changed):
        raise StagingError(at_user_line(
            "this statement changes in place a tensor that a branch of a staged `if` before it gave as a view "
            "of another tensor (`n = y[0]` in a branch); after the `if` it is a new tensor, and the change "
            "would not reach the other one. Change that tensor itself (`y[0] += 1` in the branch), or give "
            "a copy in the branch (`n = y[0].clone()`)."))


def run_op(func, args: tuple, kwargs: dict):
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
