"""The user's line that errors and graph ops name: not the runtime's, the standard library's, or code made by
`eval`/`exec` (a dataclass's generated methods, a framework's lambdas), but the line that ran them."""
import colorsys
import dataclasses
import inspect
import os
import subprocess
import sys

import pytest

import runtime as tf


def _line_of(fn, text: str) -> int:
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


def test_ops_made_by_the_standard_library_or_by_eval_are_placed_at_the_line_that_called_it():
    @tf.function
    def f(r):
        return colorsys.rgb_to_yiq(r, r * 2.0, r)[0] + eval("r * 3.0", {}, {"r": r})

    graph = f.get_concrete_function(tf.constant(0.5)).graph
    line = _line_of(f.python_function, "colorsys")
    places = {op.type: op.location for op in graph.get_operations() if op.type != "Placeholder"}
    assert set(places) == {"Const", "Mul", "AddV2", "Sub"}
    assert set(places.values()) == {(__file__, line)}


@dataclasses.dataclass
class _Pair:
    a: object


def test_a_bool_asked_of_a_tensor_by_a_dataclass_eq_names_the_line_that_compared():
    @tf.function(autograph=False)
    def f(x):
        return _Pair(x) == _Pair(x + 1)

    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError) as caught:
        f(tf.constant(1.0))
    assert str(caught.value).startswith(f"{__file__}:{_line_of(f.python_function, '_Pair(x) ==')}: ")


def test_an_op_error_raised_in_the_standard_library_names_the_users_line():
    def f(x):
        return colorsys.rgb_to_yiq(x, x, tf.constant([1, 2]))

    with pytest.raises(tf.errors.InvalidArgumentError) as caught:
        f(tf.constant(1.0))
    assert f"at {__file__}:{_line_of(f, 'rgb_to_yiq')}: " in str(caught.value)


def test_a_line_typed_at_the_prompt_is_the_users_when_nothing_else_is():
    typed = "import runtime as tf\ntf.constant(1.0) + tf.constant(1)\n"
    run = subprocess.run([sys.executable, "-"], input=typed, capture_output=True, text=True, timeout=120,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert "InvalidArgumentError" in run.stderr and "at <stdin>:2" in run.stderr
