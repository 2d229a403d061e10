"""The scope every converted function runs in."""
from __future__ import annotations

from dataclasses import dataclass

from autograph.operators.variables import UndefinedReturnValue


@dataclass(frozen=True)
class ConversionOptions:
    """Options a function was converted with (recursive: convert the functions it calls)."""

    recursive: bool = True
    fallback: bool = False

    def __repr__(self) -> str:
        extra = ", fallback=True" if self.fallback else ""
        return f"ConversionOptions(recursive={self.recursive}{extra})"


class FunctionScope:
    """`with ag__.FunctionScope(name, 'fscope', options) as fscope:` — the
    context of one converted function; `fscope.ret(retval_, do_return)` gives
    its result."""

    __slots__ = ("name", "scope_name", "options")

    def __init__(self, function_name: str, scope_name: str, options: ConversionOptions):
        self.name = function_name
        self.scope_name = scope_name
        self.options = options

    def __enter__(self) -> "FunctionScope":
        return self

    def __exit__(self, *exc) -> bool:
        return False

    def ret(self, value, did_return):
        if value.__class__ is UndefinedReturnValue:
            return None
        return value
