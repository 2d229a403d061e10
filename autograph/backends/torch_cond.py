"""The torch backend's `if` on a staged tensor: PyTorch's cond operator (torch.py registers it), and the
helpers its loops share: the truth test of a condition, copies of outputs, operands that don't alias.

Each branch runs once first, untraced, to learn its outputs and the tensors it reads or changes in place
(torch_capture.py), then is traced by the operator. What the branches say about Python numbers and about
tensors kept as they are (a number on some paths only, `y = x` in a branch) is noted for the statements
after it (torch_aliasing.py).
"""
from __future__ import annotations

import itertools
from typing import Callable, Optional, Sequence

import torch

from autograph.backends import primitives, staging
from autograph.backends import torch_capture as capture
from autograph.backends.torch_state import RULES

try:
    from torch._higher_order_ops.cond import cond_op
except ImportError:                                   # pragma: no cover - torch without cond
    cond_op = None

try:
    from torch._higher_order_ops.utils import materialize_as_graph as _materialize
except ImportError:                                   # pragma: no cover - an older torch
    _materialize = None


# --- predicates and names -------------------------------------------------------------------------

def predicate(value, construct: str) -> torch.Tensor:
    """`value` as a 0-d bool tensor, as Python's truth test would see it."""
    x = value if isinstance(value, torch.Tensor) else torch.tensor(value)
    if x.dim() != 0:
        if any(isinstance(d, int) and d != 1 for d in x.shape):
            raise primitives.not_one_value(construct, f"a tensor of shape {tuple(x.shape)}", ".any() or .all()")
        x = x.reshape(())
    return x if x.dtype == torch.bool else x != 0


def fresh(t: torch.Tensor) -> torch.Tensor:
    """torch.cond and while_loop reject outputs that alias their inputs (`y = x` in a branch): copy."""
    return t.clone()


# --- if --------------------------------------------------------------------------------------------

def cond(pred, true_fn, false_fn, names=(), construct: str = "this `if`"):
    """`if` on a staged tensor: PyTorch's cond operator. Each branch runs once to learn its outputs and
    the tensors it reads (see torch_capture.py), then is traced by the operator; Python numbers are lifted
    to tensors of the other branch's dtype, and values both branches agree on stay Python values. A tensor
    from outside that a branch changes in place is changed on a copy, which the operator also returns and
    which is copied back into the tensor afterwards (as Python's in-place update would leave it)."""
    pred = predicate(pred, construct)
    true_run = capture.record(lambda: tuple(true_fn()))
    false_run = capture.record(lambda: tuple(false_fn()))
    runs = (true_run, false_run)
    true_leaves, layout = staging.flatten(RULES, true_run.out, names)
    false_leaves, false_layout = staging.flatten(RULES, false_run.out, names)
    staging.check_structure(RULES, layout, false_layout, construct)
    plan = staging.branch_plan(RULES, true_leaves, false_leaves, layout, construct)
    free = unique(true_run.free + false_run.free)
    changed = unique([t for t, _, _ in true_run.changed + false_run.changed])
    nested = [(i, f) for i, leaves in enumerate(zip(true_leaves, false_leaves)) for f in free   # `if b: y = y *
              if any(capture.kept_paths(run.kept, v, f) for run, v in zip(runs, leaves))]    # 2` in a branch
    partly = [i for i, leaves in enumerate(zip(true_leaves, false_leaves))     # a number on some paths only
              if any(capture.partly_in(run, v) is not None for run, v in zip(runs, leaves))]   # in a branch
    shared = {i: where for i in partly if (where := _shared_partly(runs, true_leaves[i], false_leaves[i]))}
    partly = [i for i in partly if i not in shared]      # the others: where, as an output of each branch

    def traced(fn):
        def run():
            leaves, _ = staging.flatten(RULES, tuple(fn()), names)
            outputs = [fresh(t) for t in staging.lifted(RULES, leaves, plan)]
            kept = [_kept_here(leaves[i], f) for i, f in nested]
            numbers = [_number_here(leaves[i]) for i in partly]
            return (*outputs, *(fresh(t) for t in changed), *kept, *numbers)   # `t`: its copy, where this
        return capture.substituted(run, free)                                   # branch made one

    operands = unaliased([capture.resolve(t) for t in free],
                         [t.requires_grad and any(t is c for c in changed) for t in free])
    out = cond_op(pred, _as_graph(traced(true_fn), operands), _as_graph(traced(false_fn), operands), operands)
    n = len(out) - len(changed) - len(nested) - len(partly)
    write_back(changed, out[n:n + len(changed)])
    dynamic = iter(out[:n])
    values = []
    negated: list = []

    def where_false() -> torch.Tensor:   # `~pred`, made once and only if needed (it is an op in the graph)
        if not negated:
            negated.append(torch.logical_not(pred))   # (not `~`: a Python bool's is -2)
        return negated[0]

    for i, (v, other, dtype) in enumerate(zip(true_leaves, false_leaves, plan)):
        value = v if dtype == staging.STATIC else next(dynamic)
        values.append(v if v is other and any(v is t for t in changed) else value)   # `x += 1` keeps `x`
        if capture.is_number(v) and capture.is_number(other):
            capture.note_number(values[-1], capture.number_kinds(v) + capture.number_kinds(other))
        elif isinstance(values[-1], torch.Tensor):
            if i not in partly and i not in shared and (capture.is_number(v) or capture.is_number(other)):
                capture.note_partly_number(values[-1], pred if capture.is_number(v) else where_false())
            if any(_view_seen_elsewhere(leaf, run, leaves) for leaf, run, leaves in (
                    (v, true_run, true_leaves), (other, false_run, false_leaves))):    # `n = y[0]`
                capture.note_view_given(values[-1])
            for kept, in_true in ((v, True), (other, False)):      # `y = x` in a branch, or a branch not
                if isinstance(kept, torch.Tensor) and kept is not values[-1] and _from_outside(kept, runs) \
                        and not any(j == i and f is kept for j, f in nested):   # assigning `y`: `y` is that
                    capture.note_kept(values[-1], kept, pred if in_true else where_false())   # tensor there
    for (i, f), where in zip(nested, out[len(out) - len(nested) - len(partly):]):
        if isinstance(values[i], torch.Tensor) and values[i] is not f:
            capture.note_kept(values[i], f, where)
    for i, where in [*shared.items(), *zip(partly, out[len(out) - len(partly):])]:
        capture.note_partly_number(values[i], where)
    for i, v, other in zip(itertools.count(), true_leaves, false_leaves):   # `if d: n += 1` in a loop body
        t, f = (_rebound_from(run, leaf) for run, leaf in zip(runs, (v, other)))
        if t is f and v is not other and isinstance(t, torch.Tensor) and _from_outside(t, runs):
            capture.note_rebound(values[i], t)
    return staging.unflatten(RULES, values, layout)


