"""`Module`: a container of Variables and other Modules (TensorFlow's `tf.Module`).

Subclasses keep Variables in attributes (directly, or in lists, tuples and
dicts, or in sub-Modules); `variables` and `trainable_variables` find them,
each once, in TensorFlow's order — a module's own attributes sorted by name
(lists in order, dicts by sorted key) before the sub-modules found there, each
of those the same way — what an optimizer loop or a GradientTape needs.
`name_scope` is the module's scope (`"linear/"`): Variables made inside it are
named `linear/w:0`.

    class Linear(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(5.0)
            self.b = tf.Variable(10.0)
"""
from __future__ import annotations

import functools
import re
from typing import Iterator, Optional

from runtime import nest
from runtime.scopes import name_scope
from runtime.variables import Variable

_NOT_WALKED = ("_name", "_scope_name")


def _camel_to_snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class Module:
    """Base class for objects that own Variables."""

    def __init__(self, name: Optional[str] = None):
        if name is not None and not name.isidentifier():
            raise ValueError(f"Module name {name!r} must be a valid Python identifier.")
        self._name = name or _camel_to_snake(type(self).__name__)
        with name_scope(self._name) as scope:   # inside the scope the module is made in, as TensorFlow's
            self._scope_name = scope

    @property
    def name(self) -> str:
        return getattr(self, "_name", None) or _camel_to_snake(type(self).__name__)

    @property
    def name_scope(self) -> name_scope:
        """`with module.name_scope:` names the Variables made inside `<module name>/...`."""
        return name_scope(getattr(self, "_scope_name", None) or f"{self.name}/")

    @classmethod
    def with_name_scope(cls, method):
        """Decorator: run `method` inside its module's `name_scope`."""
        @functools.wraps(method)
        def scoped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return scoped

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
        return _flatten(self, kind, {id(self)})

    def __repr__(self) -> str:
        return f"<{type(self).__name__} '{self.name}'>"


def _flatten(module: Module, kind: type, seen: set) -> Iterator:
    """The values of `kind` `module` holds, each once, in TensorFlow's order (`tf.Module._flatten`): its own
    attributes first, then each sub-module found there, in order."""
    submodules = []
    for key, value in sorted(vars(module).items()):
        if key in _NOT_WALKED:
            continue
        for leaf in _leaves(value):
            if id(leaf) in seen:
                continue
            seen.add(id(leaf))
            if isinstance(leaf, kind):
                yield leaf
            if isinstance(leaf, Module):
                submodules.append(leaf)
    for submodule in submodules:
        yield from _flatten(submodule, kind, seen)


def _leaves(value) -> Iterator:
    """The leaves of lists, tuples and dicts (by sorted key) in `value`, as `tf.nest.flatten` gives them."""
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from _leaves(item)
    elif isinstance(value, dict):
        for key in nest.sorted_keys(value):
            yield from _leaves(value[key])
    else:
        yield value
