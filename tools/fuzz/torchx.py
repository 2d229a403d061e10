"""Mode x of the python generator: a tensor program on the torch backend (autograph/backends/torch.py),
compared with the original.

The program is loaded a second time, from the same file, with its `tf` helpers (`vec`, `cat`, `size`, `total`,
`half`, `whole` call tf.reshape, tf.concat, tf.size, tf.reduce_sum, tf.cast) bound to a small torch shim
(`shim()`); `ag.convert(f)` is the forward of a torch.nn.Module, exported once with `torch.export.export` on
int32 0-d tensors of the first input, and the exported program's module runs on every input. It must agree
with the original as mode t does: the same value (tensors compared as ints, floats as floats), or the same
exception type; side effects are not compared (a trace runs the body once). Where it does not, the original
runs on eager torch tensors (with the shim): if the exported program does what eager torch does (the same
value, or the same exception type and message), the difference is torch's own semantics, not the backend's
(`x = a; x += 1` changes `a` in place; an integer division by zero raises RuntimeError), and it is counted,
not reported. A clear refusal is counted by its cause, not compared: an autograph error (`StagingError`, `UnsupportedCapabilityError`, ...) naming the
program's file, the program's own error raised while a branch was traced (autograph's note names the line),
or torch's data-dependent error (`GuardOnDataDependentSymNode`) that names the program's file. Any other error
raised from inside autograph/ or torch is an internal error. PyTorch is optional: without it mode x is
skipped, and the fuzzer says so in one line.
"""
from __future__ import annotations

import importlib.util
import itertools
import re
import sys
import types
from collections import Counter
from dataclasses import dataclass, field

MODE = "x"
SKIPPED = "mode x skipped: PyTorch is not installed (pip install torch to fuzz the torch backend with torch.export)"
_ids = itertools.count()


def installed() -> bool:
    return importlib.util.find_spec("torch") is not None


def usable(modes: str) -> str:
    """`modes` without x where PyTorch is not installed."""
    return modes if installed() else modes.replace(MODE, "")


def shim():
    """What the generated programs use of `tf` (pygen.PRELUDE's helpers), on torch, with TensorFlow's dtypes:
    `tf.size` and `tf.reduce_sum` of int32 give int32 (torch.sum would give int64)."""
    import torch
    return types.SimpleNamespace(
        reshape=lambda v, shape: torch.reshape(v, tuple(shape)),
        concat=lambda values, axis: torch.cat(list(values), axis),
        size=lambda v: torch.full((), v.numel(), dtype=torch.int32),
        reduce_sum=lambda v: torch.sum(v, dtype=v.dtype),
        cast=lambda v, dtype: v.to(dtype),
        float32=torch.float32, int32=torch.int32)


def load_with_shim(path: str, prefix: str, tf_shim) -> types.ModuleType:
    """The program at `path` loaded again as a fresh module, its `tf` helpers bound to `tf_shim`."""
    name = f"{prefix}_{next(_ids)}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    module.tf = tf_shim
    return module


def tensor(v):
    import torch
    return torch.tensor(v, dtype=torch.int32)


class Exported:
    """`f` of the program in `path`, loaded anew with `tf` bound to the torch shim, converted, and exported on
    the first call (with that call's arguments) as a torch.nn.Module's forward; every call runs the exported
    program's module. An error while exporting is raised again by every call, as a failed trace is."""

    def __init__(self, path: str):
        self.path, self.module, self.run, self.error = path, None, None, None

    def eager(self, a, b):
        """The original `f` (with the torch shim) on eager torch tensors: torch's own semantics."""
        self._load()
        self.module.reset()
        return self.module.f(tensor(a), tensor(b))

    def _load(self):
        if self.module is None:
            self.module = load_with_shim(self.path, "fuzz_torch_program", shim())

    def _export(self, args):
        import torch

        import autograph as ag
        self._load()
        converted = ag.convert(self.module.f)

        class Program(torch.nn.Module):
            def forward(self, a, b):
                return converted(a, b)
        return torch.export.export(Program(), args).module()

    def __call__(self, a, b):
        args = (tensor(a), tensor(b))
        if self.run is None and self.error is None:
            try:
                self.run = self._export(args)
            except Exception as e:  # noqa: BLE001 - raised again by every call, compared as an outcome
                self.error = e
        if self.error is not None:
            raise self.error
        return self.run(*args)


def refusal(error: BaseException, filename: str) -> str | None:
    """The cause of a clear refusal to export the program (see the module docstring), or None."""
    cause = autograph_refusal(error, filename)
    if cause:
        return cause
    notes = "\n".join(getattr(error, "__notes__", ()))
    if _data_dependent(error) and filename in str(error) + notes:
        return "GuardOnDataDependentSymNode"
    if isinstance(error, RuntimeError) and str(error).startswith("Found <class 'function'> in output"):
        return "torch.export: a function among the outputs"   # export's outputs are tensors (seed 56073)
    return None


