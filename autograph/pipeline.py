"""The converters, in the order they run. Each entry's comment says why it is there.

`convert_function(node, ctx)` runs them all on one gast FunctionDef; `convert_node` checks a parsed function,
makes its context and runs them (for `convert` and the CLI).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import gast

from autograph.converters import (asserts, break_statements, call_trees, comparisons, comprehensions,
                                  conditional_expressions, continue_statements, control_flow, directives, exceptions,
                                  fstrings, functions, lists, logical_expressions, return_statements, side_effects,
                                  unbound_loads)
from autograph.errors import ConversionError
from autograph.pyct import activity, anno, liveness, naming
from autograph.pyct.anno import Key
from autograph.pyct.naming import Namer
from autograph.pyct.transformer import Context


def _analyse(node, ctx: Context):
    liveness.analyse(node, ctx.params)
    return node


PIPELINE = [
    comprehensions.transform,           # before any code moves into branch and body functions
    directives.transform,               # loop options must be read before loops change shape
    exceptions.transform,               # before lowering jumps, whose own `except BaseException` must catch all
    break_statements.transform,         # jumps are lowered to flags, innermost loops first ...
    continue_statements.transform,
    return_statements.transform,        # ... and returns last, since they leave every enclosing loop
    lists.transform,                    # before call_trees, which would hide `l.append` in converted_call
    side_effects.transform,             # after lists (whose `l.append` is carried), before call_trees (as lists)
    fstrings.transform,                 # f-strings and `'...' % args` become operator calls (fields: any order)
    call_trees.transform,               # before the rewrites below add calls of their own
    asserts.transform,                  # after call_trees: the calls in its message, made lazy, are converted
    conditional_expressions.transform,  # expressions become lazy operators (lambdas) ...
    comparisons.transform,              # chained comparisons before `and`/`or`: they are lazy `and`s and
                                        # their operands may hold `and`/`or`, which the next step converts
    logical_expressions.transform,
    _analyse,                           # ... then liveness and definite assignment, once, on structured code
    unbound_loads.transform,            # reads the definite assignments; before statements move into branches
    control_flow.transform,             # reads those annotations; needs every jump lowered
    functions.transform,                # last: wraps the finished body in the FunctionScope
]

_LOOPS = {gast.While, gast.For}
_CONTROL = {gast.If, gast.While, gast.For}
# A step runs only when the function holds what it rewrites: most functions use few constructs, and
# each step is a walk of the whole function. `None`: always runs.
NEEDS = {
    comprehensions.transform: {gast.ListComp, gast.SetComp, gast.DictComp},
    directives.transform: ("set_loop_options",),
    exceptions.transform: {gast.Try, gast.With, *([gast.TryStar] if hasattr(gast, "TryStar") else [])},
    break_statements.transform: {gast.Break, "loop else"},   # it also moves a loop's `else:` after the loop
    continue_statements.transform: {gast.Continue},
    asserts.transform: {gast.Assert},
    lists.transform: ("append", "pop"),
    side_effects.transform: [{gast.Delete, gast.AugAssign, activity.COMPOSITE_STORE}, tuple(side_effects.NAMES)],   # either
    fstrings.transform: {gast.FormattedValue, gast.BinOp},
    call_trees.transform: {gast.Call},
    conditional_expressions.transform: {gast.IfExp},
    comparisons.transform: {"chained compare", "none test"},
    logical_expressions.transform: {gast.BoolOp, gast.UnaryOp},
    _analyse: _CONTROL,
    unbound_loads.transform: None,      # (a nested function's free variables, or a staged statement's)
    control_flow.transform: _CONTROL | {gast.Match},
}
# What lowering jumps may add: guards (`if`) and loop tests (`extra and test`); the statements are scanned again
# after them (see `_rescan`).
ADDS = {break_statements.transform: {gast.If, gast.BoolOp}, continue_statements.transform: {gast.If},
        return_statements.transform: {gast.If, gast.BoolOp}}

_SKIP = (gast.expr_context, gast.boolop, gast.operator, gast.unaryop, gast.cmpop)
_BINDS_WITHOUT_NAME = {gast.alias, gast.MatchAs, gast.MatchStar, gast.MatchMapping}


@dataclass
class Scan:
    """What one walk of a function (nested functions included) finds."""

    types: set = field(default_factory=set)     # node types, "loop else" for a loop with an `else:`,
                                                # "chained compare" for `a < b < c`, "none test"
                                                # for `x is None`, `x is not None`, `a is b` and
                                                # `a in b`, and
                                                # activity.COMPOSITE_STORE
    ids: set = field(default_factory=set)       # the ids of Names
    attrs: set = field(default_factory=set)     # attribute names
    defs: set = field(default_factory=set)      # names of defs and classes
    declared: set = field(default_factory=set)  # names declared global or nonlocal
    bound: set = field(default_factory=set)     # other names bound without a Name: import aliases, match captures

    @property
    def used(self) -> set:
        """Every identifier of the function (what generated names must avoid: `naming.names_used`)."""
        return self.ids | self.defs | self.declared | self.bound

    @property
    def names(self) -> set:
        """The names and attributes used (what NEEDS looks for)."""
        return self.ids | self.attrs


def scan(node) -> Scan:
    found = Scan()
    types, ids, attrs = found.types, found.ids, found.attrs
    stack = [node]
    while stack:
        n = stack.pop()
        cls = n.__class__
        types.add(cls)
        if cls is gast.Name:
            ids.add(n.id)
        elif cls is gast.Attribute:
            attrs.add(n.attr)
            if n.ctx.__class__ is gast.Store:
                types.add(activity.COMPOSITE_STORE)
        elif cls is gast.Subscript and n.ctx.__class__ is gast.Store:
            types.add(activity.COMPOSITE_STORE)
        elif (cls is gast.While or cls is gast.For) and n.orelse:
            types.add("loop else")
        elif cls is gast.Compare and len(n.ops) > 1:
            types.add("chained compare")
        elif cls is gast.Compare and n.ops[0].__class__ in (gast.Is, gast.IsNot, gast.In, gast.NotIn):
            types.add("none test")   # `x is None`, `a is b` and `a in b` (comparisons.py)
        elif cls is gast.FunctionDef or cls is gast.ClassDef or cls is gast.AsyncFunctionDef:
            found.defs.add(n.name)
        elif cls is gast.Global or cls is gast.Nonlocal:
            found.declared.update(n.names)
        elif cls in _BINDS_WITHOUT_NAME:
            found.bound.update(naming.bound_by(n))
        values = n.__dict__
        for field_name in n._fields:
            value = values.get(field_name)
            if value.__class__ is list:
                stack.extend(v for v in value if isinstance(v, gast.AST) and not isinstance(v, _SKIP))
            elif isinstance(value, gast.AST) and not isinstance(value, _SKIP):
                stack.append(value)
    return found


def convert_function(node, ctx: Context, found: Scan | None = None):
    """Run the pipeline; `found` is `scan(node)` if the caller has it."""
    if found is None:
        found = scan(node)
    types, names = found.types, found.names
    ctx.node_types = types
    for step in PIPELINE:
        need = NEEDS.get(step)
        if need is not None and not _present(need, types, names):
            continue
        node = step(node, ctx)
        if step in ADDS:  # scan again: a `return` at the end of a function adds no `if`, and most returns are there
            types = _rescan(node, types)
            ctx.node_types = types
    return node


def _present(need, types: set, names: set) -> bool:
    """Whether the function holds what a step needs: a set of node types, a tuple of names, or a list of
    either (any of them)."""
    if isinstance(need, set):
        return bool(need & types)
    if isinstance(need, tuple):
        return bool(names.intersection(need))
    return any(_present(n, types, names) for n in need)


_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _rescan(node, types: set) -> set:
    """`types` after lowering jumps: the statements' types as they are now, and the expressions' as they
    were, plus the `and` a loop exit adds to a `while` test and the `or` a jump in `finally:` adds (`do_return =
    do_return or do_return_before`, lowering.py). Lowering adds expressions of no other type a
    step looks for but calls of `ag__` (which call_trees leaves as they are), and removes only the code
    after a jump (a step that finds none of it left has nothing to do), so a walk of statements is enough."""
    now = {t for t in types if not (isinstance(t, type) and issubclass(t, gast.stmt))}
    stack = [node]
    while stack:
        n = stack.pop()
        cls = n.__class__
        now.add(cls)
        if (cls is gast.While and n.test.__class__ is gast.BoolOp) or (cls is gast.Assign
                                                                     and n.value.__class__ is gast.BoolOp):
            now.add(gast.BoolOp)
        for field_name in _BLOCKS:
            block = getattr(n, field_name, None)
            if block.__class__ is list:
                stack.extend(block)
    return now


# --- converting one function ------------------------------------------------------------------

def _context(node: gast.FunctionDef, filename: str, name: str, recursive: bool, found,
             module_alias: Optional[str] = None) -> Context:
    args = node.args
    params = {a.id for a in args.posonlyargs + args.args + args.kwonlyargs}
    params |= {a.id for a in (args.vararg, args.kwarg) if a is not None}
    declared_global, declared_nonlocal = activity.declarations(node.body) if found.declared else (set(), set())
    user_locals = (params | activity.modified(node.body, gast.NamedExpr in found.types)) - found.declared
    namer = Namer(found.used)
    if module_alias is not None:
        namer.reserve(module_alias)
    ag = module_alias or namer.new("ag__")   # `ag__`, unless the function's own code uses that name
    return Context(namer, filename, name, params, user_locals, declared_nonlocal, declared_global,
                   activity.captured(node.body), recursive, ag=ag, fscope=namer.new("fscope"))


def convert_node(node: gast.FunctionDef, filename: str, name: str, recursive: bool = True,
                 module_alias: Optional[str] = None, free_vars=frozenset()) -> gast.FunctionDef:
    """Run the pipeline on one parsed function (used by `convert` and the CLI). `module_alias`: the name
    the generated code must call autograph by (the CLI's `ag__`, which its nested converted functions
    use too); by default `ag__`, or a fresh name when the function's own code uses `ag__`."""
    found = scan(node)    # one walk for what the context and the pipeline need to know
    if gast.Yield in found.types or gast.YieldFrom in found.types:
        _reject_generators(node, filename)
    if not found.ids.isdisjoint(_FRAME_READERS) or not found.ids.isdisjoint(_STACK_READER_NAMES):
        _reject_frame_readers(node, filename)
    ctx = _context(node, filename, name, recursive, found, module_alias)
    # the user's free variables (those its source reads), not the generated names a converted lambda's code holds
    ctx.free_vars = (frozenset(free_vars) & found.ids) - {ctx.ag, "ag__"} - ctx.user_locals
    if ctx.ag != "ag__":
        _mark_user_module_names(node)
    converted = convert_function(node, ctx, found)
    if ctx.ag != "ag__":
        _rename_module_alias(converted, ctx.ag)
    anno.set(converted, Key.MODULE_ALIAS, ctx.ag)
    return converted


