"""Helpers for converter tests: generated text, and original vs converted runs."""
import pytest

import autograph as ag
from autograph import api


@pytest.fixture(autouse=True)
def generated_code():
    """Run the generated code, not the original (the fast path when nothing stages)."""
    api.run_generated_code(True)
    yield
    api.run_generated_code(False)


def generated(fn) -> str:
    return ag.to_code(fn)


def dual_run(fn, *args):
    """Runs the original and the converted function; both must agree."""
    expected = fn(*args)
    actual = ag.convert()(fn)(*args)
    assert actual == expected, f"{fn.__name__}{args}: converted {actual!r} != original {expected!r}"
    return actual


@pytest.fixture
def log():
    return []
