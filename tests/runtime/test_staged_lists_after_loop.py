"""A list a staged loop built is still a list after the loop: the operators Python gives a list keep their
meaning on it (a slice is a list, `==` compares lists, `if l:` tests its length), through later staged `if`s
and loops, and a function returns it as a Python list. Each program runs as Python on ints and traced on a
tensor; before, several gave elementwise answers (`l[1:] + [10]` was [11, 12], not [1, 2, 10])."""
import pytest

import runtime as tf
from autograph.errors import StagingError
from runtime.errors import OperatorNotAllowedInGraphError


def _squares(n):
    out = []
    for i in range(n):
        out.append(i * i)
    return out


def slice_then_concatenate(n):
    out = _squares(n)
    return out[1:] + [10]


def reversed_slice_repeated(n):
    out = _squares(n)
    return out[::-1] * 2


def negative_slices(n):
    out = _squares(n)
    return out[-2:] + out[:1]


def concatenated_after_a_staged_if(n):
    out = _squares(n)
    if n > 2:
        out = out + [7]
    return out + [10]


def concatenated_after_a_staged_loop_that_extends_it(n):
    out = _squares(n)
    for j in range(n):
        out = out + [j]
    return out + [10]


def appended_after_the_loop(n):
    out = _squares(n)
    out.append(5)
    return out + [10]


def compared_with_lists(n):
    out = _squares(n)
    return out == [0, 1, 4], out != [0, 1, 4], out == [0, 1], out == (0, 1, 4), out == 3, out == [0, 1, 5]


def truth(n):
    out = _squares(n)
    if out:
        return 1
    return 0


def negated_truth(n):
    out = _squares(n)
    return not out


def copied(n):
    out = _squares(n)
    return out.copy() + [10]


def or_default(n):
    out = _squares(n)
    return (out or [5]) + [9]


def and_other(n):
    out = _squares(n)
    return (out and [5, 6]) + [9]


def carried_in_a_dict(n):
    out = _squares(n)
    d = {"l": out}
    if n > 1:
        d = {"l": d["l"] + [1]}
    return d["l"] + [9]


def chosen_by_a_conditional_expression(n):
    out = _squares(n)
    return (out if n > 1 else out[1:]) + [9]


def rebuilt_around_an_item(n):
    out = _squares(n) + [3]
    return out[:1] + [9] + out[2:]


def _python(value):
    """A traced function's result as Python values (tensors to numbers, lists and tuples kept)."""
    if isinstance(value, (list, tuple)):
        return type(value)(_python(v) for v in value)
    return value.numpy().tolist() if hasattr(value, "numpy") else value


@pytest.mark.parametrize("program", [slice_then_concatenate, reversed_slice_repeated, negative_slices,
                                     concatenated_after_a_staged_if, concatenated_after_a_staged_loop_that_extends_it,
                                     appended_after_the_loop, compared_with_lists, truth, negated_truth, copied,
                                     or_default, and_other, carried_in_a_dict, chosen_by_a_conditional_expression,
                                     rebuilt_around_an_item])
@pytest.mark.parametrize("n", [0, 2, 3])
def test_a_list_a_staged_loop_built_keeps_pythons_meaning(program, n):
    expected = program(n)
    assert _python(tf.function(program)(tf.constant(n))) == expected


def test_returned_from_a_function_called_by_another_it_is_still_a_list():
    inner = tf.function(_squares)

    @tf.function
    def outer(n):
        return inner(n) + [10]

    assert _python(outer(tf.constant(3))) == [0, 1, 4, 10]


def test_gradients_reach_the_rows_of_a_returned_list():
    @tf.function
    def powers(x, n):
        out = []
        for _ in tf.range(n):
            x = x * 2.0
            out.append(x)
        return out

    x = tf.constant(1.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        rows = powers(x, tf.constant(3))
        total = rows[0] + rows[2]
    assert _python(rows) == [3.0, 6.0, 12.0]
    assert tape.gradient(total, x).numpy() == 2.0 + 8.0


def test_what_a_stacked_list_cant_do_is_a_clear_error():
    def or_number(n):
        return _squares(n) or 5

    def extended(n):
        out = _squares(n)
        out.extend([4])
        return out

    def item_set(n):
        out = _squares(n)
        out[0] = 9
        return out

    with pytest.raises(StagingError, match="both must be lists"):
        tf.function(or_number)(tf.constant(2))
    with pytest.raises(OperatorNotAllowedInGraphError, match=r"Rebind it instead \(`l = l \+ more`\)"):
        tf.function(extended)(tf.constant(2))
    with pytest.raises(OperatorNotAllowedInGraphError, match="can't change"):
        tf.function(item_set)(tf.constant(2))


def test_a_list_on_some_paths_and_a_tensor_on_others_is_refused():
    """Marking the result a list on every path would make a tensor's `+` concatenate (n = 1 below: Python
    adds elementwise, [1, 1])."""
    def list_or_tensor(n):
        out = _squares(n)
        if n > 1:
            r = out
        else:
            r = tf.zeros([2], tf.int32)
        return r + [1]

    def stacked_in_a_later_loop(n):
        out = _squares(n)
        for _ in range(n):
            out = tf.stack(out) * 2
        return out

    for program in (list_or_tensor, stacked_in_a_later_loop):
        with pytest.raises(StagingError, match="a list that a loop over tensors built in"):
            tf.function(program)(tf.constant(3))


def test_comparing_with_items_of_another_type_is_refused_not_guessed():
    def compared(n):
        return _squares(n) == [0.0, 1.0, 4.0]   # Python: True (0 == 0.0); the list's int32 can't hold them

    assert compared(3) is True
    with pytest.raises(TypeError, match="Python would compare the values across types"):
        tf.function(compared)(tf.constant(3))
