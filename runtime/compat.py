"""TensorFlow names with no op behind them: the version, `UnconnectedGradients`, and AutoGraph's `Feature`."""
from __future__ import annotations

import enum

from autograph._version import __version__  # noqa: F401  (this project's version, not a TensorFlow version)


class UnconnectedGradients(str, enum.Enum):
    """What `GradientTape.gradient` returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"

    def __str__(self) -> str:
        return self.value


class Feature(enum.Enum):
    """TensorFlow's optional AutoGraph conversions, for `function(experimental_autograph_options=...)`.

    The runtime accepts them and converts the same way whichever are given: its autograph always converts
    control flow, `print`, `len`/`range` and the other builtins it knows, lists, asserts and logical operators
    (docs/tf-compat.md)."""

    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"


def check_autograph_options(options) -> tuple:
    """`experimental_autograph_options` as a tuple of Features, or a TypeError naming what is accepted."""
    if options is None:
        return ()
    items = options if isinstance(options, (list, tuple, set, frozenset)) else (options,)
    for item in items:
        if not isinstance(item, Feature):
            raise TypeError(f"experimental_autograph_options must be tf.autograph.experimental.Feature values, "
                            f"got {item!r}.")
    return tuple(items)


def __getattr__(name: str):
    """`tf.compat.v1`: TensorFlow 1's API is out of scope, and the error says so."""
    if name in ("v1", "v2"):
        from runtime.errors import OutOfScopeError

        raise OutOfScopeError(f"tf.compat.{name} is out of scope for runtime, which is TensorFlow-2-like: use the "
                              "TensorFlow 2 names directly (docs/tf-compat.md).")
    raise AttributeError(f"module 'runtime.compat' has no attribute {name!r}")
