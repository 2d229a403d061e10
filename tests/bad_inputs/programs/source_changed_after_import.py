"""A function whose file was edited after import so that its source no longer parses (stale source).

The function's code says line 12, but the file now holds text that does not parse there."""
import pathlib

import autograph as ag
from autograph.errors import ConversionError, SourceUnavailableError

EXPECT = (ConversionError, SourceUnavailableError)
MATCH = r"syntax|source|parse"


def f(x):  # <- here
    return x + 1


def trigger():
    path = pathlib.Path(__file__)
    original = path.read_text()
    import linecache
    try:
        path.write_text(original.replace("def f(x):  # <- here", "def f(x:  # <- here"))
        linecache.checkcache(str(path))
        return ag.to_code(f)
    finally:
        path.write_text(original)
        linecache.checkcache(str(path))
