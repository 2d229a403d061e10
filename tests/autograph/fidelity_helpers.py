"""A module of helpers that keep state in their own globals, for test_fidelity_round8.py: the staged statement
calls them from another module (`fidelity_helpers.remember(v)`, or imported by name)."""
SEEN = set()


def remember(v):
    SEEN.add(v)
    return v


COUNT = 0


class Tally:
    n = 0


def count():
    global COUNT
    COUNT += 1


def tally():
    Tally.n += 1
