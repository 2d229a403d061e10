"""What the hot walks of a conversion need to know about a node's class, looked up once per class.

    kind = KINDS.get(cls) or kind_of(cls)

LEAF: not walked into (contexts, operators, and field values that are not nodes: str, int, None ...);
NODE: a node; LOCATED: a statement or expression, which always gets a location.
"""
from __future__ import annotations

import gast

LEAF, NODE, LOCATED = 1, 2, 3     # all true, so that `KINDS.get(cls) or kind_of(cls)` works

_LEAVES = (gast.expr_context, gast.boolop, gast.operator, gast.unaryop, gast.cmpop)
KINDS: dict[type, int] = {}


def kind_of(cls: type) -> int:
    if not issubclass(cls, gast.AST) or issubclass(cls, _LEAVES):
        kind = LEAF
    elif issubclass(cls, (gast.stmt, gast.expr)):
        kind = LOCATED
    else:
        kind = NODE
    KINDS[cls] = kind
    return kind
