"""In-place updates and loop-counter indexing in staged torch branches and loops (issue 18, item 3).

torch's cond and while_loop reject branches and bodies that change their inputs ("body_fn might be modifying
the input!" in run_decompositions, torch.compile and ONNX export): the backend changes copies and gives the new
values back after the operator (torch_capture.py). `xs[i]` with a staged loop counter is rewritten to indexing
that traces (torch_index.py). Each program runs exported, exported and decomposed, and compiled, against eager
PyTorch on inputs other than the ones traced with."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install -e '.[torch]' to run the "
                                             "PyTorch backend tests)")

import autograph as ag  # noqa: E402
from autograph.errors import StagingError  # noqa: E402


def halve_until_small(x):              # docs/backends.md's Halver: `steps += 1` on a carried tensor
    steps = 0
    while x.abs().max() > 1:
        x = x / 2
        steps += 1
    return x, steps


def count_up(x):                       # a tensor made before the loop, changed in place
    acc = torch.zeros(())
    while acc < x.sum():
        acc += 1
    return acc


def add_in_branch(x):
    acc = x * 1
    if x.sum() > 0:
        acc += 1
    return acc


def add_without_assigning(x):          # `buf` is not assigned in the branch: the change is given back
    buf = x * 1
    if x.sum() > 0:
        buf.add_(1)
    return buf


def item_in_branch(x):                # `y[0]` is a variable of the `if` (autograph's composite names)
    y = x * 1
    if x.sum() > 0:
        y[0] += 1
    return y


def alias_sees_the_change(x):          # `alias` is the same tensor as `y`, as in Python
    y = x * 1
    alias = y
    if y.sum() > 0:
        y += 1
    return alias


# A Python number that a staged statement carried is a 0-d tensor from then on; `+=` on it must rebind, as on
# the number, not change the tensor in place, or an alias of it changes too (torch_aliasing.py's `_AfterStaging`)

def number_alias_after_if(x):
    n = 0
    if x.sum() > 0:
        n = 1
    m = n
    n += 1
    return x + m, x + n


def number_alias_in_loop(x):           # `n` is carried by the loop; `m` keeps the value before `+=`
    n = 0
    acc = x * 0
    while n < x.sum():
        m = n
        n += 1
        acc = acc + m
    return acc, x + n


def number_derived_from_a_carried_one(x):   # `k` is made from a number: a number too
    n = 0
    if x.sum() > 0:
        n = 2
    k = n * 3
    j = k
    k += 1
    j *= 2
    return x + j, x + k


def range_index_rebound(x, n):         # `i` of a range is an int in Python
    total = x * 0
    for i in range(n):
        j = i
        i += 10
        total = total + j + i
    return total


def tensor_of_a_number(x):            # torch.as_tensor(n) is a new tensor in Python: `+=` changes it in place
    n = 0
    if x.sum() > 0:
        n = 1
    t = torch.as_tensor(n)
    u = t
    t += 1
    return x + t, x + u, x + n


def number_in_one_branch(x):          # `n += 1` rebinds where `n` is a number, changes `n` (and `m`) elsewhere
    if x.sum() > 0:
        n = 1
    else:
        n = x.sum()
    m = n
    n += 1
    n *= 2
    return x + m, x + n



def number_in_one_branch_changed_in_a_later_if(x):   # the later `if` rebinds `n` where it is a number, and
    if x[0] > 0:                                       # changes `n` and `m` in place elsewhere
        n = 1
    else:
        n = x.sum()
    m = n
    if x[1] > 0:
        n += 1
    else:
        n *= 3
    if x[0] + x[1] > 0:
        if x[1] > 0:
            n -= 5
    return x + m, x + n


def computed_from_a_number_in_one_branch(x):   # `k` is a number where `n` is
    if x[0] > 0:
        n = 1
    else:
        n = x.sum()
    k = n * 2
    j = k
    k += 1
    i = -k
    h = i
    if x[1] > 0:
        i //= 2
    return x + j, x + k, x + h


def number_in_one_branch_rebound_in_a_later_if(x):   # `n * 3` is a number where `n` is, as `n` is
    if x[0] > 0:
        n = 1
    else:
        n = x.sum()
    if x[1] > 0:
        n = n * 3
    m = n
    n += 1
    return x + m, x + n


def number_in_one_branch_carried_by_a_loop(x, n):   # `k` stays a number where it was one before the loop
    if x[0] > 0:
        k = 1
    else:
        k = x.sum()
    i = 0
    while i < n:
        k = k + 1
        i += 1
    m = k
    k += 1
    return x + m, x + k


def number_in_one_branch_made_a_tensor_by_a_loop(x, n):   # ... where the loop ran no iteration
    if x[0] > 0:
        k = 1
    else:
        k = x.sum()
    for i in range(n):
        k = k + x[1]
    m = k
    k += 1
    return x + m, x + k


def number_made_by_a_loop(x, n):     # `j = 7` in the body: still a number
    j = 0
    if x[1] > 0:
        j = 1
    for i in range(n):
        j = 7
    h = j
    j += 1
    return x + h, x + j


def number_in_one_branch_made_a_number_by_a_loop(x, n):   # a number where the loop ran, or where it was one
    if x[0] > 0:
        k = 1
    else:
        k = x.sum()
    for i in range(n):
        k = 5
    m = k
    k += 1
    return x + m, x + k


def number_in_one_branch_carried_by_a_loop_in_a_branch(x, n):
    if x[0] > 0:
        k = 1
    else:
        k = x.sum()
    h = k
    if x[1] > 0:
        i = 0
        while i < n:
            k = k * 2
            i += 1
        m = k
        k += 1
        h = m
    return x + h, x + k


def number_in_one_branch_changed_in_place_in_a_loop(x, n):   # where `k` is a tensor, `k` and `m` change
    if x[0] > 0:
        k = 1
    else:
        k = x.sum()
    m = k
    for i in range(n):
        k += 1
        k *= 2
    return x + m, x + k


def number_in_one_branch_changed_in_an_if_in_a_loop(x, n):
    if x[0] > 0:
        k = 1
    else:
        k = x.sum()
    m = k
    acc = x * 0
    i = 0
    while i < n:
        j = k
        if x[1] > i:
            k -= 1
        acc = acc + j
        i += 1
    return x + m, x + k, acc


def number_in_one_branch_changed_in_nested_loops(x, n):
    if x[0] > 0:
        k = 1
    else:
        k = x.sum()
    m = k
    for i in range(n):
        for j in range(n):
            k += 1
    return x + m, x + k

def count_then_alias(xs):
    count = 0
    for r in xs:
        if r > 0:
            count += 1
    before = count
    count += 1
    return xs * before, xs * count


# A tensor a staged `if` may have kept is a new tensor after it; an in-place change of it, or of the tensor it
# may be, reaches the other where the branch that kept it was taken, as in Python (`note_kept`)

def kept_then_changed(x):
    y = x * 3
    m = y
    if x.sum() > 0:
        y = y * 2
    y += 1
    return y, m


def kept_and_the_original_changed(x):
    y = x * 3
    m = y
    if x.sum() > 0:
        y = y * 2
    m[0] = 7
    return y, m


def kept_then_changed_through_a_view(x):
    y = x * 3
    m = y
    if x.sum() > 0:
        y = y * 2
    r = y[0]
    r += 5
    s = m[1]
    s -= 1
    return y, m


def kept_by_two_ifs(x):               # `y` may be `k`, which may be `m`
    y = x * 3
    m = y
    if x[0] > 0:
        y = y * 2
    k = y
    if x[1] > 0:
        y = y + 1
    y += 10
    return y, m, k


def kept_inside_a_branch(x):          # the inner `if` may keep `y`, made in the branch
    if x[0] > 0:
        y = x * 3
        m = y
        if x[1] > 0:
            y = y * 2
        y += 1
        out = m * 1
    else:
        out = x * 0
    return out


def kept_by_an_inner_if(x):          # `y` after the outer `if` is `m` where `x[0] <= 0 or x[1] <= 0`
    y = x * 3
    m = y
    if x[0] > 0:
        if x[1] > 0:
            y = y * 2
    y += 1
    return y, m


def kept_on_a_condition_from_outside(x):   # the inner `if` keeps `y` where `c`, read from outside the branch
    c = x[1] > 0
    y = x * 3
    m = y
    if x[0] > 0:
        if c:
            z = 1
        else:
            y = y * 2
        y += 1
    return y, m


def kept_from_outside_a_branch(x):    # ... or `y`, from before it: changed on a copy, given back after it
    y = x * 3
    m = y
    if x[0] > 0:
        if x[1] > 0:
            y = y * 2
        y += 1
        y = y * 1
    return y, m


def kept_in_a_loop_body(x, n):       # `z`, from before the loop, changes where the `if` kept it
    z = x * 1
    acc = x * 0
    for i in range(n):
        y = z
        if x[0] > i:
            y = y * 2
        y += 1
        acc = acc + y
    return z, acc


def kept_made_in_a_loop_body(x, n):
    acc = x * 0
    for i in range(n):
        y = x * 3
        m = y
        if x[0] > i:
            y = y * 2
        y += 1
        acc = acc + m
    return acc


def one_of_two_kept(a):
    b, c = a * 2, a * 3
    if a.sum() > 0:
        y = b
    else:
        y = c
    y += 1
    return b, c, y


def kept_by_a_loop_that_did_not_run(x):   # after no iteration, `y` is `m` itself
    y = x * 1
    m = y
    while y.sum() < 0:
        y = y * 0.5 + 1
    y += 1
    return y, m


def kept_by_a_range_loop(x, n):
    y = x * 1
    m = y
    for i in range(n):
        y = y + i
    m += 1
    return y, m


def kept_by_a_loop_in_a_branch(x, n):     # after no iteration, `y` is `m` itself, in the branch and after it
    y = x * 1
    m = y
    if x[0] > 0:
        i = 0
        while i < n:
            y = y * 2
            i += 1
        y += 1
    m += 1
    return y, m


def kept_by_a_range_loop_in_two_branches(x, n):
    y = x * 1
    m = y
    if x[0] > 0:
        if x[1] > 0:
            for i in range(n):
                y = y + i
            y[0] = 7.0
    y.add_(1)
    return y, m

# A loop variable that starts as a tensor the loop also reads from outside (`v = a`; fuzz mode x, seeds 52187
# and 52207): the loop read its trace-time value, a constant (a wrong value, or torch's data-dependent error)

def starts_as_a_tensor_it_reads(a):
    v = a
    n = 0
    while n < a.sum() % 3:
        n += 1
        v = v + a
    return v


def range_loop_starts_as_a_tensor_it_reads(a):
    v = a
    for _ in range(int_bound(a)):
        v = a + 2
    return v


def int_bound(a):
    return (a.sum() % 3).to(torch.int64)


def walrus_in_a_loop_test_after_a_return(a):    # fuzz mode x, seed 53794: `x` is read before the `:=`
    x = a
    if a.sum() > -2:
        return a * 0
    n = 0
    while n > 0 and (x := a * 4).sum() > 4:
        pass
    x = x + 1
    return x


def fill(xs, n):                       # preallocate and fill: `out` is carried although not assigned
    out = torch.zeros(4)
    for i in range(n):
        out[i] = xs[i] * 2
    return out


def gather(xs, n):
    total = torch.zeros(())
    for i in range(n):
        total = total + xs[i]
    return total


def from_the_end(xs, n):
    total = torch.zeros(())
    for i in range(n):
        total = total + xs[-1 - i]
    return total


def column(a, n):
    out = torch.zeros(a.shape[0])
    for i in range(n):
        out = out + a[:, i]
    return out


def augmented_item(xs, n):
    ys = xs.clone()
    for i in range(n):
        ys[i] += 10
    return ys


def row_changed_in_place(xs, n):       # `row` is a copy; its change is written back into `ys[i]`
    ys = xs.clone()
    for i in range(n):
        row = ys[i]
        row += 1
    return ys


def nested(a, n):
    total = torch.zeros(())
    for i in range(n):
        for j in range(n):
            total = total + a[i, j] * (i + 1)
    return total




def on_paths(fn, *args) -> list:
    """(fn, arguments to trace with, arguments to run with) for each two consecutive `args`."""
    return [(fn, traced, run) for traced, run in zip(args, args[1:])]


X = torch.tensor([3.0, -8.0])
XS, A = torch.tensor([1.0, 2.0, 4.0, 8.0]), torch.arange(16.0).reshape(4, 4)
N_TRACED, N_RUN = torch.tensor(2), torch.tensor(3)
T, N_0 = torch.tensor, torch.tensor(0)
SIGNS = [(T([1.0, 2.0]),), (T([-1.0, 3.0]),), (T([2.0, -4.0]),), (T([-2.0, -3.0]),)]   # every path of two `if`s
SIGNS_AND_COUNTS = [(T([1.0, 2.0]), N_TRACED), (T([-1.0, 3.0]), N_RUN), (T([2.0, -4.0]), N_0),
                    (T([-2.0, 3.0]), N_TRACED), (T([2.0, 3.0]), N_0)]
PROGRAMS = [   # (function, arguments to trace with, arguments to run with)
    (halve_until_small, (X,), (torch.tensor([100.0, 1.0]),)),
    (count_up, (torch.tensor([2.5]),), (torch.tensor([4.5]),)),
    (add_in_branch, (torch.tensor([1.0]),), (torch.tensor([-1.0]),)),
    (add_in_branch, (torch.tensor([1.0]),), (torch.tensor([2.0]),)),
    (add_without_assigning, (torch.tensor([1.0]),), (torch.tensor([2.0]),)),
    (alias_sees_the_change, (torch.tensor([1.0]),), (torch.tensor([2.0]),)),
    (item_in_branch, (torch.tensor([1.0, 2.0]),), (torch.tensor([3.0, 2.0]),)),
    (fill, (XS, N_TRACED), (XS, N_RUN)),
    (gather, (XS, N_TRACED), (XS, N_RUN)),
    (from_the_end, (XS, N_TRACED), (XS, N_RUN)),
    (column, (A, N_TRACED), (A, N_RUN)),
    (augmented_item, (XS, N_TRACED), (XS, N_RUN)),
    (row_changed_in_place, (A, N_TRACED), (A, N_RUN)),
    (number_alias_after_if, (torch.tensor([1.0]),), (torch.tensor([-1.0]),)),
    (number_alias_after_if, (torch.tensor([-1.0]),), (torch.tensor([2.0]),)),
    (number_alias_in_loop, (torch.tensor([2.5]),), (torch.tensor([4.5]),)),
    (number_derived_from_a_carried_one, (torch.tensor([1.0]),), (torch.tensor([-1.0]),)),
    (number_derived_from_a_carried_one, (torch.tensor([-1.0]),), (torch.tensor([1.0]),)),
    (range_index_rebound, (XS, N_TRACED), (XS, N_RUN)),
    (count_then_alias, (torch.tensor([1.0, -2.0, 3.0]),), (torch.tensor([1.0, 2.0, 3.0]),)),
    (kept_then_changed, (torch.tensor([1.0, 2.0]),), (torch.tensor([-1.0, -2.0]),)),
    (kept_then_changed, (torch.tensor([-1.0, -2.0]),), (torch.tensor([1.0, 2.0]),)),
    (kept_and_the_original_changed, (torch.tensor([1.0, 2.0]),), (torch.tensor([-1.0, -2.0]),)),
    (tensor_of_a_number, (torch.tensor([1.0]),), (torch.tensor([-1.0]),)),
    (number_in_one_branch, (torch.tensor([1.0, 2.0]),), (torch.tensor([-1.0, -2.0]),)),
    (number_in_one_branch, (torch.tensor([-1.0, -2.0]),), (torch.tensor([1.0, 2.0]),)),
    *on_paths(number_in_one_branch_changed_in_a_later_if, *SIGNS),
    *on_paths(computed_from_a_number_in_one_branch, *SIGNS),
    *on_paths(number_in_one_branch_rebound_in_a_later_if, *SIGNS),
    *on_paths(number_in_one_branch_carried_by_a_loop, *SIGNS_AND_COUNTS),
    *on_paths(number_in_one_branch_made_a_tensor_by_a_loop, *SIGNS_AND_COUNTS),
    *on_paths(number_made_by_a_loop, *SIGNS_AND_COUNTS),
    *on_paths(number_in_one_branch_changed_in_place_in_a_loop, *SIGNS_AND_COUNTS),
    *on_paths(number_in_one_branch_changed_in_an_if_in_a_loop, *SIGNS_AND_COUNTS),
    (kept_then_changed_through_a_view, (torch.tensor([1.0, 2.0]),), (torch.tensor([-1.0, -2.0]),)),
    (kept_then_changed_through_a_view, (torch.tensor([-1.0, -2.0]),), (torch.tensor([1.0, 2.0]),)),
    (kept_by_two_ifs, (torch.tensor([1.0, 2.0]),), (torch.tensor([-1.0, -2.0]),)),
    (kept_by_two_ifs, (torch.tensor([-1.0, 2.0]),), (torch.tensor([1.0, -2.0]),)),
    (kept_inside_a_branch, (torch.tensor([1.0, 2.0]),), (torch.tensor([1.0, -2.0]),)),
    (kept_from_outside_a_branch, (torch.tensor([1.0, 2.0]),), (torch.tensor([1.0, -2.0]),)),
    (kept_by_an_inner_if, (torch.tensor([1.0, 2.0]),), (torch.tensor([1.0, -2.0]),)),
    (kept_on_a_condition_from_outside, (torch.tensor([1.0, 2.0]),), (torch.tensor([1.0, -2.0]),)),
    (kept_by_an_inner_if, (torch.tensor([-1.0, 2.0]),), (torch.tensor([1.0, 2.0]),)),
    (kept_in_a_loop_body, (torch.tensor([1.0, 2.0]), N_TRACED), (torch.tensor([2.0, 2.0]), N_RUN)),
    (kept_made_in_a_loop_body, (torch.tensor([1.0, 2.0]), N_TRACED), (torch.tensor([2.0, 2.0]), N_RUN)),
    (one_of_two_kept, (torch.tensor([1.0]),), (torch.tensor([-1.0]),)),
    (one_of_two_kept, (torch.tensor([-1.0]),), (torch.tensor([1.0]),)),
    (kept_by_a_loop_that_did_not_run, (torch.tensor([-1.0]),), (torch.tensor([1.0]),)),
    (kept_by_a_loop_that_did_not_run, (torch.tensor([1.0]),), (torch.tensor([-3.0]),)),
    (kept_by_a_range_loop, (XS, N_TRACED), (XS, torch.tensor(0))),
    (kept_by_a_range_loop, (XS, torch.tensor(0)), (XS, N_RUN)),
    (starts_as_a_tensor_it_reads, (torch.tensor([0.0]),), (torch.tensor([5.0]),)),
    (range_loop_starts_as_a_tensor_it_reads, (torch.tensor([0.0]),), (torch.tensor([4.0]),)),
    (walrus_in_a_loop_test_after_a_return, (torch.tensor([0.0]),), (torch.tensor([-4.0]),)),
]
IDS = [f"{fn.__name__}-{n}" for n, (fn, _, _) in enumerate(PROGRAMS)]
NOT_DECOMPOSED = [   # run_decompositions fails inside PyTorch ("Attempting to use FunctionalTensor on its own"):
                     # a staged loop inside a staged `if` (see test_nested_loops_...), a float number lifted in a body
    (kept_by_a_loop_in_a_branch, (torch.tensor([1.0]), N_TRACED), (torch.tensor([1.0]), torch.tensor(0))),
    (kept_by_a_loop_in_a_branch, (torch.tensor([1.0]), torch.tensor(0)), (torch.tensor([1.0]), N_RUN)),
    (kept_by_a_loop_in_a_branch, (torch.tensor([1.0]), N_TRACED), (torch.tensor([-1.0]), N_RUN)),
    (kept_by_a_range_loop_in_two_branches, (torch.tensor([1.0, 1.0]), N_TRACED),
     (torch.tensor([1.0, 1.0]), torch.tensor(0))),
    (kept_by_a_range_loop_in_two_branches, (torch.tensor([1.0, -1.0]), torch.tensor(0)),
     (torch.tensor([1.0, 1.0]), N_RUN)),
    *on_paths(number_in_one_branch_carried_by_a_loop_in_a_branch, *SIGNS_AND_COUNTS),
    *on_paths(number_in_one_branch_made_a_number_by_a_loop, *SIGNS_AND_COUNTS),
    *on_paths(number_in_one_branch_changed_in_nested_loops, *SIGNS_AND_COUNTS),
]
NOT_DECOMPOSED_IDS = [f"{fn.__name__}-{n}" for n, (fn, _, _) in enumerate(NOT_DECOMPOSED)]


def module(fn):
    class Model(torch.nn.Module):
        forward = staticmethod(ag.convert(fn))
    return Model()


def same(got, want) -> bool:
    got, want = (got if isinstance(got, tuple) else (got,)), (want if isinstance(want, tuple) else (want,))
    return len(got) == len(want) and all(torch.equal(torch.as_tensor(a), torch.as_tensor(b))
                                         for a, b in zip(got, want))


def fresh(args):
    return tuple(a.clone() for a in args)


@pytest.mark.parametrize("fn, traced, run", PROGRAMS, ids=IDS)
def test_exported_and_decomposed_programs_agree_with_eager(fn, traced, run):
    program = torch.export.export(module(fn), fresh(traced))
    assert same(program.module()(*fresh(run)), fn(*fresh(run)))
    assert same(program.run_decompositions().module()(*fresh(run)), fn(*fresh(run)))   # was "body_fn might be
                                                                                      # modifying the input!"


@pytest.mark.parametrize("fn, traced, run", PROGRAMS, ids=IDS)
def test_compiled_programs_agree_with_eager(fn, traced, run):
    compiled = torch.compile(module(fn), fullgraph=True, backend="aot_eager")
    assert same(compiled(*fresh(traced)), fn(*fresh(traced)))
    assert same(compiled(*fresh(run)), fn(*fresh(run)))


@pytest.mark.parametrize("fn, traced, run", NOT_DECOMPOSED, ids=NOT_DECOMPOSED_IDS)
def test_exported_and_compiled_programs_agree_with_eager(fn, traced, run):
    program = torch.export.export(module(fn), fresh(traced))
    assert same(program.module()(*fresh(run)), fn(*fresh(run)))
    compiled = torch.compile(module(fn), fullgraph=True, backend="aot_eager")
    assert same(compiled(*fresh(traced)), fn(*fresh(traced)))
    assert same(compiled(*fresh(run)), fn(*fresh(run)))     # was "cond_fn might be aliasing the input"


def test_the_numbers_mode_ends_with_the_converted_function():
    """The mode that makes `+=` on a carried number rebind is in force until the converted function returns."""
    from torch.overrides import _get_current_function_mode_stack

    from autograph.backends import torch_aliasing

    program = torch.export.export(module(number_alias_after_if), (torch.tensor([1.0]),))
    assert not any(isinstance(m, torch_aliasing._AfterStaging) for m in _get_current_function_mode_stack())
    assert not torch_aliasing._numbers() and not torch_aliasing.local.kept and not torch_aliasing.local.partly
    assert program.module()(torch.tensor([-1.0]))[0].tolist() == [-1.0]


def test_an_argument_a_staged_if_may_have_kept_is_changed_as_python_would():
    def bump_unless_doubled(x):
        y = x
        if x.sum() > 0:
            y = y * 2
        y += 1
        return y * 1

    program = torch.export.export(module(bump_unless_doubled), (torch.tensor([1.0]),))
    for value, changed in ((-1.0, 0.0), (1.0, 1.0)):      # kept (the input changes too), and replaced
        x = torch.tensor([value])
        assert same(program.module()(x), bump_unless_doubled(torch.tensor([value]))) and x.tolist() == [changed]


@pytest.mark.parametrize("operator", ["and", "or"])
def test_an_operand_a_staged_and_or_gives_is_changed_in_place_as_eager_torch_changes_it(operator):
    """`u = x and y` is `x` itself where `x` is false (fuzz seed 93713): `u -= 1` changes `x` there, as in eager
    torch (the cond's copy of `x` used to change alone)."""
    def pick_and_decrement(x, y):
        u = (x and y) if operator == "and" else (x or y)
        u -= 1
        return x * 1, u * 1

    program = torch.export.export(module(pick_and_decrement), (torch.tensor(0), torch.tensor(5)))
    for a, b in ((0, 5), (3, 5)):
        got = program.module()(torch.tensor(a), torch.tensor(b))
        assert same(got, pick_and_decrement(torch.tensor(a), torch.tensor(b))), (a, b)


def test_nested_loops_index_with_both_counters():
    """Exported and compiled (run_decompositions of nested staged loops fails inside PyTorch, with or without
    indexing: 'Attempting to use FunctionalTensor on its own')."""
    program = torch.export.export(module(nested), (A, N_TRACED))
    assert same(program.module()(A, N_RUN), nested(A, N_RUN))
    assert same(torch.compile(module(nested), fullgraph=True, backend="aot_eager")(A, N_RUN), nested(A, N_RUN))


def test_the_input_is_changed_as_python_would():
    """A function that changes its argument in place in a staged loop changes the exported program's input too."""
    def bump(x):
        while x.sum() < 10:
            x += 1
        return x * 1

    program = torch.export.export(module(bump), (torch.tensor([1.0, 2.0]),))
    x, expected = torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0])
    assert same(program.module()(x), bump(expected)) and same(x, expected) and x.tolist() == [5.0, 6.0]


