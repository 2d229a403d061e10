"""A function with `except*` (Python 3.11+) for tests/autograph/test_staged_raise.py."""


def except_star(x):
    s = 0
    try:
        if x > 0:
            raise KeyError("k")
    except* KeyError:
        s = -1
    return s
