"""Round 13 of Python's language reference against converted code: the iterator protocol and evaluation order
around staged statements. Each program runs as plain Python, converted on Python ints, and in `runtime.function`
on an int32 tensor; the traced run must give Python's answer or refuse with an autograph error at the
program's line.

Tracing runs both branches of a staged `if` (and a loop body once), so state that the statement changes outside
its variables is changed once, whatever the path. A change to an object a staged statement reads is found
after the trace (operators/snapshots.py), but only where the snapshot could see it: an iterator held in an
attribute or an item (`next(self.it)`, `next(its[0])`), a file in an attribute, an `itertools` iterator
(`count`, `cycle`, `islice`, `chain`, `tee`), an iterator of a slotted class, `iter(f, sentinel)`, a
slotted object's attributes, a random number generator (`random.Random`, the `random` module, NumPy's
global state and its `Generator`s), the object a bound method held in a variable changes (`add = log.append`,
`inc = counter.inc`, a `functools.partial`), and a list in a class's attribute that unconverted code fills
were all changed silently: `list(it)` after the statement missed the item the trace took on the path that
takes none, and the next random number was the one after the trace's.
"""
import functools
import io
import itertools
import random
import re

import numpy as np
import pytest

import runtime as tf
from autograph.errors import StagingError
from tests.autograph.generated_code import outcomes_agree
from tests.autograph.test_staged_language import outcome   # a result as Python values, or the error's type

INPUTS = (-3, 0, 2, 5)


class Holder:
    pass


class SlottedIterator:
    __slots__ = ("i",)

    def __init__(self):
        self.i = 0

    def __iter__(self):
        return self

    def __next__(self):
        self.i += 1
        return self.i


class Slotted:
    __slots__ = ("n",)

    def __init__(self):
        self.n = 0


def bump(o):
    o.n += 1
    return 1


# --- state a staged `if` changes where the snapshot did not look: refused ---------------------------------

def count_advanced(x):
    c = itertools.count()
    a = 0
    if x > 0:
        a = next(c)
    return a, next(c)


def cycle_advanced(x):
    c = itertools.cycle([1, 2, 3])
    a = 0
    if x > 0:
        a = next(c)
    return a, next(c)


def islice_advanced(x):
    c = itertools.islice([1, 2, 3, 4], 4)
    a = 0
    if x > 0:
        a = next(c)
    return a, list(c)


def chain_advanced(x):
    c = itertools.chain([1, 2], [3])
    a = 0
    if x > 0:
        a = next(c)
    return a, list(c)


def tee_advanced(x):
    c, _ = itertools.tee([1, 2, 3])
    a = 0
    if x > 0:
        a = next(c)
    return a, list(c)


def iterator_in_an_attribute(x):
    h = Holder()
    h.it = iter([1, 2, 3])
    a = 0
    if x > 0:
        a = next(h.it)
    return a, list(h.it)


def iterator_in_a_list(x):
    its = [iter([1, 2, 3])]
    a = 0
    if x > 0:
        a = next(its[0])
    return a, list(its[0])


def iterator_in_a_dict(x):
    its = {"k": iter([1, 2, 3])}
    a = 0
    if x > 0:
        a = next(its["k"])
    return a, list(its["k"])


def slotted_iterator(x):
    it = SlottedIterator()
    a = 0
    if x > 0:
        a = next(it)
    return a, next(it)


def callable_iterator(x):
    items = [1, 2, 3]
    it = iter(items.pop, 1)
    a = 0
    if x > 0:
        a = next(it)
    return a, items


def file_in_an_attribute(x):
    h = Holder()
    h.f = io.StringIO("a\nb\nc\n")
    line = ""
    if x > 0:
        line = h.f.readline()
    return line, h.f.read()


ITERATORS = [count_advanced, cycle_advanced, islice_advanced, chain_advanced, tee_advanced, iterator_in_an_attribute,
             iterator_in_a_list, iterator_in_a_dict, slotted_iterator, callable_iterator, file_in_an_attribute]


def refused(fn, pattern: str) -> str:
    """The traced run's StagingError, which names the program's line and matches `pattern`."""
    with pytest.raises(StagingError) as info:
        tf.function(fn)(tf.constant(-3))
    message = str(info.value)
    assert re.search(r"test_fidelity_round13\.py:\d+: ", message), message
    assert re.search(pattern, message), message
    return message


@pytest.mark.parametrize("fn", ITERATORS, ids=lambda fn: fn.__name__)
def test_an_iterator_or_file_a_staged_if_advances_is_refused_at_the_users_line(fn):
    outcomes_agree(fn, INPUTS, outcome)
    assert len({repr(outcome(lambda: fn(x))) for x in INPUTS}) > 1   # (the trace gave one answer on every path)
    refused(fn, r"the (iterator|file) '[\w.\[\]']+' (gives items|is read or written) inside this `if` on a tensor")


