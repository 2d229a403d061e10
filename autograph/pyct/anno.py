"""Annotations: facts analyses attach to AST nodes for converters to read.

All annotations of a node live in one attribute, `___ag_anno`, a dict keyed by
`Key`, so node fields stay untouched and `copy`/`unparse` ignore them.
"""
from __future__ import annotations

import enum
from typing import Any

_ATTR = "___ag_anno"


class Key(enum.Enum):
    """What an annotation means (the value documents it)."""

    LIVE_OUT = "names live right after the statement"
    LIVE_IN = "names live right before the statement"
    DEFINED_IN = "names definitely assigned before the statement"
    EXTRA_TEST = "expression checked before each iteration of a for loop (lowered break/return)"
    LOOP_OPTIONS = "keyword arguments of set_loop_options found in the loop body"
    GENERATED = "a function the converters made (a branch, loop body or test), part of the converted scope"
    GENERATED_DEFS = "on the converted function: the names of the functions the converters made inside it"
    FINALLY_FOLLOWS = ("on a `try` that a jump in its `finally:` split: how many statements after it are that "
                       "`finally:` (they run whatever the `try` did: never guarded by a later pass)")
    CANCEL_LATER = ("a placeholder where a jump in `finally:` stands: the kinds of the jumps of its `try` that later "
                    "passes lower, whose flags it clears (lowering.resolve_cancels)")
    LOWERED_JUMP = "a statement standing for a lowered jump: the jump's kind (gast.Break, gast.Continue, gast.Return)"
    SHARED = "the variables a hoisted operand function (logical_expressions) assigns through `nonlocal`"
    MODULE_ALIAS = "the name a converted function calls autograph by (`ag__`, unless its own code uses `ag__`)"
    USER_NAME = ("a Name `ag__` the user wrote: kept when the generated code's `ag__` is renamed (the user's "
                 "code uses that name, so the module alias is another)")


def get(node, key: Key, default: Any = None) -> Any:
    return getattr(node, _ATTR, {}).get(key, default)


def has(node, key: Key) -> bool:
    return key in getattr(node, _ATTR, {})


def set(node, key: Key, value: Any) -> None:  # noqa: A001
    annotations = getattr(node, _ATTR, None)
    if annotations is None:
        annotations = {}
        setattr(node, _ATTR, annotations)
    annotations[key] = value
