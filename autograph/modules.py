"""Convert a whole module from its source text, without importing or running it.

`convert_module_source` is what `autograph convert` runs on each file. It
returns a drop-in module: the original text is kept line for line, except
that each converted function (every function and method, or those named) is
replaced by its converted form under its own name, with its decorators and
docstring, and `import autograph as ag__` is added once. Importing the result
and calling a function gives the original's results on Python values and a
framework's staged control flow on its tensors.

Each converted function gets `@ag__.do_not_convert` as its innermost
decorator: its body is converted code already, so `autograph.convert`, a
converted caller (`ag__.converted_call`) and `runtime.function(autograph=True)`
must run it as it is rather than convert it a second time.

Functions are left as they are, and say why, when they are decorated with a
framework's `function` (it converts them when it traces them: converting
twice would be wrong) or with `do_not_convert`, and when they are generators
(at run time autograph calls a generator as it is, with Python's semantics, so
it is not a problem either). A function that can't be
converted is reported as a `Problem` with its file, line and column and left
as it is, with the same marker above its `def` (so converted callers run it
with Python semantics instead of failing to convert it at run time); the
other functions are still converted. Functions nested in a converted function
are converted here too, so the output never needs a function's source at
run time.

    result = convert_module_source(open("model.py").read(), "model.py")
    for problem in result.problems:
        print(problem)               # model.py:12:9: error: ...
    open("model_graph.py", "w").write(result.code)
"""
from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Optional

import gast

from autograph.errors import ConversionError

IMPORT_LINE = "import autograph as ag__"
MARKER = "ag__.do_not_convert"   # innermost decorator of a converted function: never convert it again
UNCONVERTED_COMMENT = "# autograph: could not be converted, runs as it is"

# Decorators that mean "do not convert statically": the framework converts at trace time, or the user
# asked for the function to run as is. Matched on the last part of the decorator's dotted name.
_KEEP_AS_IS = {"function": "decorated with a framework's `function`, which converts it when it traces it",
               "do_not_convert": "marked with do_not_convert"}
# Decorators that convert at run time: dropped from a statically converted function (it is converted).
_CONVERTING = {"convert", "to_graph"}


@dataclass(frozen=True)
class Problem:
    """A function that could not be converted, in the compiler's `path:line:col: error: message` form."""

    filename: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}:{self.col}: error: {self.message}"


@dataclass
class ModuleConversion:
    """The converted module's text and what happened to each function."""

    code: str
    original: str = ""
    defined: list[str] = field(default_factory=list)       # every function and method of the module
    converted: list[str] = field(default_factory=list)     # qualified names, in source order
    skipped: dict[str, str] = field(default_factory=dict)  # qualified name -> why it was kept as is
    problems: list[Problem] = field(default_factory=list)


class ModuleSyntaxError(ValueError):
    """The input is not valid Python; `problem` says where."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


def convert_module_source(source: str, filename: str = "<stdin>", names: Optional[Iterable[str]] = None,
                          recursive: bool = True, missing_ok: bool = False) -> ModuleConversion:
    """Convert the functions of a module given as text; never imports or runs it.

    `names` limits conversion to those functions (`name` or `Class.method`); a name that the module
    doesn't define is a `KeyError` listing the ones it does, unless `missing_ok`."""
    tree = _parse(source, filename)
    found = list(_functions(tree.body, ""))
    wanted = _select(found, names, filename, missing_ok)
    result = ModuleConversion(code=source, original=source, defined=[q for q, _ in found])
    replacements: list[tuple[int, int, str]] = []
    lines = source.splitlines(keepends=True)
    for qualname, node in found:
        if qualname not in wanted:
            continue
        reason = _reason_to_keep(node)
        if reason is not None:
            result.skipped[qualname] = reason
            continue
        try:
            text = _converted_text(node, filename, recursive, result.problems)
        except Exception as e:   # noqa: BLE001  a converter bug must not stop the other functions either
            result.problems.append(_problem(e, node, qualname, filename))
            replacements.append(_mark_unconverted(node, lines))
            continue
        start = min([node.lineno] + [d.lineno for d in node.decorator_list])
        indent = lines[start - 1][:len(lines[start - 1]) - len(lines[start - 1].lstrip())]
        replacements.append((start, node.end_lineno, _indent(text, indent)))
        result.converted.append(qualname)
    if replacements:
        result.code = _add_import(_apply(lines, replacements), tree)
    return result


def _problem(error: Exception, node: ast.FunctionDef, qualname: str, filename: str) -> Problem:
    if isinstance(error, ConversionError):
        return Problem(filename, error.lineno or node.lineno, (error.col or 0) + 1, error.message)
    return Problem(filename, node.lineno, node.col_offset + 1,
                   f"internal error while converting {qualname} ({type(error).__name__}: {error}); it is left as "
                   "it is. Please report this with the function's source")


