"""`min` and `max` with a traced scalar among the items: Python compares the items one by one and keeps the
first that no later one beats, so `max(x, 0)` of a traced `x` is chosen when the graph runs (TensorFlow and a
plain `jax.jit` raise, as Python's `bool` of a traced value). Ties keep the first item, a NaN compares false
both ways, `key=` is called once per item, in CPython's order; any iterable, a generator or a tensor's rows
included. Python's own errors stay Python's."""
import math

import numpy as np
import pytest

import autograph as ag
import runtime as tf
from autograph.operators.py_builtins import BUILTIN_OVERLOADS, max_, min_
from tests.autograph.generated_code import python_run


def extremes(x):
    return (min(x, 3), max(x, 0), max([x, 2, x * 2]), min((x, 3, 1)), min(x, 3, key=lambda v: -v),
            max(x, x + 0, key=abs))


def values(result):
    return [v.numpy().item() if isinstance(v, tf.Tensor) else v for v in result]


@pytest.mark.parametrize("x", [-3, 0, 2, 5])
def test_min_and_max_of_a_traced_scalar_give_pythons_choice(x):
    assert values(tf.function(extremes)(tf.constant(x))) == list(extremes(x))


@pytest.mark.parametrize("x", [-1.0, 2.0, math.nan])
def test_a_nan_compares_false_both_ways_as_in_python(x):
    def f(x):
        return max(x, math.nan), max(math.nan, x), min(x, 1.0), min(1.0, x)

    got, expected = values(tf.function(f)(tf.constant(x))), f(x)
    assert [str(v) for v in got] == [str(float(v)) for v in expected]   # nan where Python gives nan


def test_python_values_and_pythons_errors_are_pythons():
    assert python_run(extremes, 4) == extremes(4)
    assert max_([], default=7) == 7 and min_("bca") == "a" and max_(iter([1, 5, 2])) == 5
    assert max_([None], default=1) is None and max_([(1, "b"), (1, "a")]) == (1, "b")
    with pytest.raises(TypeError, match="default"):
        max_(tf.constant(1), 2, default=3)        # Python refuses a default with several arguments
    for call in (lambda: min_([]), lambda: min_(iter(())), lambda: max_(x for x in ())):
        with pytest.raises(ValueError):
            call()
    with pytest.raises(TypeError):
        max_()
    assert BUILTIN_OVERLOADS[max] is max_ and BUILTIN_OVERLOADS[min] is min_


def test_a_generator_and_a_tensors_rows_are_iterated_as_python_iterates_them():
    @tf.function
    def f(x, row):
        return max(v * x for v in range(3)), min(row), max(row)

    assert [t.numpy().item() for t in f(tf.constant(2), tf.constant([4.0, math.nan, 1.0]))] == [4, 1.0, 4.0]
    assert (min([4.0, math.nan, 1.0]), max([4.0, math.nan, 1.0])) == (1.0, 4.0)   # Python passes over the NaN
    with pytest.raises(TypeError, match="scalar"):
        tf.function(lambda x: max(x))(tf.constant(3))   # Python: an int is not iterable


def test_key_is_called_once_per_item_in_order():
    calls = []

    def key(v):
        calls.append(v)
        return -v

    @tf.function
    def f(x):
        return min(x, x + 1, x + 2, key=key)

    assert f(tf.constant(1)).numpy() == 3 and len(calls) == 3


def test_items_that_are_not_scalars_are_refused_at_the_users_line():
    with pytest.raises(Exception, match=r"test_staged_min_max.py:\d+: .*scalar"):
        tf.function(lambda x: max(x, x * 2))(tf.constant([1, 2]))


def test_the_jax_backend_chooses_as_python():
    jax = pytest.importorskip("jax", reason="the JAX backend is tested where JAX is installed")
    for x in (-3, 2, 5):
        got = jax.jit(ag.convert(extremes))(jax.numpy.int32(x))
        assert [np.asarray(v).item() for v in got] == list(extremes(x))
