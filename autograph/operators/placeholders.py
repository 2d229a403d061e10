"""Placeholders for values a staged statement carries before they exist.

A loop variable that is undefined (or an empty list) before a staged loop
needs a value of the type the body gives it: `define_loop_state` learns it
from one iteration run in the backend's throwaway trace (`probe`) and puts a
zero (or a `MaybeValue`, operators/maybe.py) in its place.
"""
from __future__ import annotations

from autograph.errors import StagingError, at_user_line
from autograph.operators import maybe
from autograph.operators import variable_checks as checks
from autograph.operators.maybe import MaybeValue
from autograph.operators.shared import as_tuple
from autograph.operators.variables import UndefinedReturnValue, is_undefined


def copied(state) -> list:
    return [list(v) if v.__class__ is list else v for v in state]


def zeros_like(backend, value):
    """A placeholder of `value`'s structure, types and shapes: the backend's zeros."""
    if isinstance(value, (tuple, list)):
        return type(value)(zeros_like(backend, v) for v in value)
    if isinstance(value, dict):
        return {k: zeros_like(backend, v) for k, v in value.items()}
    return backend.zeros_like(value)


def define_loop_state(backend, step, state: tuple, names: tuple = ()) -> tuple:
    """For backends: `state` with each undefined return value and each empty Python list replaced by
    a placeholder of the right type, learned by running `step(state) -> new state` (one iteration of
    the loop body) once in the backend's throwaway trace (`probe`). Empty lists are left alone when the
    backend has no `list_empty_like` (it carries Python lists as they are)."""
    typed_lists = backend.list_empty_like is not None
    carry = maybe.can_carry(backend)   # undefined (or None) before the loop: a MaybeValue (operators/maybe.py)
    pending = [i for i, v in enumerate(state) if is_undefined(v) or (carry and v is None)
               or (typed_lists and v.__class__ is list and not v)]
    if not pending:
        return tuple(state)
    copies = copied(state)
    try:
        probed = backend.probe(lambda: step(tuple(copies)))
    except NameError as e:   # the body reads one before assigning it (the value of an earlier iteration)
        unknown = [names[i] for i in pending if i < len(names) and names[i] == getattr(e, "name", None)]
        if not unknown:
            raise
        raise StagingError(at_user_line(
            f"'{unknown[0]}' is undefined before this loop over tensors, and the loop body reads it before "
            "assigning it (the value an earlier iteration assigned), so its type is unknown when the body is "
            f"traced. Assign '{unknown[0]}' an initial value of the right type before the loop.")) from None
    if not (probed.__class__ is tuple and len(probed) == len(state)):   # loop bodies return a tuple, even of one
        probed = as_tuple(probed, len(state))
    never = [i for i in pending if _never_defined(state[i], probed[i], carry, i < len(names) and checks.fillable(names[i]))]
    if never:
        raise UnsetLoopState(never)
    defined = list(state)
    where = maybe.location()
    for i in pending:
        name = names[i] if i < len(names) else f"loop variable {i}"
        if carry and state[i].__class__ is not list and not is_undefined(probed[i]):
            defined[i] = _loop_maybe(backend, name, state[i], probed[i], where)
        elif state[i].__class__ is list:
            grown = copies[i] or (probed[i] if probed[i].__class__ is list else None)   # `l = l + [x]` rebinds
            if not grown:
                raise StagingError(at_user_line(
                    f"the empty list '{name}' is carried through this loop over tensors but nothing is appended "
                    "to it (or what is appended is popped again in the same iteration), so its element type is "
                    "unknown. Give it an initial element, or don't carry it."))
            defined[i] = backend.need("list_empty_like", "an empty list appended to in a staged loop")(grown[0])
        elif is_undefined(probed[i]):
            raise StagingError(at_user_line(
                f"'{name}' is undefined before this loop over tensors and the loop body does not define it."))
        else:
            defined[i] = zeros_like(backend, probed[i])
    return tuple(defined)


def _never_defined(before, after, carry: bool, returned: bool) -> bool:
    """Whether a loop variable is undefined (or None) before the loop and after one iteration: it is left out of
    the loop (the return value of a function that does not return in the loop; a variable that stays None)."""
    if before.__class__ is UndefinedReturnValue or (carry and returned and before is None):
        return is_undefined(after) or (carry and after is None)
    return carry and before is None and after is None


def _loop_maybe(backend, name: str, before, after, where: str) -> MaybeValue:
    """The initial value of a loop variable undefined (or None) before the loop at `where` and defined by its body
    (`after`, one iteration's value): a placeholder of that type, not defined."""
    returned = checks.fillable(name)
    kinds = [maybe.kind(before, returned), maybe.kind(after, returned)]
    none = True if returned else maybe.absent_is_none(kinds, [before, after])
    if none is None:
        raise StagingError(at_user_line(
            f"'{name}' is undefined before this loop over tensors and the loop body sets it to None on some path; "
            f"a graph carries one of the two. Assign '{name} = None' before the loop."))
    always = kinds[1] == "value"
    if returned:
        why = inside = "the function returns None on this path"
    elif none:
        why = f"it is None before the loop at {where}, and " + (
            "the loop ran zero times" if always else "no iteration of the loop set it to a value")
        inside = f"it is None before the loop at {where}, and no earlier iteration set it to a value"
    else:
        why = f"it is first assigned inside the loop at {where}, and " + (
            "the loop ran zero times" if always else "no iteration of the loop assigned it")
        inside = f"it is first assigned inside the loop at {where}, and no earlier iteration assigned it"
    shown = "the return value" if returned else name
    return MaybeValue(maybe.placeholder(backend, after, shown), False, shown, why, none, backend, inside)


class UnsetLoopState(Exception):
    """Raised by `define_loop_state`: these return-value slots are defined by no path of the loop body."""

    def __init__(self, indices: list):
        super().__init__(indices)
        self.indices = indices