def _mark_unconverted(node: ast.FunctionDef, lines: list[str]) -> tuple[int, int, str]:
    """An insertion (nothing replaced) of the marker just above the `def` line: converted callers must run the
    function as it is (Python semantics) rather than try again, and fail, to convert it when called."""
    line = lines[node.lineno - 1]
    indent = line[:len(line) - len(line.lstrip())]
    return node.lineno, node.lineno - 1, f"{indent}@{MARKER}  {UNCONVERTED_COMMENT}\n"


# --- finding the functions ---------------------------------------------------------------------------

def _parse(source: str, filename: str) -> ast.Module:
    try:
        return ast.parse(source, filename)
    except SyntaxError as e:
        message = e.msg if e.msg.startswith("invalid syntax") else f"invalid syntax: {e.msg}"
        raise ModuleSyntaxError(Problem(filename, e.lineno or 0, e.offset or 0, message)) from None


def _functions(body: list, prefix: str) -> Iterator[tuple[str, ast.FunctionDef]]:
    """Top-level functions and methods (of classes at any depth), with qualified names; also those
    defined under a module- or class-level `if`/`try`/`with` (`if sys.version_info ...: def f`)."""
    for node in body:
        if isinstance(node, ast.FunctionDef):
            yield prefix + node.name, node
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node.body, f"{prefix}{node.name}.")
        elif isinstance(node, (ast.If, ast.Try, getattr(ast, "TryStar", ast.Try), ast.With)):
            for block in (node.body, getattr(node, "orelse", []), getattr(node, "finalbody", []),
                          *(h.body for h in getattr(node, "handlers", []))):
                yield from _functions(block, prefix)


def _select(found: list, names: Optional[Iterable[str]], filename: str, missing_ok: bool) -> set[str]:
    available = [q for q, _ in found]
    if names is None:
        return set(available)
    wanted = set(names)
    missing = sorted(wanted - set(available))
    if missing and not missing_ok:
        raise KeyError(f"{filename} defines no function named {', '.join(map(repr, missing))}; "
                       f"it defines: {', '.join(available) or 'none'}")
    return wanted


def _decorator_name(node: ast.expr) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    parts = []
    while isinstance(target, ast.Attribute):
        parts.append(target.attr)
        target = target.value
    if isinstance(target, ast.Name):
        parts.append(target.id)
    return ".".join(reversed(parts))


def _already_converted(node: ast.FunctionDef) -> bool:
    body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    return len(body) == 1 and isinstance(body[0], ast.With) and any(
        _decorator_name(item.context_expr) == "ag__.FunctionScope" for item in body[0].items)


GENERATOR_REASON = "a generator: runs as it is, with Python's semantics (autograph never converts generators)"


def _is_generator(node: ast.FunctionDef) -> bool:
    """Whether `node` itself yields (a `yield` in a function or lambda nested in it is that one's)."""
    stack = list(node.body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(n))
    return False


def _reason_to_keep(node: ast.FunctionDef) -> Optional[str]:
    if _already_converted(node):
        return "already converted"
    if _is_generator(node):
        return GENERATOR_REASON
    for decorator in node.decorator_list:
        last = _decorator_name(decorator).rpartition(".")[2]
        if last in _KEEP_AS_IS:
            return _KEEP_AS_IS[last]
    return None


# --- converting one function -------------------------------------------------------------------------

def _converted_text(node: ast.FunctionDef, filename: str, recursive: bool, problems: list[Problem]) -> str:
    return ast.unparse(ast.fix_missing_locations(_converted_tree(node, filename, recursive, problems))) + "\n"


def _converted_tree(node: ast.FunctionDef, filename: str, recursive: bool, problems: list[Problem]) -> ast.FunctionDef:
    """The converted function, marked; functions nested in it are converted first, here, so the output
    never needs a function's source at run time (a nested one that can't be converted is reported
    and left as it is)."""
    from autograph.pipeline import convert_node
    from autograph.pyct.to_ast import to_ast

    user_ag = next((n for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == "ag__"), None)
    if user_ag is not None:   # before the nested functions are converted: theirs is the module, as here
        raise ConversionError(f"{node.name} uses the name `ag__`, which the converted module imports autograph "
                              "as; rename it (autograph.convert at run time picks another name itself)",
                              filename, user_ag.lineno, user_ag.col_offset)
    _convert_nested(node, filename, recursive, problems)
    gast_node = _as_gast(node)
    converted = convert_node(gast_node, filename, node.name, recursive, module_alias="ag__")
    out = to_ast(converted, converted.lineno, converted.col_offset)
    out.name = node.name
    kept = [d for d in node.decorator_list if _decorator_name(d).rpartition(".")[2] not in _CONVERTING]
    out.decorator_list = kept + [ast.parse(MARKER, mode="eval").body]
    _restore_docstring(out, ast.get_docstring(node, clean=False))
    return out


