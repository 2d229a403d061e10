"""Attributes and items that a staged `if` or loop assigns (`self.count`, `d['total']`).

The converter passes them to `if_stmt`, `while_stmt` and `for_stmt` as
`composites={'self.count': lambda: self}`: each one's name as the user wrote it,
with a function giving the object at the root of its chain. On Python values the
operators ignore them: Python's own `if` or loop updates the object, as the
user's code does. When a backend stages the statement, `read` finds each one's
current value, and the operator carries it after the variables, under its name:
the branch and body functions set it on its object when they start and read it
back when they end, and the result is set on the object after the statement.

An item whose key is a variable the statement does not assign (`d[k]`) is passed as `{'d[k]': lambda: (d, k)}`:
the function gives the root and the key's value.

One the statement creates (`d['b'] = 1` in both branches, `d` having no 'b' yet) starts as `Undefined`: it
is carried like a variable first assigned in the statement (both branches of an `if` must create it; a loop
needs it before the loop), and a branch or body that starts from `Undefined` starts without it.

Carrying sets and reads a composite more often than the user's code does (each branch and the body start by
setting it; the result is set after the statement), so only a plain store is carried: one that keeps the
value as given and does nothing else. A store that runs the user's Python code (a property's setter, a
class's own `__setattr__` or `__setitem__`, a `__getattribute__`) could change the value or count the
stores: it is refused (`StagingError`) at the statement.
"""
from __future__ import annotations

import ast
import functools
import types
from dataclasses import dataclass
from typing import Any, Callable

from autograph import backends
from autograph.errors import StagingError, at_user_line
from autograph.operators import side_effects
from autograph.operators.shared import as_tuple, result
from autograph.operators.variables import Undefined


@dataclass(frozen=True)
class Composite:
    """`name` (`self.stats['n']`) is `key` of `owner` (`self.stats`): an attribute, or an item."""

    name: str
    owner: Any
    key: str | int
    is_attribute: bool

    def get(self):
        """Its value; `Undefined` when the object has no such attribute or key (a mapping that lacks it is not
        read), or the attribute is its class's (Python reads it through the object, and a store sets the
        object's own)."""
        missing = AttributeError if self.is_attribute else KeyError
        if self.is_attribute and _inherited(self.owner, self.key):
            return Undefined(self.name)
        if not self.is_attribute and _is_mapping(self.owner) and self.key not in self.owner:
            return Undefined(self.name)   # not read: a defaultdict's `__missing__` would add the key
        try:
            return getattr(self.owner, self.key) if self.is_attribute else self.owner[self.key]
        except missing:
            return Undefined(self.name)

    def set(self, value) -> None:
        """Set it to `value`; `Undefined` removes it (if it is there)."""
        if value.__class__ is Undefined:
            self._remove()
        elif self.is_attribute:
            setattr(self.owner, self.key, value)
        else:
            self.owner[self.key] = value

    def _remove(self) -> None:
        if self.is_attribute:
            if hasattr(self.owner, self.key) and not _inherited(self.owner, self.key):
                delattr(self.owner, self.key)
        elif self.key in self.owner:
            del self.owner[self.key]


# What reading a composite that is not there raises: an unbound root (`NameError`, and `UnboundLocalError`
# from `Undefined`), a missing attribute or key, an object that has no items.
_MISSING = (NameError, AttributeError, LookupError, TypeError)


def read(composites: dict[str, Callable[[], Any]], construct: str) -> list[tuple[Composite, Any]]:
    """Each composite whose object exists now, with its value: `Undefined` for an attribute the object does
    not have or a key a mapping does not hold (the statement creates it). One whose object can't be reached
    (an unbound root, a missing step of the chain), or that can't be read otherwise (an index out of range),
    is left out: the statement then runs as it would without it. One whose store runs Python code of its
    class is refused: a `StagingError` naming it and the staged `construct` (e.g. "`if`")."""
    found = []
    for name, root in composites.items():
        try:
            owner = root()
            *path, (key, is_attribute) = _path(name)
            if key is _KEYED:   # `d[k]`: `root` gives the root and the key's value
                owner, key = owner
                hash(key)
            _refuse_global(name, name.split(".")[0].split("[")[0], owner, root, construct)
            for step, attribute in path:
                owner = getattr(owner, step) if attribute else owner[step]
            if path:   # `self.__class__.n`, `self.config['k']`: the object that holds it may be a global's too
                _refuse_global(name, _owner_name(name), owner, root, construct)
            composite = Composite(name, owner, key, is_attribute)
            _refuse_unplain(composite, construct)
            if not is_attribute and not _is_mapping(owner):
                owner[key]   # an index out of range is not created by a store: raises, and is left out
            found.append((composite, composite.get()))
        except _MISSING:
            continue
    return found


