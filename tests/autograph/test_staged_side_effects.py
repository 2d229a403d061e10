"""Side effects in staged statements are carried or refused, never made once on every path (issue 14, item 4).

Each function runs on Python values through its generated code (the original's result) and on runtime
tensors in `runtime.function`: Python's result where the graph can give it, else a `StagingError` at the
line of the change that says what to do."""

import pytest

import runtime as tf
from autograph.errors import StagingError
from tests.autograph.generated_code import python_run
from tests.autograph.side_effects_helpers import Box, refused, staged

pytestmark = pytest.mark.jit_twin   # every graph also runs under jit_compile=True (tests/jit_twin.py)


# --- items and attributes the statement creates --------------------------------------------------------

def item_set_in_both_branches(x):
    d = {}
    if x > 0:
        d["b"] = 1
    else:
        d["b"] = -1
    return d["b"]


def attribute_set_in_both_branches(x):
    o = Box()
    if x > 0:
        o.v = x * 2
    else:
        o.v = -x
    return o.v


@pytest.mark.parametrize("fn", [item_set_in_both_branches, attribute_set_in_both_branches])
def test_an_item_or_attribute_the_if_creates_in_both_branches_is_carried(fn):
    assert [staged(fn, x) for x in (3, -3)] == [python_run(fn, x) for x in (3, -3)]


def test_the_created_item_is_there_after_the_if_and_only_its_value_changes():
    def f(x):
        d = {"keep": 7}
        if x > 0:
            d["new"] = x
        else:
            d["new"] = x * 10
        return d["keep"] + d["new"], len(d)

    for x in (2, -2):
        total, size = tf.function(f)(tf.constant(x))
        assert (total.numpy().item(), size) == f(x) == python_run(f, x)


def item_set_in_one_branch(x):
    d = {}
    if x > 0:
        d["b"] = 1
    return d.get("b", 0)


def test_an_item_created_in_only_one_branch_is_refused():
    assert python_run(item_set_in_one_branch, 3) == 1
    refused(item_set_in_one_branch, 3, "`d['b']` is set in only one branch", "or in the false branch too")


def test_an_attribute_created_in_only_one_branch_is_refused():
    def f(x):
        o = Box()
        if x > 0:
            pass
        else:
            o.v = 1
        return getattr(o, "v", 0)

    assert python_run(f, -1) == 1
    refused(f, -1, "`o.v` is set in only one branch", "set `o.v` before the `if`")


def item_first_set_in_a_loop(n):
    d = {}
    for i in range(n):
        d["k"] = i
    return d["k"]


def attribute_first_set_in_a_while(n):
    o = Box()
    i = 0
    while i < n:
        o.last = i
        i += 1
    return o.last


@pytest.mark.parametrize("fn, name, construct", [(item_first_set_in_a_loop, "`d['k']`", "`for` loop"),
                                                 (attribute_first_set_in_a_while, "`o.last`", "`while` loop")])
def test_an_item_or_attribute_first_set_in_a_staged_loop_is_refused(fn, name, construct):
    assert python_run(fn, 3) == 2
    refused(fn, 3, f"{name} is first set inside this {construct} over tensors", f"Set {name} before the loop")


def item_with_a_variable_key(x, key):
    d = {"a": 1}
    if x > 0:
        d[key] = 5
    return d["a"]


def item_created_with_a_variable_key(x, key):
    d = {}
    if x > 0:
        d[key] = 1
    else:
        d[key] = -1
    return d["b"]


def list_item_with_a_variable_index(x, i):
    l = [1, 2, 3]
    if x > 0:
        l[i] = 9
    return l[1]


def keyed_sum(n, key):
    d = {key: 0}
    for i in range(n):
        d[key] = d[key] + i
    return d[key]


@pytest.mark.parametrize("fn, key", [(item_with_a_variable_key, "a"), (item_created_with_a_variable_key, "b"),
                                     (list_item_with_a_variable_index, 1)])
def test_an_item_whose_key_is_a_variable_set_before_the_if_is_carried(fn, key):
    assert [staged(fn, x, key) for x in (3, -3)] == [python_run(fn, x, key) for x in (3, -3)]


def test_an_item_whose_key_is_a_variable_set_before_the_loop_is_carried():
    assert staged(keyed_sum, 4, "total") == python_run(keyed_sum, 4, "total") == 6


def test_an_item_whose_key_the_loop_changes_is_refused():
    def squares(n):
        d = {}
        for i in range(n):
            d[i] = i * i
        return len(d)

    assert python_run(squares, 3) == 3
    refused(squares, 3, "`d[i] = ...`", "Use a key the statement does not change")


def test_a_refused_branch_leaves_the_object_as_it_was():
    d = {}

    def f(x):
        if x > 0:
            d["b"] = 1
        return x

    with pytest.raises(StagingError):
        tf.function(f)(tf.constant(1))
    assert d == {}


# --- changes the statement can't carry: refused when staged, Python's on Python values ---------------------

def update(x):
    d = {"a": 1}
    if x > 0:
        d.update(a=5)
    return d["a"]


