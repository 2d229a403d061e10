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


def __getattr__(name: str):
    """`tf.compat.v1`: TensorFlow 1's API is out of scope, and the error says so."""
    if name in ("v1", "v2"):
        from runtime.errors import OutOfScopeError

        raise OutOfScopeError(f"tf.compat.{name} is out of scope for runtime, which is TensorFlow-2-like: use the "
                              "TensorFlow 2 names directly (docs/tf-compat.md).")
    raise AttributeError(f"module 'runtime.compat' has no attribute {name!r}")
