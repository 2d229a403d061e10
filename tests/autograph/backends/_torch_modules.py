"""What the tests of Python numbers carried under torch share: skipping without torch, and a module whose
`forward` is a converted program of one tensor argument."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install -e '.[torch]' to run the torch "
                                            "backend tests)")

import autograph as ag  # noqa: E402


class Converted(torch.nn.Module):
    def __init__(self, program):
        super().__init__()
        self.program = ag.convert(program)

    def forward(self, n):
        return self.program(n)

