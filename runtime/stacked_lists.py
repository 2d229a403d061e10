"""How a staged `if` or loop keeps a list that a staged loop built (`StackedList`, tensor_array.py) a list.

A staged statement gives each variable it carries a new tensor, and a list must stay a list after it
(`l + [x]` concatenates), on every path: the positions of such lists among a branch's or an iteration's values
(in `nest.flatten`'s order) are noted, checked to be the same on every path, and marked again on the results
and on a loop's placeholders. A variable that is such a list on some paths and a tensor on others is a
StagingError (runtime/backend.py).
"""
from __future__ import annotations

from autograph.errors import StagingError, at_user_line

from runtime import nest
from runtime.tensor_array import stacked_list_of


def noting_lists(fn, seen: list):
    """`fn`, noting in `seen` the positions (in nest.flatten's order) of the lists a staged loop built
    (`StackedList`s) among its results; a StagingError if the other branch traced has them elsewhere."""
    def run():
        out = fn()
        seen.append(list_positions(out))
        if seen[0] != seen[-1]:
            raise StagingError(at_user_line(MIXED.format(what="one branch of this `if`", other="the other")))
        return out
    return run


MIXED = ("a variable holds a list that a loop over tensors built in {what} and a tensor in {other}: after the "
         "statement it is one of them, and a list's `+` and `*` are not a tensor's. Make it a list on every path "
         "(`[x]`, `l + [x]`) or a tensor on every path (`tf.stack(l)`).")


def list_positions(values) -> list:
    return [i for i, v in enumerate(nest.flatten(values)) if getattr(v, "is_stacked_list", False)]


def given_lists(fn, lists, skip: int = 0):
    """A loop's test or body `fn`, called with its state (after `skip` other arguments) with the values at
    the positions in `lists` marked as lists: the loop's placeholders for the lists it carries."""
    if not lists:
        return fn

    def run(*args):
        return fn(*args[:skip], *lists_kept(tuple(args[skip:]), lists))
    return run


def keeping_lists(body, lists):
    """A loop's body that gives the lists a staged loop built at the positions `lists` (those of the loop's
    initial values), and no others: a StagingError otherwise (the list would be a tensor after some
    iterations, or the other way)."""
    def run(*args):
        out = body(*args)
        if list_positions(out) != list(lists):
            raise StagingError(at_user_line(MIXED.format(what="an iteration of this loop", other="another")))
        return out
    return run


def lists_kept(out: tuple, lists) -> tuple:
    """`out` with the values at the positions in `lists` marked as lists again: a staged `if` or loop gives
    each variable a new tensor, and a list must stay a list (`l + [x]` concatenates)."""
    if not lists:
        return out
    flat = nest.flatten(out)
    return nest.pack(out, [stacked_list_of(v) if i in lists else v for i, v in enumerate(flat)])
