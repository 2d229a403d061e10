"""Shared pytest setup: graph-mode tests run both ways (tests/jit_twin.py).

Where JAX is installed, every graph that a test of a module marked `pytestmark = pytest.mark.jit_twin` runs on
the executor also runs under `jit_compile=True`, and the two must agree. The marked modules are graph-mode
programs chosen to keep the suite's time within about 30 s more (docs/performance.md): tests/autograph/
test_staged_undefined*.py, test_staged_raise.py, test_staged_side_effects*.py, test_staged_exceptions.py,
test_staged_lists_after_loop.py, test_runtime_integration.py and tests/runtime/test_control_flow.py
(test_to_jax.py compares both ways itself).
`pytest --jit-twin=all` runs every test's graphs both ways (slow: one XLA compilation per graph); it reports the
differences documented in docs/limitations.md (a Python int's int32 overflow and integer division by zero or
negative powers are not checked under jit_compile; an op that fails while JAX traces an untaken branch), and
tests that inspect the executor's own code. `--jit-twin=off` runs none.
"""
import pytest

from runtime.function import ConcreteFunction
from tests import jit_twin


def pytest_addoption(parser):
    parser.addoption("--jit-twin", choices=("marked", "all", "off"), default="marked",
                     help="which tests also run their graphs under jit_compile=True and compare (tests/jit_twin.py)")


def pytest_configure(config):
    config.addinivalue_line("markers", "jit_twin: also run every executed graph under jit_compile=True and "
                                       "compare with the executor (tests/jit_twin.py)")


def _twinned(request) -> bool:
    mode = request.config.getoption("--jit-twin")
    marked = request.node.get_closest_marker("jit_twin") is not None
    return jit_twin.JAX_INSTALLED and (mode == "all" or mode == "marked" and marked)


@pytest.fixture(autouse=True)
def _jit_twin(request, monkeypatch):
    if not _twinned(request):
        yield
        return
    monkeypatch.setattr(ConcreteFunction, "_compiled", jit_twin.compiled_with_twin(ConcreteFunction._compiled))
    jit_twin.Twin.active = comparisons = jit_twin.Comparisons()
    try:
        yield
    finally:
        jit_twin.Twin.active = None
    if comparisons.mismatches:
        pytest.fail("jit_compile=True differs from the executor:\n" + "\n".join(comparisons.mismatches))
