"""Round 9 of Python's language reference against converted code: programs whose traced run gave a wrong value
(or a wrong error, or made a change Python does not make) without an autograph error. Each is run as plain
Python, converted on Python ints, and in `runtime.function` on an int32 tensor; the traced run must give
Python's answer or refuse with an autograph error at the program's line.

A variable a staged statement leaves None on some paths, tested by `if`, `while` or `a if c else b`: the
graph raised TypeError on those paths ("None can't be used in `if`"), where Python's truth test of None is
false (operators/logical.py `truth`). The message of an `assert` on a tensor: built while tracing, whatever
the condition, so a change it made (`assert x > 0, log(x)`) happened once on every input, where Python makes
it only when the assertion fails (operators/py_builtins.py `assert_stmt`)."""
import re

import pytest

import runtime as tf
from autograph.errors import StagingError
from tests.autograph.generated_code import outcomes_agree, python_run
from tests.autograph.test_staged_language import outcome   # a result as Python values, or the error's type

INPUTS = (-3, 0, 2, 5)


# --- a variable None on some staged paths, as a test ----------------------------------------------------

def if_on_maybe_none(x):
    v = None
    if x > 0:
        v = x - 2
    r = 0
    if v:
        r = 1
    return r


def if_not_on_maybe_none(x):
    v = None
    if x > 0:
        v = x - 2
    return 1 if not v else 0


def conditional_expression_on_maybe_none(x):
    v = None
    if x > 0:
        v = x - 2
    return 1 if v else 0


def while_on_maybe_none(x):
    v = None
    if x > 0:
        v = 3
    n = 0
    while v:
        v = v - 1
        n += 1
    return n


def float_maybe_none(x):
    v = None
    if x > 0:
        v = 0.5
    return 1 if v else 0


def none_before_a_loop_that_may_not_run(x):
    v = None
    i = 0
    while i < x:
        v = i
        i += 1
    r = 0
    if v:
        r = 1
    return r


# --- the message of an assert ----------------------------------------------------------------------------

def assert_message_from_a_helper(x):
    log = []

    def message():
        log.append(x)
        return "too small"
    assert x > -10, message()
    return len(log)


LOG = []


def _logged(v):
    LOG.append(v)
    return f"bad {v}"


def assert_message_logs_to_a_global(x):
    assert x > -10, _logged(x)
    return 0


def is_a_variable_holding_none(x):   # was 0 on every path: `is` compared the carrier of the value with None
    nothing = None
    v = None
    if x > 0:
        v = x
    return (1 if v is nothing else 0) + (10 if nothing is not v else 0)


AGREE = [if_on_maybe_none, if_not_on_maybe_none, conditional_expression_on_maybe_none, while_on_maybe_none,
         float_maybe_none, none_before_a_loop_that_may_not_run, is_a_variable_holding_none]

REFUSED = [
    (assert_message_from_a_helper, "`log.append(...)` changes 'log', which is not a variable of this function "
                                   "(a global, or a variable of an enclosing function), inside this `assert`"),
    (assert_message_logs_to_a_global, "`LOG.append(...)` changes 'LOG'"),
]


@pytest.mark.parametrize("fn", AGREE + [fn for fn, _ in REFUSED], ids=lambda fn: fn.__name__)
def test_converted_code_on_python_values_gives_pythons_answer(fn):
    outcomes_agree(fn, INPUTS, outcome)


@pytest.mark.parametrize("fn", AGREE, ids=lambda fn: fn.__name__)
def test_a_traced_function_gives_pythons_answer(fn):
    traced = tf.function(fn)
    for x in INPUTS:
        assert outcome(lambda: traced(tf.constant(x))) == outcome(lambda: fn(x)), x


@pytest.mark.parametrize("fn, pattern", REFUSED, ids=lambda p: getattr(p, "__name__", ""))
def test_a_change_tracing_would_make_on_every_input_is_refused_at_the_users_line(fn, pattern):
    with pytest.raises(StagingError) as info:
        tf.function(fn)(tf.constant(2))
    message = str(info.value)
    assert re.search(r"test_fidelity_round9\.py:\d+: ", message), message
    assert pattern in message, message
    assert LOG == []


def test_an_assert_message_that_changes_nothing_is_still_the_error_when_it_fails():
    def check(x):
        assert x > 0, f"x was {x}"
        return x

    traced = tf.function(check)
    assert traced(tf.constant(3)).numpy() == 3
    with pytest.raises(Exception, match="x was"):
        traced(tf.constant(-1))


def assert_on_maybe_none(x):
    v = None
    if x > 0:
        v = x
    assert v, "v is falsy"
    return 1


def test_an_assert_on_a_variable_none_on_some_paths_fails_only_where_it_is_falsy():
    traced = tf.function(assert_on_maybe_none)
    assert traced(tf.constant(2)).numpy() == 1
    with pytest.raises(tf.errors.InvalidArgumentError, match="v is falsy"):   # TensorFlow's error of an assert
        traced(tf.constant(-3))