class Carried:
    """The composites (above) that a staged statement carries after its `n`
    variables, and the branch, body and test functions that set them on their objects and read them back."""

    def __init__(self, found: list, n: int, construct: str = "statement"):
        self.construct = construct
        self.composites = [composite for composite, _ in found]
        self.initial = tuple(value for _, value in found)
        self.n = n
        # the keys the statement adds to a dict, and the attributes it adds to an object with a `__dict__`
        # (whose order `vars()` shows): the order each branch (or body) adds them in
        self.added = [c for c, value in found if value.__class__ is Undefined and _ordered(c)]
        self.orders: list = []

    @classmethod
    def read(cls, composites: dict, n: int, construct: str) -> Carried | None:
        found = read(composites, construct)
        side_effects.carrying(found)
        return cls(found, n, construct) if found else None

    def state(self, state: tuple) -> tuple:
        return (*state, *self.initial)

    def names(self, names: tuple) -> tuple:
        return (*names, *(c.name for c in self.composites))

    def _set(self, values) -> None:
        for composite, value in zip(self.composites, values):
            composite.set(value)

    def body(self, fn, lead: int = 0):
        """`fn` (`lead` arguments, then the variables; returns the variables) as a function of the
        variables and the composites, returning both."""
        n, size = self.n, self.n + len(self.composites)

        def carried(*args):
            self._set(args[lead + n:])
            out = as_tuple(fn(*args[:lead + n]), n)
            if self.added and (order := self._added_order()) not in self.orders:
                self.orders.append(order)
            return result((*out, *(c.get() for c in self.composites)), size)
        carried.__wrapped__ = fn     # where `variable_checks.assigned_at` finds the user's assignments
        return carried

    def _added_order(self) -> tuple:
        """The names of the keys the statement adds that its objects hold now, in their order there."""
        present = [c for c in self.added if c.get().__class__ is not Undefined]
        return tuple(c.name for c in sorted(present, key=lambda c: list(_keys(c)).index(c.key)))

    def test(self, fn):
        """A loop's test or `extra_test`, which may read the composites too."""
        if fn is None:
            return None
        n = self.n

        def carried(*args):
            self._set(args[n:])
            return fn(*args[:n])
        carried.__wrapped__ = fn
        return carried

    def run(self, staged):
        """The variables' values after `staged()` (the statement on the carried state), whose composites'
        values are set on their objects; if it raises, the objects get their values back."""
        try:
            out = as_tuple(staged(), self.n + len(self.composites))
            order = self._one_order()
        except BaseException:
            self._set(self.initial)
            raise
        self._set(self.initial)   # the keys it adds, added in the order the statement adds them
        pairs = sorted(zip(self.composites, out[self.n:]), key=lambda p: order.index(p[0].name) if p[0].name in order
                       else -1)
        for composite, value in pairs:
            composite.set(value)
        return result(out[:self.n], self.n)

    def _one_order(self) -> tuple:
        """The order in which the statement adds keys to its dicts: the same on every path, or refused."""
        orders = sorted(self.orders, key=len, reverse=True)   # in the order they were traced, the longest first
        for order in orders[1:]:
            if set(order) == set(orders[0]):
                raise StagingError(at_user_line(
                    f"the paths through this {self.construct} on a tensor add {', '.join(orders[0])} in different "
                    f"orders ({', '.join(order)} on another path), and a dict keeps the order its keys were added "
                    "in (an object its attributes, in `vars()`), so that order would depend on the path the graph "
                    "takes, which tracing does not know. Add them in the same order on every path (or before the "
                    "statement)."))
        return orders[0] if orders else ()


def _inherited(owner, key: str) -> bool:
    """Whether attribute `key` of `owner` is its class's (or a base class's, for a class), not its own: an
    object whose class holds `n = 0` has no `n` until `o.n += 1` sets one, so a path that does not assign it
    leaves it the class's (`vars(o)` lacks it, and a later change of the class's shows through)."""
    own = getattr(owner, "__dict__", None)
    if own is not None and key in own:
        return False
    classes = (*type(owner).__mro__, *(owner.__mro__[1:] if isinstance(owner, type) else ()))
    for cls in classes:
        if key in vars(cls):
            return not isinstance(vars(cls)[key], types.MemberDescriptorType)   # a slot is the object's own
    return False


def _ordered(composite: Composite) -> bool:
    """Whether the order in which `composite` is added shows: a dict's key, or an attribute in an object's
    `__dict__` (a slot's place is its class's)."""
    return not composite.is_attribute or isinstance(getattr(composite.owner, "__dict__", None), dict)


