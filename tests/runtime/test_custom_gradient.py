"""`custom_gradient` (runtime/autodiff.py): how its grad_fn's gradients are matched to the function's arguments,
as TensorFlow matches them, eagerly and in a traced function with the tape inside or outside it."""
import pytest

import runtime as tf

PLACEMENTS = ["eager", "tape inside the function", "tape outside the function"]


def _gradients(placement, call, *args):
    def with_tape(*xs):
        with tf.GradientTape() as tape:
            tape.watch(xs)
            y = call(*xs)
        return tape.gradient(y, list(xs))
    if placement == "eager":
        return with_tape(*args)
    if placement == "tape inside the function":
        return tf.function(with_tape)(*args)
    staged = tf.function(call)
    with tf.GradientTape() as tape:
        tape.watch(args)
        y = staged(*args)
    return tape.gradient(y, list(args))


@pytest.mark.parametrize("placement", PLACEMENTS)
def test_a_list_of_tensors_passed_as_one_argument_gets_a_gradient_for_each_item(placement):
    # the tensors inside a list argument were not inputs at all: their gradients were None, silently
    @tf.custom_gradient
    def product(xs, k):
        def grad(dz):
            return [dz * 7.0, dz * 5.0], None
        return xs[0] * xs[1] * k, grad

    found = _gradients(placement, lambda x, y: product([x, y], 2.0), tf.constant(1.5), tf.constant(2.0))
    assert [float(g) for g in found] == [7.0, 5.0]


@pytest.mark.parametrize("placement", PLACEMENTS)
@pytest.mark.parametrize("returned", [1, 3])
def test_a_grad_fn_returning_another_number_of_gradients_than_arguments_is_a_value_error(placement, returned):
    # too few gave None for the rest and too many were dropped, silently; TensorFlow raises
    @tf.custom_gradient
    def product(x, y):
        def grad(dz):
            return tuple(dz * float(i) for i in range(returned)) if returned > 1 else dz * 7.0
        return x * y, grad

    with pytest.raises(ValueError, match=f"product .*test_custom_gradient.py:\\d+\\) expected to return 2 "
                                         f"gradients, but returned {returned} instead"):
        _gradients(placement, product, tf.constant(1.5), tf.constant(2.0))


def test_a_wrong_grad_fn_in_a_traced_function_is_no_error_while_no_gradient_is_asked():
    @tf.custom_gradient
    def product(x, y):
        return x * y, lambda dz: dz

    assert float(tf.function(product)(tf.constant(1.5), tf.constant(2.0))) == 3.0


def test_a_python_if_in_a_custom_gradient_function_is_staged_in_a_converted_function():
    @tf.function
    def f(x):
        @tf.custom_gradient
        def clipped(e):
            if e > 0:
                y = e * 2
            else:
                y = -e
            return y, lambda dy: dy * 10
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = clipped(x)
        return y, tape.gradient(y, x)

    assert [float(t) for t in f(tf.constant(1.))] == [2.0, 10.0]    # TensorFlow 2.21: 2.0 and 10.0
    assert [float(t) for t in f(tf.constant(-3.))] == [3.0, 10.0]
