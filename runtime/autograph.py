"""`runtime.autograph`: TensorFlow's `tf.autograph` names, backed by the `autograph` package."""
import enum
from types import SimpleNamespace

from autograph import do_not_convert, set_loop_options, to_code  # noqa: F401


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


def check_options(options) -> tuple:
    """`experimental_autograph_options` as a tuple of Features, or a TypeError naming what is accepted."""
    if options is None:
        return ()
    items = options if isinstance(options, (list, tuple, set, frozenset)) else (options,)
    for item in items:
        if not isinstance(item, Feature):
            raise TypeError(f"experimental_autograph_options must be tf.autograph.experimental.Feature values, "
                            f"got {item!r}.")
    return tuple(items)


experimental = SimpleNamespace(do_not_convert=do_not_convert, set_loop_options=set_loop_options, Feature=Feature)
