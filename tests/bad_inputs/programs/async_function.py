"""An `async def` passed to autograph."""
import autograph as ag
from autograph.errors import ConversionError, AutoGraphError

EXPECT = (ConversionError, AutoGraphError)
MATCH = r"async"


async def fetch(x):  # <- here
    return x


def trigger():
    return ag.convert(fetch)
