"""Gradient checks: every differentiable op's rule, and gradients through Cond, While (with
`break` and `maximum_iterations`), nested functions, TensorArrays and staged lists, against
central finite differences in float64 — first and second order, eagerly, with the tapes inside a
`runtime.function`, and with the tapes outside one. Hypothesis picks the points."""
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import runtime as tf
from runtime.ops.logging_ops import check_defined

F64 = tf.float64


def _other(x):
    """A second operand that depends on x, so binary ops get gradients on both sides."""
    return x[::-1] * 0.5 + 1.25


def _far_apart(x) -> bool:
    v = np.sort(np.asarray(x))
    return bool(np.all(np.diff(v) > 1e-2))


def _away_from(points, margin=1e-2):
    return lambda x: bool(np.all(np.min(np.abs(np.asarray(x)[:, None] - np.asarray(points)[None]), axis=1) > margin))


def cond_program(x):
    if tf.reduce_sum(x) > 0:
        y = tf.sin(x) * x
    else:
        y = x * x * x
    return y


def while_with_break(x):
    y = x
    for i in tf.range(10):
        if tf.reduce_max(y) > 6.0:
            break
        y = y * x + 0.5
    return y


def while_with_maximum_iterations(x):
    _, y = tf.while_loop(lambda i, y: tf.reduce_sum(y) < 1e9, lambda i, y: (i + 1, tf.tanh(y) * x + y),
                         (0, x), maximum_iterations=3)
    return y


@tf.function
def inner_function(x, n):
    y = tf.ones_like(x)
    for _ in tf.range(n):
        y = y * tf.exp(x * 0.25)
    return y


def nested_functions(x):
    return inner_function(x, tf.constant(3)) * tf.sin(x)


def tensor_array_program(x):
    ta = tf.TensorArray(F64, size=3)
    for i in tf.range(3):
        ta = ta.write(i, x * tf.cast(i + 1, F64) + tf.square(x))
    return tf.reduce_sum(ta.stack(), axis=0) * ta.read(1)


def reshaped_list(x):
    values = []
    for i in tf.range(2):
        values.append(x * tf.cast(i + 1, F64))
    stacked = tf.stack(values)                     # its first dimension is only known when it runs
    return tf.reduce_sum(tf.reshape(stacked, [-1]) ** 2) * tf.squeeze(tf.expand_dims(x, 0))


def appended_list(x):
    values = []
    for i in tf.range(3):
        values.append(tf.sin(x * tf.cast(i, F64)))
    return tf.reduce_prod(tf.stack(values), axis=0) + tf.reduce_sum(tf.stack(values), axis=0) * x