def _mark_user_module_names(node) -> None:
    for n in activity.walk(node):
        if n.__class__ is gast.Name and n.id == "ag__":
            anno.set(n, Key.USER_NAME, True)


def _rename_module_alias(node, alias: str) -> None:
    """The user's code uses the name `ag__`: generated code calls autograph by `alias` instead. Templates
    write `ag__.operator(...)`; every such base the user did not write is renamed here, in one place."""
    for n in activity.walk(node):
        if n.__class__ is gast.Attribute:
            base = n.value
            if base.__class__ is gast.Name and base.id == "ag__" and not anno.get(base, Key.USER_NAME):
                base.id = alias


def module_alias(converted: gast.FunctionDef) -> str:
    """The name `converted` (the result of `convert_node`) calls autograph by."""
    return anno.get(converted, Key.MODULE_ALIAS, "ag__")


def _reject_generators(node: gast.FunctionDef, filename: str) -> None:
    stack = list(node.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (gast.Yield, gast.YieldFrom)):
            raise ConversionError("generators (`yield`) can't be converted; build and return a list instead, or "
                                  "mark the function with autograph.do_not_convert", filename, n.lineno,
                                  n.col_offset)
        if not isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda)):
            stack.extend(gast.iter_child_nodes(n))


# Builtins that read the variables of the frame that calls them, with the arguments they are called with here
# (`eval(s)`: one argument, no namespace). Converted code runs the user's statements in functions of its own
# (branches, loop bodies) and calls builtins through `converted_call`, so they would read those frames' variables.
_FRAME_READERS = {"locals": 0, "vars": 0, "dir": 0, "eval": 1, "exec": 1}
# Functions that give frames of the stack: the converted code's own (a branch's, a loop body's, autograph's
# frames between them) are not the frames of the user's program.
_STACK_READERS = {("sys", "_getframe"), ("inspect", "currentframe"), ("inspect", "stack")}
_BARE_STACK_READERS = {"_getframe": ("sys", "_getframe"), "currentframe": ("inspect", "currentframe")}  # imported
_STACK_READER_NAMES = {"sys", "inspect", *_BARE_STACK_READERS}


