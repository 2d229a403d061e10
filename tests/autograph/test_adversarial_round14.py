"""Round 14 of Python's language reference against converted code: each program runs as plain Python,
converted on Python ints, and in `runtime.function` on an int32 tensor; the traced run must give Python's
answer or refuse with an error at the program's line.

A Python number, bool or str that a staged `if` or loop carries is a tensor in the graph, and a tensor is
unhashable: its TypeError, taken by the program's own `except TypeError:` (or `except Exception:`) around a
dict lookup or a set test, made the traced function take the handler's path on every input (`d[k]` for a
counter `k` a staged loop carries gave the "missing key" value where Python found the key).
"""
import collections
import re

import pytest

import runtime as tf
from autograph.errors import StagingError
from runtime.errors import OperatorNotAllowedInGraphError
from tests.autograph.generated_code import outcomes_agree
from tests.autograph.test_staged_language import outcome   # a result as Python values, or the error's type

INPUTS = (-3, 0, 2, 5)
TABLE = {"a": 1, "b": 2}


def pythons_answer_everywhere(fn):
    """Converted on Python ints and traced on int32 tensors, `fn` gives Python's answer on every input."""
    outcomes_agree(fn, INPUTS, outcome)
    traced = tf.function(fn)
    for x in INPUTS:
        assert outcome(lambda: traced(tf.constant(x))) == outcome(lambda: fn(x)), x


# --- a carried Python value used as a dict key or set member ----------------------------------------------------

def lookup_with_a_counter_a_staged_loop_carries(x):
    d = {0: 1, 1: 2}
    k = 0
    r = 0
    while k < x:
        try:
            r += d[k]
        except Exception:
            r += 100
        k += 1
    return r


def set_test_of_a_counter_a_staged_loop_carries(x):
    s = {0, 2}
    k = 0
    r = 0
    while k < x:
        try:
            if k in s:
                r += 1
        except TypeError:
            r += 50
        k += 1
    return r


def hash_of_an_int_a_staged_if_carries(x):
    k = 1
    if x > 0:
        k = 2
    try:
        return hash(k)
    except TypeError:
        return -1


def lookup_with_a_str_a_staged_if_carries(x):
    name = "a"
    if x > 0:
        name = "b"
    try:
        return TABLE[name]
    except (KeyError, TypeError):
        return 0


def lookup_with_a_tuple_holding_a_carried_bool(x):
    b = False
    if x > 0:
        b = True
    try:
        return {(True, 1): 10, (False, 1): 20}[(b, 1)]
    except TypeError:
        return -1


HASHED = [lookup_with_a_counter_a_staged_loop_carries, set_test_of_a_counter_a_staged_loop_carries,
          hash_of_an_int_a_staged_if_carries, lookup_with_a_str_a_staged_if_carries,
          lookup_with_a_tuple_holding_a_carried_bool]


@pytest.mark.parametrize("fn", HASHED, ids=lambda fn: fn.__name__)
def test_hashing_a_value_a_staged_statement_carries_is_refused_at_the_users_line_past_its_except(fn):
    outcomes_agree(fn, INPUTS, outcome)
    with pytest.raises(OperatorNotAllowedInGraphError) as info:
        tf.function(fn)(tf.constant(2))
    message = str(info.value)
    assert re.search(r"test_adversarial_round14\.py:\d+: Hashing a symbolic tensor", message), message
    assert "a staged `if` or loop carries" in message, message


def test_a_carried_int_is_named_where_its_hash_is_refused():
    with pytest.raises(OperatorNotAllowedInGraphError, match="It holds 'k', a Python int that a staged"):
        tf.function(lookup_with_a_counter_a_staged_loop_carries)(tf.constant(3))


def test_a_tensor_of_the_programs_stays_unhashable_with_tensorflows_type_error():
    @tf.function
    def f(x):
        try:
            return {x: 1}
        except TypeError as e:
            return type(e).__name__ + ": " + str(e)

    assert f(tf.constant(1)).numpy() == b"TypeError: Tensor is unhashable. Instead, use tensor.ref() as the key."


# --- attributes and items a staged statement adds: the object's own, in the order Python adds them ------------

class Counter:
    n = 5   # a class attribute: `c.n += 1` sets the object's own `n`, and until then `c.n` reads this one


