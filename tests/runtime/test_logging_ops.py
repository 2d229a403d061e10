"""`tf.print` (an op, every call) and Python's `print` in a traced function (once per trace)."""
import sys

import numpy as np
import pytest

import runtime as tf


def test_python_print_in_a_function_runs_once_per_trace_showing_the_symbolic_tensor(capsys):
    @tf.function
    def double(a):
        print("Tracing with", a)
        return a + a

    double(tf.constant([1, 2]))
    double(tf.constant([3, 4]))
    assert capsys.readouterr().out == 'Tracing with Tensor("a:0", shape=(2,), dtype=int32)\n'
    double(tf.constant([1.0]))
    assert capsys.readouterr().out == 'Tracing with Tensor("a:0", shape=(1,), dtype=float32)\n'


def test_python_print_of_a_tensor_inside_a_staged_branch_runs_while_tracing(capsys):
    @tf.function
    def f(x):
        if x > 0:
            print("positive", x)
        return x

    f(tf.constant(-1))
    f(tf.constant(1))
    assert capsys.readouterr().out == 'positive Tensor("x:0", shape=(), dtype=int32)\n'


def test_symbolic_tensor_str_and_repr_are_tensorflows():
    seen = []

    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def f(x):
        seen.append((str(x), repr(x)))
        return x

    f(tf.ones([2, 3]))
    assert seen == [('Tensor("x:0", shape=(None, 3), dtype=float32)',
                     "<tf.Tensor 'x:0' shape=(None, 3) dtype=float32>")]


def test_tf_print_runs_on_every_call_printing_values_of_lists_and_dicts(capsys):
    @tf.function
    def f(x):
        tf.print("x:", [x, x * 2], {"b": 1, "a": x}, ("t", x), (x,))
        return x

    f(tf.constant([1, 2]))
    f(tf.constant([3, 4]))
    assert capsys.readouterr().err.splitlines() == [
        "x: [[1 2], [2 4]] {'a': [1 2], 'b': 1} ('t', [1 2]) ([1 2],)",
        "x: [[3 4], [6 8]] {'a': [3 4], 'b': 1} ('t', [3 4]) ([3 4],)"]


def test_tf_print_summarizes_long_tensors_as_tensorflow(capsys):
    tf.print(tf.range(10))
    tf.print(tf.range(6))
    tf.print(tf.range(10), summarize=-1)
    tf.print(tf.range(10), summarize=1)
    tf.print(tf.zeros([8, 2], tf.int32))
    assert capsys.readouterr().err.splitlines() == [
        "[0 1 2 ... 7 8 9]", "[0 1 2 3 4 5]", "[0 1 2 3 4 5 6 7 8 9]", "[0 ... 9]",
        "[[0 0]", " [0 0]", " [0 0]", " ...", " [0 0]", " [0 0]", " [0 0]]"]


def test_tf_print_of_a_variable_and_python_values(capsys):
    v = tf.Variable([1.5, 2.5])
    tf.print("v =", v, 3, "done", sep="|", end="!\n")
    assert capsys.readouterr().err == "v =|[1.5 2.5]|3|done!\n"


# (value, what TensorFlow 2.21's tf.print writes for it; tf.strings.format writes the same, a scalar string quoted)
WRITTEN = [
    ([1.5, 2.0], "[1.5 2]"),                                      # no NumPy padding or trailing dots
    (1 / 3, "0.333333343"),                                       # float32: 6 digits unless they don't read back
    (1e6, "1e+06"), (1e-7, "1e-07"), (123456789.0, "123456792"), (0.0001, "0.0001"),
    (np.array([1 / 3, 2 / 3]), "[0.33333333333333331 0.66666666666666663]"),   # float64: 15 or 17 digits
    (np.float16(0.1), "0.0999755859"),
    ([-0.0, np.inf, -np.inf, np.nan], "[-0 inf -inf nan]"),
    ([True, False], "[1 0]"), (True, "1"),
    (list(range(12)), "[0 1 2 ... 9 10 11]"), (list(range(6)), "[0 1 2 3 4 5]"),
    (np.arange(24).reshape(2, 3, 4), "[[[0 1 2 3]\n  [4 5 6 7]\n  [8 9 10 11]]\n\n [[12 13 14 15]\n  [16 17 18 19]\n"
                                     "  [20 21 22 23]]]"),
    (np.arange(16).reshape(8, 2), "[[0 1]\n [2 3]\n [4 5]\n ...\n [10 11]\n [12 13]\n [14 15]]"),
    (np.zeros((2, 0)), "[\n ...]"), (np.zeros((0,)), "[]"),
    (["a\nb", 'q"x', "é"], '["a\\nb" "q\\"x" "é"]'), ("hi", "hi"),
]


@pytest.mark.parametrize("value, text", WRITTEN, ids=[repr(t) for _, t in WRITTEN])
def test_tf_print_and_strings_format_write_values_as_tensorflow(value, text, capsys):
    x = tf.constant(value)
    tf.print(x, output_stream=sys.stdout)
    tf.function(lambda x: tf.print(x, output_stream=sys.stdout))(x)
    assert capsys.readouterr().out == f"{text}\n{text}\n"
    formatted = text if x.dtype != tf.string or x.shape.rank else f'"{text}"'
    assert tf.strings.format("{}", x).numpy().decode() == formatted


class _Shown:
    def __str__(self):
        return "STR"

    def __repr__(self):
        return "REPR"


# what tf.print writes for Python values: TensorFlow 2.21 formats every input but a string with pprint.pformat
PFORMAT = [
    ((tf.TensorShape([1]), tf.float32, "s"), "TensorShape([1]) tf.float32 s"),
    ((_Shown(), [_Shown()], {"a": "b"}), "REPR [REPR] {'a': 'b'}"),
    ((np.array([1, 2]), tf.TensorShape(None)), "array([1, 2]) TensorShape(None)"),
    (({"b": 1, "a": tf.constant([1, 2])}, (tf.constant(1),)), "{'a': [1 2], 'b': 1} (1,)"),
    (({f"key{i}": i for i in range(3)},), "{'key0': 0, 'key1': 1, 'key2': 2}"),
    ((list(range(30)),), "[" + ",\n ".join(str(i) for i in range(30)) + "]"),
    (({f"k{i}": tf.constant(i) for i in range(12)},), "{" + ",\n ".join(
        f"'k{i}': {i}" for i in sorted(range(12), key=lambda i: f"k{i}")) + "}"),
]


@pytest.mark.parametrize("values, text", PFORMAT, ids=[t[:20] for _, t in PFORMAT])
def test_tf_print_formats_python_values_with_pprint_as_tensorflow(values, text, capsys):
    tf.print(*values, output_stream=sys.stdout)
    assert capsys.readouterr().out == text + "\n"


def test_tf_print_of_a_static_shape_and_dtype_in_a_function_writes_their_reprs(capsys):
    @tf.function
    def f(x):
        tf.print(x.shape, tf.shape(x), x.dtype, output_stream=sys.stdout)
        return x

    f(tf.constant([1, 2]))
    assert capsys.readouterr().out == "TensorShape([2]) [2] tf.int32\n"    # TensorFlow 2.21
