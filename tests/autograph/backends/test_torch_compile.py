"""torch.compile of converted functions and modules (issue 18, item 3): dynamo hands a converted function to
AOTAutograd untraced (autograph/backends/torch_compile.py), whose tracing stages its control flow as
torch.export does, so `fullgraph=True` holds and the compiled graph has cond/while_loop."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install -e '.[torch]' to run the "
                                             "PyTorch backend tests)")
from torch._dynamo.backends.common import aot_autograd  # noqa: E402

import autograph as ag  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
POSITIVE, NEGATIVE = torch.tensor([1.0, 3.0]), torch.tensor([1.0, -3.0])


class Graphs:
    """A torch.compile backend that runs AOTAutograd and keeps the forward graphs it compiles."""

    def __init__(self):
        self.graphs = []
        self.backend = aot_autograd(fw_compiler=self._compile)

    def _compile(self, gm, example_inputs):
        self.graphs.append(gm)
        return gm.forward

    def ops(self) -> set:
        return {getattr(node.target, "__name__", str(node.target)) for gm in self.graphs for node in gm.graph.nodes
                if node.op == "call_function"}


def if_assignment(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = x - 1
    return y


class Gate(torch.nn.Module):
    @ag.convert
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1


def halve_until_small(x):
    steps = 0
    while x.abs().max() > 1:
        x = x / 2
        steps += 1
    return x, steps


class Halver(torch.nn.Module):
    forward = staticmethod(ag.convert(halve_until_small))


def test_compile_fullgraph_of_a_converted_if_assignment_has_a_cond_and_takes_either_branch():
    """Was RecursionError (InternalTorchDynamoError) or an RLock graph break."""
    seen = Graphs()
    compiled = torch.compile(ag.convert(if_assignment), fullgraph=True, backend=seen.backend)
    assert torch.equal(compiled(POSITIVE), if_assignment(POSITIVE))
    assert torch.equal(compiled(NEGATIVE), if_assignment(NEGATIVE))
    assert len(seen.graphs) == 1 and "cond" in seen.ops()          # one graph serves both branches


def test_compile_fullgraph_of_a_module_whose_forward_returns_inside_an_if():
    """Was UncapturedHigherOrderOpError."""
    seen = Graphs()
    compiled = torch.compile(Gate(), fullgraph=True, backend=seen.backend)
    assert compiled(POSITIVE).tolist() == [2.0, 6.0] and compiled(NEGATIVE).tolist() == [0.0, -4.0]
    assert len(seen.graphs) == 1 and "cond" in seen.ops()


def test_compile_fullgraph_of_the_docs_halver_with_inductor():
    x, steps = torch.compile(Halver(), fullgraph=True)(torch.tensor([3.0, -8.0]))
    assert x.tolist() == [0.375, -1.0] and int(steps) == 3
    x, steps = torch.compile(Halver(), fullgraph=True)(torch.tensor([100.0, 1.0]))
    assert x.tolist() == [0.78125, 0.0078125] and int(steps) == 7


def test_the_compiled_halver_has_a_while_loop():
    seen = Graphs()
    torch.compile(Halver(), fullgraph=True, backend=seen.backend)(torch.tensor([3.0, -8.0]))
    assert "while_loop" in seen.ops()


def test_a_converted_function_called_from_compiled_code_is_one_call_in_its_graph():
    seen = Graphs()
    converted = ag.convert(if_assignment)
    compiled = torch.compile(lambda x: converted(x) + 1, fullgraph=True, backend=seen.backend)
    assert torch.equal(compiled(NEGATIVE), if_assignment(NEGATIVE) + 1)
    assert torch.equal(compiled(POSITIVE), if_assignment(POSITIVE) + 1)
    assert "cond" in seen.ops()


def test_the_eager_backend_runs_python_semantics():
    compiled = torch.compile(ag.convert(if_assignment), fullgraph=True, backend="eager")
    assert torch.equal(compiled(POSITIVE), if_assignment(POSITIVE))
    assert torch.equal(compiled(NEGATIVE), if_assignment(NEGATIVE))


def test_compile_after_export():
    """The exported program's module compiles with fullgraph=True, and so does the module exported before."""
    module = Halver()
    program = torch.export.export(module, (torch.tensor([3.0, -8.0]),))
    x, steps = torch.compile(program.module(), fullgraph=True, backend="aot_eager")(torch.tensor([100.0, 1.0]))
    assert x.tolist() == [0.78125, 0.0078125] and int(steps) == 7
    x, steps = torch.compile(module, fullgraph=True, backend="aot_eager")(torch.tensor([100.0, 1.0]))
    assert x.tolist() == [0.78125, 0.0078125] and int(steps) == 7


def test_gradients_flow_through_a_compiled_converted_if():
    def f(x):
        if x.sum() > 0:
            y = x * x
        else:
            y = x * 3
        return y.sum()

    compiled = torch.compile(ag.convert(f), fullgraph=True, backend="aot_eager")
    for value, grad in (([1.0, 3.0], [2.0, 6.0]), ([1.0, -3.0], [3.0, 3.0])):
        x = torch.tensor(value, requires_grad=True)
        compiled(x).backward()
        assert x.grad.tolist() == grad


class Scaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.tensor(2.0))

    @ag.convert
    def forward(self, x):
        if x.sum() > 0:
            return x * self.w            # a parameter read inside the branch
        return x - self.w


def test_gradients_reach_a_parameter_read_in_a_branch():
    """AOTAutograd traces cond's branches again for the backward pass, after the module's real parameters are
    back: the backend hands it each branch traced once into a graph (was: a real tensor among fake ones)."""
    for x, out, grad in ((POSITIVE, [2.0, 6.0], 4.0), (NEGATIVE, [-1.0, -5.0], -2.0)):
        model = Scaled()
        result = torch.compile(model, fullgraph=True, backend="aot_eager")(x)
        result.sum().backward()
        assert result.tolist() == out and model.w.grad.item() == grad


def test_functions_converted_before_dynamo_is_imported_compile_too(tmp_path):
    """The torch backend imports dynamo only when the program does (it costs about a second); functions converted
    before then are marked when it is imported."""
    code = """if True:
        import sys, torch, autograph as ag

        def f(x):
            if x.sum() > 0:
                y = x * 2
            else:
                y = x - 1
            return y

        converted = ag.convert(f)
        assert "torch._dynamo" not in sys.modules, "the backend imported dynamo"
        compiled = torch.compile(converted, fullgraph=True, backend="aot_eager")
        print(compiled(torch.tensor([1.0, -3.0])).tolist(), compiled(torch.tensor([1.0, 3.0])).tolist())
    """
    program = tmp_path / "convert_then_compile.py"
    program.write_text(code)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(program)], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "[0.0, -4.0] [2.0, 6.0]"


# --- Python side effects: torch.compile's graph repeats only tensor operations ------------------------------------
# Each of these gave the wrong value before the check (torch_compile.py `_checked`): the change was made while
# compiling (once per trace), not on every call, or was lost with the stand-in module the traced call sees.

class _Counted(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("acc", torch.zeros(2))
        self.calls = 0


class _RebindsBuffer(_Counted):
    @ag.convert
    def forward(self, x):
        i = 0
        while i < x.shape[0] and x[i] > 0:     # a staged loop assigning the attribute
            self.acc = self.acc + x[i]
            i += 1
        return self.acc * 1


class _CountsCalls(_Counted):
    @ag.convert
    def forward(self, x):
        self.calls += 1
        return x * self.calls


class _AddsInPlace(_Counted):
    @ag.convert
    def forward(self, x):
        if x.sum() > 0:
            self.acc += x                      # in place: in the compiled graph, no check needed
        return self.acc * 1


LOG = []


@ag.convert
def _logs(x):
    LOG.append(1)
    if x.sum() > 0:
        x = x * 2
    return x * len(LOG)


@pytest.mark.parametrize("module, expected", [
    (_RebindsBuffer, [[1.0, 1.0], [1.0, 1.0], [8.0, 8.0]]),    # was [1, 1], [0, 0], [7, 7]: the buffer never changed
    (_CountsCalls, [[1.0, -2.0], [-2.0, 4.0], [9.0, 12.0]]),    # was x * 3 on each call: counted once per trace
    (_AddsInPlace, [[0.0, 0.0], [-1.0, 2.0], [2.0, 6.0]]),
])
def test_a_side_effect_of_a_compiled_converted_forward_is_made_on_every_call(module, expected):
    torch._dynamo.reset()
    inputs = [torch.tensor([1.0, -2.0]), torch.tensor([-1.0, 2.0]), torch.tensor([3.0, 4.0])]
    eager = module()
    assert [eager(x).tolist() for x in inputs] == expected     # Python's answer
    compiled = torch.compile(module())
    assert [compiled(x).tolist() for x in inputs] == expected  # dynamo runs the forward eagerly: a graph break


def test_a_global_list_appended_in_a_compiled_converted_function_grows_once_per_call():
    torch._dynamo.reset()
    LOG.clear()
    compiled = torch.compile(_logs)
    assert [compiled(torch.ones(2)).tolist() for _ in range(3)] == [[2.0, 2.0], [4.0, 4.0], [6.0, 6.0]]
    assert LOG == [1, 1, 1]              # was [[3, 3]] * 3 (3 appends while compiling), then 4 appends


def test_fullgraph_refuses_a_side_effect_naming_it():
    torch._dynamo.reset()
    with pytest.raises(Exception) as caught:
        torch.compile(_CountsCalls(), fullgraph=True)(torch.ones(2))
    chain, error = [], caught.value
    while error is not None:
        chain.append(str(error))
        error = error.__cause__ or error.__context__
    assert any("`self.calls` is changed by '_CountsCalls.forward' while torch.compile traces it" in m for m in chain)
