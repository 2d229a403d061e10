"""`set_loop_options` with an option that does not exist."""
import autograph as ag
from autograph.errors import ConversionError

EXPECT = ConversionError
MATCH = r"maximum_iteration"


def f(n):
    i = 0
    while i < n:
        ag.set_loop_options(maximum_iteration=10)  # <- here
        i += 1
    return i


def trigger():
    return ag.convert(f)
