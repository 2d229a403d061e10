"""autograph.backends.torch: converted Python control flow under torch.export against hand-written
torch.cond / while_loop, and Python semantics on eager tensors."""
from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install -e '.[torch]' to run the "
                                             "PyTorch backend tests)")
from torch._higher_order_ops.while_loop import while_loop  # noqa: E402

import autograph as ag  # noqa: E402
from autograph import backends  # noqa: E402
from autograph.api import run_generated_code  # noqa: E402
from autograph.errors import StagingError, UnsupportedCapabilityError  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]


def export(fn, *args):
    """torch.export.export of a module whose forward is `fn`: the exported program."""
    class Model(torch.nn.Module):
        def forward(self, *xs):
            return fn(*xs)
    return torch.export.export(Model(), args)


def hops(program) -> set:
    """The higher-order ops (cond, while_loop, print) in an exported program's top-level graph."""
    return {f"higher_order.{node.target.name()}" for node in program.graph.nodes
            if node.op == "call_function" and isinstance(node.target, torch._ops.HigherOrderOperator)}


def same(a, b) -> bool:
    a, b = (a if isinstance(a, tuple) else (a,)), (b if isinstance(b, tuple) else (b,))
    return len(a) == len(b) and all(torch.equal(torch.as_tensor(x), torch.as_tensor(y)) for x, y in zip(a, b))


# --- the headline: a data-dependent `if` in forward -------------------------------------------------

class Plain(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1


class Converted(torch.nn.Module):
    @ag.convert
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1


class HandWritten(torch.nn.Module):
    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda x: x * 2, lambda x: x - 1, (x,))


POSITIVE, NEGATIVE = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([-4.0, 0.5, 1.0])


@pytest.fixture(scope="module")
def exported_if():
    return torch.export.export(Converted(), (POSITIVE,))


def test_export_fails_without_conversion():
    with pytest.raises(Exception, match="data-dependent"):
        torch.export.export(Plain(), (POSITIVE,))


@pytest.mark.parametrize("x", [POSITIVE, NEGATIVE], ids=["true branch", "false branch"])
def test_export_succeeds_with_conversion_and_takes_either_branch(exported_if, x):
    assert torch.equal(exported_if.module()(x), Plain()(x))
    assert "higher_order.cond" in hops(exported_if)


def test_converted_matches_hand_written_torch_cond(exported_if):
    hand = torch.export.export(HandWritten(), (POSITIVE,))
    for x in (POSITIVE, NEGATIVE, torch.zeros(3), torch.tensor([5.0, -5.0, 0.25])):
        assert torch.equal(exported_if.module()(x), hand.module()(x))


def relu_label(x):
    if x > 0:
        y, label = x, "relu"
    else:
        y, label = 0, "relu"       # a Python 0 against a float tensor; the same string in both branches
    return y, label


def test_python_number_takes_the_other_branchs_dtype_and_equal_values_stay_python():
    program = export(ag.convert(relu_label), torch.tensor(2.0))
    for x in (torch.tensor(2.0), torch.tensor(-3.0)):
        y, label = program.module()(x)
        assert y.dtype == torch.float32 and float(y) == max(float(x), 0.0) and label == "relu"


# --- while loops -----------------------------------------------------------------------------------

def doubling(x):
    steps = 0
    while x.sum() < 100:
        x = x * 2
        steps += 1
    return x, steps


def doubling_by_hand(x):
    return while_loop(lambda i, x: x.sum() < 100, lambda i, x: (i + 1, x * 2), (torch.tensor(0), x))


@pytest.fixture(scope="module")
def exported_while():
    return export(ag.convert(doubling), POSITIVE), export(doubling_by_hand, POSITIVE)


def test_while_exports_as_while_loop_and_matches_hand_written(exported_while):
    converted, hand = exported_while
    assert "higher_order.while_loop" in hops(converted)
    for x in (POSITIVE, torch.tensor([50.0, 60.0, 1.0]), torch.tensor([0.5, 0.25, 0.125])):
        got, want = converted.module()(x), hand.module()(x)
        assert torch.equal(got[0], want[1]) and int(got[1]) == int(want[0])
        assert same(got, doubling(x))          # and the original Python on eager tensors


# --- a mixed program against its own Python semantics -----------------------------------------------

