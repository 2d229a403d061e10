"""Views and aliases in staged torch branches and loops: each program gives eager PyTorch's answer.

In eager PyTorch a row of a tensor (`y[0]`, `for v in y`) is a view: it sees a later in-place change of the tensor,
and a change through it changes the tensor. The backend changes copies of tensors from outside a branch or loop body
(torch_capture.py) and reads rows with a staged counter as copies (torch_index.py), so each of these programs gave a
stale value, or left the tensor unchanged, before the fix: the value it gave is in the comment. Each runs exported
and compiled (`fullgraph=True`, aot_eager) against eager PyTorch, on an input other than the one traced with.
"""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install -e '.[torch]' to run the "
                                             "PyTorch backend tests)")

import autograph as ag  # noqa: E402
from autograph.errors import StagingError  # noqa: E402
from tests.autograph.backends.test_torch_in_place import module, same as agree  # noqa: E402

X = torch.tensor([1.0, 2.0, 3.0])
X_OTHER = torch.tensor([-1.0, -2.0, 0.5])
ROWS = torch.tensor([[1.0, 2.0], [3.0, 4.0]])


# --- a view sees its base changed in place in a branch ---------------------------------------------------------

def view_made_in_the_branch(x):          # gave 1 (y[0] before `add_`), not 2
    y = x * 1
    s = x[0] * 0
    if x.sum() > 0:
        r = y[0]
        y.add_(1)
        s = r * 1
    return s


def slice_then_item_assigned(x):         # gave 5, not 102
    y = x * 1
    s = x[0] * 0
    if x.sum() > 0:
        r = y[1:]
        y[2] = 100.0
        s = r.sum()
    return s


def whole_view_then_base_changed(x):     # gave 6, not 12
    y = x * 1
    s = x[0] * 0
    if x.sum() > 0:
        r = y.view(3)
        y.mul_(2)
        s = r.sum()
    return s


def view_given_by_the_branch(x):         # gave 1, not 2
    y = x * 1
    if x.sum() > 0:
        r = y[0]
        y.add_(1)
    else:
        r = y[1]
    return r


def view_from_before_the_if(x):          # gave 1, not 2
    y = x * 1
    r = y[0]
    if x.sum() > 0:
        y.add_(1)
        s = r * 1
    else:
        s = r * 2
    return s


# --- ... and in a loop body --------------------------------------------------------------------------------------

def view_in_a_while_body(x):             # gave 6, not 5, for [1, 2, 3]
    y = x * 1
    s = x[0] * 0
    while s < 5:
        r = y[0]
        y.add_(1)
        s = s + r
    return s


def view_from_before_the_loop(x):        # gave 3, not 13: `z` kept y[0] as it was before the loop
    y = x * 1
    z = y[0]
    s = x[0] * 0
    for v in x:
        y += v
        s = s + z
    return s, y


def name_from_before_the_loop(x):
    y = x * 1
    z = y
    s = x[0] * 0
    for v in x:
        y += 1
        s = s + z.sum()
    return s, y


# --- a row of `for v in y`, or `y[i]` with a staged counter, is a view of `y` -------------------------------------

def row_changed_in_place(x):             # gave `y` unchanged
    y = x * 1
    for v in y:
        v += 1
    return y


def row_changed_in_a_branch(x):          # was an error: "changes part of a tensor in place"
    y = x * 1
    for v in y:
        if v.sum() > 0:
            v.mul_(2)
    return y


def enumerated_row_item_assigned(x):     # gave `y` unchanged
    y = x * 1
    for i, v in enumerate(y):
        v[0] = i
    return y


def zipped_row_changed(x):               # gave `y` unchanged
    y = x * 1
    for v, w in zip(y, x):
        v += w
    return y


def row_read_after_the_tensor_changed(x):    # gave 9, not 12
    y = x * 1
    s = x[0] * 0
    for v in y:
        y.add_(1)
        s = s + v
    return s, y


def counter_row_then_item_assigned(x):   # gave 6, not 0
    y = x * 1
    s = x[0] * 0
    n = (x > -10).sum()
    for i in range(n):
        r = y[i]
        y[i] = 0.0
        s = s + r
    return s


def two_reads_of_one_row(x):
    y = x * 1
    s = x[0] * 0
    n = (x > -10).sum()
    for i in range(n):
        a = y[i]
        b = y[i]
        a += 1
        s = s + b
    return s, y


def counter_row_then_tensor_changed_in_a_branch(x):
    y = x * 1
    s = x[0] * 0
    n = (x > -10).sum()
    for i in range(n):
        a = y[i]
        if a > 0:
            y.mul_(2)
        s = s + a
    return s, y


def alias_rebound_on_every_path(x):    # `z` is `y` when the loop starts, but the body rebinds it before `y += 1`
    y = x * 1
    z = y
    for v in x:
        if v > 0:
            z = y
        else:
            z = z * 2
        y += 1
    return y, z


