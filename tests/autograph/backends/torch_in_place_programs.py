"""The programs of test_torch_in_place.py: in-place updates and loop-counter indexing in staged torch branches
and loops, each a plain function of torch tensors (the tests run them eagerly, exported and compiled)."""
from __future__ import annotations

import torch


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