def mixed(x, limit):
    n = (x > 0).sum()
    total = 0                      # a Python int that becomes a float tensor in the loop
    for i in range(n):             # a tensor bound: a while_loop over i
        total = total + x[0] * i
    acc = torch.zeros(())
    for row in x:                  # rows of a tensor
        if row > 1 and row < limit:
            acc = acc + row
        elif not row > 0 or row > 100:
            acc = acc - 1
    y = x if acc > 3 else -x       # a conditional expression, `y = x` aliasing an input
    return total, acc, y


@pytest.fixture(scope="module")
def exported_mixed():
    return export(ag.convert(mixed), torch.tensor([1.0, 2.0, 3.0]), torch.tensor(5.0))


@pytest.mark.parametrize("values", [[1.0, 2.0, 3.0], [-1.0, 4.0, 3.0], [200.0, -3.0, 0.5], [0.0, 0.0, 0.0]])
def test_exported_mixed_program_matches_python(exported_mixed, values):
    x, limit = torch.tensor(values), torch.tensor(5.0)
    assert same(exported_mixed.module()(x, limit), mixed(x, limit))


def test_mixed_program_uses_torch_control_flow(exported_mixed):
    assert {"higher_order.cond", "higher_order.while_loop"} <= hops(exported_mixed)


def first_negative(x, w):
    """`return` and `break` inside loops over tensors, nested `if`s reading a closure tensor."""
    for v in x:
        if v < 0:
            return v
    i = 0
    while i < 5:
        if x.sum() > 10:
            if x.mean() > 8:
                x = x - w
            else:
                break
        else:
            x = x * 2
        i += 1
    return x.sum()


@pytest.fixture(scope="module")
def exported_early_exit():
    return export(ag.convert(first_negative), torch.tensor([1.0, 2.0]), torch.tensor(3.0))


@pytest.mark.parametrize("values", [[1.0, -2.0], [1.0, 2.0], [9.0, 9.0], [0.0, 0.0]])
def test_exported_return_and_break_match_python(exported_early_exit, values):
    x, w = torch.tensor(values), torch.tensor(0.5)
    assert same(exported_early_exit.module()(x, w), first_negative(x, w))


def stepped(x, step):
    total = torch.zeros(())
    for i in range(10, 0, step):   # a tensor step: its sign is known only at run time
        if i % 3 == 0:
            continue
        total = total + i * x
    return total


def test_range_with_a_tensor_step_and_continue():
    program = export(ag.convert(stepped), torch.tensor(1.0), torch.tensor(-2))
    for step in (-2, -3, 4):
        assert same(program.module()(torch.tensor(1.0), torch.tensor(step)), stepped(torch.tensor(1.0), step))


def test_maximum_iterations_caps_a_staged_while():
    def capped(x):
        while x.sum() < 100:
            ag.set_loop_options(maximum_iterations=3)
            x = x + 1
        return x
    program = export(ag.convert(capped), torch.ones(1))
    assert program.module()(torch.ones(1)).tolist() == [4.0]
    assert program.module()(torch.tensor([99.5])).tolist() == [100.5]


def returns_from_loops(x):
    """`return` inside staged loops whose variables start as Python numbers: the value is returned
    from an `if` on a tensor that the numbers become."""
    i, s = 0, 0.0
    while i < x.sum():
        s = s + 1.5
        if s > 4:
            return s * 2
        i += 1
    for _ in range(x.sum().int()):
        s = s + 1
        if s > 6:
            return s
    return s


@pytest.mark.parametrize("values", [[0.0], [1.0], [2.0], [10.0]])
def test_return_inside_loops_over_python_numbers_matches_python(values):
    program = export(ag.convert(returns_from_loops), torch.tensor([2.0]))
    assert float(program.module()(torch.tensor(values))) == float(returns_from_loops(torch.tensor(values)))


def weighted(x, y):
    total = torch.zeros(())
    for i, v in enumerate(x, 1):
        if v > 0:
            total = total + i * v
    for a, b in zip(x, y):          # stops at the shorter
        total = total + a * b
    return total


def test_enumerate_and_zip_over_tensors_match_python():
    y = torch.tensor([2.0, 2.0])
    program = export(ag.convert(weighted), torch.tensor([1.0, -2.0, 3.0]), y)
    for x in (torch.tensor([1.0, -2.0, 3.0]), torch.tensor([-1.0, 5.0, 3.0])):
        assert same(program.module()(x, y), weighted(x, y))


def test_list_growing_in_a_staged_loop_is_a_clear_error():
    def doubled(x):
        out = []
        for v in x:
            out.append(v * 2)
        return out
    with pytest.raises(StagingError, match="list 'out' changes length.*preallocate a tensor"):
        export(ag.convert(doubled), POSITIVE)


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
