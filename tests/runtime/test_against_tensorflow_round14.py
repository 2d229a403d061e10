"""Edges and staged control flow against real TensorFlow (test_against_tensorflow.py, continued; fourteenth
session): composites at inf, NaN and -0.0 with their gradients, first and second derivatives through loops with
`break`, nested loops and TensorArrays, Variables read in a staged branch, int and bool sources, and Keras 3's
cross-entropies of softmax and sigmoid outputs. Each program runs with `import runtime as tf` and with
TensorFlow and must give the same values, dtypes, shapes and None-ness. Skipped without TensorFlow (the `tensorflow` extra; CI installs it)."""
import os

import numpy as np
import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
real_tf = pytest.importorskip("tensorflow", reason="TensorFlow is not installed (pip install -e '.[tensorflow]')")

from tests.runtime.test_against_tensorflow import compare  # noqa: E402

INF, NAN = np.inf, np.nan
EDGES = np.array([[INF, 1.0], [NAN, 2.0], [-INF, -INF], [0.0, -0.0], [3.0, 4.0], [1e30, 1e30]], np.float32)


def _gradient(lib, f, x):
    with lib.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return [y, tape.gradient(y, x)]


def _staged(lib, staged: bool, f):
    return lib.function(f) if staged else f


COMPOSITES = {
    "clip_by_norm": lambda lib, x: lib.clip_by_norm(x, 1.0, axes=[1]),
    "clip_by_global_norm": lambda lib, x: lib.clip_by_global_norm([x[:1], x[4:]], 1.0)[0],
    "l2_normalize": lambda lib, x: lib.math.l2_normalize(x, axis=1),
    "norm": lambda lib, x: lib.norm(x, axis=1),
    "reduce_logsumexp": lambda lib, x: lib.reduce_logsumexp(x, axis=1),
    "softsign": lambda lib, x: lib.nn.softsign(x),
    "log_sigmoid": lambda lib, x: lib.math.log_sigmoid(x),
    "reduce_std": lambda lib, x: lib.math.reduce_std(x, axis=1),
    "sigmoid_cross_entropy": lambda lib, x: lib.nn.sigmoid_cross_entropy_with_logits(
        labels=lib.constant([[1.0, 0.0]] * 6), logits=x),
}


@pytest.mark.parametrize("staged", [False, True], ids=["eager", "function"])
@pytest.mark.parametrize("name", sorted(COMPOSITES))
def test_composites_and_their_gradients_at_inf_nan_and_signed_zeros_are_tensorflows(name, staged):
    op = COMPOSITES[name]
    assert compare(name, lambda lib, x: _staged(lib, staged, lambda v: _gradient(lib, lambda a: op(lib, a), v))(x),
                   EDGES, tf_computes=True)


def _break_in_while(lib, x):
    s, i = x, lib.constant(0)
    while i < 10:
        s = s * 1.5 + lib.sin(s)
        if lib.reduce_sum(s) > 5.0:
            break
        i += 1
    return lib.reduce_sum(s * s)


def _break_in_nested_loops(lib, x):
    s = lib.constant(0.0)
    for i in lib.range(3):
        j = lib.constant(0)
        while j < 4:
            s = s + x[j % 3] * lib.cast(i + 1, lib.float32)
            if s > 3.0:
                break
            j += 1
    return s


def _tensor_array_in_loop(lib, x):
    ta = lib.TensorArray(lib.float32, size=0, dynamic_size=True)
    s = x
    for i in lib.range(3):
        s = s * x
        ta = ta.write(i, s)
    return lib.reduce_sum(ta.stack())


def _stop_gradient_in_one_branch(lib, x):
    if lib.reduce_sum(x) > 0.0:
        y = lib.stop_gradient(x) * x
    else:
        y = x * x
    return lib.reduce_sum(y)


LOOPS = {
    "break in a while": (_break_in_while, [0.1, 0.2, 0.3]),
    "break in nested loops": (_break_in_nested_loops, [0.5, 0.25, 0.125]),
    "TensorArray in a loop": (_tensor_array_in_loop, [1.5, -0.5]),
    "stop_gradient in one branch": (_stop_gradient_in_one_branch, [-1.0, -2.0, 0.5]),
}


def _second(lib, program, x):
    """program's value, gradient and second derivative, the tapes outside the staged program."""
    f = lib.function(lambda v: program(lib, v))
    with lib.GradientTape() as outer:
        outer.watch(x)
        with lib.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    return [y, g, outer.gradient(g, x)]


@pytest.mark.parametrize("name", sorted(LOOPS))
def test_first_and_second_derivatives_through_staged_loops_and_branches_are_tensorflows(name):
    program, x = LOOPS[name]
    assert compare(name, lambda lib, v: _second(lib, program, v), np.array(x, np.float32), tf_computes=True)


def _variables_in_a_staged_branch(lib, x):
    v, w = lib.Variable([1.0, 2.0, 3.0]), lib.Variable(2.0)

    @lib.function
    def f(x):
        with lib.GradientTape() as tape:
            y = lib.reduce_sum(v * w) if x > 0.0 else x
        return tape.gradient(y, [v, w])
    return [f(x), f(-x)]


def _int_and_bool_sources(lib, x):
    n, b = lib.constant([1, 2, 3]), lib.constant([True, False, True])
    with lib.GradientTape() as tape:
        tape.watch([x, n, b])
        y = x * lib.cast(n, lib.float32) + lib.cast(b, lib.float32)
    return tape.gradient(y, [x, n, b], unconnected_gradients="zero")


@pytest.mark.parametrize("program", [_variables_in_a_staged_branch, _int_and_bool_sources])
def test_variables_read_in_a_staged_branch_and_int_sources_get_tensorflows_gradients_and_nones(program):
    x = np.array(1.0 if program is _variables_in_a_staged_branch else [0.5, -1.5, 2.0], np.float32)
    assert compare(program.__name__, program, x, tf_computes=True)


def _keras_losses(lib, z, staged: bool):
    one_hot = lib.constant([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]])

    def losses(z):
        probabilities, sigmoids = lib.nn.softmax(z), lib.sigmoid(z)
        return [lib.keras.losses.categorical_crossentropy(one_hot, probabilities),
                lib.keras.losses.sparse_categorical_crossentropy(lib.constant([2, 1]), probabilities),
                lib.keras.losses.binary_crossentropy(one_hot, sigmoids),
                lib.keras.losses.BinaryCrossentropy(label_smoothing=0.1)(one_hot, sigmoids),
                lib.keras.losses.sparse_categorical_crossentropy(lib.constant([1, 0]), lib.abs(z) / 50.0)]
    return _gradient(lib, _staged(lib, staged, losses), z)


@pytest.mark.parametrize("staged", [False, True], ids=["eager", "function"])
def test_keras_cross_entropies_of_softmax_sigmoid_and_unnormalised_probabilities_are_keras_3s(staged):
    z = np.array([[100.0, 0.0, -100.0], [1.0, 2.0, 3.0]], np.float32)
    assert compare("keras losses", lambda lib, v: _keras_losses(lib, v, staged), z, tf_computes=True)

