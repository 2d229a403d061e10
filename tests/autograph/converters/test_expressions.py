"""logical_expressions and conditional_expressions: laziness, order and text."""
import pytest

from tests.autograph.converters.conftest import dual_run, generated


def record(log, value):
    log.append(value)
    return value


def logic(log, a, b, c):
    x = record(log, a) and record(log, b) or record(log, c)
    y = not record(log, a) or record(log, b) and record(log, c)
    return x, y, list(log)


def chained_comparison(a, b, c):
    return a < b <= c, a == b != c, a is None, b in (1, 2)


def conditional(log, flag):
    return record(log, "yes") if record(log, flag) else record(log, "no")


@pytest.mark.parametrize("a, b, c", [(0, 1, 2), (1, 0, 2), (1, 2, 0), ("", [], "z"), (None, 0, 3)])
def test_and_or_not_keep_python_values_and_short_circuit(a, b, c):
    dual_run(lambda: logic([], a, b, c))


@pytest.mark.parametrize("args", [(1, 2, 3), (2, 2, 2), (0, 1, 0), (3, 1, 2)])
def test_comparisons_keep_python_values(args):
    dual_run(chained_comparison, *args)
    code = generated(chained_comparison)
    assert "ag__.and_" not in code and "a == b != c" not in code and "ag__.is_none(a), b in (1, 2)" in code


@pytest.mark.parametrize("flag", [True, False, 0, "s"])
def test_conditional_expression_evaluates_one_branch(flag):
    original, converted = [], []
    import autograph as ag
    assert conditional(original, flag) == ag.convert()(conditional)(converted, flag)
    assert original == converted


def test_generated_text_uses_lazy_operators():
    code = generated(logic)
    assert "ag__.or_(lambda: ag__.and_(lambda: " in code
    assert "ag__.not_(" in code
    assert "ag__.if_exp(" in generated(conditional)
