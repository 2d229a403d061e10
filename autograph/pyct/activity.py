"""Which local names a statement or expression reads and writes.

Nested function and class bodies are their own scopes: a nested `def` writes
its name and reads the names its body loads (conservatively, all of them);
a lambda or comprehension reads what it loads, less the names it binds itself
(its parameters, its loop targets).
"""
from __future__ import annotations

from collections import deque

import gast

from autograph.pyct import anno

_LEAVES = (gast.expr_context, gast.boolop, gast.operator, gast.unaryop, gast.cmpop)


def walk(node):
    """The nodes of `node` in `gast.walk`'s order, without contexts and operators (about 2x faster)."""
    todo = deque([node])
    pop, append = todo.popleft, todo.append
    AST = gast.AST
    while todo:
        n = pop()
        yield n
        attrs = n.__dict__
        for field in n._fields:
            value = attrs.get(field)
            if value.__class__ is list:
                for v in value:
                    if isinstance(v, AST) and not isinstance(v, _LEAVES):
                        append(v)
            elif isinstance(value, AST) and not isinstance(value, _LEAVES):
                append(value)


def reads(node) -> set[str]:
    """Names loaded anywhere in `node` (an expression or a statement)."""
    names: set[str] = set()
    if node is None:
        return names
    # `walk`, inlined: this runs for every statement a converted `if` or loop holds
    stack = [node]
    pop, push, AST, Name, Load = stack.pop, stack.append, gast.AST, gast.Name, gast.Load
    while stack:
        n = pop()
        values = n.__dict__
        if n.__class__ is Name and values["ctx"].__class__ is Load:
            names.add(values["id"])
        elif n.__class__ in _OWN_SCOPES:
            names |= _scope_reads(n)
            continue
        for field in n._fields:
            value = values.get(field)
            if value.__class__ is list:
                for v in value:
                    if isinstance(v, AST) and not isinstance(v, _LEAVES):
                        push(v)
            elif isinstance(value, AST) and not isinstance(value, _LEAVES):
                push(value)
    return names


_COMPREHENSIONS = (gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)
_OWN_SCOPES = {*_COMPREHENSIONS, gast.Lambda}


def _scope_reads(node) -> set[str]:
    """What a comprehension or lambda reads from the enclosing scope: not the names it binds itself
    (`[y * 2 for y in r]` reads `r`, not `y`), but its first iterable and a lambda's defaults, which are
    evaluated outside it."""
    if node.__class__ is gast.Lambda:
        args = node.args
        params = {a.id for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
                  if a is not None}
        outside = set().union(*(reads(d) for d in (*args.defaults, *args.kw_defaults)))
        return outside | (reads(node.body) - params)
    first, *rest = node.generators
    bound = set().union(*(target_names(g.target) for g in node.generators))
    inside = [*first.ifs, *(part for g in rest for part in (g.iter, *g.ifs))]
    inside += [node.key, node.value] if node.__class__ is gast.DictComp else [node.elt]
    return reads(first.iter) | (set().union(*(reads(part) for part in inside)) - bound)


def target_names(target) -> set[str]:
    return {n.id for n in walk(target) if isinstance(n, gast.Name) and isinstance(n.ctx, (gast.Store, gast.Del))}