PROGRAMS = [
    (view_made_in_the_branch, X), (slice_then_item_assigned, X), (whole_view_then_base_changed, X),
    (view_given_by_the_branch, X), (view_from_before_the_if, X), (view_in_a_while_body, X),
    (view_from_before_the_loop, X), (name_from_before_the_loop, X),
    (row_changed_in_place, ROWS), (row_changed_in_a_branch, ROWS), (enumerated_row_item_assigned, ROWS),
    (zipped_row_changed, ROWS), (row_read_after_the_tensor_changed, X), (counter_row_then_item_assigned, X),
    (two_reads_of_one_row, X), (counter_row_then_tensor_changed_in_a_branch, X), (alias_rebound_on_every_path, X),
]
IDS = [fn.__name__ for fn, _ in PROGRAMS]




def inputs(x):
    return [x, -x if x.dim() > 1 else X_OTHER]


@pytest.mark.parametrize("fn, x", PROGRAMS, ids=IDS)
def test_exported_programs_give_eager_pytorchs_answer(fn, x):
    program = torch.export.export(module(fn), (x.clone(),)).module()
    for given in inputs(x):
        assert agree(program(given.clone()), fn(given.clone())), given


@pytest.mark.parametrize("fn, x", PROGRAMS, ids=IDS)
def test_compiled_programs_give_eager_pytorchs_answer(fn, x):
    torch._dynamo.reset()
    compiled = torch.compile(module(fn), fullgraph=True, backend="aot_eager")
    for given in inputs(x):
        assert agree(compiled(given.clone()), fn(given.clone())), given


# --- two loop variables that are one tensor when the loop starts ---------------------------------------------

def alias_read_after_the_change(x):      # gave z = x, not x + 1: the loop carried `z` as a tensor of its own
    y = x * 1
    z = y
    i = 0
    while i < x.sum():
        y += 1
        z = z + 0
        i += 1
    return y, z


def alias_kept_by_an_if(x):              # gave [-2, -4, 1], not [2, 0, 5], for [-1, -2, 0.5]
    y = x * 1
    z = y
    for v in x:
        if v > 0:
            z = z * 2
        y += 1
    return y, z


@pytest.mark.parametrize("fn", [alias_read_after_the_change, alias_kept_by_an_if])
def test_a_loop_variable_that_is_another_changed_in_place_and_used_as_it_was_is_an_error(fn):
    with pytest.raises(StagingError, match=r"test_adversarial_torch.py:\d+: 'z' is the same tensor as another "
                                           r"variable .*`z = z.clone\(\)`"):
        torch.export.export(module(fn), (X,))


# --- a module's buffer assigned in a staged branch ------------------------------------------------------------

class Counter(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("running", torch.zeros(3))
        self.register_buffer("count", torch.zeros((), dtype=torch.int64))

    def forward(self, x):
        if x.sum() > 0:
            self.running.mul_(0.5).add_(x)
            self.count += 1                # `self.count = ...` of a buffer: export failed, "proxy_mode must not be None"
        else:
            self.running -= x
        return x * self.running


class ConvertedCounter(Counter):
    forward = ag.convert(Counter.forward)


def test_an_exported_module_assigning_its_buffer_in_a_staged_branch_updates_it_as_eager_does():
    eager, staged = Counter(), ConvertedCounter()
    program = torch.export.export(staged, (X,)).module()
    for x in (X, X_OTHER, X):
        assert torch.equal(program(x.clone()), eager(x.clone()))
    buffers = dict(program.named_buffers())
    assert torch.equal(buffers["running"], eager.running) and torch.equal(buffers["count"], eager.count)


# --- gradients through a branch that changes a tensor in place ------------------------------------------------

def scaled_in_a_branch(x):
    y = x * 2
    if x.sum() > 0:
        y.mul_(3)                          # given back with y.copy_(...) after the cond, which saved `y` for backward
    return y.sum()


@pytest.mark.parametrize("stage", ["export", "compile"])
def test_the_gradient_through_a_branch_that_changes_a_tensor_in_place_is_eager_pytorchs(stage):
    # was "one of the variables needed for gradient computation has been modified by an inplace operation"
    torch._dynamo.reset()
    traced = X.clone().requires_grad_()
    staged = (torch.export.export(module(scaled_in_a_branch), (traced,)).module() if stage == "export"
              else torch.compile(module(scaled_in_a_branch), fullgraph=True, backend="aot_eager"))
    for x in (X, X_OTHER):
        got, want = x.clone().requires_grad_(), x.clone().requires_grad_()
        staged(got).backward()
        scaled_in_a_branch(want).backward()
        assert torch.equal(got.grad, want.grad)
