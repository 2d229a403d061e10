"""`if`, `while` and `for` become operator calls on functions that share the user's variables.

Before:                          After:
    if x > 0:                        def if_true():
        y = x                            nonlocal y
    else:                                y = x
        y = -x
    return y                         def if_false():
                                         nonlocal y
                                         y = -x
                                     ag__.if_stmt(x > 0, if_true, if_false, ('y',))

    while i < n:                     def loop_test():
        s += i                           return i < n
        i += 1
                                     def loop_body():
                                         nonlocal i, s
                                         s += i
                                         i += 1
                                     ag__.while_stmt(loop_test, loop_body, ('i', 's'))

A branch or body assigns the variables of the function it was cut from through
`nonlocal` (`global` for a name the user declared global): on Python values it
is the user's own statements on the user's own variables, so an exception that
leaves it, a closure that reads a variable while it runs, or a lambda made in a
loop see exactly what Python shows them. A variable that the function binds
only inside such statements is declared at its top without a value
(`y: ag__.Local`), which gives `nonlocal` a variable to refer to and leaves it
unbound, as Python's would be.

The names passed to the operator are what a staged statement must carry: what
it modifies and what is live after it (or, for a loop, at its head), from the
`liveness` annotations, and what a closure of the function may read. Runs after
the jump converters, so there is no `break`/`continue`/`return` left to handle.

An attribute or an item with a constant key (or a key in a variable the
statement does not assign: `{'d[k]': lambda: (d, k)}`) that the statement assigns is
passed too, by name, with a function giving the object it hangs from; the
operator carries it only when it stages the statement (operators/composites.py):

    while self.count < n:            ...
        self.count += 1              ag__.while_stmt(loop_test, loop_body, (),
                                                     composites={'self.count': lambda: self})
"""
from __future__ import annotations

import gast

from autograph.pyct import activity, anno, templates
from autograph.pyct.anno import Key
from autograph.pyct.transformer import Base, Context, block_or_pass, located, name


