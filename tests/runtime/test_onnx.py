"""`runtime.onnx.export`: each construct, the examples (the seeds' functions) and the benchmark workloads
exported, checked by `onnx.checker` and run in onnxruntime, with the executor's results."""
import pathlib
import re
import runpy
import subprocess
import sys

import numpy as np
import pytest

import runtime as tf
from runtime.errors import LoweringError
from runtime.function import ConcreteFunction
from runtime.tensor import SymbolicTensor

onnx = pytest.importorskip("onnx", reason="ONNX export needs the onnx extra: pip install 'autograph-runtime[onnx]'")
ort = pytest.importorskip("onnxruntime", reason="running exported models needs the onnx extra: "
                                                "pip install 'autograph-runtime[onnx]'")
from runtime.lowering import to_onnx  # noqa: E402  (needs onnx)
from graph_programs import branchy, capped_loop, collatz, counter_program, fizzbuzz, while_with_break  # noqa: E402
from tools.bench.workloads import chain, count, rnn  # noqa: E402
from tools.bench.workloads import fizzbuzz as fizzbuzz_counts  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]


# --- running a model beside the executor -------------------------------------------------------------

def run_onnx(model, values: list, variables: dict | None = None) -> list:
    options = ort.SessionOptions()
    options.log_severity_level = 3   # a Variable's default value is an initializer that is also an input: a warning
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    feeds = {i.name: np.asarray(v) for i, v in zip(model.graph.input, values)}
    feeds.update(variables or {})
    return session.run(None, feeds)


def assert_same(concrete: ConcreteFunction, values: list, tmp_path=None, drop_prints: bool = False):
    """Export `concrete` (its Variables' defaults: their values now), run the model in onnxruntime and the
    graph with the executor on `values`, and compare the outputs and the Variables' new values."""
    path = None if tmp_path is None else str(tmp_path / f"{concrete.name}.onnx")
    model = tf.onnx.export(concrete, path, drop_prints=drop_prints)
    got = run_onnx(model, values)
    values = [np.asarray(v) for v in values]
    expected = [np.asarray(v) for v in concrete.execute(values)]
    expected += [np.asarray(h.value) for h in to_onnx._written_handles(concrete.graph)]
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.dtype == e.dtype and g.shape == e.shape, (g, e)
        np.testing.assert_allclose(g, e, rtol=2e-5, atol=1e-6)
    return model


def check(fn, *args, drop_prints: bool = False):
    tensors = [tf.constant(a) if not isinstance(a, tf.Tensor) else a for a in args]
    concrete = tf.function(fn).get_concrete_function(*tensors)
    return assert_same(concrete, [t.numpy() for t in tensors], drop_prints=drop_prints)


def node_types(graph) -> list:
    """The op types of a GraphProto's nodes and of their subgraphs', depth first."""
    types = []
    for node in graph.node:
        types.append(node.op_type)
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                types += node_types(attr.g)
    return types


# --- the model -------------------------------------------------------------------------------------

def test_the_model_states_its_opset_passes_the_checker_and_names_its_inputs(tmp_path):
    @tf.function
    def scale(x, factor):
        return x * factor + 1.0

    path = tmp_path / "scale.onnx"
    tf.onnx.export(scale, str(path), tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([], tf.float32))
    model = onnx.load(str(path))
    onnx.checker.check_model(model, full_check=True)
    assert [(o.domain, o.version) for o in model.opset_import] == [("", tf.onnx.OPSET)] and tf.onnx.OPSET == 18
    assert [i.name for i in model.graph.input] == ["x", "factor"]
    assert [o.name for o in model.graph.output] == ["output_0"]
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert dims[0].dim_param == "x_dim0" and dims[1].dim_value == 3
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(run_onnx(model, [x, np.float32(2)])[0], x * 2 + 1)


