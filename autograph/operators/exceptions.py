"""Exceptions in generated code: a `finally:` block that jumps discards the exception in flight."""
from __future__ import annotations

import sys


def caught_exception():
    """The exception being handled (inside an `except` clause of generated code).

    Read this way, not bound with `except ... as e`: Python deletes that name when the clause ends, and
    a loop body that carries its variables would read it afterwards."""
    return sys.exc_info()[1]