def _rebound_from(run, leaf):
    """`leaf`, a value a branch gave, or the tensor it is by `n op= v` where that is a tensor (a number on
    some paths only: see note_rebound)."""
    found = capture.rebound_from(run, leaf)
    return leaf if found is None else found


def _shared_partly(runs, v, other) -> Optional[tuple]:
    """Where both branches' values stand for a number, when that is the same 0-d bools from outside the `if`
    (`n` or `n * 3`, where `n` is a number on some paths only)."""
    a, b = (capture.partly_in(run, leaf) for run, leaf in zip(runs, (v, other)))
    same = a is not None and b is not None and len(a) == len(b) and all(x is y for x, y in zip(a, b))
    return a if same else None


def _number_here(v) -> torch.Tensor:
    """Where the branch being traced gives, as `v`, a Python number (0-d bool)."""
    where = capture.number_where(v)
    if isinstance(where, torch.Tensor):
        return fresh(where)
    return torch.full((), where is True, dtype=torch.bool)


def _kept_here(v, f: torch.Tensor) -> torch.Tensor:
    """Where the branch being traced gives `f` itself as `v` (0-d bool): `v is f`, or by what its `if`s kept."""
    where = capture.kept_where(v, f) if isinstance(v, torch.Tensor) and v is not f else None
    if where is None:
        return torch.full((), v is f, dtype=torch.bool)
    return fresh(where)


def _view_seen_elsewhere(leaf, run, leaves: list) -> bool:
    """Is `leaf`, which a branch gives, a view it made of a tensor from outside or of another it gives?"""
    if not isinstance(leaf, torch.Tensor) or not leaf._is_view() or _from_outside(leaf, (run,)):
        return False
    base = leaf._base
    return _from_outside(base, (run,)) or any(base is t for t in leaves)


def _from_outside(t: torch.Tensor, runs) -> bool:
    """Is `t` a tensor from before the `if` (which one of its branches read or gave as it is)?"""
    return any(t is f for run in runs for f in run.free)


def _as_graph(branch: Callable, operands: tuple):
    """`branch` traced once into a graph of its operands, when torch.compile differentiates it: the cond
    operator traces a Python branch again for the backward pass, after AOTAutograd has put a module's real
    parameters back, where a branch that reads `self.weight` would see a real tensor among fake ones."""
    differentiated = torch.is_grad_enabled() and any(
        isinstance(t, torch.Tensor) and t.requires_grad for t in operands)
    if _materialize is None or not differentiated or torch.compiler.is_exporting():
        return branch
    return _materialize(branch, operands)


def unaliased(tensors: list, written_back: Sequence[bool] = ()) -> tuple:
    """Inputs for cond or while_loop, which reject inputs that alias one another (`x` and a view `x[0]` of
    it, one tensor given twice): a view, or a tensor given again, is passed as a copy. The branches and
    bodies only read them (they change copies; see torch_capture.py). So is a tensor that requires grad and that
    `write_back` changes after the operator (`written_back[k]`): autograd saves the operands for the backward
    pass, and would refuse one changed in place since ("modified by an inplace operation")."""
    seen, out = set(), []
    for k, t in enumerate(tensors):
        aliased = isinstance(t, torch.Tensor) and (id(t) in seen or t._is_view()
                                                   or (k < len(written_back) and written_back[k]))
        seen.add(id(t))
        out.append(t.clone() if aliased else t)
    return tuple(out)


def unique(tensors: list) -> list:
    return list({id(t): t for t in tensors}.values())


def write_back(changed: list, new_values) -> None:
    """Give each tensor changed in place in a branch or loop body its new value."""
    for t, new in zip(changed, new_values):
        t.copy_(new)
