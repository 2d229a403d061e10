"""The graph interpreter: one table of programs, each run by the compiled executor (the fast
path), by the interpreter on NumPy values, replayed op by op under a tape, and inlined into an
outer trace — the same values every way."""
import ast
import pathlib

import numpy as np
import pytest

import runtime as tf
from runtime.interpret import interpret, needed_ops, replay, run_kernel

w = tf.Variable([0.5, -1.0])


def collatz_steps(n):
    steps = tf.constant(0)
    while n != 1:
        n = tf.where(n % 2 == 0, n // 2, 3 * n + 1)
        steps += 1
    return steps


def branchy(x):
    if tf.reduce_sum(x) > 0:
        y = x * w
    else:
        y = tf.tanh(x) - w
    return y * 2.0


def capped_loop(x):
    _, y = tf.while_loop(lambda i, y: y < 1e6, lambda i, y: (i + 1, y * y + 1.0), (0, x), maximum_iterations=3)
    return y


def listed(x):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(4):
        ta = ta.write(i, x * tf.cast(i, tf.float32))
    return ta.stack() + ta.read(2)


def nested(x):
    total = tf.zeros_like(x)
    for i in tf.range(3):
        if tf.cast(i, tf.float32) * x[0] > 1.0:
            total += x
        else:
            total -= tf.reduce_prod(x)
    return total


def python_ints(n):   # checked int32 arithmetic (ExactInt32): Python ints in the executor, kernels elsewhere
    i = 0
    s = 0
    while i < n:
        if i % 3 == 0:
            s -= i * i
        else:
            s += abs(-i) // 2 + 2 ** (i % 4)
        i += 1
    return s


PROGRAMS = [
    (collatz_steps, (tf.constant(27),)),
    (branchy, (tf.constant([1.0, 2.0]),)),
    (branchy, (tf.constant([-1.0, -2.0]),)),
    (capped_loop, (tf.constant(1.5),)),
    (listed, (tf.constant([1.0, 3.0]),)),
    (nested, (tf.constant([0.7, 2.0]),)),
    (python_ints, (tf.constant(50),)),
]
IDS = [f"{fn.__name__}{i}" for i, (fn, _) in enumerate(PROGRAMS)]


def _values(args):
    return [a.numpy() for a in args]


@pytest.mark.parametrize("fn, args", PROGRAMS, ids=IDS)
def test_executor_agrees_with_the_interpreter(fn, args):
    concrete = tf.function(fn).get_concrete_function(*args)
    compiled = concrete(*args)
    interpreted = interpret(concrete.graph, _values(args), concrete.graph.outputs, run_kernel)
    np.testing.assert_allclose(compiled.numpy(), interpreted[0])


@pytest.mark.parametrize("fn, args", PROGRAMS, ids=IDS)
def test_replay_a_recorded_call_and_inlining_agree_with_the_executor(fn, args):
    traced = tf.function(fn)
    compiled = traced(*args)
    graph = traced.get_concrete_function(*args).graph
    replayed = replay(graph, list(args), graph.outputs)   # eagerly: Cond and While run by their kernels
    with tf.GradientTape():
        recorded = traced(*args)   # one Call op
    inlined = tf.function(lambda *a: traced(*a))(*args)
    for value in (replayed[0], recorded, inlined):
        np.testing.assert_allclose(value.numpy(), compiled.numpy())


def test_cond_and_while_are_registry_ops_whose_rules_are_in_the_gradient_table():
    from runtime.ops import control_flow_gradients
    from runtime.ops.registry import OPS
    assert OPS["Cond"].grad is control_flow_gradients.cond_gradient
    assert OPS["While"].grad is control_flow_gradients.while_gradient
    assert OPS["Call"].grad is control_flow_gradients.call_gradient


def test_needed_ops_prunes_what_the_outputs_do_not_need_but_keeps_effects():
    @tf.function(autograph=False)
    def f(x):
        unused = tf.exp(x)
        tf.print(x)
        return x + 1.0

    graph = f.get_concrete_function(tf.constant(1.0)).graph
    assert [op.type for op in needed_ops(graph, graph.outputs)] == ["PrintV2", "Const", "AddV2"]
    assert "PrintV2" not in [op.type for op in needed_ops(graph, graph.outputs, with_effects=False)]


def test_autodiff_function_and_variables_do_not_import_each_other_inside_functions():
    root = pathlib.Path(tf.__file__).parent
    for name in ("autodiff.py", "function.py", "variables.py", "control_flow.py", "interpret.py"):
        tree = ast.parse((root / name).read_text())
        late = [node.lineno for fn in ast.walk(tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
                for node in ast.walk(fn) if isinstance(node, (ast.Import, ast.ImportFrom))
                and "runtime" in (getattr(node, "module", None) or "")]
        assert late == [], f"{name} imports runtime modules inside functions at lines {late}"
