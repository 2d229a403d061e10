"""A generator (`yield`) converted by autograph: rejected at conversion time."""
import autograph as ag
from autograph.errors import ConversionError

EXPECT = ConversionError
MATCH = r"yield|generator"


def gen(n):
    i = 0
    while i < n:
        yield i  # <- here
        i += 1


def trigger():
    return ag.convert(gen)
