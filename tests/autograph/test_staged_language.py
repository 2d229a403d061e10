"""Python's language reference against converted code: each program in staged_language_programs.py runs as
plain Python, converted on Python ints, and in `runtime.function` on an int32 tensor (its `if`/`while`/`for`
on `x` staged). The converted function must give Python's answer on Python values; the traced one must give
it too, or refuse with an autograph error at the program's line (never a different value). The expected
values are the plain functions' own results."""
import re

import numpy as np
import pytest

import runtime as tf
from autograph.errors import StagingError
from tests.autograph import staged_language_programs as programs
from tests.autograph.generated_code import outcomes_agree

INPUTS = (-3, 0, 2, 5)


def plain(value):
    """A result as Python values: tensors and NumPy values as numbers, containers element by element."""
    if isinstance(value, tf.Tensor):
        value = value.numpy()
    if isinstance(value, (np.ndarray, np.generic)):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return type(value)(plain(v) for v in value)
    return value


def outcome(call):
    try:
        return plain(call())
    except Exception as error:   # Python's own exception is an answer too (UnboundLocalError, AssertionError)
        return type(error)


@pytest.mark.parametrize("fn", programs.AGREE + [fn for fn, _ in programs.REFUSED], ids=lambda fn: fn.__name__)
def test_converted_code_on_python_values_gives_pythons_answer(fn):
    outcomes_agree(fn, INPUTS, outcome)


@pytest.mark.parametrize("fn", programs.AGREE, ids=lambda fn: fn.__name__)
def test_a_traced_function_gives_pythons_answer(fn):
    traced = tf.function(fn)
    for x in INPUTS:
        assert outcome(lambda: traced(tf.constant(x))) == outcome(lambda: fn(x)), x


@pytest.mark.parametrize("fn, pattern", programs.REFUSED, ids=lambda p: getattr(p, "__name__", ""))
def test_what_a_graph_cannot_answer_is_refused_at_the_users_line(fn, pattern):
    answers = {outcome(lambda: fn(x)) for x in INPUTS}
    assert len(answers) > 1, answers   # Python's answer depends on the input: one trace-time run can't give it
    with pytest.raises(StagingError) as info:
        tf.function(fn)(tf.constant(2))
    message = str(info.value)
    assert re.search(r"staged_language_programs\.py:\d+: ", message), message
    assert pattern in message, message