class Plain:
    pass


def class_attribute_set_on_one_path(x):
    c = Counter()
    if x > 0:
        c.n += x
    return c.n, "n" in vars(c)


def class_attribute_set_in_a_loop(x):
    c = Counter()
    i = 0
    while i < x:
        c.n += 1
        i += 1
    return c.n, "n" in vars(c)


def attributes_added_in_two_orders(x):
    o = Plain()
    if x > 0:
        o.b = 1
        o.a = 2
    else:
        o.a = 3
        o.b = 4
    return list(vars(o)) == ["a", "b"]


def defaultdict_item_set_on_one_path(x):
    d = collections.defaultdict(int)
    if x > 0:
        d["k"] += 1
    return "k" in d, len(d)


@pytest.mark.parametrize("fn, pattern", [
    (defaultdict_item_set_on_one_path, r"`d\['k'\]` is set in only one branch"),   # reading it added it: (True, 1)
    (class_attribute_set_on_one_path, r"`c.n` is set in only one branch .* \(on the object itself: one its class "
                                      r"holds is read through it"),
    (class_attribute_set_in_a_loop, r"`c.n` is first set inside this `while` loop .* \(on the object itself"),
    (attributes_added_in_two_orders, r".*add o.b, o.a in different orders .* \(an object its attributes, in "
                                     r"`vars\(\)`\)"),
], ids=lambda p: getattr(p, "__name__", ""))
def test_an_attribute_a_staged_statement_makes_the_objects_own_on_some_paths_only_is_refused(fn, pattern):
    outcomes_agree(fn, INPUTS, outcome)
    assert len({outcome(lambda: fn(x)) for x in INPUTS}) > 1   # Python's answer depends on the path
    with pytest.raises(StagingError, match=r"test_adversarial_round14\.py:\d+: " + pattern):
        tf.function(fn)(tf.constant(2))


def class_attribute_set_in_both_branches(x):
    c = Counter()
    if x > 0:
        c.n += x
    else:
        c.n = 0
    return c.n, "n" in vars(c), Counter.n


def attributes_added_in_one_order(x):
    o = Plain()
    if x > 0:
        o.b, o.a = 1, 2   # (the targets of a tuple assignment are assigned left to right)
    else:
        o.b, o.a = 3, 4
    return list(vars(o)) == ["b", "a"], o.a + o.b


@pytest.mark.parametrize("fn", [class_attribute_set_in_both_branches, attributes_added_in_one_order],
                         ids=lambda fn: fn.__name__)
def test_an_attribute_every_path_makes_the_objects_own_is_carried(fn):
    pythons_answer_everywhere(fn)


# --- a carried Python number beside a list, tuple or str ----------------------------------------------------------
# Converted to a tensor, the container met the number elementwise: `[0] * k` gave `[0]`, `k * [1, 2]` gave
# `[k, 2 * k]`, `[1] + k` gave `[1 + k]` where Python repeats the list or raises TypeError.

def list_repeated_by_a_counter(x):
    n = 0
    while n < x:
        n += 1
    return [7] * n


def tuple_repeated_by_an_int_a_staged_if_carries(x):
    k = 2
    if x > 0:
        k = 3
    return k * (1, 2)


def str_repeated_by_an_int_a_staged_if_carries(x):
    k = 2
    if x > 0:
        k = 3
    return "ab" * k


@pytest.mark.parametrize("fn", [list_repeated_by_a_counter, tuple_repeated_by_an_int_a_staged_if_carries,
                                str_repeated_by_an_int_a_staged_if_carries], ids=lambda fn: fn.__name__)
def test_a_container_repeated_by_a_carried_int_is_refused_at_the_users_line(fn):
    outcomes_agree(fn, INPUTS, outcome)
    with pytest.raises(OperatorNotAllowedInGraphError,
                       match=r"test_adversarial_round14\.py:\d+: Using `\*` between a Python (list|tuple|str) and"):
        tf.function(fn)(tf.constant(2))


def container_beside_a_carried_number(x):
    k = 2
    f = 0.5
    if x > 0:
        k = 3
        f = 1.5
    answers = [k == [2], k != (2,), f == "0.5"]
    for attempt in (lambda: [1] + k, lambda: k < [1], lambda: f * [1], lambda: "a" + k, lambda: (1,) - f):
        try:
            attempt()
            answers.append("no error")
        except TypeError as e:
            answers.append(str(e))
    return answers