def test_the_iterator_is_named_as_the_user_reaches_it():
    assert "the iterator 'h.it'" in refused(iterator_in_an_attribute, "")
    assert "the iterator 'its[0]'" in refused(iterator_in_a_list, "")
    assert "the iterator 'its['k']'" in refused(iterator_in_a_dict, "")


def slotted_object_changed_by_a_helper(x):
    o = Slotted()
    a = 0
    if x > 0:
        a = bump(o)
    return a, o.n


def slotted_object_assigned_in_both_branches(x):
    o = Slotted()
    if x > 0:
        o.n = 5
    else:
        o.n = 7
    return o.n


def test_a_slotted_objects_attribute_a_helper_changes_is_refused_and_given_back():
    outcomes_agree(slotted_object_changed_by_a_helper, INPUTS, outcome)
    refused(slotted_object_changed_by_a_helper, r"`o\.n` is changed by a function called inside this `if`")


def test_a_slotted_objects_attribute_the_statement_assigns_is_carried():
    staged = tf.function(slotted_object_assigned_in_both_branches)
    assert [int(staged(tf.constant(x))) for x in INPUTS] == [slotted_object_assigned_in_both_branches(x)
                                                             for x in INPUTS] == [7, 7, 5, 5]


def test_a_refused_trace_gives_a_slotted_object_its_attributes_back():
    o = Slotted()

    def changes_o(x):
        if x > 0:
            bump(o)
        return x
    with pytest.raises(StagingError):
        tf.function(changes_o)(tf.constant(1))
    assert o.n == 0


# --- what a bound method, a partial or a class's container changes: refused ----------------------------------

class Counter:
    def __init__(self):
        self.n = 0

    def inc(self):
        self.n += 1
        return self.n


class Registry:
    items = []


def registered():
    Registry.items.append(1)   # a generator is not converted: its change is seen afterwards
    yield 1


def bound_method_of_an_object(x):
    c = Counter()
    inc = c.inc
    a = 0
    if x > 0:
        a = inc()
    return a, c.n


def bound_method_of_a_dict(x):
    d = {}
    put = d.setdefault
    if x > 0:
        put("k", 1)
    return len(d)


def partial_of_a_lists_append(x):
    out = []
    add = functools.partial(out.append)
    if x > 0:
        add(1)
    return len(out)


def class_attribute_list(x):
    Registry.items = []
    a = 0
    if x > 0:
        a = next(registered())
    return a, len(Registry.items)


@pytest.mark.parametrize("fn, what", [(bound_method_of_an_object, "`inc.__self__.n`"),
                                      (bound_method_of_a_dict, "`put.__self__['k']`"),
                                      (partial_of_a_lists_append, "the length of 'add.func.__self__'"),
                                      (class_attribute_list, "the length of 'Registry.items'")],
                         ids=lambda p: getattr(p, "__name__", ""))
def test_what_a_bound_method_or_partial_or_a_classs_container_changes_in_a_staged_if_is_refused(fn, what):
    outcomes_agree(fn, INPUTS, outcome)
    message = refused(fn, r"is changed by a function called inside this `if` on a tensor")
    assert message.split(": ", 1)[1].startswith(what), message   # (was: the change made once, on every path)


# --- an operand of a staged `and`, `or` or conditional expression: both are traced ------------------------------

def next_in_an_and(x):
    it = iter([1, 2, 3])
    r = x > 0 and next(it) > 0
    return r, list(it)


def drawn_in_a_conditional_expression(x):
    r = random.Random(0)
    v = r.random() if x > 0 else 0.0
    return v > 2, r.random()


def bound_method_in_a_conditional_expression(x):
    out = []
    add = out.append
    v = add(1) if x > 0 else None   # noqa: F841
    return len(out)


@pytest.mark.parametrize("fn, what", [(next_in_an_and, "the iterator 'it' gives items inside this `and`"),
                                      (drawn_in_a_conditional_expression, "the random number generator 'r' draws "
                                                                          "numbers inside this `if`/`else`"),
                                      (bound_method_in_a_conditional_expression, "the length of 'add.__self__' is "
                                                                                 "changed by a function called "
                                                                                 "inside this `if`/`else`")],
                         ids=lambda p: getattr(p, "__name__", ""))
def test_state_a_staged_operand_changes_through_a_variable_is_refused_at_the_users_line(fn, what):
    outcomes_agree(fn, INPUTS, outcome)
    assert what in refused(fn, "")   # (was: the operand's change made once, on both paths)


# --- random number generators drawn in a staged statement: refused ----------------------------------------

def generator_object(x):
    r = random.Random(0)
    a = 0.0
    if x > 0:
        a = r.random()
    return a, r.random()


def random_module(x):
    random.seed(3)
    a = 0.0
    if x > 0:
        a = random.random()
    return a, random.random()


def numpy_global_state(x):
    np.random.seed(3)
    a = 0.0
    if x > 0:
        a = float(np.random.rand())
    return a, float(np.random.rand())


