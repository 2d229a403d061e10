"""Round 12 of Python's language reference against converted code: programs whose traced run gave a wrong
value (or a wrong error) without an autograph error. Each is run as plain Python, converted on Python ints,
and in `runtime.function` on an int32 tensor; the traced run must give Python's answer or refuse with an
autograph error at the program's line.

A variable a staged `if` or loop assigns on some paths only is carried as a placeholder and a flag, checked
where an operation reads it (`y + 1`). A load that only passed it on (`z = y`, a bare `y`, `f(y)`, `[y]`,
`return y` from a helper whose result is unused, a default `def f(a=y)`) checked nothing: where Python raises
UnboundLocalError at the load, the graph went on and returned a value. `del y` was not counted as a read,
so the statement before it did not carry `y`, and the `del` failed on every path. A name an `except ... as e`
unbinds in a staged branch was taken to keep its value. The converter now makes such loads `ag__.ld(y)`
(converters/unbound_loads.py), checked where Python raises.

Also: a mutable default of a helper (`def add(v, acc=[])`) changed in both traced branches of an `if`
(the false branch saw the true branch's append); `x or None` on a tensor raised a TypeError naming no line
of the user's; a variable None on some paths as a set member or a dict key was hashed as an object, so
`r in {None}` was False where Python gives True.
"""
import re

import pytest

import autograph as ag
import runtime as tf
from autograph.errors import StagingError
from tests.autograph.generated_code import outcomes_agree
from tests.autograph.test_staged_language import outcome   # a result as Python values, or the error's type

INPUTS = (-3, 0, 2, 5)


# --- loads that pass a variable on, where a staged `if` or loop may leave it unassigned ----------------------

def ignore(v):
    return 1


def copied(n):
    if n > 0:
        w = n
    z = w   # noqa: F841 - the load is the point: Python raises here
    return 1


def bare_name(n):
    if n > 0:
        w = n
    w
    return 1


def in_a_list(n):
    if n > 0:
        w = n
    pair = [w, 1]
    return pair[1]


def as_an_argument(n):
    if n > 0:
        w = n
    return ignore(w)


def unpacked(n):
    if n > 0:
        w = n
    a, b = w, 2   # noqa: F841
    return b


def after_a_loop(n):
    i = 0
    while i < n:
        w = i
        i += 1
    z = w   # noqa: F841
    return i


def maybe_returned(n):
    if n > 0:
        w = n
    return w


def helper_result_unused(n):
    maybe_returned(n)
    return 1


def as_a_default(n):
    if n > 0:
        w = n
    def f(a=w):
        return 1
    return f()


def deleted(n):
    if n > 0:
        w = n
    del w
    return 1


def deleted_in_a_branch_then_read(n):
    y = 1
    if n > 0:
        del y
    return y


def read_by_a_nested_function(n):
    if n > 0:
        w = n
    def g():
        return w
    g()
    return 1


def read_by_a_lambda(n):
    if n > 0:
        w = n
    g = lambda: w   # noqa: E731
    g()
    return 1


LOADS = [copied, bare_name, in_a_list, as_an_argument, unpacked, after_a_loop, maybe_returned,
         helper_result_unused, as_a_default, deleted, deleted_in_a_branch_then_read, read_by_a_nested_function,
         read_by_a_lambda]


@pytest.mark.parametrize("fn", LOADS, ids=lambda fn: fn.__name__)
def test_a_load_that_passes_the_variable_on_gives_pythons_answer_or_error(fn):
    outcomes_agree(fn, INPUTS, outcome)
    traced = tf.function(fn)
    for x in INPUTS:
        assert outcome(lambda: traced(tf.constant(x))) == outcome(lambda: fn(x)), x
    assert {outcome(lambda: fn(x)) for x in INPUTS} & {UnboundLocalError, NameError}   # (was: a value there)


def test_the_error_names_the_line_of_the_load():
    with pytest.raises(UnboundLocalError) as info:
        tf.function(copied)(tf.constant(-1))
    line = copied.__code__.co_firstlineno + 3
    assert re.search(rf"test_fidelity_round12\.py:{line}: cannot access local variable 'w'", str(info.value))
    assert "the `if` at" in str(info.value) and "took its false branch" in str(info.value)


