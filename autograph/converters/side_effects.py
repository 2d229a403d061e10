"""Mutations a staged statement can't carry are marked, so that staging refuses them.

Before:                          After:
    d.update(a=5)                    ag__.mutating(d, 'd.update(...)').update(a=5)
    del d[k]                         del ag__.mutating(d, 'del d[k]')[k]
    setattr(o, 'v', 5)               setattr(ag__.mutating(o, 'setattr(o, ...)'), 'v', 5)
    l[1:2] = [7]                     ag__.mutating(l, 'l[1:2] = ...')[1:2] = [7]
    l += [x]                         l += ag__.in_place(lambda: l, [x], 'l += ...')
    s.items += [x]                   s.items += ag__.in_place(lambda: s.items, [x], 's.items += ...')

`ag__.mutating(d, ...)` is `d` (operators/side_effects.py): on Python values the code does what the user's
does. While a statement on a tensor is traced, it refuses an object that was already bound to a variable
of the statement before it started: tracing runs every branch (or the loop body) once, whatever the input,
so the change would happen once, on every path. What is marked: calls of the methods that change builtin
containers (`update`, `pop`, `insert`, `sort`, `add`, ...; `l.append(x)` and `l.pop()` on a local list
are the lists converter's, which runs first), `del` of an item or attribute, `setattr` and `delattr`, and
stores to an item whose key is not a constant (`d[k] = v`, slices), on an object reached from a local
variable or parameter of the function. Stores to an attribute or to an item with a constant key are
carried by the statement instead (converters/control_flow.py).

An augmented assignment to a local variable (`l += [x]`, `l += more`, `l *= 2`, `s |= {k}`) may change a
list, set, dict or deque in place: `ag__.in_place(lambda: l, value, ...)` is `value`, and refuses, while a statement is
staged, the change of a list it carries as a new list that another variable also holds (as `l.append(x)` is):
that variable would not see it. So is one to an attribute or constant-key item of a local (`s.items += [x]`),
which a staged statement carries as a new list too (the target is read again only while a statement is staged:
on Python values a property's getter runs once, as Python's `+=` reads it once). Left alone: `x += 1` (a number added to a list is a
TypeError; only `*=` repeats a list by one), and any augmented assignment to a variable the function only
assigns numbers to (`total = 0` ... `total += x`): it never holds a list.
"""
from __future__ import annotations

import ast

import gast

from autograph.pyct import activity, templates
from autograph.pyct.transformer import Base, Context, located

# Methods that change a list, dict, set or deque in place.
MUTATORS = frozenset({
    "append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse",   # list
    "update", "setdefault", "popitem",                                           # dict
    "add", "discard", "difference_update", "intersection_update", "symmetric_difference_update",   # set
    "appendleft", "extendleft", "popleft", "rotate",                             # deque
})
_ATTRIBUTE_FUNCTIONS = frozenset({"setattr", "delattr"})
_OPERATORS = {gast.Add: "+", gast.Mult: "*", gast.BitOr: "|", gast.BitAnd: "&", gast.BitXor: "^", gast.Sub: "-"}
_IN_PLACE_OPS = tuple(_OPERATORS)
NAMES = MUTATORS | _ATTRIBUTE_FUNCTIONS   # what the pipeline looks for (with `del` and item stores)


