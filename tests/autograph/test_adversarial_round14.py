"""Round 14 of Python's language reference against converted code: each program runs as plain Python,
converted on Python ints, and in `runtime.function` on an int32 tensor; the traced run must give Python's
answer or refuse with an error at the program's line.

A Python number, bool or str that a staged `if` or loop carries is a tensor in the graph, and a tensor is
unhashable: its TypeError, taken by the program's own `except TypeError:` (or `except Exception:`) around a
dict lookup or a set test, made the traced function take the handler's path on every input (`d[k]` for a
counter `k` a staged loop carries gave the "missing key" value where Python found the key).
"""
import re

import pytest

import runtime as tf
from runtime.errors import OperatorNotAllowedInGraphError
from tests.autograph.generated_code import outcomes_agree
from tests.autograph.test_staged_language import outcome   # a result as Python values, or the error's type

INPUTS = (-3, 0, 2, 5)
TABLE = {"a": 1, "b": 2}


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
