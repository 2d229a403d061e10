"""Text formatted from a traced JAX, torch or TensorFlow value (an f-string, `str(x)`): these backends format no
strings when the graph runs, so the text is the traced value's (`JitTracer(~float32[])`), as in the framework
itself. Where Python would read the value's text (`==`, `in`, `len`, indexing, a dict key, str methods), the
converted code refuses at the user's line; before, `if f"{x}" == "1.5"` was always false under `jax.jit`.
Printing and logging it, and formatting it again, still give the traced value's text, as the framework does."""
from __future__ import annotations

import pytest

import autograph as ag
from autograph.errors import StagingError


def equal(x):
    if f"{x}" == "1.5":
        return x
    return -x


def contains(x):
    return x if "1" in f"v={x}" else -x


def length(x):
    return x * len(str(x))


def method(x):
    return x if f"{x}".startswith("1") else -x


def keyed(x):
    return x * {f"{x}": 1}.get("1.5", 2)


def printed(x, capture: list):
    capture.append(f"<{f'{x}'}>")
    return x


PROGRAMS = [equal, contains, length, method, keyed]


def _check_refused(run, f):
    with pytest.raises(StagingError, match=" of text formatted from a traced (jax|torch|tensorflow) value: Python "
                                           "would read the value's text") as caught:
        run(f)
    assert f"{__file__}:" in str(caught.value)


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_under_jax_jit_what_python_would_read_of_the_text_is_refused_at_the_line(f):
    jax = pytest.importorskip("jax", reason="JAX is not installed (pip install -e '.[jax]')")
    assert ag.convert(f)(1.5) == f(1.5)          # on Python values: Python's answer
    _check_refused(lambda g: jax.jit(ag.convert(g))(1.5), f)


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_under_torch_export_what_python_would_read_of_the_text_is_refused_at_the_line(f):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install -e '.[torch]')")
    from tests.autograph.backends.test_torch_in_place import module
    _check_refused(lambda g: torch.export.export(module(g), (torch.tensor(1.5),)), f)


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_under_tensorflows_function_what_python_would_read_of_the_text_is_refused_at_the_line(f):
    tf = pytest.importorskip("tensorflow", reason="TensorFlow is not installed (pip install -e '.[tensorflow]')")
    import autograph.backends.tensorflow  # noqa: F401 - registers the backend
    _check_refused(lambda g: tf.function(ag.convert(g), autograph=False)(tf.constant(1.5)), f)


def test_formatting_it_again_gives_the_traced_values_text_as_the_framework_does():
    jax = pytest.importorskip("jax", reason="JAX is not installed (pip install -e '.[jax]')")
    seen: list = []
    jax.jit(lambda x: ag.convert(printed)(x, seen))(1.5)
    assert seen and seen[0].startswith("<") and "Tracer" in seen[0] and seen[0].endswith(">")


def too_big(x):
    assert x < 4, f"{{x}} too big: {x} ({x!r})"
    return x + 1


def test_an_assert_message_under_jax_checkify_shows_the_value_it_failed_on():
    jax = pytest.importorskip("jax", reason="JAX is not installed (pip install -e '.[jax]')")
    checked = ag.jax.jit(too_big, checks=True)
    assert float(checked(jax.numpy.float32(1.5))) == 2.5
    with pytest.raises(AssertionError) as caught:
        checked(jax.numpy.float32(5.25))
    value = jax.numpy.float32(5.25)     # checkify formats the field as the eager array formats
    assert str(caught.value) == f"{{x}} too big: {value} ({value!r})"
    assert "Tracer" not in str(caught.value)
