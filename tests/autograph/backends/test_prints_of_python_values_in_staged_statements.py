"""A `print` of Python values alone inside a staged branch or loop body, as Python's: where the branch or
iteration runs.

Tracing runs both branches of a staged `if` (and a loop body once): Python's `print("pos")` there ran at trace
time, for both branches, where Python prints only the branch taken, on every call. Under JAX it is now
`jax.debug.print`, which prints where the branch or iteration runs; torch's print op fails in a `torch.cond`
branch (torch 2.13), so the torch backend prints while tracing and warns that the program will not print.
"""
from __future__ import annotations

import pytest

from tests.autograph.backends._jax_util import jax

import autograph as ag  # noqa: E402


def signed(x):
    if x > 0:
        print("pos")
    else:
        print("neg", 2)
    return x


def steps(n):
    for _ in range(n):
        print("step")
    return n


def printed(f, *args, capfd):
    jax.block_until_ready(f(*args))
    jax.effects_barrier()
    return capfd.readouterr().out


def test_a_print_of_python_values_in_a_staged_branch_prints_only_where_that_branch_runs_under_jax(capfd):
    f = jax.jit(ag.convert(signed))
    assert printed(f, 1, capfd=capfd) == "pos\n"
    assert printed(f, -1, capfd=capfd) == "neg 2\n"


def test_a_print_of_python_values_in_a_staged_loop_body_prints_on_every_iteration_under_jax(capfd):
    f = jax.jit(ag.convert(steps))
    assert printed(f, 3, capfd=capfd) == "step\n" * 3
    assert printed(f, 1, capfd=capfd) == "step\n"


def test_a_print_of_python_values_outside_staged_statements_still_runs_once_while_tracing_under_jax(capfd):
    def hello(x):
        print("tracing")
        return x + 1
    f = jax.jit(ag.convert(hello))
    assert printed(f, 1, capfd=capfd) == "tracing\n"
    assert printed(f, 2, capfd=capfd) == ""


def test_a_print_of_python_values_in_a_staged_branch_warns_under_torch_that_it_runs_while_tracing():
    torch = pytest.importorskip("torch")

    class Module(torch.nn.Module):
        forward = staticmethod(ag.convert(signed))
    with pytest.warns(RuntimeWarning, match="print\\(\\) of Python values in a staged branch or loop body runs only "
                                            "while PyTorch traces"):
        torch.export.export(Module(), (torch.tensor(1),))