def test_a_carried_number_beside_a_container_gives_pythons_answer_or_its_type_error():
    expected = container_beside_a_carried_number(2)
    assert expected[:3] == [False, True, False] and "can only concatenate list" in expected[3]
    outcomes_agree(container_beside_a_carried_number, INPUTS, outcome)
    traced = outcome(lambda: tf.function(container_beside_a_carried_number)(tf.constant(2)))
    assert [a.decode() if isinstance(a, bytes) else a for a in traced] == expected   # (a returned str is bytes)


# --- Python's operations on a carried value that its tensor lacks -----------------------------------------------
# Each raised the tensor's TypeError or AttributeError while tracing, which the program's own `except` took for
# the value's: the handler's answer on every input (`len(s)` of a str a staged loop built gave -1).

def carried(x):
    """A str, an int and a float that a staged `if` carries."""
    s, k, f = "ab", 2, 1.25
    if x > 0:
        s, k, f = "cde", 3, 2.5
    return s, k, f


# each: Python's operation on the carried str `s`, int `k` and float `f`, and what the program's `except` takes
LACKED = {
    "len_of_a_carried_str": (lambda s, k, f: len(s), TypeError),
    "method_of_a_carried_str": (lambda s, k, f: s.upper() == "AB", AttributeError),
    "characters_of_a_carried_str": (lambda s, k, f: [c for c in s][0] == "a", TypeError),
    "first_character_of_a_carried_str": (lambda s, k, f: s[0] == "a", Exception),
    "carried_str_repeated": (lambda s, k, f: s * 2 == "abab", TypeError),
    "carried_str_ordered": (lambda s, k, f: s < "b", TypeError),
    "carried_str_in_a_str": (lambda s, k, f: s in "abcde", TypeError),
    "float_of_a_carried_str": (lambda s, k, f: float(s + "1"), Exception),
    "shift_of_a_carried_int": (lambda s, k, f: k << 3, Exception),
    "three_argument_pow_of_a_carried_int": (lambda s, k, f: pow(k, 2, 5), TypeError),
    "round_of_a_carried_float_to_digits": (lambda s, k, f: round(f, 1), TypeError),
    "method_of_a_carried_int": (lambda s, k, f: k.bit_length(), AttributeError),
    "bytes_of_a_carried_int": (lambda s, k, f: len(bytes(k)), TypeError),
}


def operation_on_carried_values(name):
    operation, caught = LACKED[name]

    def program(x):
        s, k, f = carried(x)
        try:
            return operation(s, k, f)
        except caught:
            return None
    return program


@pytest.mark.parametrize("name", LACKED)
def test_pythons_operation_on_a_carried_value_is_refused_at_the_users_line_past_its_except(name):
    fn = operation_on_carried_values(name)
    outcomes_agree(fn, INPUTS, outcome)
    with pytest.raises((OperatorNotAllowedInGraphError, StagingError)) as info:
        tf.function(fn)(tf.constant(2))
    message = str(info.value)
    assert re.search(r"test_adversarial_round14\.py:\d+: ", message), message
    assert "that a staged `if` or loop" in message and "carries" in message, message


def type_errors_python_raises_whatever_the_value(x):
    _, k, f = carried(x)
    answers = []
    for attempt in (lambda: iter(k), lambda: k[0], lambda: len(f)):
        try:
            attempt()
        except TypeError as e:
            answers.append(str(e))
    return answers == ["'int' object is not iterable", "'int' object is not subscriptable",
                       "object of type 'float' has no len()"]


def test_what_python_refuses_of_any_carried_number_is_pythons_type_error():
    assert type_errors_python_raises_whatever_the_value(2)
    outcomes_agree(type_errors_python_raises_whatever_the_value, INPUTS, outcome)
    assert outcome(lambda: tf.function(type_errors_python_raises_whatever_the_value)(tf.constant(2))) is True


def test_a_tensor_of_the_programs_keeps_tensorflows_errors():
    @tf.function
    def f(x, s):
        answers = []
        for attempt in (lambda: x << 1, lambda: s * 2, lambda: x.bit_length()):
            try:
                attempt()
            except (TypeError, AttributeError) as e:
                answers.append(type(e).__name__)
        return answers == ["TypeError", "PythonValueDTypeError", "AttributeError"]

    assert f(tf.constant(1), tf.constant(["a"])).numpy()


