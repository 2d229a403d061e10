"""Text formatted from traced values in an assertion's message or a staged `raise`: formatted when the graph runs
(also under jit_compile=True, where XLA has no strings and the text is formatted on the host when the check
fails, and from a saved function), not shown as the symbolic tensor's text."""
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError, LoweringError


def assert_with_message(x):
    assert x < 4, f"too big {x}"
    return x + 1


def raise_with_message(x):
    if x > 3:
        raise ValueError(f"big {x}, half {x // 2}")
    return x


def library_assertions(x):
    tf.debugging.assert_less(x, 10, message=f"less {x}")
    tf.debugging.assert_positive(x, message=f"positive {x}")
    tf.debugging.Assert(x != 7, [f"not seven {x}", x])
    return x


@pytest.mark.parametrize("jit", [None, True])
def test_an_assert_statement_message_shows_the_value_the_graph_ran_on(jit):
    f = tf.function(assert_with_message, jit_compile=jit)
    assert int(f(tf.constant(2))) == 3
    with pytest.raises(InvalidArgumentError, match=r"^too big 5\b") as info:
        f(tf.constant(5))
    assert "Tensor(" not in str(info.value)


@pytest.mark.parametrize("jit", [None, True])
def test_a_staged_raise_message_shows_the_values_under_jit_compile_too(jit):
    f = tf.function(raise_with_message, jit_compile=jit)
    assert int(f(tf.constant(1))) == 1
    with pytest.raises(ValueError) as info:
        f(tf.constant(9))
    assert info.value.args == ("big 9, half 4",)


@pytest.mark.parametrize("jit", [None, True])
@pytest.mark.parametrize("value, expected", [
    (12, "assertion failed: [less 12] [Condition x < y did not hold element-wise:] [x (x:0) = ] [12]"),
    (-2, "assertion failed: [positive -2.  ] [Condition x > 0 did not hold element-wise:] [x (x:0) = ] [-2]"),
    (7, "assertion failed: [not seven 7] [7]")])
def test_a_debugging_assertion_message_shows_the_value_the_graph_ran_on(jit, value, expected):
    f = tf.function(library_assertions, jit_compile=jit)
    assert int(f(tf.constant(3))) == 3
    with pytest.raises(InvalidArgumentError) as info:
        f(tf.constant(value))
    assert str(info.value).startswith(expected), str(info.value)


def test_check_numerics_message_formatted_from_a_traced_value_shows_its_value():
    @tf.function
    def f(x):
        return tf.debugging.check_numerics(tf.math.log(x), f"log of {x}")

    assert float(f(tf.constant(1.0))) == 0.0
    with pytest.raises(InvalidArgumentError, match=r"^log of -1\.0 : Tensor had NaN or Inf values"):
        f(tf.constant(-1.0))


def test_a_saved_function_formats_its_assertion_message_when_it_runs(tmp_path):
    f = tf.function(assert_with_message, input_signature=[tf.TensorSpec([], tf.int32)])
    tf.save_function(f, str(tmp_path / "f.json"))
    loaded = tf.load_function(str(tmp_path / "f.json"))
    assert int(loaded(tf.constant(0))) == 1
    with pytest.raises(InvalidArgumentError, match=r"^too big 6\b"):
        loaded(tf.constant(6))


def test_formatted_text_a_jit_compiled_function_returns_is_still_refused_at_the_line():
    @tf.function(jit_compile=True)
    def f(x):
        return f"x={x}"

    with pytest.raises(LoweringError, match=r"computes on strings.*only where a failing `raise` or assertion"):
        f(tf.constant(1))


def test_formatted_text_read_by_an_assertion_and_returned_is_refused_under_jit_compile():
    @tf.function(jit_compile=True)
    def f(x):
        text = f"x={x}"
        tf.debugging.Assert(x > 0, [text])
        return text

    with pytest.raises(LoweringError, match="computes on strings"):
        f(tf.constant(1))