def test_the_traced_inputs_are_not_changed_while_tracing():
    x = torch.tensor([1.0])
    torch.export.export(module(add_without_assigning), (x,))
    assert x.tolist() == [1.0]


def test_a_change_through_a_view_of_a_tensor_from_outside_changes_the_tensor():
    def through_view(x):
        y = x * 1
        if x.sum() > 0:
            row = y[0]                 # a view of `y` (a Python int index), changed in place: `y` changes
            row += 1
        return y

    program = torch.export.export(module(through_view), (torch.tensor([1.0, 2.0]),)).module()
    for x in (torch.tensor([1.0, 2.0]), torch.tensor([-1.0, -2.0])):
        assert same(program(x), through_view(x))


def test_a_change_through_a_view_from_outside_of_a_tensor_not_read_there_is_an_error_at_the_users_line():
    def through_view(x):
        y = x * 1
        row = y[0]
        if x.sum() > 0:
            row += 1                   # `y` is not read in the branch: it can't be given the change
        return y

    with pytest.raises(StagingError, match=r"test_torch_in_place.py:\d+.*`x\[0\] = x\[0\] \+ 1`"):
        torch.export.export(module(through_view), (torch.tensor([1.0, 2.0]),))


def test_a_loop_variable_changed_in_place_then_reassigned_is_an_error():
    def mixed(x):
        acc = x * 1
        while acc.sum() < 10:
            acc += 1
            acc = acc * 2
        return acc

    with pytest.raises(StagingError, match="'acc' is changed in place .* and then reassigned"):
        torch.export.export(module(mixed), (torch.tensor([1.0]),))