def pop_with_default(x):
    d = {"a": 1, "b": 2}
    if x > 0:
        d.pop("a", None)
    return len(d)


def pop_one_key(x):
    d = {"a": 1, "b": 2}
    if x > 0:
        d.pop("a")
    return len(d)


def setdefault(x):
    d = {"a": 1}
    if x > 0:
        d.setdefault("b", 2)
    return len(d)


def clear(x):
    d = {"a": 1}
    if x > 0:
        d.clear()
    return len(d)


def insert(x):
    l = [1, 2]
    if x > 0:
        l.insert(0, 9)
    return l[0]


def extend(x):
    l = [1]
    if x > 0:
        l.extend([5, 6])
    return len(l)


def remove(x):
    l = [1, 2]
    if x > 0:
        l.remove(1)
    return l[0]


def sort(x):
    l = [3, 1, 2]
    if x > 0:
        l.sort()
    return l[0]


def set_add(x):
    s = {1}
    if x > 0:
        s.add(2)
    return len(s)


def del_item(x):
    d = {"a": 1, "b": 2}
    if x > 0:
        del d["a"]
    return len(d)


def setattr_call(x):
    o = Box()
    o.v = 1
    if x > 0:
        setattr(o, "v", 5)
    return o.v


def delattr_call(x):
    o = Box()
    o.v = 1
    if x > 0:
        delattr(o, "v")
    return hasattr(o, "v")


def slice_store(x):
    l = [1, 2, 3]
    if x > 0:
        l[1:2] = [7]
    return l[1]


def attribute_chain(x):
    o = Box()
    o.items = [1]
    if x > 0:
        o.items.append(2)
    return len(o.items)


CHANGES = [
    (update, "`d.update(...)`", "d['a'] = 5"),
    (pop_with_default, "`d.pop(...)`", "Assign a new object without the item"),
    (pop_one_key, "`.pop(...)`", "Assign a new object without the item"),
    (setdefault, "`d.setdefault(...)`", "Set the items with constant keys"),
    (clear, "`d.clear(...)`", "Assign a new object without the item"),
    (insert, "`l.insert(...)`", "l = [9] + l"),
    (extend, "`l.extend(...)`", "l = l + more"),
    (remove, "`l.remove(...)`", "Assign a new object without the item"),
    (sort, "`l.sort(...)`", "l = sorted(l)"),
    (set_add, "`s.add(...)`", "Assign a new object"),
    (del_item, "`del d['a']`", "Keep the item"),
    (setattr_call, "`setattr(o, ...)`", "Write the attribute by name"),
    (delattr_call, "`delattr(o, ...)`", "Write the attribute by name"),
    (slice_store, "`l[1:2] = ...`", "Build a new list"),
    (attribute_chain, "`o.items.append(...)`", "Assign a new object"),
]


@pytest.mark.parametrize("fn, what, fix", CHANGES, ids=[c[0].__name__ for c in CHANGES])
def test_a_change_to_an_object_made_before_a_staged_if_is_refused(fn, what, fix):
    for x in (3, -3):
        python_run(fn, x)
    message = refused(fn, -3, what, "exists before this `if` on a tensor", fix)
    assert message.splitlines()[1].strip() != ""   # the line's source is shown


def dict_update_in_while(n):
    d = {"k": 0}
    i = 0
    while i < n:
        d.update(k=i)
        i += 1
    return d["k"]


def list_insert_in_for(n):
    l = [0]
    for i in range(n):
        l.insert(0, i)
    return len(l)


def set_add_in_for(n):
    seen = set()
    for i in range(n):
        seen.add(1)
    return len(seen)


@pytest.mark.parametrize("fn, what, construct", [(dict_update_in_while, "`d.update(...)`", "`while` loop"),
                                                 (list_insert_in_for, "`l.insert(...)`", "`for` loop"),
                                                 (set_add_in_for, "`seen.add(...)`", "`for` loop")])
def test_a_change_to_an_object_made_before_a_staged_loop_is_refused(fn, what, construct):
    python_run(fn, 3)
    refused(fn, 3, what, f"exists before this {construct} on a tensor")


def test_a_refused_change_is_not_caught_by_the_users_except():
    def f(x):
        d = {"a": 1}
        try:
            if x > 0:
                d.update(a=5)
        except Exception:
            return -1
        return d["a"]

    assert python_run(f, 3) == 5
    refused(f, 3, "`d.update(...)`")


def test_a_change_inside_a_python_if_inside_a_staged_loop_is_refused():
    def f(n, flag):
        d = {"a": 0}
        for i in range(n):
            if flag:
                d.update(a=1)
        return d["a"]

    assert python_run(f, 2, True) == 1
    with pytest.raises(StagingError, match=r"`d.update\(...\)` changes an object that exists before this `for`"):
        tf.function(f)(tf.constant(2), True)


def test_a_converted_helper_that_changes_its_argument_is_refused():
    def add_key(d):
        d.update(b=2)

    def f(x):
        d = {"a": 1}
        if x > 0:
            add_key(d)
        return len(d)

    assert python_run(f, -3) == 1
    refused(f, -3, "`d.update(...)`", "exists before this `if`")