def numpy_generator(x):
    g = np.random.default_rng(3)
    a = 0.0
    if x > 0:
        a = float(g.random())
    return a, float(g.random())


def drawn_in_a_loop(x):
    r = random.Random(1)
    i = 0
    s = 0.0
    while i < x:
        s += r.random()
        i += 1
    return s


@pytest.mark.parametrize("fn", [generator_object, random_module, numpy_global_state, numpy_generator, drawn_in_a_loop],
                         ids=lambda fn: fn.__name__)
def test_a_random_number_generator_drawn_in_a_staged_statement_is_refused_at_the_users_line(fn):
    outcomes_agree(fn, INPUTS, outcome)
    refused(fn, r"the random number generator '\w+' draws numbers inside this (`if`|`while` loop) on a tensor")


def test_the_frameworks_random_ops_in_a_staged_if_are_not_refused():
    @tf.function
    def noisy(x):
        if x > 0:
            y = tf.random.uniform([2]) + np.float32(1)
        else:
            y = tf.random.normal([2], seed=3) + np.ones(2, np.float32)
        return y
    assert noisy(tf.constant(1)).shape == (2,)


# --- the iterator protocol and evaluation order that staged statements keep --------------------------------

LOG = []


def logged(n):
    for i in range(n):
        LOG.append(i)
        yield i


def next_with_a_default_on_an_empty_iterator(x):
    it = iter([])
    a = 5
    if x > 0:
        a = next(it, 7)
    return a


def generator_with_effects_in_a_python_loop(x):
    LOG.clear()
    s = 0
    for v in logged(3):
        if v < x:
            s += v
    return s, list(LOG)


def for_else_on_a_staged_range(x):
    s = 0
    for i in tf.range(x):
        if i == 2:
            break
        s += i
    else:
        s += 100
    return s


def unequal_zip(x):
    s = 0
    for a, b in zip([1, 2, 3], [x, x + 1]):
        s += a * b
    return s


def reversed_in_a_staged_if(x):
    s = []
    for v in reversed([1, 2, 3]):
        if v > x:
            s.append(v)
        else:
            s.append(-v)
    return s


def subscript_store_order(x):
    order = []

    def f():
        order.append("f")
        return 0

    def g():
        order.append("g")
        return x
    a = [0, 0]
    a[f()] = g()
    return a, order == ["g", "f"]   # the value first, then the target's index, as Python's assignment does


def targets_left_to_right(x):
    a = [0, 0]
    i = 0
    i, a[i] = 1, x
    return a, i


def argument_order(x):
    order = []

    def f(v):
        order.append(v)
        return v
    return f(1) + f(x) + f(3), order


def chained_comparison_calls_once(x):
    calls = []

    def f():
        calls.append(1)
        return x
    if 0 < f() < 3:
        r = 1
    else:
        r = 2
    return r, len(calls)


def augmented_item_with_a_key_variable(x):
    d = {"a": 1, "b": 5}
    key = "a"
    if x > 0:
        d[key] += x
    else:
        d[key] -= 1
    return d["a"], d["b"]


def star_unpacking_a_tensor(x):
    t = tf.stack([x, x + 1, x + 2])
    a, *rest = t
    return a, len(rest)


def next_in_a_staged_test(x):
    it = iter([1, 2, 3])
    if next(it) > x:
        r = 1
    else:
        r = 2
    return r, list(it)


def walrus_of_next_in_a_staged_test(x):
    it = iter([1, 2, 3])
    if (n := next(it)) > x:
        r = n
    else:
        r = -n
    return r, list(it)


KEPT = [next_with_a_default_on_an_empty_iterator, generator_with_effects_in_a_python_loop, unequal_zip, reversed_in_a_staged_if, subscript_store_order, targets_left_to_right, argument_order,
        chained_comparison_calls_once, augmented_item_with_a_key_variable, next_in_a_staged_test,
        walrus_of_next_in_a_staged_test]


@pytest.mark.parametrize("fn", KEPT, ids=lambda fn: fn.__name__)
def test_the_iterator_protocol_and_evaluation_order_around_a_staged_statement_are_pythons(fn):
    outcomes_agree(fn, INPUTS, outcome)
    traced = tf.function(fn)
    for x in INPUTS:
        assert outcome(lambda: traced(tf.constant(x))) == outcome(lambda: fn(x)), x


def test_a_for_else_on_a_staged_range_runs_the_else_where_no_break_was_taken():
    traced = tf.function(for_else_on_a_staged_range)
    assert [int(traced(tf.constant(x))) for x in (0, 2, 5)] == [for_else_on_a_staged_range(x) for x in (0, 2, 5)] \
        == [100, 101, 1]


def test_star_unpacking_a_tensor_gives_its_first_row_and_the_rest():
    assert outcome(lambda: tf.function(star_unpacking_a_tensor)(tf.constant(4))) == (4, 2)