def test_a_loop_variable_a_staged_if_in_the_body_may_have_kept_and_changed_in_place_is_an_error():
    def keep_or_double(x, n):
        y = x * 3
        acc = x * 0
        for _ in range(n):
            m = y
            if x[0] > 0:
                y = y * 2
            y += 1             # changes `m` too where the `if` kept `y`, and `m` is the loop's `y`
            acc = acc + m
        return y, acc

    with pytest.raises(StagingError, match=r"test_torch_in_place.py:\d+: 'y' is changed in place \(`add_`\) and then "
                                           r"reassigned"):
        torch.export.export(module(keep_or_double), (torch.tensor([1.0, 2.0]), N_TRACED))


def test_a_number_in_one_branch_changed_in_place_and_rebound_in_a_loop_body_is_an_error():
    """Where `n` is a tensor, `n += 1` changes it (and `m`) in place, and `n = n * 2` makes a new one: the loop
    can't carry both (it was a wrong `m`)."""
    def bump_or_double(x, k):
        if x[0] > 0:
            n = 1
        else:
            n = x.sum()
        m = n
        for i in range(k):
            if x[1] > i:
                n += 1
            else:
                n = n * 2
        return x + m, x + n

    with pytest.raises(StagingError, match=r"test_torch_in_place.py:\d+: 'n' is changed in place \(`copy_`\) where "
                                           r"it is a tensor .*\(`n = n \+ \.\.\.`"):
        torch.export.export(module(bump_or_double), (torch.tensor([1.0, 2.0]), N_TRACED))


