"""Side effects in staged statements (test_staged_side_effects.py, continued): lists another variable holds
too (aliases) are refused, and what stays allowed."""

import pytest

import autograph as ag
import runtime as tf
from autograph.errors import StagingError
from tests.autograph.generated_code import python_run
from tests.autograph.side_effects_helpers import refused, staged
from tests.autograph.test_staged_side_effects import setattr_call, slice_store, update

pytestmark = pytest.mark.jit_twin   # every graph also runs under jit_compile=True (tests/jit_twin.py)


# --- lists another variable holds too (aliases) -------------------------------------------------------------

def alias_appended_in_both_branches(x):
    log = [0]
    entries = log
    if x > 0:
        entries.append(1)
    else:
        entries.append(2)
    return log[-1]


def alias_appended_in_a_loop(n):
    log = [0]
    entries = log
    for i in range(n):
        entries.append(i)
    return len(log)


def alias_in_an_outer_python_loop(n):
    log = [0]
    entries = log
    for i in range(2):
        if i < n:
            entries.append(i)
        else:
            entries.append(-i)
    return log[-1]


@pytest.mark.parametrize("fn, arg", [(alias_appended_in_both_branches, -3), (alias_appended_in_a_loop, 3),
                                     (alias_in_an_outer_python_loop, 1)])
def test_appending_to_a_list_another_variable_holds_is_refused(fn, arg):
    python_run(fn, arg)
    refused(fn, arg, "changes the list 'entries', which is also 'log'", "entries = list(log)")


def alias_extended_with_plus_equals_in_a_loop(n):
    log = [0]
    entries = log
    i = 0
    while i < n:
        entries += [i]   # extends the list in place, as append does
        i += 1
    return len(log)


def alias_extended_with_plus_equals_in_both_branches(x):
    log = [0]
    entries = log
    if x > 0:
        entries += [1]
    else:
        entries += [2]
    return log[-1]


@pytest.mark.parametrize("fn, arg", [(alias_extended_with_plus_equals_in_a_loop, 3),
                                     (alias_extended_with_plus_equals_in_both_branches, -3)])
def test_plus_equals_on_a_list_another_variable_holds_is_refused(fn, arg):
    """`entries += [i]` changes the list `log` holds too; the staged statement carried `entries` as a new list,
    so `log` stayed [0]: 1 where Python gives 4, silently."""
    python_run(fn, arg)
    refused(fn, arg, "`entries += ...` changes the list 'entries', which is also 'log'", "entries = list(log)")


def alias_extended_by_a_variable_in_both_branches(x):
    log = [0]
    entries = log
    ones, twos = [1], [2]
    if x > 0:
        entries += ones
    else:
        entries += twos
    return log[-1]


def alias_repeated_in_a_loop(n):
    log = [0]
    entries = log
    for i in range(n):
        entries *= 2
    return len(log)


@pytest.mark.parametrize("fn, arg, what", [(alias_extended_by_a_variable_in_both_branches, -3, "+="),
                                           (alias_repeated_in_a_loop, 2, "*=")])
def test_any_in_place_operator_on_a_list_another_variable_holds_is_refused(fn, arg, what):
    """Only `+=` of a display (`entries += [1]`) was checked: `entries += ones` left `log` at [0] (0 where Python
    gives 2), and `entries *= 2` was carried as a new list too (1 where Python gives 4), silently."""
    python_run(fn, arg)
    refused(fn, arg, f"`entries {what} ...` changes the list 'entries', which is also 'log'", "entries = list(log)")


def test_a_variable_only_numbers_are_assigned_to_keeps_its_plain_augmented_assignment():
    def f(xs):
        total = 0
        for x in xs:
            total += x
        return total

    assert "total += x\n" in ag.to_code(f)


def test_or_equals_on_a_dict_of_before_the_statement_is_refused():
    def f(x):
        d = {"a": 0}
        if x > 0:
            d |= {"a": 5}   # changed at trace time, on both paths
        return d["a"]

    assert python_run(f, -3) == 0
    refused(f, -3, "`d |= ...` changes an object that exists before this `if`")


def test_plus_equals_on_a_list_no_other_variable_holds_is_carried():
    def f(n):
        entries = [0]
        for i in range(n):
            entries += [i]
        return entries

    assert [int(v) for v in staged(f, 3)] == python_run(f, 3) == [0, 0, 1, 2]


def test_appending_to_a_list_held_in_another_list_is_refused():
    def f(x):
        rows = [[1], [2]]
        for row in rows:
            if x > 0:
                row.append(3)
            else:
                row.append(4)
        return rows[0][-1]

    assert python_run(f, 3) == 3
    refused(f, 3, "changes the list 'row', which is also an element of 'rows'", "row = list(row)")


def _fill(out, n):
    for i in range(n):
        out.append(i)