# name -> (program of a float64 vector of 3 elements, the points it is smooth at)
PROGRAMS = {
    "Neg": (lambda x: -x * x, None),
    "Abs": (lambda x: tf.abs(x) * x, _away_from([0.0])),
    "Sign": (lambda x: tf.sign(x) * x, _away_from([0.0])),          # zeros, as TensorFlow gives
    "GatherNd": (lambda x: tf.gather_nd(tf.reshape(x, [3, 1]), [[2, 0], [0, 0], [2, 0]]) * x, None),
    "ScatterNd": (lambda x: tf.scatter_nd([[1], [0], [1]], x * x, [3]) * x, None),
    "Square": (lambda x: tf.square(x) * x, None),
    "Sqrt": (lambda x: tf.sqrt(tf.abs(x) + 0.5), _away_from([0.0])),
    "Exp": (tf.exp, None),
    "Log": (lambda x: tf.math.log(x * x + 0.5), None),
    "Sin": (tf.sin, None),
    "Cos": (tf.cos, None),
    "Tanh": (tf.tanh, None),
    "Sigmoid": (tf.sigmoid, None),
    "Identity": (lambda x: tf.identity(x) ** 3, None),
    "CheckDefined": (lambda x: check_defined(x, tf.constant(True), UnboundLocalError, "unbound") ** 3, None),
    "Sum": (lambda x: tf.reduce_sum(x * x) * x, None),
    "Mean": (lambda x: tf.reduce_mean(tf.reshape(x * x, [3, 1]), axis=0) * x, None),
    "Max": (lambda x: tf.reduce_max(x * x * x) * x, _far_apart),
    "Min": (lambda x: tf.reduce_min(x, keepdims=True) * x * x, _far_apart),
    "Prod": (lambda x: tf.reduce_prod(x * x - 0.5) * x, None),
    "Reshape": (lambda x: tf.reshape(x, [3, 1]) * tf.reshape(x * x, [1, 3]), None),
    "Transpose": (lambda x: tf.transpose(tf.reshape(x, [1, 3])) * x, None),
    "ExpandDims": (lambda x: tf.expand_dims(x, 0) ** 3, None),
    "Squeeze": (lambda x: tf.squeeze(tf.reshape(x, [1, 3, 1])) ** 3, None),
    "ClipByValue": (lambda x: tf.clip_by_value(x, -1.0, 1.0) * x, _away_from([-1.0, 1.0])),
    "Cast": (lambda x: tf.cast(x, F64) ** 3, None),
    "ConcatV2": (lambda x: tf.concat([x, x * x], axis=0) ** 2, None),
    "Pack": (lambda x: tf.stack([x, x ** 3], axis=1) * 1.5, None),
    "Unpack": (lambda x: tf.unstack(tf.reshape(x, [3, 1]) * x)[1] ** 2, None),
    "Tile": (lambda x: tf.tile(x * x, [2]) * tf.concat([x, x], 0), None),
    "Cumsum": (lambda x: tf.math.cumsum(x * x, reverse=True) * x, None),
    "Cumprod": (lambda x: tf.math.cumprod(x * 2.0, exclusive=True) + tf.math.cumprod(x, reverse=True) * x,
                _away_from([0.0])),
    "GatherV2": (lambda x: tf.gather(x * x, [2, 0, 2]) * x[0], None),
    "StridedSlice": (lambda x: x[1:] * x[:-1] * x[::2][0], None),
    "SelectV2": (lambda x: tf.where(x > 0, x * x, x * x * x), _away_from([0.0])),
    "AddV2": (lambda x: (x + _other(x)) ** 2, None),
    "Sub": (lambda x: (x - _other(x)) ** 2, None),
    "Mul": (lambda x: x * _other(x) * x, None),
    "RealDiv": (lambda x: x / _other(x) ** 2, None),
    "Pow": (lambda x: tf.pow(_other(x), x), None),
    "Maximum": (lambda x: tf.maximum(x, _other(x)) * x, lambda x: bool(np.all(np.abs(x - (x[::-1] * 0.5 + 1.25)) > 1e-2))),
    "Minimum": (lambda x: tf.minimum(x * x, _other(x)) * x, lambda x: bool(np.all(np.abs(x * x - (x[::-1] * 0.5 + 1.25)) > 1e-2))),
    "FloorMod": (lambda x: tf.math.floormod(x * x, _other(x)) * x,
                 lambda x: bool(np.all(np.abs(np.remainder(x * x / (x[::-1] * 0.5 + 1.25) + 0.5, 1) - 0.5) > 1e-2))),
    "MatMul": (lambda x: tf.matmul(tf.reshape(x, [3, 1]), tf.reshape(x * x, [1, 3])) * 0.5, None),
    "Cond": (cond_program, lambda x: abs(float(np.sum(x))) > 1e-2),
    "WhileWithBreak": (while_with_break, None),
    "WhileMaximumIterations": (while_with_maximum_iterations, None),
    "NestedFunctions": (nested_functions, None),
    "TensorArray": (tensor_array_program, None),
    "AppendedList": (appended_list, None),
    "ReshapedList": (reshaped_list, None),
}
CONTROL_FLOW = {"Cond", "WhileWithBreak", "WhileMaximumIterations", "NestedFunctions", "TensorArray", "AppendedList",
                "ReshapedList"}
MODES = ["eager", "tapes inside a function", "tapes outside a function"]
CASES = [(name, mode) for name in sorted(PROGRAMS) for mode in MODES
         if name in CONTROL_FLOW or mode != "tapes outside a function"]   # ops: eager and in a function


