"""The programs of tests/autograph/staged_language_programs.py (written from Python's language reference, not
from what the converter handles) on the JAX, PyTorch and TensorFlow backends: each program's `if`/`while`/
`for` on `x` is staged by the framework on a 0-d int32 tensor. For every input it gives Python's answer on the
same int, or refuses with an autograph error at the program's line; never another value. (The runtime runs
them in tests/autograph/test_staged_language.py.) A framework that is not installed is skipped."""
import numpy as np
import pytest

from autograph.errors import AutoGraphError
from tests.autograph import staged_language_programs as programs
from tests.autograph.backends import test_conformance
from tests.autograph.test_staged_language import INPUTS, outcome

PROGRAMS = programs.AGREE + [fn for fn, _ in programs.REFUSED]

# Refusals that are the framework's own error, not autograph's, each with why it can't be autograph's.
FRAMEWORK_REFUSALS = {
    ("jax", "assert_that_holds"): "an `assert` on a traced value is a checkify.check, which a plain jax.jit "
                                  "refuses when it compiles, after tracing (ag.jax.jit(f, checks=True) runs it)",
}


@pytest.fixture(params=["jax", "torch", "tensorflow"])
def framework(request):
    return request.param, getattr(test_conformance, f"_{request.param}")()


def as_python(value, harness):
    """A staged result as Python values, as `test_staged_language.plain` makes them of the runtime's."""
    if isinstance(value, (list, tuple)):
        return type(value)(as_python(v, harness) for v in value)
    if isinstance(value, (bool, int, float, str, type(None))):
        return value
    return np.asarray(harness.numpy(value)).tolist()


@pytest.mark.parametrize("fn", PROGRAMS, ids=lambda fn: fn.__name__)
def test_a_staged_program_gives_pythons_answer_or_refuses_at_its_line(framework, fn):
    name, harness = framework
    for x in INPUTS:
        expected = outcome(lambda: fn(x))
        try:
            got = harness.stage(fn, harness.tensor(np.int32(x)))
        except AutoGraphError as e:
            assert "staged_language_programs.py:" in str(e), e
            continue
        except Exception as e:
            if (name, fn.__name__) not in FRAMEWORK_REFUSALS:
                raise AssertionError(f"{fn.__name__}({x}) under {name}: Python gives {expected!r}; the staged "
                                     f"call raised the framework's {type(e).__name__}, not autograph's") from e
            continue
        assert as_python(got, harness) == expected, (name, fn.__name__, x)