def writes(stmt, walrus: bool = True) -> set[str]:
    """Names a simple statement binds (Assign, AugAssign, def, import, ...). `walrus=False` says the
    function has no `:=`, so the statement need not be searched for one."""
    if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
        # a hoisted operand function (`def and_operand(): nonlocal c; return (c := ...)`) stands for its `:=`
        return {stmt.name, *anno.get(stmt, anno.Key.SHARED, ())}
    if isinstance(stmt, (gast.Import, gast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in stmt.names}
    names = set()
    if isinstance(stmt, (gast.Assign,)):
        names = set().union(*(target_names(t) for t in stmt.targets))
    elif isinstance(stmt, (gast.AugAssign, gast.AnnAssign)):
        names = target_names(stmt.target)
    if not walrus or (names and stmt.value is None):
        return names
    for n in walk(stmt if not names else stmt.value):
        if isinstance(n, gast.NamedExpr):
            names |= target_names(n.target)
    return names


def modified(stmts, walrus: bool = True) -> set[str]:
    """Names bound anywhere in a block, including inside nested if/while/for/with/try (`walrus`: as for
    `writes`)."""
    names: set[str] = set()
    for stmt in stmts:
        names |= writes(stmt, walrus)
        if isinstance(stmt, gast.Delete):   # unbinding a name changes it too
            names |= set().union(*(target_names(t) for t in stmt.targets))
        if isinstance(stmt, (gast.For, gast.AsyncFor)):
            names |= target_names(stmt.target)
        if isinstance(stmt, (gast.With, gast.AsyncWith)):
            for item in stmt.items:
                if item.optional_vars is not None:
                    names |= target_names(item.optional_vars)
        if isinstance(stmt, gast.Try):
            for handler in stmt.handlers:
                if handler.name is not None:
                    names |= target_names(handler.name)
        for field in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if block and not isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
                names |= modified(block, walrus)
        for handler in getattr(stmt, "handlers", []) or []:
            names |= modified(handler.body, walrus)
        if isinstance(stmt, gast.Match):
            for case in stmt.cases:
                names |= set().union(*(pattern_names(p) for p in walk(case.pattern)))
                names |= modified(case.body, walrus)
                if walrus and case.guard is not None:
                    names |= writes(gast.Expr(value=case.guard))
    return names


def simple_reads(stmt) -> set[str]:
    """Reads of a simple statement (`x += 1` reads x too)."""
    if isinstance(stmt, gast.AugAssign):
        return reads(stmt) | target_names(stmt.target)
    if isinstance(stmt, gast.Delete):   # `del y` needs `y` bound: a staged statement before it must carry `y`
        return reads(stmt) | set().union(*(target_names(t) for t in stmt.targets if isinstance(t, gast.Name)))
    return reads(stmt)


def ordered_names(stmts) -> list[str]:
    """Names in order of first appearance (for readable state tuples)."""
    seen: dict[str, None] = {}
    for stmt in stmts:
        for n in walk(stmt):
            if isinstance(n, gast.Name):
                seen.setdefault(n.id, None)
    return list(seen)


COMPOSITE_STORE = "an attribute or item assigned"   # in a function's node types: some node `stores_composite`


def stores_composite(node) -> bool:
    return node.__class__ in (gast.Attribute, gast.Subscript) and node.ctx.__class__ is gast.Store


def composite_chain(node) -> list[str] | None:
    """The names along an attribute or constant-subscript chain on a variable, root first:
    `self.stats['n']` gives ['self', 'self.stats', "self.stats['n']"]. None for anything else: a plain
    name, `d[k]`, `d[1:2]`, `f().x`."""
    steps = []
    while node.__class__ is not gast.Name:
        if node.__class__ is gast.Attribute:
            steps.append(f".{node.attr}")
        elif node.__class__ is gast.Subscript and (key := _constant_key(node.slice)) is not None:
            steps.append(f"[{key!r}]")
        else:
            return None
        node = node.value
    if not steps:
        return None
    chain = [node.id]
    for step in reversed(steps):
        chain.append(chain[-1] + step)
    return chain


def _constant_key(node) -> str | int | None:
    """The key of `d['k']`, `a[0]` or `a[-1]`; None for any other subscript."""
    if node.__class__ is gast.UnaryOp and node.op.__class__ is gast.USub:
        key = _constant_key(node.operand)
        return -key if key.__class__ is int else None
    if node.__class__ is gast.Constant and node.value.__class__ in (str, int):
        return node.value
    return None


def composite_writes(stmts) -> tuple[dict[str, list[str]], set[str]]:
    """The attributes and items (`self.count`, `d['total']`) a block assigns, by name in order of first
    appearance, each with its `composite_chain`; and the names of those it deletes (`del self.count`).
    Searched like `modified`: nested blocks, not nested functions or classes."""
    written: dict[str, list[str]] = {}
    deleted: set[str] = set()
    _composite_writes(stmts, written, deleted)
    return written, deleted


def _composite_writes(stmts, written: dict, deleted: set) -> None:
    for stmt in stmts:
        if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            continue
        for target in _assigned(stmt):
            if (chain := composite_chain(target)) is not None:
                written.setdefault(chain[-1], chain)
        if isinstance(stmt, gast.Delete):
            for target in stmt.targets:
                deleted.update(chain[-1] for t in _leaves(target) if (chain := composite_chain(t)) is not None)
        for field in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field, None)
            if block:
                _composite_writes(block, written, deleted)
        for handler in getattr(stmt, "handlers", None) or ():
            _composite_writes(handler.body, written, deleted)
        for case in getattr(stmt, "cases", None) or ():
            _composite_writes(case.body, written, deleted)