def _derivatives(fn):
    def first_and_second(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = fn(x)
            dy = inner.gradient(y, x)
        return y, dy, outer.gradient(dy, x)
    return first_and_second


_BUILT: dict = {}


def derivatives(name: str, mode: str):
    """`x -> (y, dy/dx, d(sum dy/dx)/dx)` for program `name` in `mode`, built once (one trace)."""
    key = (name, mode)
    if key not in _BUILT:
        fn = PROGRAMS[name][0]
        if fn.__name__ == "<lambda>":   # one-line programs of ops: nothing for autograph to convert
            fn = tf.autograph.experimental.do_not_convert(fn)
        if mode == "tapes inside a function":
            _BUILT[key] = tf.function(_derivatives(fn))
        elif mode == "tapes outside a function":
            _BUILT[key] = _derivatives(tf.function(fn))
        else:
            _BUILT[key] = _derivatives(fn)
    return _BUILT[key]


def central_differences(f, x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    grad = np.zeros_like(x)
    for i in range(x.size):
        step = np.zeros_like(x)
        step[i] = eps
        grad[i] = (np.sum(f(x + step)) - np.sum(f(x - step))) / (2 * eps)
    return grad


def _smooth_near(ok, x) -> bool:
    return ok is None or all(ok(x + d) for d in (-1e-4, 0.0, 1e-4))


# three decimals: finite differences say nothing useful at 1e-300, where products underflow
points = st.lists(st.floats(-1.5, 1.5, allow_nan=False), min_size=3, max_size=3).map(lambda v: np.round(v, 3))


@pytest.mark.parametrize("name, mode", CASES)
@settings(max_examples=3, deadline=None, derandomize=True)
@given(x=points)
def test_first_and_second_derivatives_match_finite_differences(name, mode, x):
    assume(_smooth_near(PROGRAMS[name][1], x))
    run = derivatives(name, mode)
    y, dy, d2y = run(tf.constant(x))
    forward = PROGRAMS[name][0]
    np.testing.assert_allclose(y.numpy(), forward(tf.constant(x)).numpy(), rtol=1e-12)
    np.testing.assert_allclose(dy.numpy(), central_differences(lambda v: forward(tf.constant(v)).numpy(), x),
                               rtol=1e-5, atol=1e-6, err_msg="first order")
    first = derivatives(name, mode)
    np.testing.assert_allclose(d2y.numpy(), central_differences(lambda v: first(tf.constant(v))[1].numpy(), x),
                               rtol=1e-4, atol=1e-5, err_msg="second order")


def test_every_differentiable_op_is_checked():
    from runtime.ops.gradients import RULES
    from runtime.ops.registry import OpDef
    run_by_others = {n for n in RULES if n.startswith("TensorList")} | {"StridedSliceGrad", "GatherV2Grad", "While",
                                                                             "SumToShape", "BroadcastLike", "CustomGradient", "Call",
                                                                             "ReshapeLike",
                                                                             # second derivatives of relu, relu6,
                                                                             # leaky_relu:
                                                                             # test_gradient_dtypes_and_kinks.py
                                                                             "ReluGrad", "Relu6Grad", "LeakyReluGrad",
                                                                             # of sqrt, rsqrt, reciprocal:
                                                                             # test_gradients_round13.py
                                                                             "SqrtGrad", "RsqrtGrad", "ReciprocalGrad"}
    # the ops of extra_array_ops, sort_ops, extra_math, nn_ops, complex_ops, script_ops and linalg_ops: checked against
    # finite differences in their own
    # test files (tests/runtime/gradcheck.py)
    from runtime.ops import (complex_ops, extra_array_ops, extra_math, linalg_ops, nn_ops, script_ops, sort_ops,
                             special_math)   # (special_math: tests/runtime/test_special_math.py)
    own_files = {op.name for m in (extra_array_ops, extra_math, nn_ops, sort_ops, complex_ops, script_ops, linalg_ops,
                                   special_math)
                 for op in vars(m).values()
                 if op.__class__ is OpDef}
    assert set(RULES) - run_by_others - own_files - set(PROGRAMS) == set()   # lists, second orders, While programs


def test_stop_gradient_stops_the_gradient_eagerly_and_in_a_function():
    def f(x):
        return x * tf.stop_gradient(x * x)

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    assert float(tape.gradient(y, x)) == 9.0
    g = tf.function(lambda x: _gradient_of(f, x))
    assert float(g(x)) == 9.0


def _gradient_of(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)
