"""Global settings: `runtime.config.run_functions_eagerly(True)` makes every
`runtime.function` run its Python code instead of a traced graph (for
debugging; remember to switch it back)."""
from __future__ import annotations

_run_eagerly = False


def run_functions_eagerly(run_eagerly: bool) -> None:
    """Run `runtime.function`s as plain Python (True) or as graphs (False, the default)."""
    global _run_eagerly
    _run_eagerly = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    return _run_eagerly
