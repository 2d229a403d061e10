"""Text formatted from traced values (`raise ValueError(f"bad {x}")`, `assert x > 0, f"x={x}"`) under
`function(jit_compile=True)`.

XLA has no strings, but such text is read only when a check fails (a staged `raise` or an `Assert` reports it):
then the call raises after the fact, on the host (jax_checks.py). So a `PythonFormat` op whose only readers are
checks in its own graph lowers to its fields (`Fields`, the values it formats), the check reports those, and the
text is formatted on the host, by the executor's kernel, when the error is raised. Text read anywhere else
(returned, printed, compared) still can't be lowered.
"""
from __future__ import annotations

from runtime import dtypes
from runtime.errors import LoweringError
from runtime.graph import made_at

FORMAT = "PythonFormat"
READERS = ("Raise", "Assert")   # the checks that may read formatted text


class Fields(tuple):
    """The lowered value of a `PythonFormat` op: the JAX values of its fields, formatted on the host."""


def lower_format(*values, **attrs) -> Fields:
    return Fields(values)


def deferred(op) -> bool:
    """Is `op` a `PythonFormat` whose text only the checks of its graph read (and which formats no text)?"""
    if op.type != FORMAT or any(t.dtype is dtypes.string for t in op.inputs):
        return False
    out = op.outputs[0]
    if any(t is out for t in op.graph.outputs):
        return False
    return all(reader.type in READERS for reader in op.graph.operations if any(t is out for t in reader.inputs))


def lowerable_text(op, tensor) -> bool:
    """May `op` (a check) take the string `tensor` under jit_compile? Only formatted text it defers."""
    return op.type in READERS and tensor.op.graph is op.graph and deferred(tensor.op)


def reported(tensors: list) -> list:
    """The tensors a check reports for `tensors`: formatted text as the fields it formats."""
    out = []
    for t in tensors:
        out.extend(t.op.inputs if t.op.type == FORMAT else [t])
    return out


def flat(values) -> list:
    """Lowered values with formatted text as its fields (in `reported` order)."""
    out = []
    for v in values:
        out.extend(v if isinstance(v, Fields) else [v])
    return out


def formatted(tensors: list, args: list) -> list:
    """The kernel inputs for `tensors` from the values reported for them (`args`, in `reported` order): the
    text of formatted text made again by the executor's kernel."""
    args, out = iter(args), []
    for t in tensors:
        if t.op.type == FORMAT:
            out.append(t.op.opdef.kernel(*[next(args) for _ in t.op.inputs], **t.op.attrs))
        else:
            out.append(next(args))
    return out


def refuse(op, function_name: str) -> LoweringError:
    return LoweringError(
        f"{function_name}: jit_compile=True can't lower the op {op.type} ('{op.name}'): it computes on strings, "
        f"which XLA has no type for (text formatted from traced values lowers only where a failing `raise` or "
        f"assertion reads it).{made_at(op)}\nUse jit_compile=None for this function.", op.type)