def _convert_nested(node: ast.AST, filename: str, recursive: bool, problems: list[Problem]) -> None:
    """Replace each function defined in `node`'s statements (at any depth, in classes too) by its converted form."""
    for name, value in ast.iter_fields(node):
        if not (isinstance(value, list) and value and all(isinstance(v, ast.AST) for v in value)):
            continue
        for i, child in enumerate(value):
            if isinstance(child, ast.FunctionDef) and _reason_to_keep(child) is None:
                try:
                    value[i] = _converted_tree(child, filename, recursive, problems)
                except ConversionError as e:
                    problems.append(_problem(e, child, child.name, filename))
                    child.decorator_list.append(ast.parse(MARKER, mode="eval").body)
            elif isinstance(child, ast.stmt) and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                _convert_nested(child, filename, recursive, problems)
            elif isinstance(child, ast.excepthandler) or type(child).__name__ == "match_case":
                _convert_nested(child, filename, recursive, problems)


def _as_gast(node: ast.FunctionDef) -> gast.FunctionDef:
    """The function as gast, with the locations of the user's file (converters report them)."""
    module = gast.ast_to_gast(ast.Module(body=[node], type_ignores=[]))
    return module.body[0]


def _restore_docstring(fn: ast.FunctionDef, docstring: Optional[str]) -> None:
    """Put the docstring back where Python looks for it (the converter moved it into the scope)."""
    if docstring is None:
        return
    for stmt in ast.walk(fn):
        body = getattr(stmt, "body", None)
        if isinstance(body, list):
            for i, inner in enumerate(body):
                if isinstance(inner, ast.Expr) and isinstance(inner.value, ast.Constant) and \
                        inner.value.value == docstring:
                    del body[i]
                    if not body:
                        body.append(ast.Pass())
                    fn.body.insert(0, ast.Expr(ast.Constant(docstring)))
                    return


# --- assembling the module ---------------------------------------------------------------------------

def _indent(code: str, indent: str) -> str:
    """`textwrap.indent` that leaves the inside of multi-line strings (a method's docstring) as it is."""
    if not indent:
        return code
    inside: set[int] = set()
    opened: list[int] = []           # Python 3.12+ tokenizes f-strings in pieces
    for token in tokenize.generate_tokens(io.StringIO(code).readline):
        kind = tokenize.tok_name[token.type]
        if kind == "FSTRING_START":
            opened.append(token.start[0])
        elif kind == "FSTRING_END":
            inside.update(range(opened.pop() + 1, token.end[0] + 1))
        elif token.type == tokenize.STRING:
            inside.update(range(token.start[0] + 1, token.end[0] + 1))
    return "".join(line if number in inside or not line.strip() else indent + line
                   for number, line in enumerate(code.splitlines(keepends=True), 1))


def _apply(lines: list[str], replacements: list[tuple[int, int, str]]) -> str:
    out: list[str] = []
    position = 1
    for start, end, text in sorted(replacements):
        out.extend(lines[position - 1:start - 1])
        out.append(text)
        position = end + 1
    out.extend(lines[position - 1:])
    return "".join(out)


def _add_import(code: str, tree: ast.Module) -> str:
    """`import autograph as ag__` after the docstring and `from __future__` imports, or after the
    comment lines the module starts with."""
    if any(isinstance(n, ast.Import) and any(a.name == "autograph" and a.asname == "ag__" for a in n.names)
           for n in tree.body):
        return code
    after = 0
    for node in tree.body:
        is_docstring = node is tree.body[0] and isinstance(node, ast.Expr) and isinstance(
            getattr(node, "value", None), ast.Constant) and isinstance(node.value.value, str)
        if is_docstring or isinstance(node, ast.ImportFrom) and node.module == "__future__":
            after = node.end_lineno
        else:
            break
    lines = code.splitlines(keepends=True)
    if not after:   # keep a leading comment block (#! line, coding declaration, licence header) on top
        while after < len(lines) and lines[after].lstrip().startswith("#"):
            after += 1
    # converted functions come after these first statements, so their line numbers still hold here
    if after and not lines[after - 1].endswith("\n"):
        lines[after - 1] += "\n"
    return "".join(lines[:after] + [IMPORT_LINE + "\n"] + lines[after:])
