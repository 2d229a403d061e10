"""torch.export of a module whose forward has a data-dependent `if`, with and without autograph.

Run: python examples/torch_export.py  (needs PyTorch; prints a note and exits 0 without it)
"""
import contextlib
import io
import logging
import sys

try:
    import torch
except ImportError:
    print("PyTorch is not installed: pip install torch to run this example.")
    sys.exit(0)

import autograph as ag


class Plain(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1


class Converted(torch.nn.Module):
    @ag.convert                    # the `if` becomes torch.cond while torch.export traces
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1


example = (torch.tensor([1.0, 2.0, 3.0]),)
logging.getLogger("torch").setLevel(logging.ERROR)      # torch logs the failed graph; the error is enough
try:
    with contextlib.redirect_stderr(io.StringIO()):
        torch.export.export(Plain(), example)
    print("without autograph: exported (unexpected)")
except Exception as e:           # torch raises a data-dependent guard error
    print(f"without autograph: export fails ({type(e).__name__})")

program = torch.export.export(Converted(), example)
print("with autograph: exported; ops:",
      sorted({n.target.name() for n in program.graph.nodes if isinstance(n.target, torch._ops.HigherOrderOperator)}))
for x in (torch.tensor([1.0, 2.0, 3.0]), torch.tensor([-4.0, 0.5, 1.0])):
    print(f"x = {x.tolist()} -> {program.module()(x).tolist()}")
