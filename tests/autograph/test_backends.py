"""The plug-in protocol with a toy framework: autograph knows nothing of runtime."""
import pytest

import autograph as ag
from autograph import api, backends
from autograph.errors import UnsupportedCapabilityError


class Sym:
    """A toy staged value: records the expression instead of computing it."""

    def __init__(self, text):
        self.text = text

    def __gt__(self, other):
        return Sym(f"({self.text} > {other!r})")

    def __add__(self, other):
        return Sym(f"({self.text} + {getattr(other, 'text', repr(other))})")

    def __repr__(self):
        return self.text


@pytest.fixture
def toy():
    calls = []

    def cond(pred, true_fn, false_fn, names=()):
        t, f = true_fn(), false_fn()
        calls.append(("cond", pred.text))
        return tuple(Sym(f"cond({pred.text}, {a!r}, {b!r})") for a, b in zip(t, f))

    def while_loop(test, body, state, opts):
        calls.append(("while", test(*state.values).text, opts))
        return tuple(Sym(f"loop({v!r})") for v in body(*state.values))

    backend = backends.Backend(name="toy", staged_types=(Sym,), cond=cond, while_loop=while_loop,
                               is_staging=lambda: True)
    backends.register_backend(backend)
    yield calls
    backends.unregister_backend("toy")


def relu(x):
    if x > 0:
        y = x
    else:
        y = 0
    return y


def grow(x):
    while x > 10:
        x = x + 1
    return x


def test_if_on_a_staged_value_calls_the_backends_cond(toy):
    out = ag.convert(relu)(Sym("x"))
    assert toy == [("cond", "(x > 0)")]
    assert out.text == "cond((x > 0), x, 0)"


def test_while_on_a_staged_value_calls_the_backends_while_loop(toy):
    out = ag.convert(grow)(Sym("x"))
    assert toy == [("while", "(x > 10)", {})]
    assert out.text == "loop((x + 1))"


def test_python_values_never_reach_the_backend(toy):
    api.run_generated_code(True)
    try:
        assert ag.convert(relu)(5) == 5 and ag.convert(grow)(3) == 3
    finally:
        api.run_generated_code(False)
    assert toy == []


def test_missing_capability_names_construct_and_framework(toy):
    def negate(x):
        return not x

    with pytest.raises(UnsupportedCapabilityError, match="`not` on a tensor on toy values .* no `logical_not`"):
        ag.convert(negate)(Sym("x"))


def test_backend_lookup_is_cached_per_type(toy):
    backends.backend_for(Sym("a"))
    assert backends._type_cache[Sym].name == "toy"
    assert backends.backend_for(3) is None and backends._type_cache[int] is None
