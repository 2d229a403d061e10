"""TensorFlow names with no op behind them: the version, and `UnconnectedGradients`."""
from __future__ import annotations

import enum

from autograph._version import __version__  # noqa: F401  (this project's version, not a TensorFlow version)


class UnconnectedGradients(str, enum.Enum):
    """What `GradientTape.gradient` returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"

    def __str__(self) -> str:
        return self.value
