"""Round 11 of Python's language reference against converted code: the text of values a staged statement
carries, and `pop` with an explicit None. Each program is run as plain Python, converted on Python values, and in
`runtime.function` on an int32 tensor; the traced run must give Python's answer or refuse with an error at the
program's line.

`str`, `repr`, `format` and `%` of a Python float or bool a staged `if` or loop carried gave the eager tensor's
text ('tf.Tensor(2.5, shape=(), dtype=float32)'); of a variable None on some staged paths, autograph's
'MaybeValue(...)'; of a list or tuple holding carried values, the trace-time text of its symbolic tensors. A
variable that is an int on some paths and a float on others (`y = 1` / `y = 2.5`, or `s = 0` before a loop that
adds 0.5) is carried as a float, whose text '1.0' is not the int's '1': now refused (runtime/ops/python_ints.py
INT_OR_FLOAT). `isinstance` and `type` of such a carried value answered for the tensor (`isinstance(s, float)` of
`s = 0.0` after a staged loop was False, and the function took the other path); they answer for the Python value
now, as its text does (the backend's `python_type`). On Python values, `d.pop(k)` with `k` None popped nothing
and raised TypeError (and `l.pop(None)` popped the last item where Python raises TypeError): the lists converter
passed None for "no index"."""
import pytest

import runtime as tf
from autograph.errors import StagingError
from tests.autograph.generated_code import outcomes_agree
from tests.autograph.test_staged_language import outcome   # a result as Python values, or the error's type

INPUTS = (-3, 0, 2, 5)


def _texts(fn):
    """The traced function's strings on each input, as Python strs."""
    traced = tf.function(fn)
    return [tf.nest.map_structure(lambda t: t.numpy().decode(), traced(tf.constant(x))) for x in INPUTS]


# --- the text of a Python number or bool a staged statement carries -----------------------------------------

def text_of_a_carried_float(x):
    y = 2.5
    if x > 0:
        y = -0.0
    return str(y), repr(y), "%s|%r" % (y, y), format(y), f"{y!r:>6}"


def text_of_a_carried_bool(x):
    y = False
    if x > 0:
        y = True
    return str(y), repr(y), f"{y}", "%s" % (y,)


def text_of_a_bool_a_loop_carries(x):
    found, flag, late = False, True, False
    i = 0
    while i < x:
        flag = not flag
        late = i > 2   # of a Python int: a Python bool
        if i > 1:
            found = True
        i += 1
    return str(found), f"{flag}", repr(late)


def text_of_floats_made_from_carried_ints(x):
    s = 3
    if x > 0:
        s = 5
    return str(s / 2), str(float(s)), str(int(s / 2)), repr(float(s) * 2)


def text_of_bitwise_operators_on_a_carried_int(x):
    s = 5
    if x > 0:
        s = 6
    return str(s & 3), str(s | 8), str(s ^ 1), str(~s)


def text_of_the_int_of_a_carried_float(x):
    y = 2.5
    if x > 0:
        y = 7.9
    return str(int(y)), f"{int(y) + 1}"


def text_of_a_container_of_carried_values(x):
    y, z = 1, 2.5
    if x > 0:
        y, z = 3, 0.5
    return str((y, z)), repr([y, [z]]), str({"k": y}), format((y,))


def text_of_a_variable_assigned_on_every_path(x):
    if x > 0:
        y = 3
    else:
        y = 4
    return str(y), f"{[y, 1]}"


@pytest.mark.parametrize("fn", [text_of_a_carried_float, text_of_a_carried_bool, text_of_a_bool_a_loop_carries,
                                text_of_floats_made_from_carried_ints, text_of_bitwise_operators_on_a_carried_int,
                                text_of_the_int_of_a_carried_float, text_of_a_container_of_carried_values,
                                text_of_a_variable_assigned_on_every_path], ids=lambda fn: fn.__name__)
def test_the_text_of_a_carried_python_value_is_pythons(fn):
    outcomes_agree(fn, INPUTS, outcome)
    assert _texts(fn) == [fn(x) for x in INPUTS]   # were 'tf.Tensor(2.5, shape=(), dtype=float32)', '(<tf.Tensor ...'


def test_the_text_of_a_variable_unassigned_on_some_paths_is_its_value_or_pythons_error():
    def text(x):
        if x > 0:
            y = 3
        return str(y)   # was 'tf.Tensor(3, shape=(), dtype=int32)' where assigned

    outcomes_agree(text, INPUTS, outcome)
    traced = tf.function(text)
    assert [outcome(lambda: traced(tf.constant(x))) for x in INPUTS] == [
        UnboundLocalError, UnboundLocalError, b"3", b"3"]


def test_a_tensor_argument_keeps_its_tensor_text_and_type():
    def text(x):
        found = False
        for i in range(3):
            found = i > x   # of the tensor argument: a tensor, as in TensorFlow
        return str(x), str(x > 0), str(found), isinstance(found, bool)

    traced = tf.function(text)
    assert [v.numpy() for v in traced(tf.constant(-3))] == [
        b"tf.Tensor(-3, shape=(), dtype=int32)", b"tf.Tensor(False, shape=(), dtype=bool)",
        b"tf.Tensor(True, shape=(), dtype=bool)", False]