# --- a Python int a staged loop carries, divided by zero ----------------------------------------------------
# Python raises ZeroDivisionError for `s / 0`; the graph's int32 division gave inf (or nan for 0 / 0) silently.

def _counted(n, divisor):
    s = 7
    i = 0
    while i < n:
        s = s + 1
        i += 1
    return s / divisor, s // 2


@pytest.mark.parametrize("jit_compile", [False, True], ids=["executor", "jit"])
def test_a_python_int_divided_by_zero_raises_and_by_another_int_is_pythons_float(jit_compile):
    if jit_compile:
        pytest.importorskip("jax", reason="jit_compile lowers to JAX, which is not installed")
    traced = tf.function(_counted, jit_compile=jit_compile)
    quotient, half = traced(tf.constant(2), 2)
    assert (quotient.numpy(), half.numpy()) == _counted(2, 2) and quotient.dtype is tf.float64
    with pytest.raises(ZeroDivisionError, match="^division by zero$"):   # Python's, while tracing: a zero written in
        traced(tf.constant(2), 0)                                      # the program (or given) is one whatever `s` holds


# --- a `match` on a variable None on some staged paths ------------------------------------------------------
# `case None:` tested the carrier of the value (not None), so the traced function took `case _` on every path.

def match_on_maybe_none(x):
    v = None
    if x > 0:
        v = x
    match v:
        case None:
            return -1
        case _:
            return 1


def match_on_a_tuple_holding_maybe_none(x):
    v = None
    if x > 0:
        v = x
    match (v, x):
        case (None, _):
            return -1
        case _:
            return 1


@pytest.mark.parametrize("fn", [match_on_maybe_none, match_on_a_tuple_holding_maybe_none],
                         ids=lambda fn: fn.__name__)
def test_a_match_on_a_variable_none_on_some_paths_is_refused_at_the_match(fn):
    assert {fn(x) for x in INPUTS} == {-1, 1}
    with pytest.raises(StagingError, match=r"test_fidelity_round9\.py:\d+: the subject of this `match` holds 'v'"):
        tf.function(fn)(tf.constant(2))


def isinstance_of_maybe_none(x):
    v = None
    if x > 0:
        v = x
    return 1 if isinstance(v, type(None)) else 0


def isinstance_answered_alike_on_every_path(x):
    v = None
    if x > 0:
        v = x
    return 1 if isinstance(v, str) else 0


def test_isinstance_of_a_variable_none_on_some_paths_is_answered_or_refused():
    # was 0 on every path: isinstance asked about the carrier of the value
    with pytest.raises(StagingError, match=r"test_fidelity_round9\.py:\d+: `isinstance\(v, \.\.\.\)`: 'v' is None"):
        tf.function(isinstance_of_maybe_none)(tf.constant(2))
    traced = tf.function(isinstance_answered_alike_on_every_path)
    assert [int(traced(tf.constant(x))) for x in INPUTS] == [isinstance_answered_alike_on_every_path(x)
                                                             for x in INPUTS]


class _Logged:
    """A property and an item whose reads and writes are logged, as Python makes them."""

    def __init__(self):
        self.log, self._items, self.table = [], [1], _LoggedTable(self)

    @property
    def items(self):
        self.log.append("get items")
        return self._items

    @items.setter
    def items(self, value):
        self.log.append("set items")
        self._items = value


class _LoggedTable(dict):
    def __init__(self, owner):
        super().__init__(k=[0])
        self.owner = owner

    def __getitem__(self, key):
        self.owner.log.append(f"get {key}")
        return super().__getitem__(key)

    def __setitem__(self, key, value):
        self.owner.log.append(f"set {key}")
        super().__setitem__(key, value)


def test_an_augmented_assignment_to_a_property_or_item_reads_it_once_as_python_does():
    def extend(x):
        s = _Logged()
        s.items += [x]
        s.table["k"] += [x]
        return list(s.log), s.items, dict(s.table)

    assert python_run(extend, 2) == (["get items", "set items", "get k", "set k"], [1, 2], {"k": [0, 2]})


class _Truth:
    """An operand whose truth tests are logged."""

    def __init__(self, value, log):
        self.value, self.log = value, log

    def __bool__(self):
        self.log.append(self.value)
        return bool(self.value)


def test_an_and_or_test_asks_each_operands_truth_once_as_python_does():
    def tests():
        log = []
        a, b, c = _Truth(0, log), _Truth(1, log), _Truth(2, log)
        if a and b:
            log.append("if")
        if (a and b) or c:
            log.append("if2")
        if not (b or a):
            log.append("not")
        x = "t" if (b and a) or c else "f"
        while a or (b and not c):
            break
        assert b and (a or c)
        return list(log), x

    assert python_run(tests) == ([0, 0, 2, "if2", 1, 1, 0, 2, 0, 1, 2, 1, 0, 2], "t")


def test_an_and_or_test_on_tensors_stages_as_before():
    @tf.function
    def f(x):
        if x > 0 and x < 5:
            y = 1
        elif x > 10 or x < -10:
            y = 2
        else:
            y = 3
        return y

    assert [int(f(tf.constant(v))) for v in (3, 20, 7)] == [1, 2, 3]
