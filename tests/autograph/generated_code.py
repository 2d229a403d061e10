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
