"""`if`, `while` and `for` become operator calls on functions of explicit state.

Before:                          After:
    if x > 0:                        def if_true(y):
        y = x                            y = x
    else:                                return y
        y = -x
    return y                         def if_false(y):
                                         y = -x
                                         return y
                                     y = ag__.if_stmt(x > 0, if_true, if_false, (y,), ('y',))

    while i < n:                     def loop_test(i, s):
        s += i                           return i < n
        i += 1
                                     def loop_body(i, s):
                                         s += i
                                         i += 1
                                         return i, s
                                     i, s = ag__.while_stmt(loop_test, loop_body, (i, s), ('i', 's'))

The state of a statement is what it modifies and what is live after it (or,
for a loop, at its head: read by the test or the next iteration), from the
`liveness` annotations. `x = ag__.Undefined('x')` is emitted only for state
that is not definitely assigned before the statement, and at the top of the
function (generated or the user's) that owns the variable, never for a
parameter: in place it would overwrite a value some path assigned. Runs after the jump
converters, so there is no `break`/`continue`/`return` left to handle.

An attribute or an item with a constant key that the statement assigns is
passed too, by name, with a function giving the object it hangs from; the
operator carries it only when it stages the statement (operators/composites.py):

    while self.count < n:            ...
        self.count += 1              ag__.while_stmt(loop_test, loop_body, (), (),
                                                     composites={'self.count': lambda: self})
"""
from __future__ import annotations

import gast

from autograph.pyct import activity, anno, templates
from autograph.pyct.anno import Key
from autograph.pyct.transformer import Base, Context, block_or_pass, located, name

def _undefined(var: str) -> gast.Assign:
    """`var = ag__.Undefined('var')`, built directly (`templates.replace("var = ag__.Undefined(label)", ...)`
    gives the same tree): one per state variable of each `if` and loop."""
    load = gast.Load()
    func = gast.Attribute(value=gast.Name(id="ag__", ctx=load, annotation=None, type_comment=None),
                          attr="Undefined", ctx=load)
    return gast.Assign(targets=[gast.Name(id=var, ctx=gast.Store(), annotation=None, type_comment=None)],
                       value=gast.Call(func=func, args=[gast.Constant(value=var, kind=None)], keywords=[]),
                       type_comment=None)