def test_a_concrete_function_or_a_plain_function_and_its_specs():
    concrete = tf.function(lambda x: x + 1).get_concrete_function(tf.TensorSpec([], tf.int32))
    assert run_onnx(tf.onnx.export(concrete), [np.int32(1)])[0] == 2
    tripled = tf.onnx.export(lambda x: x * 3, None, tf.constant([1, 2]))
    assert run_onnx(tripled, [np.array([2, 3], np.int32)])[0].tolist() == [6, 9]
    with pytest.raises(TypeError, match="already traced"):
        tf.onnx.export(concrete, None, tf.TensorSpec([], tf.int32))


# --- one test per construct --------------------------------------------------------------------------

def test_cond_is_if():
    model = check(branchy, tf.constant([1.0, 2.0]))
    assert "If" in node_types(model.graph)
    concrete = tf.function(branchy).get_concrete_function(tf.TensorSpec([2], tf.float32))
    for x in ([1.0, 2.0], [-1.0, -2.0]):
        assert_same(concrete, [np.array(x, np.float32)])


def test_while_is_loop_with_its_test_before_every_iteration():
    model = check(collatz, 27)
    assert "Loop" in node_types(model.graph)
    concrete = tf.function(collatz).get_concrete_function(tf.TensorSpec([], tf.int32))
    for n in (1, 2, 7):   # 1: the body never runs
        assert_same(concrete, [np.int32(n)])


def test_maximum_iterations_is_the_loops_trip_count():
    check(capped_loop, 1.5)
    check(capped_loop, 1e7)


def test_nested_cond_in_while_and_break():
    model = check(fizzbuzz, 31)
    loop = next(n for n in model.graph.node if n.op_type == "Loop")
    assert "If" in node_types(loop.attribute[0].g)
    check(while_with_break, 100)
    check(while_with_break, 3)


def nested_loops(n):
    total = tf.constant(0)
    for i in tf.range(n):
        for j in tf.range(i):
            if (i + j) % 2 == 0:
                total += i * j
    return total


def test_a_loop_in_a_loop():
    check(nested_loops, 6)


def test_variables_are_inputs_with_their_values_as_defaults_and_assigned_ones_are_outputs():
    v, scale, step = counter_program()
    concrete = tf.function(step).get_concrete_function(tf.TensorSpec([], tf.int32))
    model = assert_same(concrete, [np.int32(4)])   # read in If and Loop, written in both
    assert [i.name for i in model.graph.input] == ["n", "var_v", "var_scale"]
    assert [o.name for o in model.graph.output] == ["output_0", "output_1", "var_v_new", "var_scale_new"]
    assert sorted(i.name for i in model.graph.initializer) == ["var_scale", "var_v"]
    fed = run_onnx(model, [np.int32(3)], {"var_v": np.asarray(100, np.int32), "var_scale": np.float32([0, 1])})
    assert fed[0] == 104 and fed[2] == 103
    np.testing.assert_allclose(fed[3], np.float32([0, 1]) * 1.5 * 1.5 - 0.5)


def test_a_variable_only_read_is_an_input_but_not_an_output():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")
    model = check(lambda x: tf.matmul(x, w), tf.ones([1, 2]))
    assert [i.name for i in model.graph.input][1:] == ["var_w"] and len(model.graph.output) == 1


def squares(n):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, i * i)
    return ta.stack(), ta.size(), ta.read(n - 1)


def staged_list(x):
    out = []
    for i in tf.range(3):
        out.append(x * tf.cast(i, tf.float32))
    return tf.stack(out)


def rewritten(x):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    for i in tf.range(4):
        ta = ta.write(i, x + tf.cast(i, tf.float32))
    ta = ta.write(1, x * 0.0)   # replaces an element
    return ta.stack()


def unstacked(x):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True).unstack(x)
    total = tf.zeros([2])
    for i in tf.range(ta.size()):
        total += ta.read(i)
    return total