def _keys(composite: Composite):
    """The keys of the mapping (or the attributes' `__dict__`) that holds `composite`, in their order."""
    return composite.owner.__dict__ if composite.is_attribute else composite.owner


def _owner_name(name: str) -> str:
    """`self.__class__` of `self.__class__.n`, `self.config` of `self.config['k']`: the object holding `name`."""
    node = ast.parse(name, mode="eval").body
    return ast.unparse(node.value)


def _refuse_global(name: str, variable: str, owner, root, construct: str) -> None:
    """Refuse `name` when `owner`, the object at its root or the one that holds it (`variable` names it), is a
    global's (`cfg = CFG`, a parameter given `CFG`, `self.__class__`): carried, it would keep a tensor of the
    traced graph after the function returns. (The converter does not carry one whose root is a global's own
    name.)"""
    if not side_effects.may_outlive(owner):
        return
    holder = side_effects.global_holder(owner, getattr(root, "__globals__", {}))
    if holder is None:
        return
    raise StagingError(at_user_line(
        f"`{name}` is assigned inside this {construct} on a tensor, but `{variable}` is {holder}. A staged "
        "statement carries the value as a tensor of the traced graph: the global's object would keep that tensor "
        "after the function returns, not the value of each run. Keep the value in a variable of this function "
        f"and return it (the caller can set it), or copy the object first (`{variable} = dict({variable})`, "
        f"`copy.copy({variable})`)."))


def _refuse_unplain(composite: Composite, construct: str) -> None:
    cls = type(composite.owner)
    if composite.is_attribute:
        hooks = ("__setattr__", "__getattribute__", "__delattr__")
        found = _python_hook(cls, hooks) or _descriptor(cls, composite.key)
    else:
        found = _python_hook(cls, ("__setitem__", "__getitem__", "__delitem__"))
    if found is None:
        return
    raise StagingError(at_user_line(
        f"`{composite.name}` is assigned inside this {construct} on a tensor, but {found}. A staged statement "
        "carries an attribute or item by storing and reading it again (at the start of each branch or "
        "iteration, and after the statement), which would run that code more often than Python does, and the "
        "value read back may not be the one stored. Compute the value in a local variable and assign "
        f"`{composite.name}` after the statement, or store it in a plain attribute or item."))


def _python_hook(cls: type, names: tuple[str, ...]) -> str | None:
    """How `cls` (or a base) stores with Python code of its own: one of `names` defined in Python, other
    than by a registered framework (`torch.nn.Module.__setattr__` files a tensor as a buffer, and reads it
    back as it was stored)."""
    for name in names:
        hook = getattr(cls, name, None)
        if isinstance(hook, types.FunctionType) and not _framework_code(hook):
            return f"{cls.__name__} defines `{name}` in Python (code of its own runs on each store)"
    return None


def _framework_code(fn) -> bool:
    module = getattr(fn, "__module__", None) or ""
    return any(module == p or module.startswith(p + ".") for p in backends.owned_module_prefixes())


def _descriptor(cls: type, key: str) -> str | None:
    """How the class attribute `key` of `cls` takes over stores: a data descriptor (a property) other
    than a `__slots__` entry."""
    for base in cls.__mro__:
        if key in base.__dict__:
            attribute = base.__dict__[key]
            if isinstance(attribute, (types.MemberDescriptorType, types.GetSetDescriptorType)):
                return None
            kind = type(attribute)
            if hasattr(kind, "__set__") or hasattr(kind, "__delete__"):
                what = "a property" if isinstance(attribute, property) else f"a {kind.__name__} descriptor"
                return f"`{key}` is {what} of {cls.__name__} (its setter runs Python code on each store)"
            return None
    return None


_KEYED = object()   # in a path: the last step's key is a variable (`d[k]`), whose value `root` gives


def _is_mapping(owner) -> bool:
    return isinstance(owner, dict) or (hasattr(owner, "keys") and hasattr(owner, "__delitem__"))


@functools.lru_cache(maxsize=256)
def _path(name: str) -> tuple[tuple[str | int, bool], ...]:
    """`self.stats['n']` -> (('stats', True), ('n', False)): the steps after the root, attribute or not."""
    node = ast.parse(name, mode="eval").body
    steps = []
    while not isinstance(node, ast.Name):
        if isinstance(node, ast.Attribute):
            steps.append((node.attr, True))
        elif node.slice.__class__ is ast.Name:
            steps.append((_KEYED, False))
        else:
            steps.append((ast.literal_eval(node.slice), False))
        node = node.value
    return tuple(reversed(steps))
