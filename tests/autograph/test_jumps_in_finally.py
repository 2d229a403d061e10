"""A jump in `finally:` discards what the `try` was doing (a pending `return`, `break`, `continue` or
exception), whichever converter pass lowers each jump. The passes run break, continue, return in that order,
and an earlier pass splits a `finally:` off its `try`; a later pass's jump in that code was taken for an
ordinary statement. So `try: return ... finally: continue` returned at once, where Python discards the
return and goes on looping (fuzz seed 85108). Every jump in the `try` with every pair of jumps in `finally:`
(an `if` of one, then the other), run as Python and as generated code on Python values, and traced."""
import itertools
import textwrap

import pytest

import autograph as ag
import runtime as tf
from autograph import api
from runtime.control_flow import ControlFlowError

_TRY = {"return": "return ('early', i, t)", "break": "break", "continue": "continue",
        "raise": "raise ValueError(i)", "none": "t = t + 1"}
_FINALLY = {"return": "return ('final', i, t)", "break": "break", "continue": "continue", "none": "t = t + 10"}
# (the latter of two jumps in `finally:` never runs when the former always does: Python allows it)


def _source(in_try: str, first: str, second: str) -> str:
    """`finally:` holds `if t + x > 5: <first>` then `<second>`: two kinds of jump, so the pass of the earlier
    kind splits it off its `try` before the other kind is lowered (the case seed 85108 found)."""
    return textwrap.dedent(f"""
    def f(x):
        t = 0
        for i in range(3):
            t = t + i
            try:
                if x > i:
                    {_TRY[in_try]}
                t = t + 100
            finally:
                t = t + 1
                if t + x > 5:
                    {_FINALLY[first]}
                {_FINALLY[second]}
            t = t + 1000
        return ('end', i, t)
    """)


def _program(in_try, first, second, tmp_path):
    path = tmp_path / f"jumps_{in_try}_{first}_{second}.py"
    path.write_text(_source(in_try, first, second))
    namespace: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    return namespace["f"]


def _outcome(fn, *args):
    try:
        return "value", fn(*args)
    except ValueError as e:
        return "ValueError", e.args


def _python(value):
    if isinstance(value, tuple):
        return tuple(_python(v) for v in value)
    if hasattr(value, "numpy"):
        value = value.numpy()
        value = value.item() if hasattr(value, "item") else value
    return value.decode() if isinstance(value, bytes) else value   # (a staged string is a string tensor)


_PAIRS = list(itertools.product(_TRY, _FINALLY, _FINALLY))


@pytest.mark.parametrize("in_try,first,second", _PAIRS)
def test_generated_code_on_python_values_gives_pythons_answer(in_try, first, second, tmp_path):
    fn = _program(in_try, first, second, tmp_path)
    api.run_generated_code(True)
    try:
        for x in (-1, 0, 1, 2, 5):
            assert _outcome(ag.convert(fn), x) == _outcome(fn, x), (x, _source(in_try, first, second))
    finally:
        api.run_generated_code(False)


@pytest.mark.parametrize("in_try,first,second", [p for p in _PAIRS if p[0] != "raise"])
def test_traced_on_a_tensor_gives_pythons_answer_or_refuses(in_try, first, second, tmp_path):
    fn = _program(in_try, first, second, tmp_path)
    traced = tf.function(fn)
    for x in (-1, 0, 2, 5):
        try:
            got = _python(traced(tf.constant(x)))
        except (ag.AutoGraphError, ControlFlowError):
            continue   # a clear refusal at the program's line is allowed
        assert got == fn(x), (x, _source(in_try, first, second))


def _return_in_finally_after_a_refusal(a):
    z = 1
    try:
        z = len({v for v in range(a)})     # a set over a tensor's range: refused while tracing
    finally:
        return z


def _break_in_finally_after_a_refusal(a):
    z = 1
    for _ in [0]:
        try:
            z = len({v for v in range(a)})
        finally:
            break
    return z


@pytest.mark.parametrize("fn", [_return_in_finally_after_a_refusal, _break_in_finally_after_a_refusal],
                         ids=lambda f: f.__name__)
def test_a_jump_in_finally_does_not_discard_a_refusal_while_tracing(fn):
    """Python generator seed 100098: the `return` in `finally:` discarded the refusal (Python needs the values
    of `range(a)`), and the trace went on as if the `try` body had run: 1 where Python gives a's value."""
    assert fn(2) == 2
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError, match="Iterating over a symbolic tensor"):
        tf.function(fn)(tf.constant(2))
