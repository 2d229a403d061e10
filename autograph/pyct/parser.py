"""Read a function's source and parse it to gast, keeping the user's locations.

Every node of the returned tree has `lineno`/`col_offset` in the user's file
(not in the dedented snippet), so code compiled from converted trees reports
the user's own file and line in tracebacks.
"""
from __future__ import annotations

import ast
import inspect
import textwrap
import types
from dataclasses import dataclass

import gast

from autograph.errors import ConversionError, SourceUnavailableError
from autograph.pyct import mangling
from autograph.pyct.to_ast import from_ast


@dataclass
class ParsedFunction:
    node: gast.FunctionDef  # a lambda is returned as an equivalent FunctionDef
    source: str             # the function's own source, dedented
    filename: str
    is_lambda: bool


def parse_function(fn: types.FunctionType) -> ParsedFunction:
    """The function's definition as gast, with locations in the user's file."""
    # The source of the function's own code object: `inspect.getsource(fn)` follows `__wrapped__`, which
    # `functools.wraps` sets, and would give the wrapped function's source in place of the wrapper's.
    code = fn.__code__
    name = code.co_name
    if name != "<lambda>":
        quick = _parse_def_quickly(fn)
        if quick is not None:
            return quick
    try:
        lines, first_line = inspect.getsourcelines(code)
        filename = inspect.getsourcefile(code) or code.co_filename
    except (OSError, TypeError) as e:
        raise SourceUnavailableError(f"the source of {fn.__qualname__} is not available ({e})") from None
    text = "".join(lines)
    if name != "<lambda>":
        found = _parse_def(text, name, first_line)
        if found is not None:
            return ParsedFunction(found, textwrap.dedent(text), filename, False)
    dedented = textwrap.dedent(text)
    indent = _indent_removed(text, dedented)
    try:
        tree = _parse_fragment(dedented, filename, first_line)
        _shift_locations(tree, first_line - 1, indent)
    except ConversionError:
        if name != "<lambda>":
            raise
        tree = _parse_whole_file(code, filename, first_line)   # `f(\n lambda u: g(u))(t), x)`: unbalanced lines
    if name == "<lambda>":
        node = _find_lambda(tree, fn, filename)
        return ParsedFunction(_lambda_to_def(node), dedented, filename, True)
    for node in tree.body:
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)) and node.name == name:
            if isinstance(node, gast.AsyncFunctionDef):
                raise ConversionError("async functions are not supported", filename, node.lineno, node.col_offset)
            return ParsedFunction(node, dedented, filename, False)
    raise SourceUnavailableError(f"could not find the definition of {fn.__qualname__} in its source")


def _parse_def_quickly(fn: types.FunctionType) -> ParsedFunction | None:
    """What the path below gives for a `def`, without `inspect.getblock`, whose tokenizer takes half the
    time of parsing: the candidate block ends at the last line of the function's code, and is the whole
    block when it parses to the function, ending on that line, and the next line of code is indented no
    more than the `def` (nothing after the candidate belongs to the block). None when in doubt; the path
    below then gives the answer (or the error)."""
    code = fn.__code__
    try:
        lines, start = inspect.findsource(code)
        filename = inspect.getsourcefile(code) or code.co_filename
    except Exception:  # noqa: BLE001 - the path below reports it
        return None
    end = _last_code_line(code)
    head = lines[start] if start < len(lines) else ""
    indent = head[:len(head) - len(head.lstrip())]
    if not start < end <= len(lines) or "\t" in indent or not head.lstrip().startswith(("def ", "@")):
        return None
    following = _next_code_line(lines, end)
    if following is not None and ("\t" in following[:len(following) - len(following.lstrip())]
                                  or len(following) - len(following.lstrip()) > len(indent)):
        return None
    node = _parse_def("".join(lines[start:end]), code.co_name, start + 1)
    if node is None or node.end_lineno != end:
        return None
    # inspect's block also holds the comment lines after the code indented as much as the body (when
    # the body starts on a line of its own)
    body = node.body[0]
    on_own_line = not lines[body.lineno - 1].encode()[:body.col_offset].strip()
    body_col = body.col_offset if on_own_line else None
    block_end = end
    for i in range(end, len(lines)):
        stripped = lines[i].strip()
        if stripped.startswith("#"):
            if body_col is not None and len(lines[i]) - len(lines[i].lstrip()) >= body_col:
                block_end = i + 1
        elif stripped:
            break
    return ParsedFunction(node, textwrap.dedent("".join(lines[start:block_end])), filename, False)


def _last_code_line(code: types.CodeType) -> int:
    """The last line any instruction of `code` (nested functions included) spans."""
    last = code.co_firstlineno
    for _, end, _, _ in code.co_positions():
        if end is not None and end > last:
            last = end
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            last = max(last, _last_code_line(const))
    return last


def _next_code_line(lines: list[str], index: int) -> str | None:
    for line in lines[index:]:
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return line
    return None