def test_tensor_arrays_and_staged_lists_are_sequences():
    model = check(squares, 5)
    assert {"SequenceEmpty", "SequenceInsert", "ConcatFromSequence", "Loop"} <= set(node_types(model.graph))
    check(staged_list, tf.constant([1.0, 2.0]))
    check(rewritten, tf.constant([1.0, 2.0]))
    check(unstacked, tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))


def collected(n):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[2])
    for i in tf.range(n):
        ta = ta.write(i, tf.fill([2], tf.cast(i, tf.float32)))
    return ta.stack()


def test_an_empty_list_stacks_to_the_kernels_zeros():
    concrete = tf.function(collected).get_concrete_function(tf.TensorSpec([], tf.int32))
    for n in (0, 3):
        assert_same(concrete, [np.int32(n)])


def test_a_fixed_size_tensor_array_is_a_clear_error_naming_the_users_line():
    @tf.function
    def fixed(x):
        ta = tf.TensorArray(tf.float32, size=3)  # <- here
        for i in tf.range(3):
            ta = ta.write(i, x)
        return ta.stack()

    with pytest.raises(LoweringError) as info:
        tf.onnx.export(fixed, None, tf.constant(1.0))
    message = str(info.value)
    assert "op TensorListNew" in message and "size=0" in message
    assert f"{__file__}:" in message and "size=3)  # <- here" in message
    assert isinstance(info.value, NotImplementedError)


def test_an_op_without_a_mapping_names_the_op_and_the_line():
    @tf.function
    def sorted_(x):
        return tf.sort(x) * 2.0   # <- sort

    with pytest.raises(LoweringError, match=r"no mapping for the op Sort .*\n.*# <- sort"):
        tf.onnx.export(sorted_, None, tf.constant([2.0, 1.0]))


def test_an_unused_op_without_a_mapping_is_pruned_as_the_executor_prunes_it():
    def unused(x):
        tf.sort(x)   # never run: nothing needs it
        return x + 1.0

    model = check(unused, tf.constant([2.0, 1.0]))
    assert node_types(model.graph) == ["Constant", "Add", "Identity"]


def test_prints_are_an_error_unless_dropped():
    def shout(n):
        for i in tf.range(n):
            tf.print("i =", i)
        return n * 2

    with pytest.raises(LoweringError, match=r"ONNX has no print.*\n.*tf.print\(\"i =\", i\)\n.*drop_prints=True"):
        tf.onnx.export(shout, None, tf.constant(3))
    check(shout, 3, drop_prints=True)


def test_without_onnx_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "onnx", None)
    monkeypatch.delitem(sys.modules, "runtime.lowering.to_onnx", raising=False)
    with pytest.raises(ImportError, match=r"pip install 'autograph-runtime\[onnx\]'"):
        tf.onnx.export(lambda x: x + 1, None, tf.constant(1))


# --- ops ---------------------------------------------------------------------------------------------

def arithmetic(x, y):
    return (x * 2.0 + y) / (y - 0.5) - tf.sqrt(tf.abs(x)) + tf.maximum(x, y) ** 2.0, x // y, x % y, -x


def integer_ops(a, b):
    return a // b, a % b, -a // b, tf.cast(a, tf.float32) / tf.cast(b, tf.float32), a / b, tf.minimum(a, b)


def unary(x):
    return (tf.exp(x), tf.math.log1p(tf.abs(x)), tf.math.expm1(x), tf.sin(x), tf.cos(x), tf.sigmoid(x),
            tf.floor(x), tf.ceil(x), tf.round(x), tf.sign(x), tf.square(x), tf.math.rsqrt(tf.abs(x) + 1.0),
            tf.math.reciprocal(x + 10.0), tf.math.erf(x), tf.nn.relu(x), tf.nn.relu6(x * 4.0), tf.nn.elu(x),
            tf.nn.selu(x), tf.nn.gelu(x), tf.nn.gelu(x, approximate=True), tf.nn.softplus(x),
            tf.nn.softmax(x), tf.nn.log_softmax(x), tf.nn.l2_loss(x), tf.clip_by_value(x, -0.5, 0.5),
            tf.nn.leaky_relu(x, alpha=0.3))


