"""`yield from` in a converted function."""
import autograph as ag
from autograph.errors import ConversionError

EXPECT = ConversionError
MATCH = r"yield|generator"


def chain(a, b):
    yield from a  # <- here
    yield from b  # <- here


def trigger():
    return ag.to_code(chain)