def test_an_int_a_staged_loop_makes_a_float_divided_by_zero_raises_as_python_does():
    def halves(x, d):
        s = 0
        for _ in range(x):
            s = s + 0.5
        return s / d

    traced = tf.function(halves)
    assert float(traced(tf.constant(5), 2.0)) == halves(5, 2.0)
    for x in (-3, 2):   # was nan and inf: the int made a float was not a Python float of the graph
        with pytest.raises(ZeroDivisionError):   # Python's (`0 / 0.0` or `1.0 / 0.0`), raised while tracing
            traced(tf.constant(x), 0.0)


# --- a value whose text the graph can't know ----------------------------------------------------------------

def int_or_float_from_a_branch(x):
    y = 2.5
    if x > 0:
        y = 1
    return "%s" % y, str(y)


def int_made_a_float_by_a_loop(x):
    s = 1
    for _ in range(x):
        s = s * 1.5
    return f"{s}"


def int_or_float_doubled(x):
    s = 0
    i = 0
    while i < x:
        s = s + 0.5
        i += 1
    return repr(s * 2)


def none_on_some_paths(x):
    y = None
    if x > 0:
        y = 3
    return f"{y}"


def none_on_some_paths_in_a_tuple(x):
    y = None
    if x > 0:
        y = 3
    return str((y, 1))


@pytest.mark.parametrize("fn, what", [
    (int_or_float_from_a_branch, "'y', a Python int on some paths and a float on others"),
    (int_made_a_float_by_a_loop, "'s', a Python int on some paths and a float on others"),
    (int_or_float_doubled, "'s', a Python int on some paths and a float on others"),
    (none_on_some_paths, "'y', which is None on some paths"),
    (none_on_some_paths_in_a_tuple, "'y', which is None on some paths"),
], ids=lambda p: getattr(p, "__name__", ""))
def test_a_text_that_depends_on_the_path_is_refused_at_the_users_line(fn, what):
    outcomes_agree(fn, INPUTS, outcome)
    assert len({fn(x) for x in INPUTS}) > 1
    with pytest.raises(StagingError, match=rf"test_fidelity_round11\.py:\d+: an f-string .* formats {what}"):
        tf.function(fn)(tf.constant(2))   # was '1.0' where Python gives '1', or "MaybeValue('y', ...)"


def test_an_int_a_loop_adds_float_tensors_to_is_the_programs_tensor_and_formats_as_before():
    def total(n):
        s = 0
        for i in tf.range(n):
            s = s + tf.cast(i, tf.float32) * 0.5   # a tensor after the first iteration, in TensorFlow too
        return f"{s}", isinstance(s, tf.Tensor)

    traced = tf.function(total)
    assert [(text.numpy(), bool(is_tensor)) for text, is_tensor in (traced(tf.constant(n)) for n in (0, 3))] == [
        (b"0.0", True), (b"1.5", True)]


def test_a_carried_int_or_float_still_computes_as_before():
    def halves(x):
        y = 2.5
        if x > 0:
            y = 7
        return y // 2, y / 2, float(y) + 1

    traced = tf.function(halves)
    assert [[float(v) for v in traced(tf.constant(x))] for x in INPUTS] == [list(halves(x)) for x in INPUTS]
    assert str(traced(tf.constant(2))[2].numpy()) == "8.0"


# --- isinstance and type of a Python number or bool a staged statement carries-----------------------------------

def double_a_float(x):
    s = 0.0
    for _ in range(x):
        s += 0.5
    if isinstance(s, float):   # was False in the trace: the function returned s
        return s * 2
    return s


def types_of_carried_values(x):
    y, b = 3, False
    if x > 0:
        y, b = 4, True
    i, found = 0, False
    while i < x:
        found = i > 2
        i += 1
    return (isinstance(y, int), isinstance(y, (str, float)), isinstance(b, bool), isinstance(b, int),
            isinstance(found, bool), type(y) is int, type(b) is bool, type("T", (), {"k": 1}).k)


@pytest.mark.parametrize("fn", [double_a_float, types_of_carried_values], ids=lambda fn: fn.__name__)
def test_isinstance_and_type_of_a_carried_python_value_are_pythons(fn):
    outcomes_agree(fn, INPUTS, outcome)
    traced = tf.function(fn)
    for x in INPUTS:
        assert outcome(lambda: traced(tf.constant(x))) == outcome(lambda: fn(x)), x


def _as_tensor(v):
    return v if isinstance(v, tf.Tensor) else tf.constant(v)


def test_a_carried_python_number_is_still_an_instance_of_the_tensor_class():
    def doubled(n):
        s = 0
        for _ in tf.range(n):
            s += 1
        return _as_tensor(s) * 2, isinstance(s, (int, tf.Tensor)), isinstance(s, float)

    traced = tf.function(doubled)
    assert [tuple(v.numpy() if hasattr(v, "numpy") else v for v in traced(tf.constant(n))) for n in (0, 3)] == [
        (0, True, False), (6, True, False)]


