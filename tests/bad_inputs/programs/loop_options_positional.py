"""`set_loop_options` with a positional argument (a directive takes keywords only)."""
import autograph as ag
from autograph.errors import ConversionError

EXPECT = ConversionError
MATCH = r"set_loop_options"


def f(n):
    i = 0
    while i < n:
        ag.set_loop_options(10)  # <- here
        i += 1
    return i


def trigger():
    return ag.to_code(f)