def _reads_the_stack(call: gast.Call) -> str:
    """'sys._getframe' for a call of a function that gives frames of the stack, '' for any other call."""
    func = call.func
    if func.__class__ is gast.Attribute and func.value.__class__ is gast.Name:
        name = (func.value.id, func.attr)
    elif func.__class__ is gast.Name:
        name = _BARE_STACK_READERS.get(func.id)
    else:
        return ""
    return ".".join(name) if name in _STACK_READERS else ""


def _reject_frame_readers(node: gast.FunctionDef, filename: str) -> None:
    calls, stored = [], set()
    stack = list(node.body)
    while stack:
        n = stack.pop()
        if n.__class__ is gast.Name and n.id in _FRAME_READERS and n.ctx.__class__ is not gast.Load:
            stored.add(n.id)
        elif (n.__class__ is gast.Call and n.func.__class__ is gast.Name and n.func.id in _FRAME_READERS
              and len(n.args) == _FRAME_READERS[n.func.id] and not n.keywords):
            calls.append(n)
        elif n.__class__ is gast.Call and _reads_the_stack(n):
            calls.append(n)
        if not isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda)):
            stack.extend(gast.iter_child_nodes(n))
    calls = sorted((c for c in calls if c.func.__class__ is not gast.Name or c.func.id not in stored),
                   key=lambda c: (c.lineno, c.col_offset))
    if calls and (stack_reader := _reads_the_stack(calls[0])):
        raise ConversionError(
            f"`{stack_reader}()` gives frames of the stack, and converted code runs your statements in functions of "
            "its own (branches, loop bodies), so it would see other frames than your program's. Mark the function "
            "with autograph.do_not_convert", filename, calls[0].lineno, calls[0].col_offset)
    if calls:
        call = calls[0]
        what = f"`{call.func.id}()`" if not call.args else f"`{call.func.id}(...)` without a namespace"
        raise ConversionError(
            f"{what} reads the variables of the code that calls it, and converted code runs your statements in "
            "functions of its own (branches, loop bodies), so it would see other variables than yours. Name "
            "what you need (`{'a': a, 'b': b}`, or pass the namespace: `eval(s, globals(), {'a': a})`), or mark "
            "the function with autograph.do_not_convert", filename, call.lineno, call.col_offset)