def test_a_loop_body_that_makes_a_number_in_one_branch_one_elsewhere_is_an_error():
    """Where the loop's `n` is a number would change from one iteration to the next (it was a wrong `m`)."""
    def maybe_reset(x, k):
        if x[0] > 0:
            n = 1
        else:
            n = x.sum()
        for i in range(k):
            if x[1] > i:
                n = 1
        m = n
        n += 1
        return x + m, x + n

    with pytest.raises(StagingError, match=r"test_torch_in_place.py:\d+: 'n' is a Python number on some paths only "
                                           r"before this `for` loop .*`n = torch.as_tensor\(n\)`"):
        torch.export.export(module(maybe_reset), (torch.tensor([1.0, 2.0]), N_TRACED))


def test_the_max_of_numbers_is_a_number():
    """Exported only: torch.compile can't trace `max` of a tensor (a data-dependent guard)."""
    def larger_then_bump(x):
        n = 1
        if x.sum() > 0:
            n = 3
        k = max(n, 2)              # export makes it a clamp, of numbers alone: a number
        j = k
        k += 1
        return x + j, x + k

    program = torch.export.export(module(larger_then_bump), (torch.tensor([1.0]),))
    for value in (1.0, -1.0):
        assert same(program.module()(torch.tensor([value])), larger_then_bump(torch.tensor([value])))


