"""The text of `runtime.debugging`'s assertion errors is TensorFlow's: `assertion failed: [a] [b]` with each
input's first `summarize` values in a graph; `Expected '...' to be true. Summarized data: ...` and the
comparisons' `Condition x == y did not hold.` eagerly. The expected texts are TensorFlow 2.21's (the last test
compares with it where it is installed); only the ops' names in a graph are the runtime's own."""
import re

import numpy as np
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError

x5, y10 = tf.constant(5), tf.constant(10)

CASES = {   # name: (check of x, y; its text in a graph; its text eagerly)
    "data in order": (
        lambda x, y: tf.debugging.Assert(x > 100, ["x is", x, "and", y, "vec", tf.constant([1.5, 2.0]), 7, [1, 2]]),
        "assertion failed: [x is] [5] [and] [10] [vec] [1.5 2] [7] [1 2]",
        "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b'x is'\n5\nb'and'\n10\n"
        "b'vec'\n1.5, 2.0\n7\n1, 2"),
    "three values by default": (
        lambda x, y: tf.debugging.Assert(x > 100, [tf.range(30)]),
        "assertion failed: [0 1 2...]",
        "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: 0, 1, 2, ..."),
    "summarize cuts rows": (
        lambda x, y: tf.debugging.Assert(x > 100, [tf.range(30), "s", tf.reshape(tf.range(12), (3, 4))], summarize=2),
        "assertion failed: [0 1...] [s] [[0 1...]...]",
        "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: 0, 1, ...\nb's'\n0, 1, ..."),
    "strings, bools and floats": (
        lambda x, y: tf.debugging.Assert(x > 100, [tf.constant("hi"), tf.constant(["a", "b"]), tf.constant(True),
                                                   tf.constant(0.1, tf.float64)]),
        "assertion failed: [hi] [a b] [1] [0.1]",
        "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b'hi'\nb'a', b'b'\nTrue\n0.1"),
    "summarize zero": (
        lambda x, y: tf.debugging.Assert(x > 100, [tf.range(5), x], summarize=0),
        "assertion failed: [...] [...]",
        "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: ...\n"),
    "empty tensors": (
        lambda x, y: tf.debugging.Assert(x > 100, [tf.zeros((0,)), tf.zeros((2, 0))]),
        "assertion failed: [] []",
        "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: \n"),
    "assert_equal with a message": (
        lambda x, y: tf.debugging.assert_equal(x, y, message="msg here"),
        "assertion failed: [msg here] [Condition x == y did not hold element-wise:] [x (x:0) = ] [5] [y (y:0) = ] [10]",
        "msg here\nCondition x == y did not hold.\nFirst 1 elements of x:\n[5]\nFirst 1 elements of y:\n[10]"),
    "assert_equal of vectors": (
        lambda x, y: tf.debugging.assert_equal(tf.range(6) * 0 + x, tf.range(6), summarize=2),
        None,
        "Condition x == y did not hold.\nIndices of first 2 different values:\n[[0]\n [1]]\nCorresponding x values:\n"
        "[5 5]\nCorresponding y values:\n[0 1]\nFirst 2 elements of x:\n[5 5]\nFirst 2 elements of y:\n[0 1]"),
    "assert_positive": (
        lambda x, y: tf.debugging.assert_positive(x - 7),
        None,
        "\nCondition x > 0 did not hold element-wise:\nx (shape=() dtype=int32) = \n-2"),
    "assert_non_negative with a message": (
        lambda x, y: tf.debugging.assert_non_negative(x - 7, message="nn"),
        None,
        "nn.  \nCondition x >= 0 did not hold element-wise:\nx (shape=() dtype=int32) = \n-2"),
    "assert_greater_equal": (
        lambda x, y: tf.debugging.assert_greater_equal(x, y, message="m"),
        "assertion failed: [m] [Condition x >= y did not hold element-wise:] [x (x:0) = ] [5] [y (y:0) = ] [10]",
        "m\nCondition x >= y did not hold.\nFirst 1 elements of x:\n[5]\nFirst 1 elements of y:\n[10]"),
}


