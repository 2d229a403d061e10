"""GradientTape's rules against real TensorFlow (test_against_tensorflow.py, continued): each program runs with
`import runtime as tf` and with TensorFlow and must give the same gradients, or raise the same family of error.
Skipped without TensorFlow (the `tensorflow` extra; CI installs it)."""
import os

import numpy as np
import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
real_tf = pytest.importorskip("tensorflow", reason="TensorFlow is not installed (pip install -e '.[tensorflow]')")

from tests.runtime.test_against_tensorflow import compare  # noqa: E402


def _tape_cases():
    """GradientTape's rules, as TensorFlow applies them: (name, program of `lib`)."""
    cases = []

    def case(lib):
        x = lib.constant(3)
        with lib.GradientTape() as t:
            t.watch(x)
            y = x * x
        return t.gradient(y, x)
    cases.append(('int source', case))

    def case(lib):
        x = lib.constant(3.0)
        with lib.GradientTape() as t:
            t.watch(x)
            y = x * x
        t.gradient(y, x)
        return t.gradient(y, x)
    cases.append(('twice non persistent', case))

    def case(lib):
        x = lib.constant(3.0)
        z = lib.constant(1.0)
        with lib.GradientTape() as t:
            t.watch(x)
            y = x * x
        return t.gradient(y, [x, z], unconnected_gradients="zero")
    cases.append(('unconnected zero', case))

    def case(lib):
        x = lib.constant(3.0)
        z = lib.constant(1.0)
        with lib.GradientTape() as t:
            t.watch(x)
            y = x * x
        return t.gradient(y, [x, z])
    cases.append(('unconnected none', case))

    def case(lib):
        v = lib.Variable(2.0)
        with lib.GradientTape(watch_accessed_variables=False) as t:
            y = v * v
        return t.gradient(y, v)
    cases.append(('no watch accessed', case))

    def case(lib):
        x = lib.constant([1.0, 2.0])
        with lib.GradientTape() as t:
            t.watch(x)
            y = [x * 2, lib.reduce_sum(x * x)]
        return t.gradient(y, x)
    cases.append(('list target', case))

    def case(lib):
        x = lib.constant([1.0, 2.0])
        with lib.GradientTape() as t:
            t.watch(x)
            y = {"a": x * 2, "b": x * x}
        return t.gradient(y, {"p": x, "q": [x]})
    cases.append(('dict target/sources', case))

    def case(lib):
        v = lib.Variable(2.0)
        @lib.function
        def f(): return v * v * 3
        with lib.GradientTape() as t:
            y = f()
        return t.gradient(y, v)
    cases.append(('var in function', case))

    def case(lib):
        x = lib.constant(2.0)
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.cast(x, lib.int32) * 2
        return t.gradient(y, x)
    cases.append(('through int cast', case))

    def case(lib):
        x = lib.constant(2.0)
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.cast(x, lib.float64) * 3.0
        return t.gradient(y, x)
    cases.append(('through f64 cast', case))

    def case(lib):
        x = lib.constant([1.0, 2.0])
        with lib.GradientTape() as t:
            t.watch(x)
            y = x * 3
        return t.gradient(y, x, output_gradients=lib.constant([1.0, -1.0]))
    cases.append(('output_gradients', case))

    def case(lib):
        x = lib.constant(2.0)
        with lib.GradientTape(persistent=True) as t:
            t.watch(x)
            y = x ** 3
            g = t.gradient(y, x)
        return [g, t.gradient(g, x) if g is not None else None]
    cases.append(('gradient inside persistent', case))

    def case(lib):
        x = lib.Variable(2.0, trainable=False)
        with lib.GradientTape() as t:
            y = x * x
        return t.gradient(y, x)
    cases.append(('non trainable var', case))

    def case(lib):
        x = lib.constant(2.0)
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.stop_gradient(x) * x
        return t.gradient(y, x)
    cases.append(('stop_gradient', case))

    def case(lib):
        x = lib.constant([[1.0, 2.0], [3.0, 4.0]])
        with lib.GradientTape() as t:
            t.watch(x)
            y = x[0, 1] * 2 + x[1][0]
        return t.gradient(y, x)
    cases.append(('slices', case))

    def case(lib):
        x = lib.constant(2.0)
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * x), [0, lib.constant(1.0)])[1]
        return t.gradient(y, x)
    cases.append(('while_loop', case))

    def case(lib):
        x = lib.constant(2.0)
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.cond(x > 1, lambda: x * x, lambda: x)
        return t.gradient(y, x)
    cases.append(('cond', case))

    def case(lib):
        x = lib.constant([1.0, 2.0, 3.0])
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.reduce_max(x * lib.constant([1.0, 3.0, 1.0]))
        return t.gradient(y, x)
    cases.append(('reduce_max', case))

    def case(lib):
        x = lib.constant(0.0)
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.sqrt(x)
        return t.gradient(y, x)
    cases.append(('sqrt 0', case))

    def case(lib):
        x = lib.constant([0.0, 0.0])
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.norm(x)
        return t.gradient(y, x)
    cases.append(('norm at 0', case))

    def case(lib):
        x = lib.constant([0.0, 4.0])
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.reduce_sum(lib.math.divide_no_nan(x, x))
        return t.gradient(y, x)
    cases.append(('divide_no_nan 0', case))

    def case(lib):
        x = lib.constant([1.0, 1.0, 1.0])
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.math.reduce_std(x)
        return t.gradient(y, x)
    cases.append(('reduce_std const', case))

    def case(lib):
        x = lib.constant(2.0)
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.constant(5.0)
        return t.gradient(y, x)
    cases.append(('unconnected target', case))

    def case(lib):
        v = lib.Variable(2.0)

        @lib.custom_gradient
        def f(x):
            def grad(dy, variables=None):
                return dy * 3.0, [dy * 5.0 for _ in variables]
            return lib.cond(x > 0, lambda: x * v, lambda: x), grad

        def run(x):
            with lib.GradientTape() as t:
                t.watch(x)
                y = f(x) * 2.0
            return t.gradient(y, [x, v])
        return [run(lib.constant(1.0)), lib.function(run)(lib.constant(1.0))]
    cases.append(('custom_gradient variables', case))

    def case(lib):
        v = lib.Variable(2.0)

        @lib.custom_gradient
        def f(x):
            return x * v, lambda dy: dy * 3.0
        x = lib.constant(1.0)
        with lib.GradientTape() as t:
            t.watch(x)
            y = f(x)
        return t.gradient(y, [x, v])
    cases.append(('custom_gradient variables without the argument', case))

    def case(lib):
        def f(x, w):
            with lib.GradientTape() as t:
                t.watch([x, w])
                y = lib.while_loop(lambda a: a * w < 10.0, lambda a: (a * 2.0,), [x])[0]
            return t.gradient(y, [x, w])
        return [f(lib.constant(1.0), lib.constant(0.5)), lib.function(f)(lib.constant(1.0), lib.constant(0.5))]
    cases.append(('while_loop condition only', case))

    def case(lib):
        x = lib.constant([-1.0, 0.5, 7.0])
        with lib.GradientTape(persistent=True) as outer:
            outer.watch(x)
            with lib.GradientTape() as inner:
                inner.watch(x)
                y = lib.reduce_sum(lib.nn.relu(x) * 2.0 + lib.nn.relu6(x) + lib.nn.leaky_relu(x, alpha=0.3))
            g = inner.gradient(y, x)
        return [g, outer.gradient(g, x)]
    cases.append(('relu, relu6, leaky_relu second derivative', case))

    def case(lib):
        x = lib.constant([0.0, -2.0, 3.0])
        with lib.GradientTape() as outer:
            outer.watch(x)
            with lib.GradientTape() as inner:
                inner.watch(x)
                y = lib.reduce_sum(lib.abs(lib.complex(x, x * 0.0)))
            g = inner.gradient(y, x)
            s = lib.reduce_sum(g * lib.constant([1.0, 2.0, 3.0]))
        return [g, outer.gradient(s, x)]
    cases.append(('abs of a complex zero, second derivative', case))

    def case(lib):
        x = lib.constant([[1.5, -0.5, 2.0], [0.25, -1.0, 3.0]])
        with lib.GradientTape() as outer:
            outer.watch(x)
            with lib.GradientTape() as inner:
                inner.watch(x)
                y = lib.reduce_sum(lib.nn.sparse_softmax_cross_entropy_with_logits(labels=[2, 0], logits=x) * [1.0, 3.0])
            g = inner.gradient(y, x)
            s = lib.reduce_sum(g * lib.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
        return [g, outer.gradient(s, x)]
    cases.append(('sparse softmax cross-entropy, second derivative', case))

    def case(lib):
        x, z = lib.constant([1.0, -2.0]), lib.constant([1.0 + 2.0j], lib.complex64)
        with lib.GradientTape() as t:
            t.watch([x, z])
            y = (lib.reduce_sum(lib.cast(lib.cast(x, lib.complex64) * lib.constant(1.0 + 2.0j, lib.complex64), lib.float32))
                 + lib.reduce_sum(lib.cast(z, lib.float32) * 3.0))
        return t.gradient(y, [x, z])
    cases.append(('casts from complex to float', case))

    def case(lib):
        x = lib.constant([1.5, 0.5, 2.0, 0.25])
        with lib.GradientTape() as outer:
            outer.watch(x)
            with lib.GradientTape() as inner:
                inner.watch(x)
                y = lib.reduce_sum(lib.math.log1p(x - x[3] - 1.0)) + lib.reduce_sum(lib.math.log(x - x[3]) * 2.0)
            g = inner.gradient(y, x)
            s = lib.reduce_sum(g * lib.constant([1.0, 2.0, 3.0, 4.0]))
        return [g, outer.gradient(s, x)]
    cases.append(('log and log1p, a zero gradient through 1 / 0', case))

    def case(lib):
        x, y = lib.constant([1e30, 1.0, 0.0]), lib.constant([1e20, 1e-20, 0.0])
        with lib.GradientTape() as t:
            t.watch([x, y])
            z = lib.reduce_sum(x / y) + lib.reduce_sum(lib.math.divide_no_nan(x, y))
        return t.gradient(z, [x, y])
    cases.append(('divisor gradient extremes', case))

    def case(lib):
        v, frozen = lib.Variable(2.0), lib.Variable(1.0, trainable=False)
        x, n = lib.constant(3.0), lib.constant(2)
        with lib.GradientTape(persistent=True) as t:
            y = v * 3.0
        return [t.gradient([y, v], v), t.gradient(frozen, frozen), t.gradient([x, x * 2.0], x), t.gradient(n, n),
                t.gradient(v, x), lib.function(lambda: t.gradient([y, v], v))()]
    cases.append(('targets that are sources', case))
    return cases




@pytest.mark.parametrize("name, program", _tape_cases(), ids=[n for n, _ in _tape_cases()])
def test_gradient_tape_rules_are_tensorflows(name, program):
    # int sources, a second gradient of a non-persistent tape, unconnected gradients, watch_accessed_variables,
    # structured targets and sources, Variables read in a function, casts, stop_gradient, loops and branches
    def outcome(lib):
        try:
            found = program(lib)
        except Exception as e:        # noqa: BLE001 - which family TensorFlow raises, compared
            return ["raised " + ("InvalidArgumentError" if "InvalidArgument" in type(e).__name__ else type(e).__name__)]
        return ["ok", *_tape_values(found)]
    compare(name, lambda lib: [np.asarray(str(v)) if isinstance(v, str) else v for v in outcome(lib)],
            tf_computes=True)


def _tape_values(found):
    if isinstance(found, dict):
        return [v for k in sorted(found) for v in _tape_values(found[k])]
    if isinstance(found, (list, tuple)):
        return [v for item in found for v in _tape_values(item)]
    return [np.asarray("None")] if found is None else [found]