# --- carried numbers and bools meeting Python's constants -------------------------------------------------------

def flag_is_true(x):
    b = True
    if x > 0:
        b = False
    if b is True:
        r = 1
    else:
        r = 2
    return r, b is not False


def division_by_a_zero_written_in_the_program(x):
    _, k, f = carried(x)
    answers = []
    for attempt in (lambda: k // 0, lambda: k % 0, lambda: k / 0, lambda: f // 0, lambda: f / 0.0,
                    lambda: divmod(k, 0), lambda: k / False):
        try:
            attempt()
        except ZeroDivisionError as e:
            answers.append(str(e))
    return len(answers)


def bool_beside_ints(x):
    b = True
    if x > 0:
        b = False
    return sum([b, b, True]), b | 2, 2 ^ b, b & 3, b + 0.5


@pytest.mark.parametrize("fn", [flag_is_true, division_by_a_zero_written_in_the_program, bool_beside_ints],
                         ids=lambda fn: fn.__name__)
def test_a_carried_number_or_bool_meets_pythons_constants_as_python_does(fn):
    # `b is True` was False on every path, `k // 0` the graph's InvalidArgumentError (past the program's `except
    # ZeroDivisionError`), `b | 2` and `sum([b, True])` dtype errors
    pythons_answer_everywhere(fn)


def test_a_bool_tensor_of_the_programs_is_not_true_as_in_tensorflow():
    assert not tf.function(lambda x: (x > 0) is True)(tf.constant(1)).numpy()


# --- a list a staged loop built, after the loop ---------------------------------------------------------------
# A list method its stacked tensor lacks raised an AttributeError (and `del l[0]` a bare one), which the
# program's `except AttributeError:` or `except Exception:` took: the handler's answer on every input.

def squares(x):
    out = []
    for i in tf.range(x):
        out.append(i * i)
    return out


def count_of_a_built_list(x):
    out = squares(x)
    try:
        return out.count(1)
    except Exception:
        return -1


def item_deleted_from_a_built_list(x):
    out = squares(x)
    try:
        del out[0]
    except (AttributeError, IndexError):
        return -1
    return len(out)


def item_set_in_a_built_list(x):
    out = squares(x)
    try:
        out[0] = 7
    except (TypeError, IndexError):
        return -1
    return len(out)


@pytest.mark.parametrize("fn", [count_of_a_built_list, item_deleted_from_a_built_list, item_set_in_a_built_list],
                         ids=lambda fn: fn.__name__)
def test_a_list_method_a_built_list_lacks_is_refused_past_the_programs_except(fn):
    with pytest.raises(OperatorNotAllowedInGraphError, match=r"test_adversarial_round14\.py:\d+: .* a list that a "
                                                             r"loop over tensors built"):
        tf.function(fn)(tf.constant(2))


class Anything:
    def __eq__(self, other):
        return "asked"

    __hash__ = None


def carried_int_compared_with_objects(x):
    _, k, _ = carried(x)
    try:
        return k == Anything(), Anything() == k, k == Plain(), k != Plain(), k in [Plain(), "a"]
    except Exception:
        return None


def test_a_carried_number_compared_with_an_object_leaves_the_answer_to_the_object_as_python_does():
    # the object became an operand of the tensor's `==`, whose TypeError the program's `except` took
    outcomes_agree(carried_int_compared_with_objects, INPUTS, outcome)
    traced = outcome(lambda: tf.function(carried_int_compared_with_objects)(tf.constant(2)))
    assert [a.decode() if isinstance(a, bytes) else a for a in traced] == ["asked", "asked", False, True, False]


def carried_str_is_a_str(x):
    label = "neg"
    if x > 0:
        label = "pos"
    word = ""
    i = 0
    while i < x:
        word = word + "a"
        i += 1
    return isinstance(label, str), type(label) is str, isinstance(word, str), label + "!" == "pos!"


def test_isinstance_of_a_str_a_staged_if_or_loop_carries_is_pythons():
    # it was False: the string tensor's answer
    pythons_answer_everywhere(carried_str_is_a_str)