def test_isinstance_and_type_of_an_int_or_float_are_answered_where_both_agree_and_refused_where_not():
    def numbers(x):
        y = 2.5
        if x > 0:
            y = 1
        return isinstance(y, (int, float)), isinstance(y, str)

    traced = tf.function(numbers)
    assert [outcome(lambda: traced(tf.constant(x))) for x in INPUTS] == [numbers(x) for x in INPUTS]

    def is_float(x):
        y = 2.5
        if x > 0:
            y = 1
        return isinstance(y, float)

    def type_of(x):
        y = 2.5
        if x > 0:
            y = 1
        return type(y) is float

    for fn, builtin in ((is_float, "isinstance"), (type_of, "type")):
        with pytest.raises(StagingError, match=rf"test_fidelity_round11\.py:\d+: `{builtin}\(\.\.\.\)` of a variable "
                                               "that is a Python int on some paths and a float on others"):
            tf.function(fn)(tf.constant(2))


def isinstance_of_a_variable_unassigned_on_some_paths(x):
    if x > 0:
        y = 3
    return isinstance(y, int), type(y) is int   # isinstance was True where Python raises UnboundLocalError


def test_isinstance_and_type_of_a_variable_unassigned_on_some_paths_raise_pythons_error_there():
    fn = isinstance_of_a_variable_unassigned_on_some_paths
    outcomes_agree(fn, INPUTS, outcome)
    traced = tf.function(fn)
    assert [outcome(lambda: traced(tf.constant(x))) for x in INPUTS] == [outcome(lambda: fn(x)) for x in INPUTS]


def test_type_of_a_variable_none_on_some_paths_is_refused_at_the_users_line():
    def kind(x):
        y = None
        if x > 0:
            y = 3
        return type(y) is int   # was False on every path: the type of autograph's MaybeValue

    with pytest.raises(StagingError, match=r"test_fidelity_round11\.py:\d+: `type\(y\)`: 'y' is None on some paths "
                                           r"\(.*\) and an int on others"):
        tf.function(kind)(tf.constant(2))


# --- a class pattern inside another pattern, on a subject holding a tensor ------------------------------------

class Pair:
    __match_args__ = ("a", "b")

    def __init__(self, a, b):
        self.a, self.b = a, b


def class_pattern_in_a_sequence(x):
    s = 0.0
    for _ in range(x):
        s += 0.5
    match (s, 3):
        case (float(), _):   # the traced `match` took `case _` on every input: isinstance(tensor, float)
            return 1
        case _:
            return 2


def class_pattern_in_a_mapping(x):
    match {"k": x}:
        case {"k": int()}:
            return 1
        case _:
            return 2


def class_pattern_in_a_class_pattern(x):
    s = 1
    if x > 0:
        s = 2
    match Pair(s, 3):
        case Pair(a=int()):
            return 1
        case _:
            return 2


@pytest.mark.parametrize("fn", [class_pattern_in_a_sequence, class_pattern_in_a_mapping,
                                class_pattern_in_a_class_pattern], ids=lambda fn: fn.__name__)
def test_a_class_pattern_inside_another_on_a_subject_holding_a_tensor_is_refused_at_the_match(fn):
    outcomes_agree(fn, INPUTS, outcome)
    with pytest.raises(StagingError, match=r"test_fidelity_round11\.py:\d+: a `case` of this `match` has a class "
                                           r"pattern .* inside another pattern, and the subject holds a tensor"):
        tf.function(fn)(tf.constant(2))


def test_a_match_whose_nested_class_patterns_see_python_values_only_is_still_converted():
    def captures(x):
        s = 1
        if x > 0:
            s = 2
        match (s, 3):
            case (v, 3):
                r = v * 10
        match (1, "a"):
            case (int(), str()):
                r = r + 1
        match Pair(s, 3):
            case Pair(a=v):
                r = r + v
        return r

    traced = tf.function(captures)
    assert [int(traced(tf.constant(x))) for x in INPUTS] == [captures(x) for x in INPUTS]


# --- `pop` with an explicit None ----------------------------------------------------------------------------

def pop_the_key_none(x):
    d = {None: 1, "a": 2}
    k = None
    v = d.pop(k)
    return v + d.pop(None, 0) + (d.pop(k) if k in d else 10), len(d)


def pop_none_from_a_list(x):
    l = [1, 2]
    try:
        l.pop(None)
    except TypeError:
        return -1
    return len(l)


@pytest.mark.parametrize("fn", [pop_the_key_none, pop_none_from_a_list], ids=lambda fn: fn.__name__)
def test_pop_of_none_is_pythons_on_python_values(fn):
    outcomes_agree(fn, INPUTS, outcome)   # d.pop(None) raised TypeError; l.pop(None) popped the last item
    traced = tf.function(fn)
    assert outcome(lambda: traced(tf.constant(2))) == outcome(lambda: fn(2))