def _push_if(out, x):
    if x > 0:
        out.append(x)


def _drain(l, n):
    i = 0
    while i < n:
        l.pop()
        i += 1


@pytest.mark.parametrize("helper, what", [(_fill, "`.append(...)` changes the list 'out', which is also 'out'"),
                                          (_push_if, "`.append(...)` changes the list 'out', which is also 'out'"),
                                          (_drain, "`.pop(...)` changes the list 'l', which is also 'out'")])
def test_changing_a_list_the_caller_passed_in_is_refused(helper, what):
    def f(n):
        out = [7, 8, 9]
        helper(out, n)
        return len(out)

    assert python_run(f, 2) in (1, 4, 5)
    with pytest.raises(StagingError) as info:   # was 3: the helper carried a new list, `out` stayed [7, 8, 9]
        tf.function(f)(tf.constant(2))
    assert what in str(info.value) and "of its caller f" in str(info.value), info.value
    assert "return it to the caller" in str(info.value)


def test_a_list_the_helper_makes_from_its_argument_is_carried():
    def fill_copy(out, n):
        out = list(out)
        for i in range(n):
            out.append(i)
        return out

    def f(n):
        out = [7]
        out = fill_copy(out, n)
        return len(out)

    assert int(tf.function(f)(tf.constant(3))) == python_run(f, 3) == 4


# --- what stays allowed (guards: these pass without the change too; they check it refuses no more) ---------

def test_an_item_set_before_the_loop_is_carried():
    def f(n):
        d = {"k": 0}
        for i in range(n):
            d["k"] = i
        return d["k"]

    assert staged(f, 3) == python_run(f, 3) == 2


def existing_item(x):
    d = {"a": 1}
    if x > 0:
        d["a"] = 5
    return d["a"]


def test_an_existing_item_set_in_one_branch_is_carried():
    assert [staged(existing_item, x) for x in (3, -3)] == [python_run(existing_item, x) for x in (3, -3)] == [5, 1]


def test_changes_to_objects_made_in_the_branch_run():
    def f(x):
        if x > 0:
            l = [1, 2]
            l.insert(0, x)
            d = {}
            d.update(a=x)
        else:
            l = [3, 4]
            l.reverse()
            l.append(x)
            d = {"a": -x}
        return l[0] + d["a"]

    for x in (3, -3):
        assert staged(f, x) == python_run(f, x)


def test_a_fresh_dict_per_iteration_of_a_staged_loop_may_change():
    def f(n):
        total = 0
        for i in range(n):
            row = {}
            row.update(v=i)
            total += row["v"]
        return total

    assert staged(f, 4) == python_run(f, 4) == 6


def test_appending_to_a_list_the_loop_carries_still_works():
    def f(n):
        out = []
        for i in range(n):
            out.append(i * 2)
        return out

    assert staged(f, 3) == python_run(f, 3) == [0, 2, 4]


def test_changes_before_or_after_the_staged_statement_run():
    def f(x):
        d = {"a": 1}
        d.update(a=2)
        if x > 0:
            y = x
        else:
            y = -x
        d.update(b=3)
        return y + d["a"] + d["b"]

    assert staged(f, -4) == python_run(f, -4) == 9


def test_module_functions_with_mutator_names_are_not_refused():
    def f(x):
        m = tf
        if x > 0:
            y = m.add(x, 1)
        else:
            y = m.sort(tf.reshape(x, [1]))[0]
        return y

    assert staged(f, 3) == 4 and staged(f, -3) == -3


def test_generated_code_marks_the_changed_object():
    code = ag.to_code(update)
    assert "ag__.mutating(d, 'd.update(...)').update" in code
    assert "ag__.mutating(l, 'l[1:2] = ...')[1:2] = [7]" in ag.to_code(slice_store)
    assert "ag__.callee(setattr, fscope)(ag__.mutating(o, 'setattr(o, ...)'), 'v', 5)" in ag.to_code(setattr_call)
    assert "ag__.mutating" not in ag.to_code(existing_item)   # a constant key is carried


def test_rebinding_a_variable_that_held_an_aliased_list_is_not_refused():
    def f(x):
        log = [tf.constant(0)]
        entries = log
        if x > 0:
            entries = [x]
        else:
            entries = [-x]
        return entries[0] + log[0]

    assert staged(f, 3) == 3 and staged(f, -3) == 3


def test_methods_of_tensors_with_mutator_names_are_not_refused():
    """A framework's tensor may have an `add` or `sort` that makes a new tensor (torch's do): given one here."""
    def f(x):
        y = x
        if x > 0:
            z = y.add(1)
        else:
            z = y.add(2)
        return z

    tf.Tensor.add = lambda self, other: self + other
    try:
        assert staged(f, 3) == 4 and staged(f, -3) == -1
    finally:
        del tf.Tensor.add
