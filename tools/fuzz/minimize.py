"""Shrink a failing program: drop statements while the failure persists."""
from __future__ import annotations

import ast
from typing import Callable


def _statement_slots(tree: ast.AST):
    """(block list, index) for every statement inside function `f`."""
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "f")
    stack = [fn]
    while stack:
        node = stack.pop()
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                for i in range(len(block)):
                    yield block, i
                stack.extend(s for s in block if hasattr(s, "body"))


def minimize(source: str, still_fails: Callable[[str], bool], max_rounds: int = 500) -> str:
    for _ in range(max_rounds):
        changed = False
        slots = list(_statement_slots(ast.parse(source)))
        for position in range(len(slots) - 1, -1, -1):
            tree = ast.parse(source)
            block, index = list(_statement_slots(tree))[position]
            if isinstance(block[index], ast.Pass) or isinstance(block[index], ast.Return) and len(block) == 1:
                continue
            removed = block.pop(index)
            if not block:
                block.append(ast.Pass())
            candidate = ast.unparse(tree) + "\n"
            if candidate == source:
                continue
            try:
                fails = still_fails(candidate)
            except Exception:  # noqa: BLE001 - a broken candidate is just not smaller
                fails = False
            if fails:
                source, changed = candidate, True
                break
            del removed
        if not changed:
            return source
    return source
