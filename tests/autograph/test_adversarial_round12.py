"""Adversarial programs against the twelfth session's changes: text formatted from a traced tensor
(strings.StagedText) handed to str's own methods, to a str subclass, or formatted by a str subclass's template,
where str's C code would read the symbolic value's text."""
import pytest

import runtime as tf
from autograph.errors import StagingError


class Name(str):
    """A str subclass that keeps str's methods and `%`."""


def starts_with_text(x):
    return "1.5 kg".startswith(f"{x}")


def replaced_by_text(x):
    return "v=?".replace("?", f"{x}")


def counted_text(x):
    return "1.5 1.5".count(f"{x}")


def subclass_of_text(x):
    return Name(f"{x}") == "1.5"


@pytest.mark.parametrize("program", [starts_with_text, replaced_by_text, counted_text, subclass_of_text])
def test_a_str_method_or_subclass_given_formatted_text_is_refused_at_the_line(program):
    assert program(1.5) in (True, "v=1.5", 2)                    # Python's answer, for the record
    with pytest.raises(StagingError, match=r"test_adversarial_round12\.py:\d+.*given it"):
        tf.function(program)(tf.constant(1.5))


def test_a_str_method_given_plain_text_in_a_function_answers_as_python():
    def f(x):
        return "1.5 kg".startswith("1.5"), "v=?".replace("?", "w"), Name("ab") + "c", x
    got = tf.function(f)(tf.constant(1.5))
    assert (bool(got[0]), got[1], got[2]) == (True, b"v=w", b"abc")


def subclass_format(x):
    return Name("v={}").format(x) == "v=1.5"


def subclass_percent(x):
    fmt = Name("v=%.1f")
    return fmt % x == "v=1.5"


@pytest.mark.parametrize("program", [subclass_format, subclass_percent])
def test_a_str_subclass_template_formats_a_traced_tensor_as_a_str_template_does(program):
    assert program(1.5) is True
    assert bool(tf.function(program)(tf.constant(1.5))) is True
    assert bool(tf.function(program)(tf.constant(2.5))) is False


class Loud(str):
    def __mod__(self, other):
        return "loud"


def test_a_str_subclass_with_its_own_percent_keeps_it_in_a_function():
    def f(x):
        fmt = Loud("%s")
        return fmt % x
    assert tf.function(f)(tf.constant(1.5)) == b"loud"


def assigned_after_a_nested_def(n):
    def g():
        return y
    if n > 0:
        y = 2
    else:
        y = 3
    return g()


def test_a_nested_def_reads_the_variable_a_later_staged_if_assigns():
    assert assigned_after_a_nested_def(1) == 2
    assert int(tf.function(assigned_after_a_nested_def)(tf.constant(1))) == 2
    assert int(tf.function(assigned_after_a_nested_def)(tf.constant(-1))) == 3


def assigned_on_one_path_after_a_nested_def(n):
    def g():
        return y
    if n > 0:
        y = 2
    return g()


def test_a_nested_def_reading_a_variable_a_staged_if_left_unassigned_raises_python_s_name_error():
    with pytest.raises(NameError, match="free variable 'y'"):
        assigned_on_one_path_after_a_nested_def(-1)
    assert int(tf.function(assigned_on_one_path_after_a_nested_def)(tf.constant(1))) == 2
    with pytest.raises(NameError, match=r"test_adversarial_round12\.py:\d+: cannot access free variable 'y'"):
        tf.function(assigned_on_one_path_after_a_nested_def)(tf.constant(-1))


def int_on_one_path_float_on_the_other(n):
    if n > 0:
        s = 1
    else:
        s = 2.5
    return isinstance(s, int)


def carried_bool(n):
    b = False
    if n > 0:
        b = True
    return isinstance(b, bool)


@pytest.mark.parametrize("program", [int_on_one_path_float_on_the_other])
def test_isinstance_of_a_number_a_staged_if_carried_under_jax_jit_is_refused_where_python_s_answer_may_differ(
        program):
    jax = pytest.importorskip("jax")
    import autograph as ag
    assert program(3) is True
    with pytest.raises(StagingError, match=r"test_adversarial_round12\.py:\d+: `isinstance\(\.\.\.\)`"):
        jax.jit(ag.convert(program))(3)


def test_isinstance_of_a_torch_number_an_int_on_one_path_and_a_float_on_the_other_is_refused_under_export():
    torch = pytest.importorskip("torch")
    import autograph as ag

    class Program(torch.nn.Module):
        def __init__(self, program):
            super().__init__()
            self.program = ag.convert(program)

        def forward(self, n):
            return torch.as_tensor(self.program(n))

    with pytest.raises(StagingError, match=r"test_adversarial_round12\.py:\d+: `isinstance\(\.\.\.\)`"):
        torch.export.export(Program(int_on_one_path_float_on_the_other), (torch.tensor(3),))
    exported = torch.export.export(Program(carried_bool), (torch.tensor(3),))
    assert bool(exported.module()(torch.tensor(3))) is True
