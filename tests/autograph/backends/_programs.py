"""Python programs the framework backends' tests share."""
from __future__ import annotations

class _Traces:
    """How many times `leaf` ran (was traced). A counter in an attribute, not a list: a staged statement
    refuses a helper appending to a global list (autograph/operators/shared.py `_helper_lists`)."""
    count = 0

    def clear(self):
        self.count = 0


traced_leaves = _Traces()


def leaf(x):
    traced_leaves.count += 1
    return x * 2


def piecewise(x):
    if x < 0:
        y = 0            # a Python int in the branch traced first: a float tensor last needs a second trace
    elif x < 1:
        y = 1
    elif x < 2:
        y = 2
    elif x < 3:
        y = 3
    elif x < 4:
        y = 4
    elif x < 5:
        y = 5
    elif x < 6:
        y = 6
    elif x < 7:
        y = 7
    elif x < 8:
        y = 8
    else:
        y = leaf(x)
    return y
