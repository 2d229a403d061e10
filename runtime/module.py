"""`Module`: a container of Variables and other Modules (TensorFlow's `tf.Module`).

Subclasses keep Variables in attributes (directly, or in lists, tuples and
dicts, or in sub-Modules); `variables` and `trainable_variables` find them,
each once, in attribute order — what an optimizer loop or a GradientTape
needs:

    class Linear(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(5.0)
            self.b = tf.Variable(10.0)
"""
from __future__ import annotations

import re
from typing import Iterator, Optional

from runtime import nest
from runtime.variables import Variable


def _camel_to_snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class Module:
    """Base class for objects that own Variables."""

    def __init__(self, name: Optional[str] = None):
        if name is not None and not name.isidentifier():
            raise ValueError(f"Module name {name!r} must be a valid Python identifier.")
        self._name = name or _camel_to_snake(type(self).__name__)

    @property
    def name(self) -> str:
        return getattr(self, "_name", None) or _camel_to_snake(type(self).__name__)

    @property
    def variables(self) -> tuple:
        """Every Variable owned by this module and its sub-modules."""
        return tuple(self._walk(Variable))

    @property
    def trainable_variables(self) -> tuple:
        return tuple(v for v in self._walk(Variable) if v.trainable)

    @property
    def submodules(self) -> tuple:
        return tuple(self._walk(Module))

    def _walk(self, kind: type) -> Iterator:
        seen: set[int] = {id(self)}
        stack = [v for k, v in sorted(vars(self).items()) if k != "_name"][::-1]
        while stack:
            value = stack.pop()
            if id(value) in seen:
                continue
            seen.add(id(value))
            if isinstance(value, kind):
                yield value
            if isinstance(value, Module):
                stack.extend(v for k, v in sorted(vars(value).items())[::-1] if k != "_name")
            elif isinstance(value, (list, tuple)):
                stack.extend(reversed(value))
            elif isinstance(value, dict):
                stack.extend(value[k] for k in nest.sorted_keys(value)[::-1])

    def __repr__(self) -> str:
        return f"<{type(self).__name__} '{self.name}'>"