def _error_text(check, traced: bool) -> str:
    def run(x, y):
        check(x, y)
        return x
    with pytest.raises(InvalidArgumentError) as caught:
        (tf.function(run) if traced else run)(x5, y10)
    return _without_location(str(caught.value))


def _without_location(text: str) -> str:
    """The error's text without the line the runtime names after it (`at file:line: code`)."""
    return re.split(r"\n    (?:made )?at \S+:\d+: ", text)[0]


@pytest.mark.parametrize("name", [n for n, case in CASES.items() if case[1] is not None])
def test_a_failed_check_in_a_graph_lists_its_data_in_brackets_as_tensorflow_does(name):
    check, graph_text, _ = CASES[name]
    assert _error_text(check, traced=True) == graph_text


@pytest.mark.parametrize("name", list(CASES))
def test_a_failed_check_run_eagerly_says_what_tensorflow_says(name):
    check, _, eager_text = CASES[name]
    assert _error_text(check, traced=False) == eager_text


def test_a_check_against_zero_in_a_graph_names_the_tensor_and_gives_its_values():
    text = _error_text(lambda x, y: tf.debugging.assert_non_negative(x - 7, message="nn"), traced=True)
    assert text == "assertion failed: [nn.  ] [Condition x >= 0 did not hold element-wise:] [x (Sub:0) = ] [-2]"


def test_checks_that_hold_return_none_eagerly_and_raise_nothing_in_a_graph():
    assert tf.debugging.Assert(x5 < 100, ["fine"]) is None
    assert tf.debugging.assert_equal(x5, 5) is None
    assert tf.debugging.assert_positive(x5) is None
    assert int(tf.function(lambda x: (tf.debugging.assert_less(x, 10), x)[1])(x5)) == 5


@pytest.mark.parametrize("jit", [None, True])
def test_a_failed_check_under_jit_compile_has_the_text_the_graph_gives(jit):
    def run(x):
        tf.debugging.Assert(x > 100, ["x is", x, f"half {x // 2}", tf.constant([0, 1, 2, 3])], summarize=2)
        return x
    with pytest.raises(InvalidArgumentError) as caught:
        tf.function(run, jit_compile=jit)(x5)
    assert str(caught.value).startswith("assertion failed: [x is] [5] [half 2] [0 1...]")


def test_a_saved_function_keeps_its_checks_text(tmp_path):
    def run(x):
        tf.debugging.Assert(x > 100, ["x is", x], summarize=1)
        return x
    concrete = tf.function(run).get_concrete_function(tf.TensorSpec((), tf.int32))
    tf.save_function(concrete, str(tmp_path / "f"))
    with pytest.raises(InvalidArgumentError, match=r"^assertion failed: \[x is\] \[5\]"):
        tf.load_function(str(tmp_path / "f"))(x5)


def test_the_texts_are_tensorflows():
    real = pytest.importorskip("tensorflow", reason="TensorFlow is not installed: the texts above are its 2.21's")
    import importlib
    for module in (real, tf):
        globals()["tf"] = module
        try:
            texts = {name: (_tf_text(case[0], module, True), _tf_text(case[0], module, False))
                     for name, case in CASES.items()}
        finally:
            globals()["tf"] = importlib.import_module("runtime")
        if module is real:
            expected = texts
    for name, (graph_text, eager_text) in texts.items():
        real_graph, real_eager = expected[name]
        if CASES[name][1] is not None:
            assert graph_text == real_graph, name
        assert eager_text == real_eager, name


def _tf_text(check, module, traced: bool) -> str:
    x, y = module.constant(5), module.constant(10)

    def run(x, y):
        check(x, y)
        return x
    try:
        (module.function(run) if traced else run)(x, y)
    except Exception as e:   # each framework's own InvalidArgumentError
        text = str(getattr(e, "message", e))
        # (TensorFlow's graph error puts the op's text in a report of where the op was made)
        return re.search(r"assertion failed: .*", text)[0] if traced else _without_location(text)
    return "no error"


def test_an_eager_check_given_a_python_condition_names_it_as_python_writes_it():
    with pytest.raises(InvalidArgumentError) as caught:
        tf.debugging.Assert(False, [np.array([1, 2])])
    assert _without_location(str(caught.value)) == "Expected 'False' to be true. Summarized data: 1, 2"
