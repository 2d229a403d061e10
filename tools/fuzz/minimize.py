"""Shrink a failing program: drop statements, or replace a compound statement by
its body, while the failure persists."""
from __future__ import annotations

import ast
from typing import Callable

_BLOCKS = ("body", "orelse", "finalbody")


def _statement_slots(tree: ast.AST):
    """(block list, index) for every statement inside function `f`, at any depth: the bodies of if/while/
    for/with/try, its handlers and finally, match cases and nested defs."""
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "f")
    stack = [fn]
    while stack:
        node = stack.pop()
        for field in _BLOCKS:
            block = getattr(node, field, None)
            if isinstance(block, list):
                for i in range(len(block)):
                    yield block, i
                stack.extend(s for s in block if _has_blocks(s))
        stack.extend(getattr(node, "handlers", []))
        stack.extend(getattr(node, "cases", []))


def _has_blocks(node: ast.AST) -> bool:
    return any(isinstance(getattr(node, f, None), list) for f in _BLOCKS) or hasattr(node, "cases")


def _candidates(statement: ast.stmt):
    """What a statement may be replaced by: nothing, or (a compound one) one of its blocks."""
    yield []
    for field in _BLOCKS:
        block = getattr(statement, field, None)
        if isinstance(block, list) and block and not isinstance(statement, ast.FunctionDef | ast.ClassDef):
            yield block
    for part in getattr(statement, "handlers", []) + getattr(statement, "cases", []):
        yield part.body


def minimize(source: str, still_fails: Callable[[str], bool], max_rounds: int = 500) -> str:
    for _ in range(max_rounds):
        smaller = _one_step(source, still_fails)
        if smaller is None:
            return source
        source = smaller
    return source


def _one_step(source: str, still_fails: Callable[[str], bool]):
    """The first smaller program that still fails (last statements tried first), or None."""
    slots = list(_statement_slots(ast.parse(source)))
    for position in range(len(slots) - 1, -1, -1):
        block, index = slots[position]
        statement = block[index]
        if isinstance(statement, ast.Pass) or isinstance(statement, ast.Return) and len(block) == 1:
            continue
        for n in range(len(list(_candidates(statement)))):
            tree = ast.parse(source)
            block, index = list(_statement_slots(tree))[position]
            replacement = list(_candidates(block[index]))[n]
            block[index:index + 1] = replacement or ([ast.Pass()] if len(block) == 1 else [])
            candidate = ast.unparse(tree) + "\n"
            if candidate != source and _fails(still_fails, candidate):
                return candidate
    return None


def _fails(still_fails: Callable[[str], bool], candidate: str) -> bool:
    try:
        compile(candidate, "<candidate>", "exec")
        return still_fails(candidate)
    except Exception:  # noqa: BLE001 - a broken candidate is just not smaller
        return False