def activation_gradients(x):     # the gradient ops ReluGrad, Relu6Grad and LeakyReluGrad
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.nn.relu(x) + tf.nn.relu6(x * 4.0) * 2.0 + tf.nn.leaky_relu(x, alpha=0.3) * 3.0)
    return tape.gradient(y, x)


def logic(a, b):
    return (tf.logical_and(a > b, b > 0), tf.logical_or(a == b, a != 2), tf.logical_xor(a < b, a <= 1),
            tf.logical_not(a >= b), tf.where(a > b, a, b), tf.nn.relu(a - b))


def matmul(x, w):
    return tf.tanh(tf.matmul(x, w) + 1.0), tf.matmul(x, w, transpose_b=True), tf.matmul(w, x, transpose_a=True,
                                                                                        transpose_b=True)


def reductions(x, n):
    return (tf.reduce_sum(x), tf.reduce_sum(x, axis=0), tf.reduce_mean(x, axis=1, keepdims=True),
            tf.reduce_max(x), tf.reduce_min(x, axis=0), tf.reduce_prod(x, axis=1), tf.reduce_mean(n),
            tf.reduce_mean(-n), tf.argmax(x, axis=1), tf.argmin(x, axis=0, output_type=tf.int32),
            tf.reduce_any(x > 1.0), tf.reduce_all(x > -5.0), tf.reduce_any(x > 3.0, axis=1),
            tf.cumsum(x, axis=1), tf.cumsum(n, exclusive=True, reverse=True), tf.reduce_logsumexp(x, axis=1),
            tf.reduce_sum(n))


def shapes(x):
    y = tf.reshape(x, [3, 2])
    return (tf.transpose(y), tf.concat([x, x], axis=0), tf.stack([x[0], x[1]], axis=1), x[1:, 0], x[..., ::-1],
            x[:, None, 1], tf.expand_dims(x, 0), tf.squeeze(tf.expand_dims(x, -1), axis=[2]), tf.unstack(x)[1],
            tf.tile(x, [2, 1]), tf.shape(x), tf.size(x), tf.rank(x), tf.zeros_like(x), tf.ones_like(x),
            tf.fill([2, 2], 7), tf.eye(2, dtype=tf.int32), tf.broadcast_to(x[0], [2, 3]), tf.gather(x, [1, 0]),
            tf.gather(x, [2, 2], axis=1), tf.range(5), tf.range(1.0, 2.0, 0.25), tf.range(tf.shape(x)[1]),
            tf.range(tf.cast(tf.size(x), tf.int64), 0, -2), tf.einsum("ij,kj->ik", x, x))


def indexing_with_tensors(x, i):
    return x[i], x[i, 1:], x[:i], x[-1, i - 1]


OPS = [
    (arithmetic, (tf.constant([1.5, -2.0, 7.0]), tf.constant([3.0, 0.25, -2.0]))),
    (integer_ops, (tf.constant([7, -7, 9]), tf.constant([2, 3, -4]))),
    (integer_ops, (tf.constant([7, -7, 9], tf.int64), tf.constant([2, 3, -4], tf.int64))),
    (unary, (tf.constant([-1.5, -0.5, 0.0, 0.5, 2.5]),)),
    (activation_gradients, (tf.constant([-1.5, -0.5, 0.0, 0.5, 2.5]),)),
    (logic, (tf.constant([1, 2, 3]), tf.constant([3, 2, 1]))),
    (matmul, (tf.constant([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]]), tf.constant(np.arange(9.0).reshape(3, 3), tf.float32))),
    (reductions, (tf.constant([[1.0, -2.0, 3.5], [0.5, 4.0, -1.0]]), tf.constant([-7, 2, 4]))),
    (shapes, (tf.constant([[1, 2, 3], [4, 5, 6]]),)),
    (indexing_with_tensors, (tf.constant([[1, 2, 3], [4, 5, 6]]), tf.constant(1))),
]