class SideEffectsTransformer(Base):

    def __init__(self, ctx: Context, numbers: frozenset):
        super().__init__(ctx)
        self.numbers = numbers   # variables that only ever hold numbers (`total = 0`, then `total += ...`)

    def visit_Lambda(self, node):
        return node   # converted when called

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if func.__class__ is gast.Attribute and func.attr in MUTATORS:
            self._mark(func, "value", lambda: f"{_source(func)}(...)")
        elif func.__class__ is gast.Name and func.id in _ATTRIBUTE_FUNCTIONS and node.args:
            self._mark(node.args, 0, lambda: f"{func.id}({_source(node.args[0])}, ...)")
        return node

    def visit_Delete(self, node):
        self.generic_visit(node)
        for target in node.targets:
            if target.__class__ in (gast.Subscript, gast.Attribute):
                self._mark(target, "value", lambda: f"del {_source(target)}")
        return node

    def visit_Assign(self, node):
        self.generic_visit(node)
        for target in node.targets:
            self._store(target)
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        self._store(node.target)
        target = node.target
        if node.op.__class__ not in _IN_PLACE_OPS or not _may_change_in_place(node):
            return node
        if target.__class__ is gast.Name and target.id in self.ctx.user_locals and target.id not in self.numbers:
            root = target.id
        elif (chain := activity.composite_chain(target)) is not None and chain[0] in self.ctx.user_locals:
            root = chain[-1]   # `s.items += [x]`: the list a staged statement carries as `s.items`
        else:
            return node
        what = f"{root} {_OPERATORS[node.op.__class__]}= ..."
        # `lambda: root`: the target is read again only while staging (Python's `+=` reads a property once)
        node.value = located(templates.replace_as_expression(
            "ag__.in_place(lambda: root, value, what)", root=templates.copy_tree(target), value=node.value,
            what=gast.Constant(value=what, kind=None)), node.value)
        return node

    def visit_AnnAssign(self, node):
        self.generic_visit(node)
        if node.value is not None:
            self._store(node.target)
        return node

    def _store(self, target) -> None:
        """An item store whose key is not a constant (`d[k] = v`, `l[1:2] = v`): a constant one is carried."""
        if target.__class__ in (gast.Tuple, gast.List):
            for elt in target.elts:
                self._store(elt.value if elt.__class__ is gast.Starred else elt)
        elif target.__class__ is gast.Subscript and activity.composite_chain(target) is None:
            self._mark(target, "value", lambda: f"{_source(target)} = ...")

    def _mark(self, holder, field, what) -> None:
        """Replace the variable at the root of `holder.field` (`d` of `d.x[k]`) by `ag__.mutating(d, what())`,
        or `ag__.mutating_outer(d, what())` when it is not the function's own (a global, an enclosing
        function's variable); nothing when the chain does not start at a variable."""
        while True:
            node = holder[field] if field.__class__ is int else getattr(holder, field)
            if node.__class__ in (gast.Attribute, gast.Subscript):
                holder, field = node, "value"
                continue
            break
        if node.__class__ is not gast.Name:
            return
        template = "ag__.mutating(root, what)" if node.id in self.ctx.user_locals else "ag__.mutating_outer(root, what)"
        marked = located(templates.replace_as_expression(template, root=node.id,
                                                         what=gast.Constant(value=what(), kind=None)), node)
        if field.__class__ is int:
            holder[field] = marked
        else:
            setattr(holder, field, marked)


def _may_change_in_place(node) -> bool:
    """`x op= value` may change a list, set, dict or deque in place: any value but a number (`x += 1`; a
    number repeats a list, `l *= 2`, only with `*=`)."""
    return not _number(node.value) or node.op.__class__ is gast.Mult


def _number(node) -> bool:
    """A number constant, signed or not (`0`, `-1.5`)."""
    if node.__class__ is gast.UnaryOp and node.op.__class__ in (gast.USub, gast.UAdd):
        node = node.operand
    return node.__class__ is gast.Constant and node.value.__class__ in (int, float, complex)


def _numbers_only(function) -> frozenset:
    """The names the function (with the functions and classes in it) binds only by assigning a number
    constant to them (`total = 0`) or by augmented assignments: they never hold a list, so `total += x` does
    not change one in place and is left unmarked. A parameter, a loop target or any other binding may."""
    numbers, others, judged = set(), set(), set()   # judged: the targets of the assignments seen
    for node in gast.walk(function):   # parents before their children
        cls = node.__class__
        if cls is gast.Assign and len(node.targets) == 1 and node.targets[0].__class__ is gast.Name:
            judged.add(id(node.targets[0]))
            (numbers if _number(node.value) else others).add(node.targets[0].id)
        elif cls is gast.AugAssign:
            judged.add(id(node.target))
        elif cls in (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef):
            others.add(node.name)
        elif cls is gast.alias:
            others.add((node.asname or node.name).partition(".")[0])
        elif cls is gast.Name and node.ctx.__class__ is not gast.Load and id(node) not in judged:
            others.add(node.id)
    return frozenset(numbers - others)


def _source(node) -> str:
    return ast.unparse(gast.gast_to_ast(node))


def transform(node, ctx: Context):
    return SideEffectsTransformer(ctx, _numbers_only(node)).transform(node)
