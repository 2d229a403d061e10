"""comparisons: a chained comparison is Python's lazy `and`, each operand evaluated once, in order."""
import pytest

import runtime as tf
from autograph.errors import StagingError
from tests.autograph.converters.conftest import dual_run, generated


class Loud:
    """A number that logs each comparison it takes part in."""

    def __init__(self, log, value):
        self.log, self.value = log, value

    def __lt__(self, other):
        self.log.append(f"{self.value}<{other.value}")
        return self.value < other.value

    def __le__(self, other):
        self.log.append(f"{self.value}<={other.value}")
        return self.value <= other.value


def chain(log, a, b, c, d):
    def operand(v):
        log.append(v)
        return Loud(log, v)
    result = operand(a) < operand(b) <= operand(c) < operand(d)
    return result, list(log)


@pytest.mark.parametrize("args", [(1, 2, 3, 4), (2, 1, 3, 4), (1, 2, 2, 0), (1, 3, 2, 5), (0, 0, 0, 0)])
def test_operands_are_evaluated_once_in_order_and_short_circuit(args):
    dual_run(lambda: chain([], *args))


def in_window(y, limits):
    return 9 < y <= limits[0], 0 <= y in limits, y is not None is not y


@pytest.mark.parametrize("y", [5, 9, 10, 20, 21])
def test_mixed_operators_keep_python_values(y):
    dual_run(in_window, y, [20, 10])


def test_generated_text_passes_later_operands_as_functions():
    assert "ag__.chain_compare(9, '<', y, '<=', lambda: limits[0])" in generated(in_window)
    assert "ag__.chain_compare(0, '<=', y, 'in', lambda: limits)" in generated(in_window)


def window_branch(y):
    limits = [20]
    if 9 < y <= limits[0]:
        return 1
    return 0


@pytest.mark.parametrize("y", [5, 9, 10, 20, 21])
def test_a_chained_comparison_on_a_tensor_is_staged(y):
    staged = tf.function(window_branch)
    assert staged(tf.constant(y)).numpy() == window_branch(y)
    ops = [op.type for op in staged.get_concrete_function(tf.constant(y)).graph.get_operations()]
    assert ops.count("Cond") == 2    # the lazy `and`, then the `if`


def test_the_rest_of_a_staged_chain_runs_only_when_the_first_comparison_holds():
    @tf.function
    def guarded(i, xs):
        return 0 <= i < tf.size(xs) and xs[i] > 0

    xs = tf.constant([3, -1])
    assert [guarded(tf.constant(i), xs).numpy() for i in (0, 1, 2, -1)] == [True, False, False, False]


def test_a_walrus_in_a_later_operand_is_refused_when_staged_and_kept_on_python_values():
    def walrus(y):
        r = 9 < y < (z := y * 2)
        return r, z if r else None

    assert dual_run(walrus, 10) == (True, 20)
    with pytest.raises(StagingError, match="assigns 'z'"):
        tf.function(walrus)(tf.constant(10))


# --- `a is b` ----------------------------------------------------------------------------------------------

def same_after_if(x):
    y = x
    if x > 0:
        y = x + 1
    return y is x, y is not x


class Node:
    pass


def identities(first, second):
    a, b = Node(), Node()
    c = a
    return a is c, a is b, first is second, first is not second, [a] is not [a]


@pytest.mark.parametrize("args", [(1, 1), (1, 2), (None, None), ("s", "t")])
def test_is_keeps_python_values(args):
    dual_run(lambda: identities(*args))


def test_is_between_two_staged_tensors_is_refused():
    """`y is x` after a tensor `if`: the staged `if` gives `y` a new tensor on both paths, so the graph said False
    where Python says True for x <= 0, silently."""
    assert same_after_if(-1) == (True, False) and same_after_if(1) == (False, True)
    with pytest.raises(StagingError, match="`is` between two different tensors"):
        tf.function(same_after_if)(tf.constant(-1))


def test_is_of_one_tensor_and_of_a_tensor_and_a_python_value_are_answered():
    def f(x):
        return x is x, x is 3, 3 is not x   # noqa: F632

    assert tf.function(f)(tf.constant(3)) == (True, False, True)