@pytest.mark.parametrize("fn, args", OPS, ids=[f"{fn.__name__}-{i}" for i, (fn, _) in enumerate(OPS)])
def test_mapped_ops_give_the_executors_results(fn, args):
    check(fn, *args)


# --- the benchmark workloads (tools/bench/graph_execution.py and jit_compile.py) -----------------------

def power(x, y):
    result = tf.eye(10, dtype=tf.int32)
    for _ in range(y):
        result = tf.matmul(x, result)
    return result


RNG = np.random.default_rng(0)
WEIGHTS = [RNG.random((8, 8), dtype=np.float32) for _ in range(10)]


def fifty_ops(x):
    for w in WEIGHTS:
        x = tf.tanh(tf.matmul(x, w) + 1.0) * 0.5 - 0.25
    return x


WORKLOADS = [
    (count, (np.int32(10_000),)),
    (power, (RNG.integers(-1, 2, (10, 10)).astype(np.int32), np.int32(20))),
    (collatz, (np.int32(27),)),
    (fizzbuzz_counts, (np.int32(1_000),)),
    (rnn, (np.zeros((1, 32), np.float32), *(RNG.standard_normal(shape).astype(np.float32) * 0.1
                                            for shape in ((100, 1, 32), (32, 32), (32, 32))))),
    (chain, (RNG.standard_normal(1_000_000).astype(np.float32),)),
    (fifty_ops, (RNG.random((8, 8), dtype=np.float32),)),
]


@pytest.mark.parametrize("fn, args", WORKLOADS, ids=[fn.__name__ for fn, _ in WORKLOADS])
def test_benchmark_workloads(fn, args):
    check(fn, *args)


# --- the examples: every call of a traced function, exported and run on the call's own values -------------

EXAMPLES = ["graph_export.py", "graph_loops.py", "graph_relu.py", "graph_side_effects.py", "demo.py",
            "calc_to_code.py", "power_timing.py", "linear_regression.py"]
# the traced functions of the examples that use ops export does not map, and why
NOT_MAPPED = {}


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_traced_function_of_the_examples(example, monkeypatch, capsys):
    calls = []
    call_flat = ConcreteFunction._call_flat

    def recording(self, tensors):   # every call with values (not one inlined into another function's trace)
        if not any(isinstance(t, SymbolicTensor) for t in tensors):
            calls.append((self, [np.array(t) for t in tensors]))
        return call_flat(self, tensors)

    monkeypatch.setattr(ConcreteFunction, "_call_flat", recording)
    monkeypatch.setattr(sys, "argv", [example])
    monkeypatch.chdir(ROOT)   # restored afterwards: linear_regression.py changes directory
    runpy.run_path(str(ROOT / "examples" / example), run_name="__main__")
    monkeypatch.setattr(ConcreteFunction, "_call_flat", call_flat)
    capsys.readouterr()
    seen, exported = set(), []
    for concrete, values in calls:
        if id(concrete) in seen:
            continue
        seen.add(id(concrete))
        unmapped = NOT_MAPPED.get((example, concrete.name))
        if unmapped is not None:
            with pytest.raises(LoweringError, match=unmapped):
                tf.onnx.export(concrete)
            continue
        assert_same(concrete, values, drop_prints=True)
        exported.append(concrete.name)
    assert exported


# --- docs ----------------------------------------------------------------------------------------------

def test_docs_list_every_mapped_op():
    text = (ROOT / "docs" / "graph.md").read_text()
    section = text.split("### Mapped ops", 1)[1].split("\n#", 1)[0]
    listed = re.findall(r"`(\w+)`", section)
    assert listed == tf.onnx.mapped_ops()


