"""The transformer base all converters share, and the conversion context."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

import gast

from autograph.errors import ConversionError
from autograph.pyct import anno
from autograph.pyct.naming import Namer
from autograph.pyct.nodes import KINDS, LEAF, LOCATED, kind_of


@dataclass
class Context:
    """What converters know about the function being converted."""

    namer: Namer
    filename: str
    function_name: str
    params: set[str]
    user_locals: set[str]                   # names the user's function binds (params included)
    declared_nonlocal: set[str] = field(default_factory=set)  # the function's own nonlocal declarations
    declared_global: set[str] = field(default_factory=set)    # the function's own global declarations
    captured: set[str] = field(default_factory=set)   # names a closure (nested def, lambda, generator) reads
    recursive: bool = True
    node_types: set | None = None           # the node types in the function when last scanned (None: unknown)
    # Names every converter shares, made by `namer` (so they are these unless the user's code uses them):
    ag: str = "ag__"                        # the autograph module in generated code (`ag__.if_stmt`)
    fscope: str = "fscope"                  # the FunctionScope of the function
    # A generated variable's name -> the name messages and operators know it by ('retval_', 'do_return'):
    # `retval_` may be `retval__1` when the user has a `retval_`.
    meanings: dict[str, str] = field(default_factory=dict)
    # A hoisted operand function's name (logical_expressions) -> the variables it assigns with `:=`.
    thunk_writes: dict[str, frozenset] = field(default_factory=dict)
    generated_defs: set[str] = field(default_factory=set)   # the names of the functions the converters made
    free_vars: frozenset = frozenset()      # the function's free variables (a nested function's or lambda's)

    def new_name(self, base: str) -> str:
        """A fresh identifier: `base`, or `base_1`, `base_2`... when taken (by the user or by an earlier call)."""
        return self.namer.new(base)

    def meaning(self, name: str) -> str:
        """What a state variable is called in messages and by operators: its own name, except for the
        generated return value and flag, which are always 'retval_' and 'do_return'."""
        return self.meanings.get(name, name)

    def error(self, message: str, node) -> ConversionError:
        return ConversionError(message, self.filename, getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _skip(node):
    return node


class Base(gast.NodeTransformer):
    """Visits one function body; nested `def`s and classes are left alone
    (they are converted when they are called). Replacement nodes get the
    location of the node they replace.

    A converter that rewrites statements only sets `statements_only`: the walk
    then follows the fields that hold statements and skips expressions, which
    hold most of the nodes of a function."""

    statements_only = False

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self._root = None
        self._generic = self.generic_visit
        self._visitors: dict[type, object] = {}  # node type -> bound visit method (_generic: none of its own)

    def transform(self, node):
        self._root = node
        self._generic = self.generic_visit
        try:
            return self.visit(node)
        finally:
            # The cached visitors are methods bound to `self`: a cycle that would keep the transformer, and
            # the tree it walked, for the cyclic garbage collector (a collection after each conversion).
            self._root = self._generic = None
            self._visitors.clear()

    def visit_FunctionDef(self, node):
        if node is self._root:   # its defaults, annotations and decorators run where it is defined, as written
            return self.generic_visit(node, _BODY)
        if anno.get(node, anno.Key.GENERATED):
            return self.generic_visit(node)
        return node

    def visit_ClassDef(self, node):
        return node

    def _visitor(self, cls: type):
        visitor = self._visitors.get(cls)
        if visitor is None:
            if not issubclass(cls, gast.AST) or issubclass(cls, _LEAVES):
                visitor = _skip      # contexts, operators and values that are not nodes
            else:
                visitor = getattr(self, f"visit_{cls.__name__}", self._generic)
                if getattr(visitor, "__func__", None) is ast.NodeVisitor.visit_Constant:
                    visitor = _skip  # ast's, for the deprecated visit_Num & co.; a constant has no children
            self._visitors[cls] = visitor
        return visitor

    def visit(self, node):
        result = (self._visitors.get(node.__class__) or self._visitor(node.__class__))(node)
        if result is not node and result is not None:
            for new in result if isinstance(result, list) else [result]:
                located(new, node)
        return result

    def generic_visit(self, node, fields: tuple | None = None):
        """`ast.NodeTransformer.generic_visit`, minus its per-node overhead: the
        pipeline walks every function once per converter, so this is the
        hottest loop of a conversion. Operators and load/store contexts have no
        children and no converter visits them, so they are not descended into;
        a node without a visitor of its own is walked here directly."""
        if fields is None:
            fields = _STATEMENT_FIELDS if self.statements_only else _NODE_FIELDS.get(node.__class__)
        if fields is None:
            fields = _node_fields(node.__class__)
        generic, visitors = self._generic, self._visitors
        attrs = node.__dict__   # a gast node's fields are all in its __dict__ (none has a class default)
        for field in fields:
            old = attrs.get(field)
            if old.__class__ is list:
                new_values = []
                for value in old:
                    visitor = visitors.get(value.__class__) or self._visitor(value.__class__)
                    if visitor is _skip:
                        new_values.append(value)
                        continue
                    if visitor is generic:
                        generic(value)
                        new_values.append(value)
                        continue
                    new = visitor(value)            # what self.visit(value) does, inlined
                    if new is value:
                        new_values.append(value)
                    elif isinstance(new, gast.AST):
                        new_values.append(located(new, value))
                    elif new is not None:
                        if isinstance(new, list):
                            for n in new:
                                located(n, value)
                        new_values.extend(new)
                old[:] = new_values
                continue
            visitor = visitors.get(old.__class__) or self._visitor(old.__class__)
            if visitor is generic:
                generic(old)
            elif visitor is not _skip:
                new = self.visit(old)
                if new is None:
                    delattr(node, field)
                elif new is not old:
                    setattr(node, field, new)
        return node


_LEAVES = (gast.expr_context, gast.boolop, gast.operator, gast.unaryop, gast.cmpop)
# The fields that hold statements (match_case and ExceptHandler nodes hold their own `body`).
_STATEMENT_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
_BODY = ("body",)
# Fields that never hold a node to visit: contexts and operators, and strings, numbers and constants.
_SCALARS = {"ctx", "op", "ops", "type_comment", "kind"}
_CLASS_SCALARS = {gast.Name: {"id"}, gast.Attribute: {"attr"}, gast.Constant: {"value"}, gast.keyword: {"arg"},
                  gast.FunctionDef: {"name"}, gast.AsyncFunctionDef: {"name"}, gast.ClassDef: {"name"},
                  gast.Global: {"names"}, gast.Nonlocal: {"names"}, gast.alias: {"name", "asname"},
                  gast.ImportFrom: {"module", "level"}, gast.comprehension: {"is_async"},
                  gast.FormattedValue: {"conversion"}, gast.AnnAssign: {"simple"}}
_NODE_FIELDS: dict[type, tuple] = {}   # node class -> the fields a walk visits


def _node_fields(cls: type) -> tuple:
    scalars = _SCALARS | _CLASS_SCALARS.get(cls, set())
    fields = _NODE_FIELDS[cls] = tuple(f for f in cls._fields if f not in scalars)
    return fields


def located(new, origin):
    """Give `new` and its children without a location the location of `origin`.

    Stops at nodes that have a location: they are the user's, or were located
    when an inner statement was converted."""
    line = getattr(origin, "lineno", None)
    if line is None or new.__dict__.get("lineno") is not None:   # the latter: e.g. `ag__.ld(x)`, built located
        return new
    col = getattr(origin, "col_offset", 0) or 0
    if hasattr(origin, "body"):
        # a compound statement's code stands for its header (`while i < n`), not for its whole body: Python
        # reports a call at the end line of its callee's span, which would otherwise be the body's last line
        head = getattr(origin, "test", None) or getattr(origin, "iter", None)
        one_line = head is not None and getattr(head, "end_lineno", None) == line
        end_line, end_col = line, (getattr(head, "end_col_offset", None) or col) if one_line else col
    else:
        end_line = getattr(origin, "end_lineno", None) or line
        end_col = getattr(origin, "end_col_offset", None) or col
    where = {"lineno": line, "col_offset": col, "end_lineno": end_line, "end_col_offset": end_col}
    kinds = KINDS
    stack = [new]
    while stack:
        n = stack.pop()
        attrs = n.__dict__
        if attrs.get("lineno") is not None:
            continue
        if "lineno" in attrs or (kinds.get(n.__class__) or kind_of(n.__class__)) == LOCATED:
            attrs.update(where)
        for field in n._fields:  # children, minus contexts and operators (they have no location)
            value = attrs.get(field)
            if value.__class__ is list:
                for v in value:
                    if (kinds.get(v.__class__) or kind_of(v.__class__)) != LEAF:
                        stack.append(v)
            elif (kinds.get(value.__class__) or kind_of(value.__class__)) != LEAF:
                stack.append(value)
    return new


def name(id_: str, ctx=None) -> gast.Name:
    return gast.Name(id=id_, ctx=ctx or gast.Load(), annotation=None, type_comment=None)


def block_or_pass(stmts: list) -> list:
    return stmts if stmts else [gast.Pass()]


def fill_locations(node, line: int = 1, col: int = 0) -> None:
    """Give every node without a location its nearest located ancestor's."""
    if getattr(node, "lineno", None) is not None:
        line, col = node.lineno, node.col_offset or 0
    elif isinstance(node, (gast.stmt, gast.expr, gast.excepthandler, gast.arg if hasattr(gast, "arg") else ())) \
            or hasattr(node, "lineno"):
        node.lineno, node.col_offset = line, col
        node.end_lineno, node.end_col_offset = line, col
    for child in gast.iter_child_nodes(node):
        fill_locations(child, line, col)
