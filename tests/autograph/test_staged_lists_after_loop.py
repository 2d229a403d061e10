"""A Python list a staged loop built is its stacked tensor after the loop, but Python's operators keep a
list's meaning on it (runtime/tensor_array.py: StackedList): `+` concatenates, `*` repeats, and what Python
refuses on a list is a TypeError, never an elementwise result."""
import numpy as np
import pytest

import runtime as tf

pytestmark = pytest.mark.jit_twin   # every graph also runs under jit_compile=True (tests/jit_twin.py)


def build(n):
    items = []
    for i in range(n):
        items.append(i)
    return items


def plus(n):
    return build(n) + [10]


def plus_on_the_left(n):
    return [10] + build(n)


def repeated(n):
    return build(n) * 2


def both(n):
    return build(n) + build(n)


def minus(n):
    return build(n) - 1


def stacked_then_doubled(n):
    return tf.stack(build(n)) * 2


@pytest.mark.parametrize("fn, expected", [(plus, [0, 1, 2, 10]), (plus_on_the_left, [10, 0, 1, 2]),
                                          (repeated, [0, 1, 2, 0, 1, 2]), (both, [0, 1, 2, 0, 1, 2])])
def test_list_operators_keep_their_meaning_after_a_staged_loop(fn, expected):
    assert [int(v) for v in fn(3)] == expected   # Python
    # was [10, 11, 12] for `l + [10]`: the stacked tensor added elementwise
    assert np.asarray(tf.function(fn)(tf.constant(3))).tolist() == expected


def test_arithmetic_python_refuses_on_a_list_is_a_type_error():
    with pytest.raises(TypeError):
        minus(3)
    with pytest.raises(TypeError, match="runtime.stack"):
        tf.function(minus)(tf.constant(3))   # was [-1, 0, 1]


def test_stack_gives_the_plain_tensor():
    assert np.asarray(tf.function(stacked_then_doubled)(tf.constant(3))).tolist() == [0, 2, 4]
