"""TensorFlow names with no op behind them: the version, and `UnconnectedGradients`."""
from __future__ import annotations

import enum

__version__ = "0.1.0"  # this project's version (pyproject.toml), not a TensorFlow version


class UnconnectedGradients(str, enum.Enum):
    """What `GradientTape.gradient` returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"

    def __str__(self) -> str:
        return self.value
