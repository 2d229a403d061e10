"""runtime.function: tracing, the trace cache, signatures, retracing."""
import warnings

import numpy as np
import pytest

import runtime as tf


def test_seed003_regular_function_and_outer_function():
    def a_regular_function(x, y, b):
        x = tf.matmul(x, y)
        x = x + b
        return x

    a_function_that_uses_a_graph = tf.function(a_regular_function)
    x1 = tf.constant([[1.0, 2.0]])
    y1 = tf.constant([[2.0], [3.0]])
    b1 = tf.constant(4.0)
    assert a_regular_function(x1, y1, b1).numpy() == a_function_that_uses_a_graph(x1, y1, b1).numpy()

    def inner_function(x, y, b):
        return tf.matmul(x, y) + b

    @tf.function
    def outer_function(x):
        y = tf.constant([[2.0], [3.0]])
        b = tf.constant(4.0)
        return inner_function(x, y, b)

    result = outer_function(tf.constant([[1.0, 2.0]])).numpy()
    assert result.dtype == np.float32 and result.tolist() == [[12.0]]


def test_python_side_effects_once_per_trace():
    calls = []

    @tf.function
    def f(x):
        calls.append("traced")
        return x * x + tf.constant(2)

    assert f(tf.constant(2)).numpy() == 6
    assert f(tf.constant(3)).numpy() == 11
    assert calls == ["traced"]
    f(2)
    f(3)
    assert calls == ["traced"] * 3
    assert f.experimental_get_tracing_count() == 3


def test_run_functions_eagerly_runs_the_python_every_call():
    calls = []

    @tf.function
    def f(x):
        calls.append(1)
        return x + 1

    tf.config.run_functions_eagerly(True)
    try:
        assert tf.config.functions_run_eagerly()
        for _ in range(3):
            assert f(tf.constant(1)).numpy() == 2
    finally:
        tf.config.run_functions_eagerly(False)
    assert len(calls) == 3
    f(tf.constant(1))
    f(tf.constant(1))
    assert len(calls) == 4


@pytest.mark.filterwarnings("ignore:f has been traced")  # five traces on purpose
def test_concrete_functions_by_python_value_and_by_tensor_signature():
    @tf.function
    def f(x):
        return x + 1

    assert f.get_concrete_function(1) is not f.get_concrete_function(2)
    assert f.get_concrete_function(tf.constant(1)) is f.get_concrete_function(tf.constant(2))
    vector, matrix = tf.constant([1.0, 1.0]), tf.constant([[3.0]])
    assert f.get_concrete_function(vector) is not f.get_concrete_function(matrix)
    assert isinstance(f.get_concrete_function(1).graph, tf.Graph)


def test_input_signature_with_unknown_shape_reuses_one_trace():
    @tf.function(input_signature=[tf.TensorSpec(shape=None, dtype=tf.float32)])
    def f(x):
        return x + 1

    vector, matrix = tf.constant([1.0, 1.0]), tf.constant([[3.0]])
    assert f.get_concrete_function(vector) is f.get_concrete_function(matrix)
    assert f(matrix).numpy().tolist() == [[4.0]]
    assert f.experimental_get_tracing_count() == 1


def test_input_signature_rejects_incompatible_calls_clearly():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def f(x):
        return x

    assert f(tf.constant([1, 2, 3])).numpy().tolist() == [1, 2, 3]
    with pytest.raises(TypeError, match="does not match the input_signature"):
        f(tf.constant([[1]]))
    with pytest.raises(TypeError, match="does not match the input_signature"):
        f(tf.constant([1.0]))
    with pytest.raises(TypeError, match="takes 1 argument"):
        f(tf.constant([1]), tf.constant([1]))


def test_pretty_printed_signatures_in_tensorflow_format():
    @tf.function
    def add_one(x):
        return x + tf.constant(1.0)

    add_one(tf.constant(5.5))
    add_one([1.0, -1.0])
    assert add_one.pretty_printed_concrete_signatures() == (
        "add_one(x)\n  Args:\n    x: float32 Tensor, shape=()\n  Returns:\n    float32 Tensor, shape=()\n\n"
        "add_one(x=[1.0, -1.0])\n  Returns:\n    float32 Tensor, shape=(2,)")