def _parse_def(text: str, name: str, first_line: int):
    """The fast path for a `def`: parse it where it stands (blank lines before it, and an `if 1:` around
    an indented one), so lines and columns are the file's without shifting; None if that fails."""
    indented = text[:1] in (" ", "\t")
    if indented and first_line < 2:
        return None
    padding = "\n" * (first_line - 2) + "if 1:\n" if indented else "\n" * (first_line - 1)
    try:
        tree = ast.parse(padding + text)
    except SyntaxError:
        return None
    body = tree.body[0].body if indented and tree.body and isinstance(tree.body[0], ast.If) else tree.body
    for node in body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return from_ast(node)
        if isinstance(node, ast.AsyncFunctionDef) and node.name == name:
            return None      # reported by the slow path
    return None


def parse_source(source: str, filename: str = "<string>") -> gast.Module:
    try:
        return gast.parse(source)
    except SyntaxError as e:
        raise ConversionError(f"invalid syntax: {e.msg}", filename, e.lineno or 0, (e.offset or 1) - 1) from None


def _indent_removed(text: str, dedented: str) -> int:
    first = next((line for line in text.splitlines() if line.strip()), "")
    first_dedented = next((line for line in dedented.splitlines() if line.strip()), "")
    return len(first) - len(first_dedented)


def _parse_fragment(text: str, filename: str, first_line: int) -> gast.Module:
    """Parse source that may be a fragment (a lambda inside a larger expression)."""
    attempts = [text, f"(\n{text}\n)", text.rstrip().rstrip(",") + "\n"]
    for i, attempt in enumerate(attempts):
        try:
            tree = gast.parse(attempt)
        except SyntaxError:
            continue
        if i == 1:
            _shift_locations(tree, -1, 0)
        return tree
    # A lambda in the middle of a multi-line expression: parse line by line growing.
    lines = text.splitlines(True)
    for end in range(len(lines), 0, -1):
        for candidate in ("".join(lines[:end]), "(\n" + "".join(lines[:end]) + "\n)"):
            try:
                tree = gast.parse(candidate)
            except SyntaxError:
                continue
            if candidate.startswith("(\n"):
                _shift_locations(tree, -1, 0)
            return tree
    raise ConversionError("could not parse the source of this function (is it a fragment of a larger "
                          "expression?)", filename, first_line, 0)


def _parse_whole_file(code, filename: str, first_line: int) -> gast.Module:
    """The whole source file of `code` (a lambda on a line that no fragment of the file parses alone)."""
    try:
        return gast.parse("".join(inspect.findsource(code)[0]))
    except (OSError, SyntaxError):
        raise ConversionError("could not parse the source of this function (is it a fragment of a larger "
                              "expression?)", filename, first_line, 0) from None


def _shift_locations(tree, line_delta: int, col_delta: int) -> None:
    for node in gast.walk(tree):
        if hasattr(node, "lineno") and node.lineno is not None:
            node.lineno += line_delta
            if getattr(node, "end_lineno", None) is not None:
                node.end_lineno += line_delta
            if getattr(node, "col_offset", None) is not None:
                node.col_offset += col_delta
            if getattr(node, "end_col_offset", None) is not None:
                node.end_col_offset += col_delta


def _find_lambda(tree, fn, filename: str) -> gast.Lambda:
    code = fn.__code__
    arg_names = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    private = mangling.private_prefix(code)   # a lambda in a class has its private parameters mangled
    candidates = [n for n in gast.walk(tree) if isinstance(n, gast.Lambda)
                  and [mangling.mangled(a.id, private) for a in n.args.args + n.args.kwonlyargs] == arg_names
                  and n.lineno <= code.co_firstlineno <= (n.end_lineno or n.lineno)]
    if len(candidates) > 1:
        # an instruction's source span; zero-width ones (RESUME, and RETURN_VALUE before 3.13) point at the line's start
        positions = [(line, col) for line, end_line, col, end_col in code.co_positions()
                     if line is not None and col is not None and (end_line, end_col) != (line, col)]
        candidates = [n for n in candidates if positions and _contains(n.body, positions)] or candidates
        # a lambda inside another of the same parameters (`lambda: f(lambda: x)`): its code's positions are
        # inside both, and it is the innermost
        candidates = [n for n in candidates if not any(m is not n and _inside(m, n) for m in candidates)]
    if len(candidates) != 1:
        raise ConversionError(
            f"cannot tell which of {len(candidates)} lambdas on this line is the one to convert; put it on a "
            "line of its own or make it a def", filename, code.co_firstlineno, 0)
    return candidates[0]


def _contains(node, positions) -> bool:
    start = (node.lineno, node.col_offset)
    end = (node.end_lineno or node.lineno, node.end_col_offset or 10**9)
    return all(start <= pos < end or pos[0] > end[0] for pos in positions[-1:]) and any(
        start <= pos <= end for pos in positions)


def _inside(inner, outer) -> bool:
    return ((outer.lineno, outer.col_offset) <= (inner.lineno, inner.col_offset) and
            (inner.end_lineno, inner.end_col_offset) <= (outer.end_lineno, outer.end_col_offset))


def _lambda_to_def(node: gast.Lambda) -> gast.FunctionDef:
    ret = gast.Return(value=node.body)
    gast.copy_location(ret, node.body)
    fdef = gast.FunctionDef(name="lambda_", args=node.args, body=[ret], decorator_list=[], returns=None,
                            type_comment=None, type_params=[])
    gast.copy_location(fdef, node)
    return fdef