def _strip_inits(stmts: list, found: list) -> list:
    """`stmts` without the `x = ag__.Undefined('x')` inits of their scope, which are added to `found`.
    (A function, not a closure in `_hoist_inits`: a recursive closure is a reference cycle, left for the
    cyclic garbage collector with everything it holds.)"""
    kept = []
    for s in stmts:
        if anno.has(s, Key.UNDEFINED_INIT):
            found.append(s)
            continue
        if not isinstance(s, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            for field in ("body", "orelse", "finalbody"):
                block = getattr(s, field, None)
                if isinstance(block, list) and block:
                    setattr(s, field, _strip_inits(block, found) or [gast.Pass()])
            for handler in getattr(s, "handlers", None) or []:
                handler.body = _strip_inits(handler.body, found) or [gast.Pass()]
        kept.append(s)
    return kept


class ControlFlowTransformer(Base):
    # -- helpers ------------------------------------------------------------------------

    def _state(self, node, modified: set, live: set) -> list[str]:
        """The chosen names in order of first appearance in `node` (as `activity.ordered_names` orders
        them), found by a walk that stops once it has seen them all."""
        chosen = (modified & live) - self.ctx.declared_nonlocal
        state = []
        if not chosen:
            return state
        missing = set(chosen)
        for n in activity.walk(node):
            if n.__class__ is gast.Name and n.id in missing:
                state.append(n.id)
                missing.discard(n.id)
                if not missing:
                    break
        return state

    may_reject = True   # False when the function has nothing _check_supported rejects (see transform)
    walrus = True       # False when the function has no `:=` (see transform)

    def _check_supported(self, node, state: list[str], construct: str) -> None:
        if not self.may_reject:
            return
        for n in gast.walk(node):
            if isinstance(n, (gast.Global, gast.Nonlocal)):
                raise self.ctx.error(f"`{type(n).__name__.lower()}` inside {construct} can't be converted; move "
                                     "the declaration to the top of the function", n)
            if isinstance(n, (gast.Assign, gast.AugAssign)) and self.ctx.declared_nonlocal:
                targets = n.targets if isinstance(n, gast.Assign) else [n.target]
                for t in targets:
                    for written in activity.target_names(t) & self.ctx.declared_nonlocal:
                        raise self.ctx.error(
                            f"'{written}' is declared global/nonlocal and assigned inside {construct}; that "
                            "can't be converted. Assign it outside the statement, or return the value", n)

    def _undefined_inits(self, node, state: list[str]) -> list:
        defined = anno.get(node, Key.DEFINED_IN, frozenset())
        inits = []
        for v in state:
            init = _undefined(v)
            anno.set(init, Key.UNDEFINED_INIT, v)
            if v in defined:
                # defined in the user's function, but this statement may end up in a generated function
                # that assigns `v` (as state) without receiving it: there `v` starts unbound
                anno.set(init, Key.SCOPE_INIT, True)
            inits.append(located(init, node))
        return inits

    def _hoist_inits(self, body: list, params, user_scope: bool = False) -> list:
        """Move the `x = ag__.Undefined('x')` of this function's own scope to its top, once per
        name, and drop those of its parameters. Left in place, an init would overwrite a value
        that some path did assign (a loop body's state from the previous iteration, or a variable
        assigned only when a loop ran); at the top of the scope it only stands in for "unbound"."""
        found: list = []
        body = _strip_inits(body, found)
        seen, inits = set(params), []
        for s in found:
            var = anno.get(s, Key.UNDEFINED_INIT)
            if user_scope and anno.get(s, Key.SCOPE_INIT):
                continue      # definitely assigned before its statement in the user's own scope
            if var not in seen:
                seen.add(var)
                inits.append(s)
        return inits + body

    def _function(self, fn_name: str, params: list[str], body: list, state: list[str], ret: bool = True):
        stmts = [s for s in self._hoist_inits(body, params) if not isinstance(s, gast.Pass)]
        if ret and state:
            stmts.append(gast.Return(value=_raw_value(state)))
        # `def fn(params): body`, built directly (the template gives the same tree): two per `if` and loop
        args = gast.arguments(posonlyargs=[], args=[gast.Name(id=p, ctx=gast.Param(), annotation=None,
                                                              type_comment=None) for p in params],
                              vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
        fdef = gast.FunctionDef(name=fn_name, args=args, body=block_or_pass(stmts), decorator_list=[],
                                returns=None, type_comment=None, type_params=[])
        anno.set(fdef, Key.GENERATED, True)
        return fdef

    composite_writes = True   # False when the function assigns no attribute or item (see transform)

    def _composites(self, node):
        """`{'self.count': lambda: self, ...}`: the attributes and items (with constant keys) that `node`
        assigns, each with a function giving the object at its root, which the operator carries only when it
        stages the statement; None when there are none. Called before the body is converted. Left out: one
        whose root or part of the chain the statement assigns or deletes (the object itself changes)."""
        if not self.composite_writes:
            return None
        written, deleted = activity.composite_writes([node])
        if not written:
            return None
        changed = activity.modified([node], self.walrus) | set(written) | deleted
        kept = [chain for full, chain in written.items()
                if full not in deleted and not any(prefix in changed for prefix in chain[:-1])]
        if not kept:
            return None
        roots = [_lambda(_raw_names([chain[0]])[0]) for chain in kept]
        return gast.Dict(keys=[gast.Constant(value=chain[-1], kind=None) for chain in kept], values=roots)

    def _call(self, template: str, state: list[str], composites=None, **nodes):
        if composites is not None:
            template = template[:-1] + ", composites=composites)"
            nodes["composites"] = composites
        call = templates.replace_as_expression(template, state=_raw_tuple(state), names=_names_tuple(state),
                                               **nodes)
        if not state:
            return [gast.Expr(value=call)]
        target = name(state[0], gast.Store()) if len(state) == 1 else gast.Tuple(
            elts=[name(v, gast.Store()) for v in state], ctx=gast.Store())
        return [gast.Assign(targets=[target], value=call, type_comment=None)]

    # -- if ------------------------------------------------------------------------------------

    depth = 0   # how many if/while/for statements enclose the node being visited

    def _visit_body(self, node) -> None:
        self.depth += 1
        try:
            self.generic_visit(node)
        finally:
            self.depth -= 1

    def visit_Delete(self, node):
        """Inside a statement's body, `del x` becomes `x = ag__.Undefined('x')`: the body is a generated
        function, where `del` of an outer variable would fail, and the statement carries `x` out as
        undefined, so a later read raises as Python's does (and a tensor `if` that deletes `x` on one
        side only is reported like any variable assigned on one side only). Items and attributes stay `del`."""
        if not self.depth:
            return node
        out, rest = [], []

        def flush():
            if rest:
                out.append(located(gast.Delete(targets=list(rest)), node))
                rest.clear()

        def visit(target):
            if isinstance(target, (gast.Tuple, gast.List)):
                for t in target.elts:
                    visit(t)
            elif isinstance(target, gast.Name):
                flush()
                out.extend(templates.replace("var = ag__.Undefined(label)", var=target.id,
                                             label=gast.Constant(value=target.id, kind=None)))
            else:
                rest.append(target)

        for t in node.targets:
            visit(t)
        flush()
        return out

    def visit_If(self, node):
        composites = self._composites(node)
        self._visit_body(node)
        modified = activity.modified(node.body, self.walrus) | activity.modified(node.orelse, self.walrus)
        live = set(anno.get(node, Key.LIVE_OUT, ())) | set(anno.get(node, Key.LIVE_IN, ()))
        state = self._state(node, modified, live)
        self._check_supported(node, state, "an `if`")
        true_name, false_name = self.ctx.namer.new("if_true"), self.ctx.namer.new("if_false")
        true_fn = self._function(true_name, state, node.body, state)
        false_fn = self._function(false_name, state, node.orelse, state)
        call = self._call("ag__.if_stmt(test, if_true, if_false, state, names)", state, test=node.test,
                          if_true=true_name, if_false=false_name, composites=composites)
        return [true_fn, false_fn, *self._undefined_inits(node, state), *call]

    # -- while ---------------------------------------------------------------------------------

    def visit_While(self, node):
        composites = self._composites(node)
        self._visit_body(node)
        head = set(anno.get(node, Key.LIVE_IN, ())) | set(anno.get(node, Key.LIVE_OUT, ()))
        state = self._state(node, activity.modified(node.body, self.walrus), head)
        self._check_supported(node, state, "a `while` loop")
        test_name, body_name = self.ctx.namer.new("loop_test"), self.ctx.namer.new("loop_body")
        test_fn = self._function(test_name, state, [gast.Return(value=node.test)], state, ret=False)
        body_fn = self._function(body_name, state, node.body, state)
        opts = _options(node)
        template = "ag__.while_stmt(loop_test, loop_body, state, names" + (", opts)" if opts else ")")
        call = self._call(template, state, composites, loop_test=test_name, loop_body=body_name, opts=opts)
        return [test_fn, body_fn, *self._undefined_inits(node, state), *call]

    # -- for -------------------------------------------------------------------------------------

    def visit_For(self, node):
        composites = self._composites(node)
        self._visit_body(node)
        targets = activity.target_names(node.target)
        head = set(anno.get(node, Key.LIVE_IN, ())) | set(anno.get(node, Key.LIVE_OUT, ()))
        state = self._state(node, activity.modified(node.body, self.walrus) | targets, head)
        self._check_supported(node, state, "a `for` loop")
        body_name = self.ctx.namer.new("loop_body")
        body = list(node.body)
        if isinstance(node.target, gast.Name) and node.target.id not in state:
            item = node.target.id
        else:
            item = self.ctx.namer.new("itr")
            body = templates.replace("target = item", target=node.target, item=item) + body
        body_fn = self._function(body_name, [item, *state], body, state)
        stmts = [body_fn]
        extra = anno.get(node, Key.EXTRA_TEST)
        keywords = ""
        nodes = {}
        if extra is not None:
            extra_name = self.ctx.namer.new("extra_test")
            stmts.append(self._function(extra_name, state, [gast.Return(value=extra)], state, ret=False))
            keywords += ", extra_test=extra"
            nodes["extra"] = extra_name
        opts = _options(node)
        if opts is not None:
            keywords += ", opts=opts"
            nodes["opts"] = opts
        call = self._call(f"ag__.for_stmt(iterable, loop_body, state, names{keywords})", state, composites,
                          iterable=node.iter, loop_body=body_name, **nodes)
        return [*stmts, *self._undefined_inits(node, state), *call]

    # -- match ----------------------------------------------------------------------------------

    def visit_Match(self, node):
        """`match` stays a Python statement; its subject must be a Python value (checked at run time)."""
        self.generic_visit(node)
        node.subject = templates.replace_as_expression("ag__.match_subject(subject)", subject=node.subject)
        return node

    def visit_Yield(self, node):
        raise self.ctx.error("generators (`yield`) can't be converted; return a list or use a loop over a tensor",
                             node)

    visit_YieldFrom = visit_Yield


def _raw_names(names: list[str]) -> list:
    elts = []
    for v in names:
        n = name(v)
        anno.set(n, Key.RAW, True)
        elts.append(n)
    return elts


def _raw_tuple(names: list[str]):
    """`(a, b)` of state variables, which may hold ag__.Undefined (so no ag__.ld)."""
    return gast.Tuple(elts=_raw_names(names), ctx=gast.Load())


def _raw_value(names: list[str]):
    """What a branch or body returns: the variable itself, or a tuple of several."""
    elts = _raw_names(names)
    return elts[0] if len(elts) == 1 else gast.Tuple(elts=elts, ctx=gast.Load())


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
    # found here, once, instead of by a walk per `if`/loop (of everything nested in it, quadratic in depth)
    transformer.may_reject = bool(ctx.declared_nonlocal) or bool(types & {gast.Global, gast.Nonlocal})
    # statements are all it rewrites, but for a `yield` (in a lambda), which it rejects
    transformer.statements_only = not types & {gast.Yield, gast.YieldFrom}
    transformer.walrus = gast.NamedExpr in types
    transformer.composite_writes = activity.COMPOSITE_STORE in types
    node = transformer.transform(node)
    node.body = transformer._hoist_inits(node.body, ctx.params, user_scope=True)
    return node
