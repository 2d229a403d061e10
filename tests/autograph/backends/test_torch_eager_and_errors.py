"""autograph.backends.torch (test_torch.py, continued): Python semantics on eager tensors, print and assert
under torch.export, the backend's errors, and its packaging."""
from __future__ import annotations

import contextlib
import dataclasses
import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install -e '.[torch]' to run the "
                                             "PyTorch backend tests)")

import autograph as ag  # noqa: E402
from autograph import backends  # noqa: E402
from autograph.api import run_generated_code  # noqa: E402
from autograph.errors import StagingError, UnsupportedCapabilityError  # noqa: E402
from tests.autograph.backends.test_torch import (  # noqa: E402
    NEGATIVE, POSITIVE, ROOT, doubling, export, mixed, same)


# --- eager tensors: Python semantics ---------------------------------------------------------------

def test_eager_tensors_are_not_staged():
    assert backends.backend_for(torch.ones(3)) is None
    assert backends.backend_for(torch.tensor(True)) is None


def test_eager_call_runs_python_and_never_calls_cond(monkeypatch):
    torch_backend = sys.modules["autograph.backends.torch"]

    def refuse(*args):
        raise AssertionError("cond op called on eager tensors")
    monkeypatch.setattr(torch_backend, "_cond_op", refuse)
    monkeypatch.setattr(torch_backend, "_while_op", refuse)
    converted = ag.convert(mixed)
    for values in ([1.0, 2.0, 3.0], [-1.0, 4.0, 3.0]):
        x, limit = torch.tensor(values), torch.tensor(5.0)
        assert same(converted(x, limit), mixed(x, limit))
        run_generated_code(True)             # the generated code itself, on eager tensors
        try:
            assert same(converted(x, limit), mixed(x, limit))
        finally:
            run_generated_code(False)


# --- print and assert ----------------------------------------------------------------------------

def checked(x):
    s = x.sum()
    print("sum is", s)
    assert s > 0, "the sum must be positive"
    return s


@pytest.fixture(scope="module")
def exported_checked():
    return export(ag.convert(checked), POSITIVE)


def test_print_runs_in_the_exported_program(exported_checked, capsys):
    capsys.readouterr()
    exported_checked.module()(POSITIVE)
    assert "sum is" in capsys.readouterr().out


def test_assert_raises_in_the_exported_program(exported_checked):
    assert torch.equal(exported_checked.module()(POSITIVE), POSITIVE.sum())
    with pytest.raises(RuntimeError, match="the sum must be positive"):
        exported_checked.module()(NEGATIVE)


# --- errors --------------------------------------------------------------------------------------

def test_loop_variable_changing_shape_names_it():
    def grow(x):
        while x.sum() < 100:
            x = torch.cat([x, x])
        return x
    with pytest.raises(StagingError, match="'x' changes shape"):
        export(ag.convert(grow), POSITIVE)


def test_branches_with_different_dtypes_name_the_variable():
    def pick(x):
        if x.sum() > 0:
            y = x
        else:
            y = x.to(torch.int64)
        return y
    with pytest.raises(StagingError, match="'y' is a float32 tensor.*int64"):
        export(ag.convert(pick), POSITIVE)


def test_missing_capability_names_construct_and_framework():
    torch_backend = sys.modules["autograph.backends.torch"].BACKEND
    backends.register_backend(dataclasses.replace(torch_backend, while_loop=None))
    try:
        with pytest.raises(UnsupportedCapabilityError, match="`while` loop.*torch backend provides no `while_loop`"):
            export(ag.convert(doubling), POSITIVE)
    finally:
        backends.register_backend(torch_backend)


# --- packaging -----------------------------------------------------------------------------------

def test_import_autograph_does_not_import_torch():
    code = "import sys, autograph; assert 'torch' not in sys.modules, 'torch imported'; print('ok')"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_example_script_runs():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "torch_export.py")], capture_output=True,
                          text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "without autograph: export fails" in done.stdout
    assert "x = [1.0, 2.0, 3.0] -> [2.0, 4.0, 6.0]" in done.stdout
    assert "x = [-4.0, 0.5, 1.0] -> [-5.0, -0.5, 0.0]" in done.stdout


def sum_from_zero(xs):
    s = 0
    for v in xs:
        s = s + v
    return s


def running_max(xs):
    best = -1
    for v in xs:
        if v > best:
            best = v
    return best


def count_and_total(xs):
    t = (0, 0.0)
    for v in xs:
        t = (t[0] + 1, t[1] + v)
    return t


def test_a_python_number_before_a_for_loop_takes_the_dtype_the_body_gives_it_narrower_too():
    # the first run of the body, which learns the numbers' dtypes, failed on a `for` over a tensor; and a Python
    # number only took a wider dtype: 0 + an int8 row was carried as int64 (200 where eager PyTorch gives -56)
    i8, f16 = torch.tensor([100, 100], dtype=torch.int8), torch.tensor([1.0, 3.0], dtype=torch.float16)
    out = export(ag.convert(sum_from_zero), i8).module()(i8)
    assert out.dtype == torch.int8 and int(out) == int(sum_from_zero(i8)) == -56
    best = export(ag.convert(running_max), f16).module()(f16)
    assert best.dtype == torch.float16 and float(best) == 3.0
    n, total = export(ag.convert(count_and_total), f16).module()(f16)
    assert int(n) == 2 and total.dtype == torch.float16 and float(total) == 4.0


def positives_in_try(x):
    try:
        n = len([v for v in x if v > 0])     # a comprehension's `if` on a traced row: a data-dependent guard
        r = x * 0 + n
    except Exception:
        r = x * 0 - 1
    return r


def test_a_data_dependent_guard_passes_the_users_except_clause():
    # the user's `except Exception` took torch's GuardOnDataDependentSymNode for the program's own error and
    # exported a function that always returns -1, where Python gives the count
    assert positives_in_try(torch.tensor([1.0, -1.0])).tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="data-dependent"):
        export(ag.convert(positives_in_try), torch.tensor([1.0, -1.0]))


def positives_in_suppressing_with(x):
    r = x * 0 - 1
    with contextlib.suppress(Exception):
        r = x * 0 + len([v for v in x if v > 0])
    return r


def test_a_suppressing_with_does_not_swallow_a_data_dependent_guard():
    assert positives_in_suppressing_with(torch.tensor([1.0, -1.0])).tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="data-dependent"):
        export(ag.convert(positives_in_suppressing_with), torch.tensor([1.0, -1.0]))
