"""Mode g of the python generator (tools/fuzz/jaxg.py): tensor programs on the JAX backend, under jax.jit, agree
with the original; a JAX backend made wrong on purpose is reported; a difference eager JAX makes too is counted,
not reported; JAX's errors at the program's line are refusals, JAX's or autograph's own are internal errors;
without JAX the mode is skipped with a note. The recorded runs are in docs/fuzzing.md."""
import importlib.util
import pathlib
import traceback

import pytest

from tools.fuzz import jaxg, pygen, pyrunner

needs_jax = pytest.mark.skipif(not jaxg.installed(), reason="mode g runs jax.jit, and JAX is not installed")

IF_PROGRAM = pygen.PRELUDE + "\n\ndef f(a, b):\n    y = a\n    if a > b:\n        y = a + b\n    return a, b, y\n"


def _fuzz_cli():
    spec = importlib.util.spec_from_file_location("fuzz_cli", pathlib.Path(__file__).parents[2] / "tools" / "fuzz.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@needs_jax
@pytest.mark.parametrize("seed", [59000, 59001, 59002])
def test_generated_tensor_programs_agree_under_jax_jit(seed):
    result = pyrunner.check(pygen.generate(seed, tensor=True), "tg", tensor=True)
    assert result.finding is None, f"seed {seed}: {result.finding.kind} in mode {result.finding.mode}: " \
                                   f"{result.finding.detail}"
    tally = result.jax
    assert tally.values + tally.errors + sum(tally.refused.values()) == len(pyrunner.INPUTS)   # every input


@needs_jax
def test_a_staged_if_agrees_on_every_input():
    result = pyrunner.check(IF_PROGRAM, "g", tensor=True)
    assert result.finding is None and result.jax.values == len(pyrunner.INPUTS)


@needs_jax
def test_a_wrong_jax_backend_is_reported_in_mode_g(monkeypatch):
    # the JAX backend's `if` (and loop tests) on a negated condition: the other branch runs
    import jax.numpy as jnp

    from autograph.backends import jax as jax_backend
    predicate = jax_backend._predicate
    monkeypatch.setattr(jax_backend, "_predicate", lambda value, construct: jnp.logical_not(predicate(value, construct)))
    result = pyrunner.check(IF_PROGRAM, "tg", tensor=True)
    finding = result.finding
    assert finding is not None and finding.kind == "disagreement" and finding.mode == "g", finding
    assert "on concrete jnp arrays gave value" in finding.detail
    assert pyrunner.check(IF_PROGRAM, "t", tensor=True).finding is None   # runtime.function does not see it


@needs_jax
def test_an_error_from_inside_the_jax_backend_is_an_internal_error(monkeypatch):
    from autograph.backends import jax as jax_backend
    # the backend calling lax.cond wrongly (a function compiled as if in autograph/backends/jax.py): JAX's
    # TypeError, raised while a branch is traced, gets autograph's note naming the program's line, yet is no
    # refusal: it does not come from the program's code
    broken = {}
    exec(compile("from jax import lax\n\ndef _lax_cond(pred, true_run, false_run):\n"
                 "    return lax.cond(pred, true_run)\n", jax_backend.__file__, "exec"), broken)
    monkeypatch.setattr(jax_backend, "_lax_cond", broken["_lax_cond"])
    result = pyrunner.check(IF_PROGRAM, "g", tensor=True)
    finding = result.finding
    assert finding is not None and finding.kind == "internal error" and finding.mode == "g", result
    assert "TypeError" in finding.detail and "(autograph) raised while tracing" in finding.detail


@needs_jax
def test_what_eager_jax_does_too_is_counted_not_reported():
    # int32 wraps around in JAX, eagerly and under jit alike; Python ints do not
    source = pygen.PRELUDE + "\n\ndef f(a, b):\n    x = a + 2147483647\n    return x, b\n"
    result = pyrunner.check(source, "g", tensor=True)
    assert result.finding is None
    wrapped = sum(1 for a, _ in pyrunner.INPUTS if a > 0)
    assert result.jax.like_eager["returned another value"] == wrapped
    assert f"differed from Python as eager JAX (or jax.jit of the unconverted original) does ({wrapped} returned " \
        "another value)" in result.jax.summary()


@needs_jax
def test_jax_refusing_a_traced_value_at_the_programs_line_is_a_refusal():
    # `range` over a traced value in a helper autograph does not convert (a generator): JAX's error, at `gen`'s line
    source = pygen.PRELUDE + "\n\ndef f(a, b):\n    y = a + 2\n    return sum(gen(y % 3)), b\n"
    result = pyrunner.check(source, "g", tensor=True)
    assert result.finding is None
    assert result.jax.refused == {"JAX's TracerIntegerConversionError at the program's line": len(pyrunner.INPUTS)}


@needs_jax
def test_a_function_among_the_outputs_is_jits_refusal():
    source = pygen.PRELUDE + "\n\ndef f(a, b):\n    return a, double\n"
    result = pyrunner.check(source, "g", tensor=True)
    assert result.finding is None
    assert result.jax.refused == {"jax.jit: a function among the outputs": len(pyrunner.INPUTS)}


def test_a_clear_refusal_is_counted_by_its_cause():
    from autograph.errors import StagingError
    from autograph.operators.function_scope import TRACING_NOTE
    error = StagingError("/tmp/p.py:3: 'w1' must be defined before this `while` loop over tensors. More.")
    assert jaxg.refusal(error, "/tmp/p.py") == "StagingError: '...' must be defined before this `...` loop over tensors"
    assert jaxg.refusal(StagingError("somewhere else"), "/tmp/p.py") is None
    assert jaxg.refusal(TypeError("/tmp/p.py:3"), "/tmp/p.py") is None
    program = {}
    exec(compile("def f():\n    raise ValueError(3)\n", "/tmp/p.py", "exec"), program)
    with pytest.raises(ValueError) as own:   # raised at a line of the program
        program["f"]()
    own.value.add_note(f"{TRACING_NOTE} /tmp/p.py:7")
    frames = traceback.extract_tb(own.value.__traceback__)
    assert jaxg.refusal(own.value, "/tmp/p.py", lambda: frames) == \
        "the program's ValueError raised while tracing a branch"
    with pytest.raises(ValueError) as elsewhere:   # the same note, on an error raised here (not the program's)
        raise ValueError(3)
    elsewhere.value.add_note(f"{TRACING_NOTE} /tmp/p.py:7")
    frames = traceback.extract_tb(elsewhere.value.__traceback__)
    assert jaxg.refusal(elsewhere.value, "/tmp/p.py", lambda: frames) is None


def test_values_are_compared_as_python_numbers():
    assert jaxg.values(("value", (1, True, 2.5))) == ("value", (1, 1, 2.5))
    error = ("error", ValueError("x"))
    assert jaxg.values(error) is error


@needs_jax
def test_arrays_become_python_numbers_floats_stay_floats():
    import jax.numpy as jnp
    kind, value = jaxg.values(("value", (jnp.int32(3), jnp.float32(2.5), jnp.bool_(True), jnp.arange(2))))
    assert kind == "value" and value == (3, 2.5, 1, [0, 1])
    assert isinstance(value[0], int) and isinstance(value[1], float)


def test_without_jax_mode_g_is_skipped_with_a_note(monkeypatch, tmp_path, capsys):
    fuzz_cli = _fuzz_cli()
    monkeypatch.setattr(fuzz_cli.jaxg, "installed", lambda: False)
    assert fuzz_cli.run_python(1, 59000, "bptg", tmp_path, budget=0) == 0
    out = capsys.readouterr().out
    assert "tensor programs (modes a,b,p,t)" in out and f"fuzz: {jaxg.SKIPPED}" in out


def test_help_names_mode_g(capsys):
    with pytest.raises(SystemExit):
        _fuzz_cli().parse_args(["--help"])
    assert "jax.jit(ag.convert(f))" in " ".join(capsys.readouterr().out.split())