def test_an_in_place_change_of_a_view_a_branch_gave_is_an_error_at_the_users_line():
    def pick_and_bump(x):
        y = x * 1
        if x.sum() > 0:
            n = y[0]
        else:
            n = y[1]
        n += 1                 # changes `y` in Python; after the `if`, `n` is a new tensor
        return y

    with pytest.raises(StagingError, match=r"test_torch_in_place.py:\d+: .*gave as a view of another tensor"):
        torch.export.export(module(pick_and_bump), (torch.tensor([1.0, 2.0]),))


def test_the_onnx_export_of_the_docs_examples_runs_in_onnxruntime():
    pytest.importorskip("onnxscript", reason="torch.onnx.export(dynamo=True) needs onnxscript (pip install "
                                             "onnxscript)")
    ort = pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    import numpy as np

    class Gate(torch.nn.Module):
        @ag.convert
        def forward(self, x):
            if x.sum() > 0:
                return x * 2
            return x - 1

    for model, traced, runs in ((module(halve_until_small), [3.0, -8.0], ([100.0, 1.0], [0.5, 0.2])),
                                (Gate(), [1.0, 2.0], ([-3.0, 1.0], [1.0, 2.0]))):
        onnx_program = torch.onnx.export(model, (torch.tensor(traced),), dynamo=True)
        session = ort.InferenceSession(onnx_program.model_proto.SerializeToString())
        for x in runs:
            got = session.run(None, {session.get_inputs()[0].name: np.array(x, dtype=np.float32)})
            assert same(tuple(torch.as_tensor(g) for g in got), model(torch.tensor(x)))


def count_to(k):                  # a generator: autograph does not convert it
    for i in range(k):            # <- here: `k` is a traced tensor
        yield i


@pytest.mark.parametrize("staged_before", [False, True], ids=["in-a-branch", "after-an-if"])
def test_torchs_data_dependent_error_in_an_unconverted_helper_names_the_users_line(staged_before):
    """torch names the frame that called the op as the one that raised it: ours, where a branch is traced or
    after a staged statement (fuzz mode x, seed 53730); the note names the user's."""
    from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode

    def in_a_branch(a, b):
        y = a + 2
        if b > 0:
            y = y + sum(count_to(y % 3))
        return y

    def after_an_if(a, b):
        y = a + 2
        if b > 0:
            y = y * 2
        return sum(count_to(y % 3))

    fn = after_an_if if staged_before else in_a_branch
    with pytest.raises(GuardOnDataDependentSymNode) as raised:
        torch.export.export(module(fn), (torch.tensor(0), torch.tensor(0)))
    line = count_to.__code__.co_firstlineno + 1
    assert any(note.startswith(f"{__file__}:{line}: (autograph) a traced tensor is used as a Python value")
               for note in raised.value.__notes__)
