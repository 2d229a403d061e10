"""A lambda whose source can't be told apart from another lambda on its line (nested, same parameters)."""
import autograph as ag
from autograph.errors import ConversionError

EXPECT = ConversionError
MATCH = r"lambda"

make = lambda x: (lambda x: x + 1)  # <- here


def trigger():
    inner = make(0)
    return ag.convert(inner)