def assigned_targets(stmt) -> list:
    """The single targets `stmt` itself assigns (tuple targets unpacked; not those of its blocks)."""
    return _assigned(stmt)


def _assigned(stmt) -> list:
    """The single targets a statement assigns (tuple targets unpacked)."""
    if isinstance(stmt, gast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, gast.AugAssign) or (isinstance(stmt, gast.AnnAssign) and stmt.value is not None):
        targets = [stmt.target]
    elif isinstance(stmt, (gast.For, gast.AsyncFor)):
        targets = [stmt.target]
    elif isinstance(stmt, (gast.With, gast.AsyncWith)):
        targets = [item.optional_vars for item in stmt.items if item.optional_vars is not None]
    else:
        return []
    return [leaf for t in targets for leaf in _leaves(t)]


def _leaves(target) -> list:
    if isinstance(target, (gast.Tuple, gast.List)):
        return [leaf for t in target.elts for leaf in _leaves(t)]
    if isinstance(target, gast.Starred):
        return _leaves(target.value)
    return [target]


_NESTED_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda, gast.GeneratorExp)


def captured(stmts) -> set[str]:
    """Names that a closure made in `stmts` may read when it runs later: every name loaded inside a nested
    function, class, lambda or generator expression (conservatively, its own names too)."""
    names: set[str] = set()
    stack = list(stmts)
    while stack:
        n = stack.pop()
        if n.__class__ in _NESTED_SCOPES:
            names.update(m.id for m in walk(n) if m.__class__ is gast.Name and m.ctx.__class__ is gast.Load)
            continue
        stack.extend(c for c in gast.iter_child_nodes(n) if not isinstance(c, _LEAVES))
    return names


def declarations(stmts) -> tuple[set[str], set[str]]:
    """The names the function itself (not a nested function) declares `global`, and `nonlocal`."""
    declared_global: set[str] = set()
    declared_nonlocal: set[str] = set()
    for n in _own_scope(stmts):
        if n.__class__ is gast.Global:
            declared_global.update(n.names)
        elif n.__class__ is gast.Nonlocal:
            declared_nonlocal.update(n.names)
    return declared_global, declared_nonlocal


def _own_scope(stmts):
    """The nodes of `stmts` that belong to their function's scope: not inside a nested function, class or
    lambda (a comprehension is walked: a walrus in it binds in the function)."""
    stack = list(reversed(stmts))
    while stack:
        n = stack.pop()
        yield n
        if n.__class__ in (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda):
            continue
        stack.extend(reversed([c for c in gast.iter_child_nodes(n) if not isinstance(c, _LEAVES)]))


def bound_in_scope(stmts) -> set[str]:
    """Names that `stmts` bind in their own function's scope: assigned, deleted, imported, defined, caught,
    captured by a pattern, or declared there without a value (`x: int`). Comprehension variables are the
    comprehension's own; a walrus inside a comprehension binds in the function."""
    names: set[str] = set()
    comprehension_targets: set = set()
    for n in _own_scope(stmts):
        cls = n.__class__
        if cls is gast.Name and n.ctx.__class__ in (gast.Store, gast.Del) and id(n) not in comprehension_targets:
            names.add(n.id)
        elif cls in (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef):
            names.add(n.name)
        elif cls in (gast.Import, gast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in n.names)
        elif cls is gast.comprehension:
            comprehension_targets.update(id(t) for t in walk(n.target))
        elif cls is gast.NamedExpr:
            names.update(target_names(n.target))
        else:
            names.update(pattern_names(n))
    return names


def pattern_names(node) -> set[str]:
    """The names a `match` pattern node captures itself (`case [x, *rest]`, `case {**kw}`, `case _ as y`)."""
    cls = node.__class__
    if cls is gast.MatchAs or cls is gast.MatchStar:
        return {node.name} if node.name else set()
    if cls is gast.MatchMapping:
        return {node.rest} if node.rest else set()
    return set()
