"""Python programs the framework backends' tests share."""
from __future__ import annotations

import sys


def leaf(x):
    # a trace-time message (the tests count the lines): a print to a file stays Python's in a staged branch, where
    # one to standard output prints when the branch runs; a counter in a global object would be a change a staged
    # statement refuses (operators/shared.py `_helper_globals`)
    print("traced leaf", file=sys.stdout)
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