def test_pretty_printed_signature_of_tuple_outputs():
    @tf.function
    def calc(a, b):
        return a * b, a + b

    text = calc.get_concrete_function(tf.constant(2.0), tf.constant(3.0)).pretty_printed_signature()
    assert text.endswith("  Returns:\n    (<1>, <2>)\n      <1>: float32 Tensor, shape=()\n"
                         "      <2>: float32 Tensor, shape=()")


def test_nested_structures_are_keyed_by_structure_and_returned_as_given():
    @tf.function
    def f(d):
        return {"sum": d["a"] + d["b"], "pair": (d["a"], 7)}

    out = f({"a": tf.constant(1), "b": tf.constant(2)})
    assert out["sum"].numpy() == 3 and out["pair"][1] == 7 and out["pair"][0].numpy() == 1
    f({"a": tf.constant(5), "b": tf.constant(6)})
    assert f.experimental_get_tracing_count() == 1


def test_retracing_is_explained_and_warned_once_at_the_callers_line():
    @tf.function
    def f(x):
        return x + 1

    f(tf.constant([1]))
    f(tf.constant([1, 2]))
    assert f.last_retrace_reason == "x: int32 tensor of shape (1,) -> int32 tensor of shape (2,)"
    f(tf.constant([1.0, 2.0]))
    assert "int32 tensor of shape (2,) -> float32 tensor of shape (2,)" in f.last_retrace_reason
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in range(3, 8):
            f(tf.constant([1] * n))
    messages = [w for w in caught if "traced" in str(w.message)]
    assert len(messages) == 1
    assert messages[0].filename == __file__
    assert f"called from {__file__}:{messages[0].lineno} (changed: x: int32 tensor of shape (3,)" in str(
        messages[0].message)


def test_reduce_retracing_relaxes_shapes():
    @tf.function(reduce_retracing=True)
    def f(x):
        return x * 2

    f(tf.constant([1]))
    f(tf.constant([1, 2]))
    f(tf.constant([1, 2, 3]))
    assert f.experimental_get_tracing_count() == 2
    assert f(tf.constant([4, 5, 6, 7])).numpy().tolist() == [8, 10, 12, 14]


def test_methods_bind_per_instance():
    class Scale:
        def __init__(self, k):
            self.k = k

        @tf.function
        def __call__(self, x):
            return x * self.k

    a, b = Scale(tf.constant(2)), Scale(tf.constant(3))
    assert a(tf.constant(5)).numpy() == 10
    assert b(tf.constant(5)).numpy() == 15


def test_function_as_decorator_with_arguments_and_call():
    f = tf.function(lambda x: x + 1)
    g = tf.function(autograph=False)(lambda x: x + 2)
    assert f(tf.constant(1)).numpy() == 2 and g(tf.constant(1)).numpy() == 3
    assert f.python_function(3) == 4


def test_concrete_function_called_directly_checks_its_signature():
    @tf.function
    def f(x):
        return x + 1

    cf = f.get_concrete_function(tf.TensorSpec([2], tf.int32))
    assert cf(tf.constant([1, 2])).numpy().tolist() == [2, 3]
    with pytest.raises(TypeError, match="traced signature"):
        cf(tf.constant([1, 2, 3]))


