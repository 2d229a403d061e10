"""Programs that carry a Python bool through a staged `if` or loop, for the JAX and torch tests; and `plain`."""
from __future__ import annotations


def plain(values) -> tuple:
    """Tensors and arrays among `values` as Python numbers."""
    return tuple(v.item() if hasattr(v, "item") else v for v in values)


def arithmetic_after_a_loop(n):
    s = True
    for _ in range(n):
        s = s
    return s + s, ~s, -s, abs(s), s + True, s * 3, s / 2, s + 0.5, s == 1, s < 2


def arithmetic_after_an_if(n):
    if n > 0:
        s = True
    else:
        s = False
    return s + s, ~s, -s, abs(s), s + True, s * 3, s / 2, s + 0.5, s == 1, s < 2


def toggled(n):
    s = True
    for _ in range(n):
        s = not s
    return s + s + 0


def compared_by_identity(n):
    f = True
    if n > 1:
        f = False
    return f is False, f is not True, f is True
