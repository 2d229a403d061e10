"""Text formatted from a traced tensor (an f-string, `str(x)`, `'%s' % x`) used as a str: what Python's answer
depends on is compared or formatted when the graph runs, or refused at the line. Before, `==`, `in`, nested
f-strings, `'%s' % text`, `sep.join` and `repr` answered from the trace's text (the symbolic tensor's): `if
f"{x}" == "1.5"` was always false, `f"<{f'{x}'}>"` gave `<Tensor("x:0", ...)>`."""
import pytest

import autograph as ag
import runtime as tf
from autograph.errors import StagingError


def _on_python_values(f, *args):
    """What the generated code gives on Python values (it must be Python's)."""
    ag.api.run_generated_code(True)
    try:
        return ag.convert(f)(*args)
    finally:
        ag.api.run_generated_code(False)


def _text(t) -> str:
    return t.numpy().decode()


def _branch_on_text(x):
    s = f"{x}"
    if s == "1.5":
        y = 1
    elif "2.5" != s:
        y = 2
    else:
        y = 3
    return y


@pytest.mark.parametrize("x", [1.5, 2.5, 7.0])
def test_comparing_formatted_text_with_a_str_is_staged_and_decides_a_staged_if(x):
    expected = _branch_on_text(tf.constant(x))      # eager: Python's comparison of the eager text
    assert _on_python_values(_branch_on_text, x) == expected
    assert int(tf.function(_branch_on_text)(tf.constant(x))) == expected


def _comparisons(x, y):
    s, t = f"{x}", f"{y}"
    return s == t, s != t, "1.5" == s, s == 1.5, s != 1.5


@pytest.mark.parametrize("x, y", [(1.5, 1.5), (1.5, 2.0)])
def test_equality_of_two_formatted_texts_or_a_reflected_or_non_str_operand_is_pythons(x, y):
    expected = _comparisons(tf.constant(x), tf.constant(y))
    got = tf.function(_comparisons)(tf.constant(x), tf.constant(y))
    assert [bool(g) for g in got] == list(expected)
    assert expected[3] is False and expected[4] is True      # a str never equals a float


def _nested(x):
    s = f"{x}"
    return f"<{s}>", f"{[s, 'b']}", f"{s!r}", repr(s), str(s), "%s|%r" % (s, s), "{}!".format(s), "-".join([s, "a"])


@pytest.mark.parametrize("x", [1.5, -3])
def test_formatted_text_formatted_again_joined_or_reprd_is_the_eager_text(x):
    expected = _nested(tf.constant(x))
    assert [_text(t) for t in tf.function(_nested)(tf.constant(x))] == list(expected)
    assert expected[0] == f"<{tf.constant(x)}>"


def _is_true(x):
    s = f"{x}"
    return 1 if s else 0


def test_the_truth_of_formatted_text_is_pythons():
    assert int(tf.function(_is_true)(tf.constant(0))) == _is_true(tf.constant(0)) == 1


def _in(x):
    return "1" in f"v={x}"


def _index(x):
    return f"v={x}"[2]


def _slice(x):
    return f"v={x}"[2:]


def _iterate(x):
    return [c for c in f"{x}"]


def _ordered(x):
    return f"{x}" < "2"


def _repeated(x):
    return f"{x}" * 2


def _dict_key(x):
    return {f"{x}": 1}


def _spec(x):
    return f"{f'{x}':>8}"


def _repr_with_quote(x):
    return repr(f"it's {x}")


@pytest.mark.parametrize("f", [_in, _index, _slice, _iterate, _ordered, _repeated, _dict_key, _spec,
                               _repr_with_quote], ids=lambda f: f.__name__[1:])
def test_what_only_the_run_time_text_could_answer_is_refused_at_the_line(f):
    assert _on_python_values(f, 1) == f(1)       # on Python values: Python's answer
    with pytest.raises(StagingError, match="of text formatted from a staged value") as caught:
        tf.function(f)(tf.constant(1))
    assert f"{__file__}:" in str(caught.value)


def _raise_formatted(x):
    if x > 0:
        raise ValueError(f"bad {x}", "kept")
    return x


def test_a_staged_raise_of_formatted_text_has_the_text_formatted_when_the_graph_runs():
    """The message was the trace's text: 'bad Tensor("x:0", shape=(), dtype=float32)'."""
    staged = tf.function(_raise_formatted)
    with pytest.raises(ValueError) as caught:
        staged(tf.constant(1.5))
    assert caught.value.args == ("bad 1.5", "kept")
    assert float(staged(tf.constant(-1.0))) == -1.0


def test_a_saved_function_raises_its_formatted_text(tmp_path):
    f = tf.function(_raise_formatted, input_signature=[tf.TensorSpec([], tf.float32)])
    tf.save_function(f, str(tmp_path / "f"))
    with pytest.raises(ValueError) as caught:
        tf.load_function(str(tmp_path / "f"))(tf.constant(2.5))
    assert caught.value.args == ("bad 2.5", "kept")


class _Own(Exception):
    pass


def _raise_own(x):
    if x > 0:
        raise _Own("own")
    return x


def _raise_from(x):
    if x > 0:
        raise ValueError("from") from KeyError("k")
    return x


@pytest.mark.parametrize("f, message", [
    (_raise_own, "_Own: a saved graph can raise Python's builtin exceptions only"),
    (_raise_from, "is `raise ... from` an exception \\(KeyError\\('k'\\)\\)")])
def test_saving_a_staged_raise_the_file_cannot_hold_says_what_it_can_hold(f, message, tmp_path):
    f = tf.function(f, input_signature=[tf.TensorSpec([], tf.float32)])
    with pytest.raises(TypeError, match=message):
        tf.save_function(f, str(tmp_path / "f"))


def _type_of_text(x):
    s = f"{x}"
    return type(s) is str, type(s).__name__


def test_the_type_of_formatted_text_is_str():
    assert [bool(t) if t.dtype == tf.bool else t.numpy().decode()
            for t in tf.function(_type_of_text)(tf.constant(1))] == [True, "str"]


class _Holder:
    text = None


def _keep(x):
    _Holder.text = f"{x}"
    return x


def test_the_text_kept_after_the_trace_is_the_str_it_was_while_tracing():
    """Once the trace is over, the StagedText is a plain str: its operations are str's again."""
    tf.function(_keep)(tf.constant(1))
    text = _Holder.text
    assert isinstance(text, ag.operators.strings.StagedText)
    assert text == str(text) and len(text) == len(str(text)) and text[:6] == "Tensor"
    assert {text: 1}[str(text)] == 1 and "x:0" in text
