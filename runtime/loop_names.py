"""Names of `while_loop` variables, for messages and graphs: the body's parameter names, or `loop_vars[i]`."""
from __future__ import annotations

import inspect
from typing import Callable, Sequence

from runtime import nest


def loop_var_names(structure, params: Sequence[str]) -> list[str]:
    """A name per flat loop variable for messages and graphs: `params` (the given names, or the body's
    parameter names) when there is one per loop variable (`i`, `acc[0]` for a nested one), else
    `loop_vars[0]`, ..."""
    use_params = len(params) == len(structure)
    names = []
    for i, item in enumerate(structure):
        base = params[i] if use_params else f"loop_vars[{i}]"
        count = len(nest.flatten(item))
        names += [base] if not nest.is_sequence(item) else [f"{base}[{j}]" for j in range(count)]
    return names


def parameter_names(fn: Callable) -> list[str]:
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return []
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in parameters):
        return []
    return [p.name for p in parameters]


def placeholder_label(name: str) -> str:
    """`loop_var` for an unnamed loop variable, else its name (`acc[0]` -> `acc_0`)."""
    if name.startswith("loop_vars["):
        return "loop_var"
    return name.replace("[", "_").replace("]", "")