def test_seed003_my_relu_polymorphism_and_signatures_in_the_seeds_format():
    @tf.function
    def my_relu(x):
        return tf.maximum(0., x)

    assert str(my_relu(tf.constant(5.5))) == "tf.Tensor(5.5, shape=(), dtype=float32)"
    assert str(my_relu([1, -1])) == "tf.Tensor([1. 0.], shape=(2,), dtype=float32)"
    assert str(my_relu(tf.constant([3., -3.]))) == "tf.Tensor([3. 0.], shape=(2,), dtype=float32)"
    assert str(my_relu(tf.constant(-2.5))) == "tf.Tensor(0.0, shape=(), dtype=float32)"
    assert str(my_relu(tf.constant([-1., 1.]))) == "tf.Tensor([0. 1.], shape=(2,), dtype=float32)"
    assert my_relu.experimental_get_tracing_count() == 3
    assert my_relu.pretty_printed_concrete_signatures() == (
        "my_relu(x)\n  Args:\n    x: float32 Tensor, shape=()\n  Returns:\n    float32 Tensor, shape=()\n\n"
        "my_relu(x=[1, -1])\n  Returns:\n    float32 Tensor, shape=(2,)\n\n"
        "my_relu(x)\n  Args:\n    x: float32 Tensor, shape=(2,)\n  Returns:\n    float32 Tensor, shape=(2,)")


def test_seed003_get_mse_prints_once_unless_functions_run_eagerly(capsys):
    y_true = tf.constant([1, 9, 4, 0, 7])
    y_pred = tf.constant([3, 2, 4, 8, 1])

    @tf.function
    def get_MSE(y_true, y_pred):
        print("Calculating MSE!")
        sq_diff = tf.pow(y_true - y_pred, 2)
        return tf.reduce_mean(sq_diff)

    results = [get_MSE(y_true, y_pred).numpy() for _ in range(3)]
    assert capsys.readouterr().out == "Calculating MSE!\n"
    assert results == [int(((y_true.numpy() - y_pred.numpy()) ** 2).mean())] * 3
    tf.config.run_functions_eagerly(True)
    try:
        eager = [get_MSE(y_true, y_pred).numpy() for _ in range(3)]
    finally:
        tf.config.run_functions_eagerly(False)
    assert capsys.readouterr().out == "Calculating MSE!\n" * 3
    assert eager == results


def test_seed001_closure_over_a_constant_and_a_variable():
    x = tf.constant([[1.0, 2.0]])
    y = tf.Variable([[2.0], [3.0]])

    @tf.function
    def g():
        return tf.matmul(x, y)

    assert g().numpy().tolist() == [[8.0]]
    y.assign([[1.0], [1.0]])
    assert g().numpy().tolist() == [[3.0]]  # the variable is read when the graph runs
    assert g.experimental_get_tracing_count() == 1


def test_seed001_variable_assign_add_in_a_while_loop():
    v = tf.Variable(1)

    @tf.function
    def f(x):
        def body(i):
            v.assign_add(i)
            return i + 1

        tf.while_loop(lambda i: i < x, body, [tf.constant(0)])

    f(tf.constant(3))
    assert v.numpy() == 4
    f(tf.constant(3))
    assert v.numpy() == 7


def test_executing_eagerly_is_false_only_while_tracing():
    seen = []

    @tf.function
    def f(x):
        seen.append(tf.executing_eagerly())
        return x

    f(tf.constant(1))
    assert seen == [False] and tf.executing_eagerly()


def test_asserts_and_random_run_on_every_call_not_at_trace_time():
    @tf.function
    def checked(x):
        tf.debugging.assert_greater(x, 0)
        return x + tf.random.uniform([], maxval=10, dtype=tf.int32) * 0

    assert checked(tf.constant(1)).numpy() == 1
    with pytest.raises(tf.errors.InvalidArgumentError):
        checked(tf.constant(-1))

    @tf.function
    def draw():
        return tf.random.uniform([4])

    assert draw().numpy().tolist() != draw().numpy().tolist()
    assert draw.experimental_get_tracing_count() == 1


def test_seed003_unused_out_of_range_gather_raises_eagerly_but_not_in_a_function():
    def unused_return(x):
        tf.gather(x, [1])  # unused
        return x

    with pytest.raises(tf.errors.InvalidArgumentError):
        unused_return(tf.constant([0.0]))
    assert tf.function(unused_return)(tf.constant([0.0])).numpy().tolist() == [0.0]