@pytest.mark.parametrize("values", [[np.nan, 1.0], [np.nan, -np.inf], [3.0, np.nan, 1.0], [np.nan, np.nan]])
def test_argmax_and_argmin_pass_over_nans_in_onnx_as_the_executor(values):
    check(lambda x: (tf.argmax(x), tf.argmin(x)), np.array(values, np.float32))   # onnxruntime picks a NaN


def test_a_float_floormod_by_an_infinity_is_the_executors_in_onnx():
    # TensorFlow: [3, inf, nan, -inf, 1.5] (x - floor(x / y) * y gave NaN for the infinite divisors)
    check(lambda a, b: a % b, np.array([3.0, -3.0, np.inf, 3.0, 5.5], np.float32),
          np.array([np.inf, np.inf, 2.0, -np.inf, 2.0], np.float32))


def test_reshape_of_zero_elements_with_minus_one_is_tensorflows_in_onnx():
    # TensorFlow: (0, 3) reshaped to [0, -1, 3] is (0, 1, 3) and to [-1, 0] (3, 0); ONNX refuses a -1 beside a 0
    check(lambda a: [tf.reshape(a, [0, -1, 3]), tf.reshape(a, [-1, 0])], np.zeros((0, 3), np.float32))


def _plus_or_minus(v):
    if v > 3:
        return v - 2
    return v + 1


def test_an_if_on_a_predicate_made_of_constants_is_written_as_the_branch_it_takes(tmp_path):
    # autograph's `while n < 2 and ...` with a Python `break` flag made `If(Not(Constant))` inside `Loop`s, and
    # onnxruntime's constant folding crashed (a segmentation fault) loading the model (control fuzz seed 97070)
    @tf.function
    def f(a, b):
        y = b
        n = 0
        while n < 2 and ((sum([z * 3 + y for z in range(3)]) + a >= b % 6 or a >= a + 8) and
                         (a * 2 != y + a or 0 >= _plus_or_minus(a))):
            n += 1
            y = b * sum([y * 3 + a for y in range(2)]) % 1000
            break
        return y

    spec = tf.TensorSpec([], tf.int32)
    path = tmp_path / "f.onnx"
    model = tf.onnx.export(f, str(path), spec, spec)
    graphs = list(_all_graphs(model.graph))
    read = {name for graph in graphs for node in graph.node for name in node.input} | {
        out.name for graph in graphs for out in graph.output}
    # every node is read: the constants of the folded predicates are gone too (onnxruntime warned of each)
    assert all(set(node.output) & read for graph in graphs for node in graph.node)
    assert "If" in node_types(model.graph)   # the other tests stay Ifs
    run = ("import sys, numpy as np, onnxruntime as ort\n"
           "s = ort.InferenceSession(sys.argv[1])\n"
           "print([int(s.run(None, {'a': np.array(a, np.int32), 'b': np.array(b, np.int32)})[0]) "
           "for a, b in ((3, 7), (-4, 2), (0, 0))])")
    done = subprocess.run([sys.executable, "-c", run, str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]   # a crash of onnxruntime is a negative return code
    assert done.stdout.split() and eval(done.stdout) == [int(f(a, b)) for a, b in ((3, 7), (-4, 2), (0, 0))]


def _all_graphs(graph):
    yield graph
    for node in graph.node:
        for attribute in node.attribute:
            if attribute.type == onnx.AttributeProto.GRAPH:
                yield from _all_graphs(attribute.g)


def test_a_python_floats_checked_division_exports_as_the_division():
    def halve(x):
        s = 1.5
        if x > 0:
            s = 2.5
        return s / 2.0, s // 2.0, s % 2.0
    concrete = tf.function(halve).get_concrete_function(tf.constant(3))
    assert [op.type for op in concrete.graph.get_operations()].count("PythonFloat") == 3
    check(halve, np.int32(3))
    check(halve, np.int32(-3))