class ControlFlowTransformer(Base):
    # -- helpers ------------------------------------------------------------------------

    first_seen: dict     # each name's position of first appearance in the function, for readable orders

    def _thunk_writes(self, expr) -> set[str]:
        """What the hoisted operand functions that `expr` calls assign (see logical_expressions)."""
        if not self.ctx.thunk_writes:
            return set()
        return {v for n in activity.walk(expr) if n.__class__ is gast.Name and n.id in self.ctx.thunk_writes
                for v in self.ctx.thunk_writes[n.id]}

    def order(self, names) -> list[str]:
        return sorted(names, key=lambda v: (self.first_seen.get(v, len(self.first_seen)), v))

    walrus = True       # False when the function has no `:=` (see transform)

    def _function(self, fn_name: str, params: list[str], body: list, shared: set[str]):
        """`def fn_name(params):` with `nonlocal` (or `global`) for the `shared` variables, then `body`."""
        stmts = [s for s in body if not isinstance(s, gast.Pass)]
        declared = [v for v in self.order(shared) if v not in params]
        globals_ = [v for v in declared if v in self.ctx.declared_global]
        nonlocals = [v for v in declared if v not in self.ctx.declared_global]
        if globals_:
            stmts.insert(0, gast.Global(names=globals_))
        if nonlocals:
            stmts.insert(0, gast.Nonlocal(names=nonlocals))
        # `def fn(params): body`, built directly (the template gives the same tree): two per `if` and loop
        args = gast.arguments(posonlyargs=[], args=[gast.Name(id=p, ctx=gast.Param(), annotation=None,
                                                              type_comment=None) for p in params],
                              vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
        fdef = gast.FunctionDef(name=fn_name, args=args, body=block_or_pass(stmts), decorator_list=[],
                                returns=None, type_comment=None, type_params=[])
        anno.set(fdef, Key.GENERATED, True)
        self.ctx.generated_defs.add(fn_name)
        return fdef

    composite_writes = True   # False when the function assigns no attribute or item (see transform)

    def _composites(self, node):
        """`{'self.count': lambda: self, ...}`: the attributes and items (with constant keys) that `node`
        assigns, each with a function giving the object at its root, which the operator carries only when it
        stages the statement; None when there are none. Called before the body is converted. Left out: one
        whose root or part of the chain the statement assigns or deletes (the object itself changes). One
        whose root is not a variable of the function (`CFG['k']` of a global `CFG`, or an enclosing function's
        variable) is not carried either: the second result names it, for a staged statement to refuse (its
        result, a tensor of the traced graph, would stay in the object after the function returns)."""
        if not self.composite_writes:
            return None, []
        written, deleted = activity.composite_writes([node])
        keyed = _keyed_item_writes(node)
        if not written and not keyed:
            return None, []
        changed = activity.modified([node], self.walrus) | set(written) | deleted
        kept = [chain for full, chain in written.items()
                if full not in deleted and not any(prefix in changed for prefix in chain[:-1])]
        kept_keyed = [(chain, key) for chain, key in keyed
                      if key not in changed and not any(prefix in changed for prefix in chain[:-1])]
        outer = [chain[-1] for chain in kept if chain[0] not in self.ctx.user_locals]
        outer += [chain[-1] for chain, _ in kept_keyed if chain[0] not in self.ctx.user_locals]
        kept = [chain for chain in kept if chain[0] in self.ctx.user_locals]
        kept_keyed = [(chain, key) for chain, key in kept_keyed if chain[0] in self.ctx.user_locals]
        if not kept and not kept_keyed:
            return None, outer
        roots = [_lambda(name(chain[0])) for chain in kept]
        # an item whose key is a variable the statement does not assign: `lambda: (root, key)`
        roots += [_lambda(gast.Tuple(elts=[name(chain[0]), name(key)], ctx=gast.Load())) for chain, key in kept_keyed]
        names = [chain[-1] for chain in kept] + [chain[-1] for chain, _ in kept_keyed]
        return gast.Dict(keys=[gast.Constant(value=n, kind=None) for n in names], values=roots), outer

    def _call(self, template: str, state: list[str], composites=None, modified=(), outer_items=(), **nodes) -> list:
        if composites is not None:
            template = template[:-1] + ", composites=composites)"
            nodes["composites"] = composites
        outer = self.order(set(modified) & (self.ctx.declared_global | self.ctx.declared_nonlocal)) + list(outer_items)
        if outer:
            template = template[:-1] + ", outer=outer)"
            nodes["outer"] = _names_tuple(outer)
        if not state and "names" in template and composites is None and not outer:
            template = template.replace(", names", "")
        call = templates.replace_as_expression(template, names=_names_tuple(state), **nodes)
        return [gast.Expr(value=call)]

    depth = 0   # how many if/while/for statements enclose the node being visited

    def _visit_body(self, node) -> None:
        self.depth += 1
        try:
            self.generic_visit(node)
        finally:
            self.depth -= 1

    def visit_AnnAssign(self, node):
        """Inside a statement's body, `x: T = v` becomes `x = v` (and `x: T` nothing): the body shares `x`
        with `nonlocal`, which Python does not allow to be annotated. A local annotation is not evaluated."""
        if not self.depth or node.target.__class__ is not gast.Name:
            return node
        if node.value is None:
            return gast.Pass()
        return gast.Assign(targets=[node.target], value=node.value, type_comment=None)

    # -- if ------------------------------------------------------------------------------------

    def _carried(self, node, modified: set, live: set) -> list[str]:
        """What a staged `node` carries: what it modifies that is read after it (`live`) or that a closure
        may read and that has a value before it."""
        captured = self.ctx.captured & anno.get(node, Key.DEFINED_IN, frozenset())
        outer = self.ctx.declared_global | self.ctx.declared_nonlocal
        return self.order((modified - outer) & (live | captured))

    def visit_If(self, node):
        composites, outer_items = self._composites(node)
        in_true = activity.modified(node.body, self.walrus)
        in_false = activity.modified(node.orelse, self.walrus)
        self._visit_body(node)
        live = set(anno.get(node, Key.LIVE_OUT, ())) | set(anno.get(node, Key.LIVE_IN, ()))
        state = self._carried(node, in_true | in_false, live)
        true_name, false_name = self.ctx.namer.new("if_true"), self.ctx.namer.new("if_false")
        true_fn = self._function(true_name, [], node.body, in_true)
        if node.orelse:
            false_fn = [self._function(false_name, [], node.orelse, in_false)]
        else:   # no `else:`: `None`, not an empty function
            false_fn, false_name = [], gast.Constant(value=None, kind=None)
        call = self._call("ag__.if_stmt(test, if_true, if_false, names)", state, test=node.test,
                          if_true=true_name, if_false=false_name, composites=composites, modified=in_true | in_false,
                          outer_items=outer_items)
        return [true_fn, *false_fn, *call]

    # -- while ---------------------------------------------------------------------------------

    def visit_While(self, node):
        composites, outer_items = self._composites(node)
        modified = activity.modified(node.body, self.walrus)
        in_test = activity.writes(gast.Expr(value=node.test), self.walrus) | self._thunk_writes(node.test)
        self._visit_body(node)
        head = set(anno.get(node, Key.LIVE_IN, ())) | set(anno.get(node, Key.LIVE_OUT, ()))
        # what the test assigns (`:=`) is carried: a staged loop refuses a test that changes its variables
        state = self._carried(node, modified | in_test, head | in_test)
        test_name, body_name = self.ctx.namer.new("loop_test"), self.ctx.namer.new("loop_body")
        test_fn = self._function(test_name, [], [gast.Return(value=node.test)], in_test)
        body_fn = self._function(body_name, [], node.body, modified)
        opts = _options(node)
        template = "ag__.while_stmt(loop_test, loop_body, names" + (", opts)" if opts else ")")
        call = self._call(template, state, composites, modified | in_test, outer_items, loop_test=test_name,
                          loop_body=body_name, opts=opts)
        return [test_fn, body_fn, *call]

    # -- for -------------------------------------------------------------------------------------

    def visit_For(self, node):
        composites, outer_items = self._composites(node)
        modified = activity.modified(node.body, self.walrus) | activity.target_names(node.target)
        self._visit_body(node)
        head = set(anno.get(node, Key.LIVE_IN, ())) | set(anno.get(node, Key.LIVE_OUT, ()))
        state = self._carried(node, modified, head)
        body_name, item = self.ctx.namer.new("loop_body"), self.ctx.namer.new("itr")
        body = templates.replace("target = item", target=node.target, item=item) + list(node.body)
        stmts = [self._function(body_name, [item], body, modified)]
        extra = anno.get(node, Key.EXTRA_TEST)
        keywords = ""
        nodes = {}
        if extra is not None:
            extra_name = self.ctx.namer.new("extra_test")
            stmts.append(self._function(extra_name, [], [gast.Return(value=extra)], set()))
            keywords += ", extra_test=extra"
            nodes["extra"] = extra_name
        opts = _options(node)
        if opts is not None:
            keywords += ", opts=opts"
            nodes["opts"] = opts
        names = ", names" if state or keywords or composites is not None else ""
        call = self._call(f"ag__.for_stmt(iterable, loop_body{names}{keywords})", state, composites, modified,
                          outer_items, iterable=node.iter, loop_body=body_name, **nodes)
        return [*stmts, *call]

    # -- match ----------------------------------------------------------------------------------

    def visit_Match(self, node):
        """`match` stays a Python statement; its subject and its guards must be Python values (checked at run
        time)."""
        self.generic_visit(node)
        nested_class = any(p.__class__ is gast.MatchClass and p is not case.pattern
                           for case in node.cases for p in gast.walk(case.pattern))
        template = "ag__.match_subject(subject, True)" if nested_class else "ag__.match_subject(subject)"
        node.subject = templates.replace_as_expression(template, subject=node.subject)
        for case in node.cases:
            if case.guard is not None:
                case.guard = located(templates.replace_as_expression("ag__.match_guard(guard)", guard=case.guard),
                                     case.guard)
        return node

    def visit_Yield(self, node):
        raise self.ctx.error("generators (`yield`) can't be converted; return a list or use a loop over a tensor",
                             node)

    visit_YieldFrom = visit_Yield


def _keyed_item_writes(node) -> list:
    """(chain, key) of each item `node` stores whose key is a variable (`d[k] = v`, `self.d[k] += 1`), on a
    variable or a constant chain (see `activity.composite_chain`); chain[-1] is its name, `d[k]`. Searched
    like `activity.composite_writes`."""
    found, seen = [], set()
    for target in _item_targets([node]):
        key, owner = target.slice, _unmarked(target.value)
        if key.__class__ is not gast.Name:
            continue
        chain = [owner.id] if owner.__class__ is gast.Name else activity.composite_chain(owner)
        if chain is None:
            continue
        full = f"{chain[-1]}[{key.id}]"
        if full not in seen:
            seen.add(full)
            found.append(([*chain, full], key.id))
    return found


def _unmarked(node):
    """`d` of `ag__.mutating(d, 'd[k] = ...')`, which the side_effects converter made of it."""
    if (node.__class__ is gast.Call and node.func.__class__ is gast.Attribute
            and node.func.attr in ("mutating", "mutating_outer")
            and node.func.value.__class__ is gast.Name and node.func.value.id == "ag__"):
        return node.args[0]
    return node


def _item_targets(stmts):
    for stmt in stmts:
        if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            continue
        for target in activity.assigned_targets(stmt):
            if target.__class__ is gast.Subscript:
                yield target
        for field in ("body", "orelse", "finalbody"):
            yield from _item_targets(getattr(stmt, field, None) or ())
        for part in (*(getattr(stmt, "handlers", None) or ()), *(getattr(stmt, "cases", None) or ())):
            yield from _item_targets(part.body)


def _lambda(body):
    """`lambda: body`, built directly (`templates.replace_as_expression("lambda: root", ...)` gives the same tree,
    at about four times the cost): one per attribute or item passed to an operator."""
    args = gast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                          defaults=[])
    return gast.Lambda(args=args, body=body)


