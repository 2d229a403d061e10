"""Mode j of the differential fuzzer (tools/fuzz/jit.py): programs in runtime.function(jit_compile=True) agree
with the original and with the executor; a difference planted in a JAX lowering rule is reported; and without
JAX the mode is skipped with a note. The recorded runs are in docs/fuzzing.md."""
import importlib.util
import pathlib
from collections import Counter

import pytest

from tools.fuzz import generator, jit, pygen, pyrunner, runner

needs_jax = pytest.mark.skipif(not jit.installed(), reason="mode j compiles with JAX, which is not installed")


def _fuzz_cli():
    spec = importlib.util.spec_from_file_location("fuzz_cli", pathlib.Path(__file__).parents[2] / "tools" / "fuzz.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@needs_jax
@pytest.mark.parametrize("seed", range(1000, 1003))
def test_generated_programs_agree_under_jit_compile(seed):
    tally = jit.Tally()
    finding = runner.check(generator.generate(seed, staged=True), "abcdj", tally)
    assert finding is None, f"seed {seed}: {finding.kind} in mode {finding.mode}: {finding.detail}"
    assert tally.values + tally.errors == len(runner.INPUTS)   # compared on every input
    result = pyrunner.check(pygen.generate(seed + 59000, tensor=True), "bptj", tensor=True)
    assert result.finding is None, f"seed {seed + 59000}: {result.finding.detail}"


def _plant_subtraction(monkeypatch):
    """A wrong lowering rule: AddV2 subtracts under jit_compile (the executor still adds)."""
    from runtime.lowering import to_jax
    monkeypatch.setitem(to_jax.LOWERINGS, "AddV2", lambda x, y: x - y)


@needs_jax
def test_a_wrong_lowering_is_reported_in_mode_j(monkeypatch):
    _plant_subtraction(monkeypatch)
    source = "LOG = []\n\ndef f(a, b):\n    x = a\n    if x > b:\n        x = x + b\n    return x, b, 0\n"
    finding = runner.check(source, "abcdj")
    assert finding is not None and finding.kind == "disagreement" and finding.mode == "j"
    assert runner.check(source, "abcd") is None   # the other modes do not see it
    tensor_program = pygen.PRELUDE + "\n\ndef f(a, b):\n    y = a\n    if a > b:\n        y = a + b\n" \
                                     "    return a, b, y\n"
    result = pyrunner.check(tensor_program, "bptj", tensor=True)
    assert result.finding is not None and result.finding.mode == "j"


@needs_jax
def test_mode_j_compares_with_the_executor_beyond_the_original(monkeypatch):
    # a result of another dtype: equal to the original's int as a number, but not the executor's int32 tensor
    from runtime.lowering import to_jax
    monkeypatch.setitem(to_jax.LOWERINGS, "AddV2", lambda x, y: (x + y).astype("float32"))
    source = "LOG = []\n\ndef f(a, b):\n    return a + b\n"
    finding = runner.check(source, "abcdj")
    assert finding is not None and finding.mode == "j" and "where the executor gave int32" in finding.detail


def test_difference_is_that_of_tests_jit_twin():
    import numpy as np

    import runtime as tf
    three = ("value", (tf.constant(3), 1))
    assert jit.difference(three, ("value", (tf.constant(3), 1))) is None
    assert "int64" in jit.difference(three, ("value", (tf.constant(np.int64(3)), 1)))
    assert jit.difference(three, ("value", (tf.constant(4), 1))) is not None
    assert jit.difference(three, ("value", (tf.constant(3), 2))) is not None
    # an error in both modes agrees only when it is the same error: type and message
    assert jit.difference(("error", ValueError("x")), ("error", ValueError("x"))) is None
    assert jit.difference(("error", ValueError("x")), ("error", ValueError("y"))) is not None
    assert jit.difference(("error", ValueError("x")), ("error", TypeError("x"))) is not None
    assert jit.difference(("error", ValueError("x")), three) is not None
    # but for the address of an object named in an error raised while tracing (each mode traces anew)
    at = "holds <function f.<locals>.<lambda> at 0x7f2f3ec37{}>"
    assert jit.difference(("error", ValueError(at.format("b00"))), ("error", ValueError(at.format("ba0")))) is None


def test_a_lowering_error_is_counted_by_its_cause():
    from runtime.errors import LoweringError
    error = LoweringError("jit_compile=True can't lower While 'while': the values it carries change shape", "While")
    assert jit.lowering_refusal(("error", error)) == "While changes shape"
    assert jit.lowering_refusal(("error", ValueError("no"))) is None
    tally = jit.Tally(3, 1)
    tally.add(jit.Tally(1, 0, Counter({"While changes shape": 2})))
    assert tally.summary() == "mode j: 4 runs gave the executor's values, 1 raised its error (type and message); " \
                              "2 programs could not be lowered (LoweringError: While changes shape 2)"


def test_without_jax_mode_j_is_skipped_with_a_note(monkeypatch, tmp_path, capsys):
    fuzz_cli = _fuzz_cli()
    monkeypatch.setattr(fuzz_cli.jit, "installed", lambda: False)
    assert fuzz_cli.run(1, 1000, "abcdj", tmp_path) == 0
    out = capsys.readouterr().out
    assert "stageable programs (modes abcd)" in out and f"fuzz: {jit.SKIPPED}" in out


def test_help_names_mode_j(capsys):
    with pytest.raises(SystemExit):
        _fuzz_cli().parse_args(["--help"])
    assert "jit_compile=True" in " ".join(capsys.readouterr().out.split())