def test_a_nested_functions_read_of_the_enclosing_variable_raises_pythons_name_error():
    with pytest.raises(NameError, match="cannot access free variable 'w' where it is not associated with a value "
                                        "in enclosing scope: the `if` at") as info:
        tf.function(read_by_a_nested_function)(tf.constant(-1))
    assert type(info.value) is NameError   # (Python's; an UnboundLocalError is the function's own variable's)


def makes_a_closure():
    k = 3

    def add_k(x):
        return x + k
    return add_k


def test_a_nested_function_loads_its_free_variables_checked():
    assert "retval_ = x + ag__.ld(k, free=True)" in ag.to_code(makes_a_closure())
    assert int(tf.function(makes_a_closure())(tf.constant(2))) == 5


def test_only_loads_that_may_find_the_variable_unassigned_are_checked():
    code = ag.to_code(copied)
    assert "z = ag__.ld(w)" in code and "w = n" in code and "ag__.ld(n)" not in code
    assert "ag__.ld(w)\n        del w" in ag.to_code(deleted)
    assert "def f(a=ag__.ld(w)):" in ag.to_code(as_a_default)


def defined_on_every_path(n):
    if n > 0:
        w = n
    else:
        w = -n
    z = w
    return z


def test_a_variable_assigned_on_every_path_is_loaded_as_written():
    assert "ag__.ld" not in ag.to_code(defined_on_every_path)
    assert int(tf.function(defined_on_every_path)(tf.constant(-4))) == 4


# --- a load inside a `try` whose `except` could catch Python's error: refused ------------------------------

def returned_inside_a_try(n):
    if n > 0:
        w = n
    try:
        return w
    except UnboundLocalError:
        return -1


def caught_name_read_inside_a_try(n):
    e = 1
    if n > 0:
        try:
            raise ValueError("a")
        except ValueError as e:   # Python unbinds `e` when the handler ends
            r = 5
    else:
        r = 0
    try:
        e
        return r, 1
    except (NameError, UnboundLocalError):
        return r, 0


@pytest.mark.parametrize("fn", [returned_inside_a_try, caught_name_read_inside_a_try], ids=lambda fn: fn.__name__)
def test_a_load_an_except_could_catch_the_error_of_is_refused_at_its_line(fn):
    outcomes_agree(fn, INPUTS, outcome)
    assert len({outcome(lambda: fn(x)) for x in INPUTS}) > 1   # (the graph gave the error, or the wrong value)
    with pytest.raises(StagingError, match=r"test_fidelity_round12\.py:\d+: this read of '[we]' raises "
                                           r"UnboundLocalError .* inside a `try`"):
        tf.function(fn)(tf.constant(2))


# --- a mutable default a helper changes, in a staged branch ------------------------------------------------

def appends_to_its_default(x):
    def add(v, acc=[]):
        acc.append(v)
        return len(acc)
    add(1)
    if x > 0:
        r = add(2)
    else:
        r = add(3) * 10
    return r


def test_a_default_a_helper_changes_in_a_staged_branch_is_refused():
    outcomes_agree(appends_to_its_default, INPUTS, outcome)
    assert appends_to_its_default(-1) == 20   # (the trace gave 30: the false branch saw the true one's append)
    with pytest.raises(StagingError, match=r"test_fidelity_round12\.py:\d+: .*changes an object that exists "
                                           r"before this `if` on a tensor"):
        tf.function(appends_to_its_default)(tf.constant(-1))


def reads_its_default(x):
    def scaled(v, factors=(2, 3)):
        return v * factors[0]
    r = 0
    if x > 0:
        r = scaled(x)
    return r


def test_a_default_a_helper_only_reads_is_still_staged():
    for x in INPUTS:
        assert outcome(lambda: tf.function(reads_its_default)(tf.constant(x))) == reads_its_default(x)


# --- `and`/`or` of a tensor and None; a variable None on some paths as a key -------------------------------

def tensor_or_none(x):
    s = x or None
    return 1 if s is None else s


def tensor_and_none(x):
    return x and None


