"""A Python value both paths of a staged `if` give (or a loop gives back) is kept as it is only when nothing
tells the two apart (autograph/backends/staging.py `same_static`). Equal was not enough: 0.0 and -0.0 are
equal, and the JAX and TensorFlow backends kept the first branch's zero, so `math.copysign(1, y)` or `1 / y`
took the wrong sign on the other path; Decimal('1.0') and Decimal('1.00') are equal and print differently;
an `__eq__` of the user's may call unlike objects equal. Such values are now carried (a signed zero as a
float tensor, which keeps its sign) or refused, naming the variable."""
from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pytest

import autograph as ag
from autograph.backends.staging import same_static
from autograph.errors import StagingError


class AnyLoose:
    """Equal to every other AnyLoose, whatever it holds."""

    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return isinstance(other, AnyLoose)

    __hash__ = None


@pytest.mark.parametrize("a, b", [(0.0, -0.0), (complex(0.0, 0.0), complex(0.0, -0.0)), (Decimal("1.0"),
                                  Decimal("1.00")), (AnyLoose(1), AnyLoose(2)), (1, 1.0), (1, True)],
                         ids=["signed-zero", "complex-signed-zero", "decimal-exponent", "user-eq", "int-float",
                              "int-bool"])
def test_values_equal_but_told_apart_are_not_one_static_value(a, b):
    assert a == b and not same_static(a, b)


@pytest.mark.parametrize("a, b", [(0.5, 0.5), ("ab", "a" + "b"[:1]), (None, None), (3, 3), (Decimal("2.5"),
                                  Decimal("2.5")), (math.inf, math.inf)])
def test_equal_values_nothing_tells_apart_are_one_static_value(a, b):
    assert same_static(a, b)


def signed_zero_in_branch(x):
    y = -0.0
    if x > 0:
        y = 0.0
    return y + x * 0


def signed_zero_in_conditional_expression(x):
    return (0.0 if x > 0 else -0.0) + x * 0


def decimal_in_branch(x):
    d = Decimal("1.0")
    if x > 0:
        d = Decimal("1.00")
    return x, str(d)


def _sign(value) -> float:
    return math.copysign(1.0, float(np.asarray(value)))


def _jax_jit():
    jax = pytest.importorskip("jax", reason="JAX is not installed (pip install -e '.[jax]')")
    return lambda fn: jax.jit(ag.convert(fn))


def _tf_function():
    pytest.importorskip("tensorflow", reason="TensorFlow is not installed (pip install -e '.[tensorflow]')")
    return ag.tensorflow.function


@pytest.mark.parametrize("framework", [_jax_jit, _tf_function], ids=["jax", "tensorflow"])
@pytest.mark.parametrize("fn", [signed_zero_in_branch, signed_zero_in_conditional_expression],
                         ids=lambda fn: fn.__name__)
def test_a_signed_zero_keeps_the_sign_of_the_path_taken(framework, fn):
    traced = framework()(fn)
    for x in (-1.0, 2.0):
        assert _sign(traced(np.asarray(x, np.float32))) == _sign(fn(x)), x


@pytest.mark.parametrize("framework", [_jax_jit, _tf_function], ids=["jax", "tensorflow"])
def test_equal_decimals_that_print_differently_are_refused_naming_the_variable(framework):
    with pytest.raises(StagingError, match=r"test_static_values\.py:\d+: 'd' is the Python Decimal"):
        framework()(decimal_in_branch)(np.asarray(1.0, np.float32))
