"""Function calls go through `ag__.callee`, which gives what to call for the function: its conversion (a user
function, converted on first call), an overload (`len`, `range`, `print`, ...), or the function itself (a
framework's, the standard library's, a builtin). The call itself stays the user's: made by the converted code, with
Python's own argument syntax, so a function that looks at its caller's frame (`collections.namedtuple` and `enum`
read the caller's module from it, `warnings.warn` its line, `pdb.set_trace` stops there) sees the user's code.

Before:                          After:
    y = f(x, k=2)                    y = ag__.callee(f, fscope)(x, k=2)

A call handed a function defined in the converted function (a nested `def` or a `lambda`) goes through
`ag__.converted_call`, which converts the function it is handed when the callee is a library's (TensorFlow's
AutoGraph converts a function defined inside a converted one with it):

    y = map(g, xs)                   y = ag__.converted_call(map, (g, xs), None, fscope)
    y = f(k=2, **d)                  (with a handed function:) ag__.converted_call(f, (), ({'k': 2}, d), fscope)

A `**` beside other keywords gives its parts in a tuple: `converted_call` merges them, raising Python's
TypeError for a keyword two of them give (one dict display would keep the last).
"""
from __future__ import annotations

import gast

from autograph.pyct import anno, templates
from autograph.pyct.anno import Key
from autograph.pyct.transformer import Base, Context


def _is_generated(func, ctx: Context) -> bool:
    """A call of an operator or of the function scope that earlier converters generated (never the user's
    own `ag__.f()` or `fscope.f()`: their names are then not the generated ones, see `naming`)."""
    if not (isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name)):
        return False
    base = func.value
    return base.id == ctx.fscope or base.id in (ctx.ag, "ag__") and not anno.get(base, Key.USER_NAME)


class CallTreeTransformer(Base):
    def visit_Lambda(self, node):
        return node  # converted when called

    def visit_Call(self, node):
        self.generic_visit(node)
        if _is_generated(node.func, self.ctx):
            return node
        if isinstance(node.func, gast.Name) and node.func.id == "super" and not node.args:
            return self._explicit_super(node)
        if not self._hands_a_local_function(node):
            node.func = _callee(node.func, self.ctx)
            return node
        args = gast.Tuple(elts=node.args, ctx=gast.Load())
        if not node.keywords:
            kwargs = gast.Constant(value=None, kind=None)
        elif any(k.arg is None for k in node.keywords) and len(node.keywords) > 1:
            kwargs = _keyword_parts(node.keywords)
        else:
            kwargs = _keyword_dict(node.keywords)
        return _converted_call(node.func, args, kwargs, self.ctx)

    def _explicit_super(self, node):
        """`super()` needs the class cell, which a converted function reads explicitly."""
        if self._first_param is None:
            return node
        return templates.replace_as_expression("super(__class__, first)", first=self._first_param)

    def _hands_a_local_function(self, node: gast.Call) -> bool:
        """Whether the call is handed a `lambda` or a function the converted function defines, as an argument."""
        for arg in (*node.args, *(k.value for k in node.keywords)):
            if arg.__class__ is gast.Starred:
                arg = arg.value
            if arg.__class__ is gast.Lambda or arg.__class__ is gast.Name and arg.id in self._local_functions:
                return True
        return False

    def transform(self, node):
        args = node.args.posonlyargs + node.args.args
        self._first_param = args[0].id if args else None
        self._local_functions = _local_functions(node)
        return super().transform(node)


def _local_functions(node: gast.FunctionDef) -> frozenset:
    """The names `node`'s own statements bind to a function: by `def`, or by assigning a `lambda`."""
    names, stack = set(), list(node.body)
    while stack:
        n = stack.pop()
        if n.__class__ in (gast.FunctionDef, gast.AsyncFunctionDef):
            if not anno.get(n, Key.GENERATED):
                names.add(n.name)
                continue
        elif n.__class__ is gast.Assign and n.value.__class__ is gast.Lambda:
            names.update(t.id for t in n.targets if t.__class__ is gast.Name)
        elif n.__class__ in (gast.ClassDef, gast.Lambda):
            continue
        stack.extend(gast.iter_child_nodes(n))
    return frozenset(names)


def _keyword_dict(keywords: list) -> gast.Dict:
    return gast.Dict(keys=[gast.Constant(value=k.arg, kind=None) if k.arg else None for k in keywords],
                     values=[k.value for k in keywords])


def _keyword_parts(keywords: list) -> gast.Tuple:
    """`f(a=1, **d, **e)`: the parts `({'a': 1}, d, e)`, in order; `converted_call` merges them and raises
    Python's TypeError for a name two of them give (one dict display would keep the last)."""
    parts, named = [], []
    for k in keywords:
        if k.arg is not None:
            named.append(k)
            continue
        if named:
            parts.append(_keyword_dict(named))
            named = []
        parts.append(k.value)
    if named:
        parts.append(_keyword_dict(named))
    return gast.Tuple(elts=parts, ctx=gast.Load())


def _converted_call(func, args: gast.Tuple, kwargs, ctx: Context) -> gast.Call:
    """`ag__.converted_call(func, args, kwargs, fscope)`."""
    return _operator_call("converted_call", [func, args, kwargs], ctx)


def _callee(func, ctx: Context) -> gast.Call:
    """`ag__.callee(func, fscope)`."""
    return _operator_call("callee", [func], ctx)


def _operator_call(operator: str, args: list, ctx: Context) -> gast.Call:
    """`ag__.<operator>(*args, fscope)`, built directly: the most frequent rewrite, and what `templates.replace`
    would give (the caller's walk locates it)."""
    load = gast.Load()
    ag = gast.Name(id="ag__", ctx=load, annotation=None, type_comment=None)   # named ctx.ag by api, last
    fscope = gast.Name(id=ctx.fscope, ctx=load, annotation=None, type_comment=None)
    return gast.Call(func=gast.Attribute(value=ag, attr=operator, ctx=load), args=[*args, fscope], keywords=[])


def transform(node, ctx: Context):
    return CallTreeTransformer(ctx).transform(node)