def autograph_refusal(error: BaseException, filename: str) -> str | None:
    """An autograph error naming the program's file, or the program's own error raised while a branch was traced
    (autograph's note names the line), by its cause; or None. Any backend's clear refusal (modes x and g)."""
    from autograph.errors import AutoGraphError
    from autograph.operators.function_scope import TRACING_NOTE
    notes = "\n".join(getattr(error, "__notes__", ()))
    if TRACING_NOTE in notes and filename in notes:
        return f"the program's {type(error).__name__} raised while tracing a branch"
    if isinstance(error, AutoGraphError) and filename in str(error):
        return f"{type(error).__name__}: {_cause(str(error), filename)}"
    return None


def _data_dependent(error: BaseException) -> bool:
    try:
        from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode
    except ImportError:                                   # pragma: no cover - an older torch
        return False
    return isinstance(error, GuardOnDataDependentSymNode)


def _cause(message: str, filename: str) -> str:
    """A refusal's message, short and without the program's names, lines and values, to count causes by."""
    text = message.split(filename, 1)[-1].lstrip(":0123456789 ")
    text = re.sub(r"`[^`]*`", "`...`", text)
    text = re.sub(r"'[^']*'", "'...'", text)
    text = re.sub(r"\b\w+\.py:\d+", "LINE", text)
    text = re.sub(r"<function .*? at 0x[0-9a-f]+>", "<function>", text)
    text = re.sub(r" tensor of shape \[[^\]]*\]", " tensor", text)
    text = re.sub(r"\[[\d, ]*\]", "[...]", text)
    text = re.sub(r"\b-?\d+\b", "N", text)
    return text.split(". ")[0][:110]


def internal(error: BaseException) -> bool:
    """An error raised from inside torch (autograph's are tools/fuzz/runner.py's `_internal`)."""
    import traceback
    frames = traceback.extract_tb(error.__traceback__)
    return bool(frames) and "/torch/" in frames[-1].filename


@dataclass
class Tally:
    """Mode x over a run: the runs (a program on one input) that gave Python's value or raised its exception
    type, and the clear refusals, by cause. Mode g (tools/fuzz/jaxg.py) counts likewise, under its own label."""

    label, eager = "mode x (torch.export)", "eager torch"

    values: int = 0
    errors: int = 0
    refused: Counter = field(default_factory=Counter)
    like_eager: Counter = field(default_factory=Counter)   # runs that differ from Python as eager torch does

    def agreed(self, kind: str) -> None:
        if kind == "error":
            self.errors += 1
        else:
            self.values += 1

    def add(self, other: "Tally") -> None:
        self.values, self.errors = self.values + other.values, self.errors + other.errors
        self.refused.update(other.refused)
        self.like_eager.update(other.like_eager)

    def summary(self, top: int = 8) -> str:
        causes = "; ".join(f"{n} {cause}" for cause, n in self.refused.most_common(top))
        more = len(self.refused) - top
        return (f"{self.label}: {self.values} runs gave Python's value, {self.errors} raised its exception "
                f"type; {sum(self.refused.values())} runs refused clearly"
                + (f" ({causes}{f'; {more} more causes' if more > 0 else ''})" if causes else "")
                + f"; {sum(self.like_eager.values())} runs differed from Python as {self.eager} does"
                + (f" ({', '.join(f'{n} {how}' for how, n in self.like_eager.most_common())})"
                   if self.like_eager else ""))


def leaked(value) -> str | None:
    """The tensors of the trace (FakeTensor, FunctionalTensor: tensor subclasses with no value) in a result of the
    exported program, named by type, or None."""
    import torch
    if isinstance(value, (tuple, list)):
        found = [leaked(v) for v in value]
        return ", ".join(f"[{i}] {f}" for i, f in enumerate(found) if f) or None
    if isinstance(value, torch.Tensor) and type(value) is not torch.Tensor:
        return f"a {type(value).__name__} (a tensor of the trace, with no value)"
    return None


def same_as_eager(got, eager) -> str | None:
    """How the exported program's outcome, equal to eager torch's, differs from Python's (counted by it), or None
    if it is not eager torch's: the same value (as ints), or the same exception type and message."""
    (kind_g, value_g), (kind_e, value_e) = got, eager
    if kind_g != kind_e:
        return None
    if kind_g == "error":
        same = type(value_g) is type(value_e) and str(value_g) == str(value_e)
        return f"raised {type(value_g).__name__}" if same else None
    return "returned another value" if value_g == value_e else None