def test_python_value_retrace_is_explained():
    @tf.function
    def f(x, n):
        return x * n

    f(tf.constant(1), 2)
    f(tf.constant(1), 3)
    assert f.last_retrace_reason == "n: Python int 2 -> Python int 3"


def test_keyword_positional_and_default_arguments_share_one_trace():
    @tf.function
    def f(x, n=2):
        return x * n

    x = tf.constant(3)
    assert [f(x).numpy(), f(x, 2).numpy(), f(x, n=2).numpy(), f(n=2, x=x).numpy()] == [6] * 4
    assert f.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError, match=r"f\(x, n=2\): too many positional arguments"):
        f(x, 2, 3)


def test_numpy_arguments_are_keyed_like_tensors():
    @tf.function
    def f(x):
        return x + 1

    assert f(np.array([1, 2], np.int32)).numpy().tolist() == [2, 3]
    assert f(np.array([5, 6], np.int32)).numpy().tolist() == [6, 7]
    assert f(np.float32(1.5)).numpy() == 2.5
    assert f.experimental_get_tracing_count() == 2


@pytest.mark.filterwarnings("ignore:divide by zero")  # NumPy's warning for 1 / 0.0, on purpose here
def test_python_float_keys_keep_signed_zeros_apart_and_nan_reuses_its_trace():
    @tf.function
    def inverse(x, k):
        return x / k

    one = tf.constant(1.0)
    assert inverse(one, 0.0).numpy() == np.inf and inverse(one, -0.0).numpy() == -np.inf
    inverse(one, float("nan"))
    inverse(one, float("nan"))
    assert inverse.experimental_get_tracing_count() == 3
    assert inverse.last_retrace_reason == "k: Python float -0.0 -> Python float nan"


def test_a_function_called_while_tracing_another_is_inlined_in_program_order():
    v = tf.Variable(0)
    traces = []

    @tf.function
    def bump(k):
        traces.append(1)
        v.assign_add(k)
        return v.read_value()

    @tf.function
    def twice(k):
        return bump(k), bump.get_concrete_function(k)(k) * 10

    assert [t.numpy() for t in twice(tf.constant(2))] == [2, 40] and v.numpy() == 4
    assert traces == [1]  # bump traced once, for its one signature
    graph = twice.get_concrete_function(tf.constant(2)).graph
    graph.lint()
    assert [op.name for op in graph.get_operations() if op.stateful] == [
        "bump/AssignAddVariableOp", "bump/ReadVariableOp", "bump/AssignAddVariableOp_1", "bump/ReadVariableOp_1"]


def test_input_signature_with_a_nested_structure():
    @tf.function(input_signature=[[tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)]])
    def scale(pair):
        return pair[0] * tf.cast(pair[1], tf.float32)

    assert scale([tf.constant([1.0, 2.0]), tf.constant(3)]).numpy().tolist() == [3.0, 6.0]
    assert scale([[1.0], 2]).numpy().tolist() == [2.0]
    assert scale.experimental_get_tracing_count() == 1
    assert scale.get_concrete_function().pretty_printed_signature().splitlines()[:3] == [
        "scale(pair)", "  Args:", "    pair: [TensorSpec(shape=(None,), dtype=float32), TensorSpec(shape=(), dtype=int32)]"]
    with pytest.raises(TypeError, match=r"argument 0 is \[\.\] but the input_signature expects \[\., \.\]"):
        scale([tf.constant([1.0])])


def test_method_with_input_signature_excludes_self():
    class Model:
        def __init__(self, k):
            self.k = tf.Variable(k)

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def scale(self, x):
            return x * self.k

    a, b = Model(2.0), Model(3.0)
    assert a.scale(tf.constant(3.0)).numpy() == 6.0 and b.scale(tf.constant(3.0)).numpy() == 9.0
    assert a.scale.get_concrete_function().pretty_printed_signature().startswith("scale(x)\n")


