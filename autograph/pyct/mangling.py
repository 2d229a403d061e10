"""Private names of a function written in a class body, mangled as Python compiles them.

In a class `C`, Python turns every identifier `__x` (two leading underscores, not two trailing ones) into
`_C__x`: attribute names (`self.__count`), variables, parameters, keyword arguments, imported names. The
converted function is compiled outside the class, where nothing is mangled, so the parsed function gets its
names mangled first:

Before:                                   After:
    class Counter:                            def run(self, n):
        def run(self, n):                         while self._Counter__count < n:
            while self.__count < n:                   self._Counter__count += 1
                self.__count += 1

Without it the converted method read and wrote an attribute `__count` that the class's other methods never
see. The class is the innermost one around the function in its code's `co_qualname` (`C.m.<locals>.f` is in
`C`); a decorator's `functools.wraps` does not change that name.
"""
from __future__ import annotations

import types

import gast


def owning_class(code: types.CodeType) -> str | None:
    """The innermost class whose body the function of `code` is written in, or None."""
    parts = code.co_qualname.split(".")[:-1]
    classes = [p for i, p in enumerate(parts) if p != "<locals>" and (i + 1 == len(parts) or parts[i + 1] != "<locals>")]
    return classes[-1] if classes else None


def private_prefix(code: types.CodeType) -> str | None:
    """What Python puts before the private names of `code` (`_C` in class `C`); None where it mangles nothing
    (outside a class, or in a class named with underscores only)."""
    owner = owning_class(code)
    prefix = None if owner is None else "_" + owner.lstrip("_")
    return None if prefix == "_" else prefix


def mangled(name: str, prefix: str | None) -> str:
    """`name` as Python compiles it where private names get `prefix`."""
    return prefix + name if prefix is not None and _private(name) else name


def mangle(node: gast.AST, prefix: str) -> None:
    """Mangle, in place, every private identifier in `node` with `prefix` (`private_prefix`)."""
    _Mangler(prefix).visit(node)


def _private(name: str | None) -> bool:
    return bool(name) and name.startswith("__") and not name.endswith("__") and "." not in name


class _Mangler(gast.NodeVisitor):
    def __init__(self, prefix: str):
        self.prefix = prefix

    def _name(self, name):
        return mangled(name, self.prefix)

    def visit_Name(self, node):
        node.id = self._name(node.id)
        self.generic_visit(node)

    def visit_Attribute(self, node):
        node.attr = self._name(node.attr)
        self.generic_visit(node)

    def visit_keyword(self, node):
        node.arg = self._name(node.arg)
        self.generic_visit(node)

    def visit_alias(self, node):   # `import __m` imports the module `_C__m`, as Python does
        node.name = self._name(node.name)
        node.asname = self._name(node.asname)

    def _named(self, node):
        node.name = self._name(node.name)
        self.generic_visit(node)

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _named

    def visit_Global(self, node):
        node.names = [self._name(n) for n in node.names]

    visit_Nonlocal = visit_Global

