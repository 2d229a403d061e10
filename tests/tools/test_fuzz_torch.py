"""Mode x of the python generator (tools/fuzz/torchx.py): tensor programs on the torch backend, exported with
torch.export, agree with the original; a torch backend made wrong on purpose is reported; a difference eager
torch makes too is counted, not reported; without PyTorch the mode is skipped with a note. The recorded runs
are in docs/fuzzing.md."""
import importlib.util
import pathlib

import pytest

from tools.fuzz import pygen, pyrunner, torchx

needs_torch = pytest.mark.skipif(not torchx.installed(), reason="mode x exports with PyTorch, which is not installed")

IF_PROGRAM = pygen.PRELUDE + "\n\ndef f(a, b):\n    y = a\n    if a > b:\n        y = a + b\n    return a, b, y\n"


def _fuzz_cli():
    spec = importlib.util.spec_from_file_location("fuzz_cli", pathlib.Path(__file__).parents[2] / "tools" / "fuzz.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@needs_torch
@pytest.mark.parametrize("seed", [52000, 52001, 52002])
def test_generated_tensor_programs_agree_when_exported(seed):
    result = pyrunner.check(pygen.generate(seed, tensor=True), "tx", tensor=True)
    assert result.finding is None, f"seed {seed}: {result.finding.kind} in mode {result.finding.mode}: " \
                                   f"{result.finding.detail}"
    tally = result.torch
    assert tally.values + tally.errors + sum(tally.refused.values()) == len(pyrunner.INPUTS)   # every input


@needs_torch
def test_a_staged_if_agrees_on_every_input():
    result = pyrunner.check(IF_PROGRAM, "x", tensor=True)
    assert result.finding is None and result.torch.values == len(pyrunner.INPUTS)


@needs_torch
def test_a_wrong_torch_backend_is_reported_in_mode_x(monkeypatch):
    # the torch backend's `if` on a negated condition: the other branch runs
    from autograph.backends import torch_cond
    predicate = torch_cond.predicate
    monkeypatch.setattr(torch_cond, "predicate", lambda value, construct: ~predicate(value, construct))
    result = pyrunner.check(IF_PROGRAM, "tx", tensor=True)
    finding = result.finding
    assert finding is not None and finding.kind == "disagreement" and finding.mode == "x"
    assert "on eager torch tensors gave value" in finding.detail
    assert pyrunner.check(IF_PROGRAM, "t", tensor=True).finding is None   # runtime.function does not see it


@needs_torch
def test_an_exported_program_that_fails_inside_torch_is_an_internal_error(monkeypatch):
    import torch

    def broken(*args, **kwargs):   # torch.export failing in its own code
        return torch.export.export(None, ())
    monkeypatch.setattr(torchx.Exported, "_export", lambda self, args: broken())
    result = pyrunner.check(IF_PROGRAM, "x", tensor=True)
    assert result.finding is not None and result.finding.kind == "internal error" and result.finding.mode == "x"
    # even where Python raises the same type (ValueError): an error from inside torch is not the program's
    raising = pygen.PRELUDE + "\n\ndef f(a, b):\n    return check(0), b\n"
    result = pyrunner.check(raising, "x", tensor=True)
    assert result.finding is not None and result.finding.kind == "internal error", result.finding
    assert "torch/export" in result.finding.detail


@needs_torch
def test_what_eager_torch_does_too_is_counted_not_reported():
    # `x += ...` changes `a`'s tensor in place in torch (eager and exported alike); Python ints are values
    source = pygen.PRELUDE + "\n\ndef f(a, b):\n    x = a\n    x += x + 2\n    x = 0\n    x = x + a\n" \
                             "    return x, b, 0\n"
    result = pyrunner.check(source, "x", tensor=True)
    assert result.finding is None
    assert result.torch.like_eager["returned another value"] == len(pyrunner.INPUTS)
    assert "differed from Python as eager torch does (5 returned another value)" in result.torch.summary()


def test_a_clear_refusal_is_counted_by_its_cause():
    from autograph.errors import StagingError
    from autograph.operators.function_scope import TRACING_NOTE
    error = StagingError("/tmp/p.py:3: 'w1' must be defined before this `while` loop over tensors. More.")
    assert torchx.refusal(error, "/tmp/p.py") == "StagingError: '...' must be defined before this `...` loop over tensors"
    assert torchx.refusal(StagingError("somewhere else"), "/tmp/p.py") is None
    assert torchx.refusal(TypeError("/tmp/p.py:3"), "/tmp/p.py") is None
    own = ValueError(3)
    own.add_note(f"{TRACING_NOTE} /tmp/p.py:7")
    assert torchx.refusal(own, "/tmp/p.py") == "the program's ValueError raised while tracing a branch"


def test_same_as_eager_compares_values_or_error_type_and_message():
    assert torchx.same_as_eager(("value", (1, 2)), ("value", (1, 2))) == "returned another value"
    assert torchx.same_as_eager(("value", (1, 2)), ("value", (1, 3))) is None
    assert torchx.same_as_eager(("error", RuntimeError("x")), ("error", RuntimeError("x"))) == "raised RuntimeError"
    assert torchx.same_as_eager(("error", RuntimeError("x")), ("error", RuntimeError("y"))) is None
    assert torchx.same_as_eager(("error", RuntimeError("x")), ("value", 1)) is None


def test_without_torch_mode_x_is_skipped_with_a_note(monkeypatch, tmp_path, capsys):
    fuzz_cli = _fuzz_cli()
    monkeypatch.setattr(fuzz_cli.torchx, "installed", lambda: False)
    assert fuzz_cli.run_python(1, 52000, "bptx", tmp_path, budget=0) == 0
    out = capsys.readouterr().out
    assert "tensor programs (modes a,b,p,t)" in out and f"fuzz: {torchx.SKIPPED}" in out


def test_help_names_mode_x(capsys):
    with pytest.raises(SystemExit):
        _fuzz_cli().parse_args(["--help"])
    assert "torch.export" in " ".join(capsys.readouterr().out.split())


@needs_torch
def test_a_fake_tensor_returned_is_named_not_converted():
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        fake = torch.zeros(())
    assert torchx.leaked((torch.tensor(1), fake)) == "[1] a FakeTensor (a tensor of the trace, with no value)"
    assert torchx.leaked((torch.tensor(1), 2)) is None


def test_a_function_among_the_outputs_is_exports_refusal_not_an_internal_error():
    """torch.export returns tensors only (seed 56073 returned a function, which mode t compares by name)."""
    from tools.fuzz import torchx

    error = RuntimeError("Found <class 'function'> in output, which is not a known type.")
    assert torchx.refusal(error, "seed56073_tensor_x.py") == "torch.export: a function among the outputs"
    assert torchx.refusal(RuntimeError("something else"), "seed56073_tensor_x.py") is None
