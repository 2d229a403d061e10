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


def minimize(source: str, still_fails: Callable[[str], bool], max_rounds: int = 50) -> str:
    for _ in range(max_rounds):
        smaller = _one_pass(source, still_fails)
        if smaller == source:
            return source
        source = smaller
    return source


def _one_pass(source: str, still_fails: Callable[[str], bool]) -> str:
    """Try each statement once, last first, keeping every change that still fails. Slots before the one
    tried do not move when it is dropped or unwrapped (its own statements come after it), so the pass
    goes on from the previous slot instead of starting again."""
    position = len(list(_statement_slots(ast.parse(source)))) - 1
    while position >= 0:
        block, index = list(_statement_slots(ast.parse(source)))[position]
        statement = block[index]
        if not (isinstance(statement, ast.Pass) or isinstance(statement, ast.Return) and len(block) == 1):
            source = _first_smaller(source, position, len(list(_candidates(statement))), still_fails) or source
        position -= 1
    return source


def _first_smaller(source: str, position: int, n_candidates: int, still_fails: Callable[[str], bool]):
    for n in range(n_candidates):
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
