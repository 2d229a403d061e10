"""What autograph tells you while it works: `set_verbosity`, `AUTOGRAPH_VERBOSITY`, logger "autograph".

Messages go through the standard `logging` module, to the logger named "autograph":

| level | logged |
|---|---|
| 0 (default) | nothing (warnings about functions that can't be converted are still issued) |
| 1 | INFO: each function converted, and how long it took; each function run unconverted, and why |
| 2 | also DEBUG: each statement staged (an `if`, loop, `and`/`or`/`not` or `a if c else b` on a tensor), once per trace, with the user's file:line |
| 3 | also DEBUG: the generated code of each converted function |

The level is `AUTOGRAPH_VERBOSITY` from the environment (read when autograph is imported) until
`set_verbosity` is called, as in TensorFlow. When the level is above 0 and nothing handles the records
(no handler on the logger or the root logger), they are printed on standard error.

The operators' Python-value path never reaches this module: only staging, converting and choosing not to
convert do, and each checks the integer `level` before building a message.
"""
from __future__ import annotations

import logging
import os
import re
import sys

logger = logging.getLogger("autograph")

level = 0   # read by autograph's modules before building a message (`if verbosity.level >= 2:`)

_LOGGING_LEVELS = {1: logging.INFO}   # 2 and above: DEBUG


def set_verbosity(new_level: int, alsologtostdout: bool = False) -> None:
    """How much autograph logs (0 to 3; see the table above). Takes precedence over `AUTOGRAPH_VERBOSITY`.
    `alsologtostdout`: also print the messages on standard output."""
    global level
    new_level = int(new_level)
    if new_level < 0:
        raise ValueError(f"verbosity must be 0 or more, got {new_level}")
    level = new_level
    logger.setLevel(_LOGGING_LEVELS.get(level, logging.DEBUG) if level else logging.NOTSET)
    _set_stdout_handler(alsologtostdout)


def get_verbosity() -> int:
    """The current verbosity: the last `set_verbosity`, else `AUTOGRAPH_VERBOSITY`, else 0."""
    return level


def _from_environment() -> int:
    text = os.environ.get("AUTOGRAPH_VERBOSITY", "").strip()
    if not text:
        return 0
    try:
        return max(int(text), 0)
    except ValueError:
        logger.warning("AUTOGRAPH_VERBOSITY=%r is not an integer; verbosity stays 0", text)
        return 0


class _Stdout(logging.StreamHandler):
    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stdout
        super().emit(record)


class _LastResort(logging.StreamHandler):
    """Standard error, for records that no handler of the application would show (logging's own last
    resort shows warnings only, and the point of a verbosity is to see INFO and DEBUG)."""

    def emit(self, record: logging.LogRecord) -> None:
        if logging.getLogger().handlers or any(isinstance(h, _Stdout) for h in logger.handlers):
            return                         # the application configured logging, or alsologtostdout: shown there
        self.stream = sys.stderr           # the current one (tests and tools replace it)
        super().emit(record)


_FORMAT = logging.Formatter("autograph: %(message)s")
_last_resort = _LastResort()
_last_resort.setFormatter(_FORMAT)
logger.addHandler(_last_resort)


def _set_stdout_handler(enabled: bool) -> None:
    existing = [h for h in logger.handlers if isinstance(h, _Stdout)]
    if enabled and not existing:
        handler = _Stdout()
        handler.setFormatter(_FORMAT)
        logger.addHandler(handler)
    elif not enabled:
        for handler in existing:
            logger.removeHandler(handler)


_GENERATED = {"retval_": "the return value"}


def _meaning(name: str) -> str:
    """`retval_`/`do_return` for the generated return value and flag (`retval__1`... when renamed)."""
    match = re.match(r"^(retval_|do_return)(?:_\d+)?$", name)
    return match.group(1) if match else name


# --- the messages, each built only when its level is on ------------------------------------------------

def staged(statement: str, backend, names: tuple = ()) -> None:
    """Level 2: `statement` (`if`, `while`, ...) is being staged with `backend`, at the user's line."""
    from autograph.errors import user_location

    where = user_location(2)
    at = f" at {where[0]}:{where[1]}" if where else ""
    shown = [_GENERATED.get(_meaning(n), n) for n in names if _meaning(n) != "do_return"]
    carried = f", carrying {', '.join(shown)}" if shown else ""
    logger.debug("staged %s%s as %s control flow%s", statement, at, backend.name, carried)


_initial = _from_environment()
if _initial:
    set_verbosity(_initial)
