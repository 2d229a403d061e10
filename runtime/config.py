"""Global settings: `runtime.config.run_functions_eagerly(True)` makes every
`runtime.function` run its Python code instead of a traced graph (for
debugging; remember to switch it back)."""
from __future__ import annotations

from typing import NamedTuple, Optional

_run_eagerly = False


def run_functions_eagerly(run_eagerly: bool) -> None:
    """Run `runtime.function`s as plain Python (True) or as graphs (False, the default)."""
    global _run_eagerly
    _run_eagerly = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    return _run_eagerly


class PhysicalDevice(NamedTuple):
    name: str
    device_type: str


class LogicalDevice(NamedTuple):
    name: str
    device_type: str


def list_physical_devices(device_type: Optional[str] = None) -> list:
    """The CPU, the only device the runtime computes on (`[]` for 'GPU', 'TPU', ...)."""
    if device_type is None or device_type.upper() == "CPU":
        return [PhysicalDevice("/physical_device:CPU:0", "CPU")]
    return []


def list_logical_devices(device_type: Optional[str] = None) -> list:
    if device_type is None or device_type.upper() == "CPU":
        return [LogicalDevice("/device:CPU:0", "CPU")]
    return []