@pytest.mark.parametrize("fn, what", [(tensor_or_none, "or"), (tensor_and_none, "and")], ids=["or", "and"])
def test_and_or_of_a_tensor_and_none_is_refused_at_the_users_line(fn, what):
    outcomes_agree(fn, INPUTS, outcome)
    with pytest.raises(StagingError, match=rf"test_fidelity_round12\.py:\d+: `{what}` on an int32 tensor and "
                                           "None: its result is one of the operands"):
        tf.function(fn)(tf.constant(2))


def none_member(x):
    r = None
    if x > 0:
        r = 1
    return 1 if r in {None} else 0


def none_key(x):
    r = None
    if x > 0:
        r = 1
    return {None: "none", 1: "one"}.get(r, "missing")


@pytest.mark.parametrize("fn", [none_member, none_key], ids=lambda fn: fn.__name__)
def test_a_variable_none_on_some_paths_as_a_set_member_or_key_is_refused(fn):
    outcomes_agree(fn, INPUTS, outcome)
    assert len({fn(x) for x in INPUTS}) > 1   # (the trace gave 0 and 'missing' on every input)
    with pytest.raises(StagingError, match=r"test_fidelity_round12\.py:\d+: 'r' is None on some paths .* a set "
                                           "member or a dict key"):
        tf.function(fn)(tf.constant(2))


# --- a list a staged loop built, after the loop: its type and its text ------------------------------------

def built_list_type(x):
    l = [5]
    for i in tf.range(x):
        l.append(i)
    return isinstance(l, list), type(l) is list, isinstance(l, (dict, tuple))


def test_a_list_a_staged_loop_built_is_a_list_to_isinstance_and_type():
    for x in (0, 3):
        assert tf.function(built_list_type)(tf.constant(x)) == (True, True, False)   # (was: False, False)


def built_list_text(x):
    l = [5]
    for i in tf.range(x):
        l.append(i)
    return str(l)


def built_list_in_a_container_text(x):
    l = []
    for i in tf.range(x):
        l.append(i)
    return f"{[l, 1]}"


@pytest.mark.parametrize("fn", [built_list_text, built_list_in_a_container_text], ids=lambda fn: fn.__name__)
def test_the_text_of_a_list_a_staged_loop_built_is_refused_at_the_users_line(fn):
    assert fn(2).startswith("[") and "numpy=1" in fn(2)   # Python's text: the items' reprs
    with pytest.raises(StagingError, match=r"test_fidelity_round12\.py:\d+: the text .* of a list that a loop "
                                           "over tensors built"):
        tf.function(fn)(tf.constant(2))   # (was: the stacked tensor's text, 'tf.Tensor([5 0 1], ...)')


def and_maybe_none(a, b):
    r = None
    if a >= 4:
        r = b + 2
    return b and r


def or_maybe_none(a, b):
    r = None
    if a >= 4:
        r = b + 2
    return (b - 7) or r


def if_exp_maybe_none(a, b):
    r = None
    if a >= 4:
        r = b + 2
    return r if b > 0 else b


def guarded(a, b):
    r = None
    if a >= 4:
        r = b + 2
    return r if r is not None else 0


@pytest.mark.parametrize("fn", [and_maybe_none, or_maybe_none, if_exp_maybe_none], ids=lambda fn: fn.__name__)
def test_and_or_or_a_conditional_expression_giving_a_value_none_on_some_paths_is_refused_where_the_graph_takes_it(fn):
    """Python seed 101687: `b and r` with `r` None where a staged `if` left it so is None in Python; the graph
    raised a TypeError when it ran, saying Python raises one. Where the graph takes that operand on a path where
    it is None, it raises a StagingError saying so; elsewhere it gives Python's value."""
    assert fn(3, 7) is None and fn(5, 7) == 9
    staged = tf.function(fn)
    assert int(staged(tf.constant(5), tf.constant(7))) == 9
    with pytest.raises(StagingError, match=r"test_fidelity_round12\.py:\d+: 'r' is None on this path \(the `if` at "
                                           r"test_fidelity_round12\.py:\d+ took its false branch.*gives it as its "
                                           "result here: None, as in Python"):
        staged(tf.constant(3), tf.constant(7))


def test_a_conditional_expression_guarded_by_is_not_none_gives_pythons_value_on_every_path():
    staged = tf.function(guarded)
    assert [int(staged(tf.constant(a), tf.constant(7))) for a in (3, 5)] == [guarded(3, 7), guarded(5, 7)] == [0, 9]
