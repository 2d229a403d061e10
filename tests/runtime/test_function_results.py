"""What a traced function returns: tensors for its Python numbers and NumPy arrays (a new one each call, as in
TensorFlow), and a clear error where it returns another object that holds a tensor of the trace."""
import dataclasses

import numpy as np
import pytest

import runtime as tf


@dataclasses.dataclass
class Pair:
    first: object
    second: object


class Slotted:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def test_a_returned_numpy_array_is_a_tensor_so_a_caller_changing_it_changes_no_later_call():
    f = tf.function(lambda x: (np.zeros(2), x))
    out, _ = f(tf.constant(1.0))
    assert isinstance(out, tf.Tensor) and out.dtype == tf.float64
    assert f(tf.constant(1.0))[0].numpy().tolist() == [0.0, 0.0]


@pytest.mark.parametrize("make, where", [
    (lambda x: Pair(x * 2, 1), "(at .first)"),
    (lambda x: [Pair(1, {"k": [x]})], "(at .second['k'][0])"),
    (lambda x: Slotted(x), "(at .value)"),
    (lambda x: {"pairs": (Pair([x], 2),)}, "returns a Pair that holds a tensor of the traced graph (at .first[0])"),
])
def test_an_object_holding_a_traced_tensor_is_refused_where_the_function_returns_it(make, where):
    # it was returned as it was: its tensor was the trace's symbolic one, an error only where it was used later
    with pytest.raises(TypeError, match="holds a tensor of the traced graph") as caught:
        tf.function(make)(tf.constant(1.0))
    assert where in str(caught.value) and __file__ in str(caught.value)


def test_an_object_without_tensors_is_returned_as_it_is():
    marker = Pair(1, "a")
    assert tf.function(lambda x: (x, marker))(tf.constant(1.0))[1] is marker