def _names_tuple(names: list[str]):
    return gast.Tuple(elts=[gast.Constant(value=v, kind=None) for v in names], ctx=gast.Load())


def _options(node):
    opts = anno.get(node, Key.LOOP_OPTIONS)
    if not opts:
        return None
    return gast.Dict(keys=[gast.Constant(value=k, kind=None) for k in opts], values=list(opts.values()))


def transform(node, ctx: Context):
    transformer = ControlFlowTransformer(ctx)
    types = ctx.node_types
    if types is None:
        types = {n.__class__ for n in gast.walk(node)}
        if any(activity.stores_composite(n) for n in activity.walk(node)):
            types.add(activity.COMPOSITE_STORE)
    # statements are all it rewrites, but for a `yield` (in a lambda), which it rejects
    transformer.statements_only = not types & {gast.Yield, gast.YieldFrom}
    transformer.walrus = gast.NamedExpr in types
    transformer.composite_writes = activity.COMPOSITE_STORE in types
    transformer.first_seen = {}
    positions = {}
    for n in activity.walk(node):
        if n.__class__ is gast.Name:
            where = (getattr(n, "lineno", None) or 0, getattr(n, "col_offset", None) or 0)
            positions[n.id] = min(positions.get(n.id, where), where)
    transformer.first_seen = {v: i for i, v in enumerate(sorted(positions, key=positions.get))}
    declarations = _hoist_declarations(node) if types & {gast.Global, gast.Nonlocal} else []
    node = transformer.transform(node)
    node.body = declarations + node.body
    return node


def _hoist_declarations(fn) -> list:
    """The function's own `global` and `nonlocal` statements, taken out of the blocks they stand in: they
    hold for the whole function (Python requires them before any use of the name), and a block may become
    a generated function, where they would hold for it alone."""
    found = []

    def strip(stmts: list) -> list:
        kept = []
        for s in stmts:
            if isinstance(s, (gast.Global, gast.Nonlocal)):
                found.append(s)
                continue
            if not isinstance(s, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
                for field in ("body", "orelse", "finalbody"):
                    block = getattr(s, field, None)
                    if isinstance(block, list) and block:
                        setattr(s, field, block_or_pass(strip(block)))
                for part in (*(getattr(s, "handlers", None) or ()), *(getattr(s, "cases", None) or ())):
                    part.body = block_or_pass(strip(part.body))
            kept.append(s)
        return kept

    fn.body = strip(fn.body)
    return found
