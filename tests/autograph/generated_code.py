"""Running a function's generated code on Python values, for the tests that compare it with the original."""
import autograph as ag
from autograph import api


def python_run(fn, *args):
    """The original and the generated code on Python values: both must agree exactly."""
    expected = fn(*args)
    api.run_generated_code(True)
    try:
        actual = ag.convert(fn)(*args)
    finally:
        api.run_generated_code(False)
    assert actual == expected and type(actual) is type(expected), f"{actual!r} != {expected!r}"
    return actual


def outcomes_agree(fn, inputs, outcome) -> None:
    """On each input, the generated code gives the original's `outcome` (its result, or the error it raises)."""
    api.run_generated_code(True)   # the generated code, not the original that runs when nothing stages
    try:
        for x in inputs:
            assert outcome(lambda: ag.convert(fn)(x)) == outcome(lambda: fn(x)), x
    finally:
        api.run_generated_code(False)