def test_threads_share_one_trace_per_signature():
    import threading

    @tf.function
    def f(x):
        return tf.reduce_sum(x * 2)

    results, errors = {}, []

    def worker(n):
        try:
            for _ in range(20):
                results[n] = f(tf.ones([n % 3 + 1], tf.int32)).numpy()
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert results == {n: 2 * (n % 3 + 1) for n in range(8)}
    assert f.experimental_get_tracing_count() == 3


def test_concrete_function_takes_the_traced_structure_and_checks_python_values():
    @tf.function
    def f(pair, scale):
        return pair[0] * scale + pair[1]

    cf = f.get_concrete_function((tf.TensorSpec([2], tf.float32), tf.TensorSpec([], tf.float32)), 2.0)
    assert cf((tf.constant([1.0, 2.0]), tf.constant(1.0)), 2.0).numpy().tolist() == [3.0, 5.0]
    assert cf(([1.0, 2.0], 1.0), scale=2.0).numpy().tolist() == [3.0, 5.0]  # Python lists convert
    assert cf(tf.constant([1.0, 2.0]), tf.constant(1.0)).numpy().tolist() == [3.0, 5.0]  # flat tensors
    with pytest.raises(TypeError, match=r"argument 1 is 3.0, but this concrete function was traced for 2.0"):
        cf((tf.constant([1.0, 2.0]), tf.constant(1.0)), 3.0)
    with pytest.raises(TypeError, match=r"argument 0 is a float32 tensor of shape \(3,\)"):
        cf((tf.constant([1.0, 2.0, 3.0]), tf.constant(1.0)), 2.0)


def test_fast_path_for_eager_tensors_uses_the_same_cache_key_as_lookup():
    @tf.function
    def f(x, y):
        return x + y

    a, b = tf.constant([1, 2]), tf.constant([3, 4])
    concrete = f.get_concrete_function(a, b)
    assert f._cached_for_eager_tensors((a, b)) is concrete
    assert f(a, b).numpy().tolist() == [4, 6] and f.experimental_get_tracing_count() == 1
    assert f._cached_for_eager_tensors((a, tf.constant([1.0, 2.0]))) is None  # new dtype: the general path


def test_python_numbers_bools_and_strings_returned_become_tensors_as_in_tensorflow():
    @tf.function
    def f(x):
        return x, 3, 2.5, True, "s", None, {"big": 2 ** 70}

    x, three, half, yes, s, none, rest = f(tf.constant(1))
    assert repr(three) == "<tf.Tensor: shape=(), dtype=int32, numpy=3>"
    assert half.dtype is tf.float32 and yes.dtype is tf.bool and s.numpy() == b"s"
    assert none is None and rest == {"big": 2 ** 70}   # beyond int64: stays a Python int
    assert repr(tf.function(lambda: 7, autograph=False)()) == "<tf.Tensor: shape=(), dtype=int32, numpy=7>"


def test_follow_type_hints_converts_arguments_annotated_tensor():
    traces = []

    @tf.function(experimental_follow_type_hints=True)
    def f(x: tf.Tensor, k, *rest: tf.Tensor, y: tf.Tensor = 0):
        traces.append(k)
        return x * k + y + sum(rest)

    assert [f(1, 2).numpy(), f(2, 2).numpy(), f(3, 2, y=5).numpy(), f(3, 2, y=6).numpy()] == [2, 4, 11, 12]
    assert [f(1, 2, 3, 4).numpy(), f(1, 2, 5, 6).numpy(), f(1, 3).numpy()] == [9, 13, 3]
    assert traces == [2, 2, 2, 3]   # k is not annotated: a new Python value retraces; the rest share traces

    class A:
        @tf.function(experimental_follow_type_hints=True)
        def g(self, x: "tf.Tensor"):   # a string annotation, as under `from __future__ import annotations`
            traces.append(x)
            return x + 1
    a = A()
    assert [a.g(1).numpy(), a.g(2).numpy()] == [2, 3] and len(traces) == 5

    @tf.function
    def h(x: tf.Tensor):   # without the option, annotations change nothing
        traces.append(x)
        return x
    h(1), h(2)
    assert traces[5:] == [1, 2]
