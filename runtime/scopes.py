"""Context managers TensorFlow code uses around ops: `name_scope`, `device`, `init_scope`.

- `name_scope("layer")` prefixes the names of the ops traced inside it
  (`layer/MatMul`); `as scope` gives `"layer/"`. Eagerly it only keeps the
  name, as in TensorFlow.
- `device(spec)` accepts the CPU (`"/CPU:0"`, `"cpu:0"`, `"/device:CPU:0"`,
  `"/job:localhost/replica:0/task:0/device:CPU:0"`, None) and raises
  `InvalidArgumentError` for any other device: the runtime computes on the
  CPU through NumPy only.
- `init_scope()` runs its block eagerly even while a function is being traced
  (to create variables or read concrete values once), with gradient tapes
  paused, as TensorFlow's does.
"""
from __future__ import annotations

import contextlib
import re
from typing import Iterator, Optional

from runtime.errors import InvalidArgumentError
from runtime.ops import registry

_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\-/>]*$")


class name_scope:  # noqa: N801 - TensorFlow's name
    """`with name_scope("block") as scope:` prefixes op names in a traced graph with `block/`."""

    def __init__(self, name: Optional[str]):
        if name is not None and name != "" and not _NAME.match(str(name).rstrip("/")):
            raise ValueError(f"name_scope: {name!r} is not a valid scope name (letters, digits, '_', '.', '-').")
        self.name = name
        self._previous = None

    def __enter__(self) -> str:
        self._previous = registry.context.name_scope
        if not self.name:
            registry.context.name_scope = ""
        elif self.name.endswith("/"):
            registry.context.name_scope = self.name  # an absolute scope, as TensorFlow treats a trailing '/'
        else:
            registry.context.name_scope = f"{self._previous}{self.name}/"
        return registry.context.name_scope

    def __exit__(self, *exc) -> None:
        registry.context.name_scope = self._previous


_CPU = re.compile(r"^(/?job:[^/]+)?(/?replica:\d+)?(/?task:\d+)?(/?device:)?/?cpu(:(0|\*))?$", re.IGNORECASE)


class device:  # noqa: N801 - TensorFlow's name
    """Place the ops in the block on `device_name`: only the CPU exists here."""

    def __init__(self, device_name: Optional[str]):
        self.name = device_name

    def __enter__(self) -> None:
        spec = "" if self.name is None else str(self.name).strip()
        if spec and not _CPU.match(spec):
            raise InvalidArgumentError(
                f"device {self.name!r} is not available: runtime computes on the CPU only (through NumPy). Use "
                "'/CPU:0', or remove the tf.device block.")

    def __exit__(self, *exc) -> None:
        return None


@contextlib.contextmanager
def init_scope() -> Iterator[None]:
    """Run the block eagerly, outside any function being traced, with gradient tapes paused."""
    context = registry.context
    graph, tapes, suspended = context.graph, context.tapes, context.suspended
    context.graph, context.tapes, context.suspended = None, (), graph if graph is not None else suspended
    try:
        yield
    finally:
        context.graph, context.tapes, context.suspended = graph, tapes, suspended
