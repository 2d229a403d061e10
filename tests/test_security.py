"""Security: converting never runs user code, and the only code compiled is the project's own output.

- `to_code` reads a function's source; the module it came from is not run again.
- `autograph.cli.main` converts from source text: an input whose top level
  would write a file or raise converts without doing either.
- An AST scan of `autograph/` and `runtime/` finds every call to `eval`,
  `exec` and `compile` (and the ways to run a file: `exec_module`,
  `run_path`, `import_module` on input); each must be on the allow-list below,
  which says why that call only ever sees generated code.
"""
from __future__ import annotations

import ast
import importlib.util
import io
import sys
from pathlib import Path

import pytest

import autograph as ag

ROOT = Path(__file__).resolve().parent.parent

# (file, enclosing function, called name) -> why it is safe.
ALLOWED = {
    ("autograph/api.py", "_compile", "compile"):
        "compiles the converted function's AST, built by the converters from the parsed source; never a string",
    ("runtime/executor/codegen.py", "compile_graph", "compile"):
        "compiles the executor's straight-line code, generated from a traced graph's ops (names it made itself)",
    ("runtime/dot.py", "main", "run_path"):
        "`python -m runtime.dot FILE FUNCTION`: runs the file the user named on the command line, as `python FILE` would",
    ("runtime/executor/codegen.py", "compile_graph", "exec"):
        "defines the generated executor function from the source compiled on the line before",
    ("runtime/lowering/jax_executable.py", "_define", "compile"):
        "compiles jit_compile's call paths, generated from the graph's inputs' and outputs' counts, dtypes, shapes",
    ("runtime/lowering/jax_executable.py", "_define", "exec"):
        "defines that generated call path from the source compiled in the same statement",
}
SUSPECT = {"eval", "exec", "compile", "exec_module", "run_path", "run_module", "__import__"}


def _calls(path: Path):
    """(enclosing function, called name, line) for each call to a suspect name in `path`."""
    tree = ast.parse(path.read_text(), str(path))
    found = []

    def visit(node, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, child.name)
                continue
            if isinstance(child, ast.Call):
                func = child.func
                name = func.id if isinstance(func, ast.Name) else None
                if isinstance(func, ast.Attribute) and func.attr in SUSPECT - {"compile"}:
                    name = func.attr  # re.compile and friends are not code compilation
                if name in SUSPECT:
                    found.append((function, name, child.lineno))
            visit(child, function)

    visit(tree, "<module>")
    return found


def test_only_generated_code_is_compiled_or_executed():
    seen = set()
    for package in ("autograph", "runtime"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for function, name, line in _calls(path):
                key = (rel, function, name)
                assert key in ALLOWED, f"{rel}:{line}: {name}() in {function} is not on the allow-list"
                seen.add(key)
    assert seen == set(ALLOWED), f"allow-list entries no longer used: {set(ALLOWED) - seen}"


def test_the_scan_finds_eval_and_exec(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("def f(s):\n    return eval(s)\n\nexec('x = 1')\n")
    assert _calls(probe) == [("f", "eval", 2), ("<module>", "exec", 4)]


SIDE_EFFECTS = '''
import pathlib
pathlib.Path({marker!r}).write_text("the module ran")


def clip(x):
    if x > 1:
        x = 1
    return x


raise SystemExit("the module ran to its end")
'''


def test_to_code_does_not_run_the_module_again(tmp_path):
    marker = tmp_path / "ran.txt"
    path = tmp_path / "effects.py"
    path.write_text(SIDE_EFFECTS.format(marker=str(marker)).replace('raise SystemExit("the module ran to its end")',
                                                                    ""))
    spec = importlib.util.spec_from_file_location("security_effects", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)   # the user imports their module: one side effect
    marker.unlink()
    code = ag.to_code(module.clip)
    assert "clip" in code and "ag__.if_stmt" in code
    assert not marker.exists(), "to_code ran the module's top-level code"


def test_cli_converts_without_importing_or_running(tmp_path):
    from autograph import cli
    marker = tmp_path / "ran.txt"
    path = tmp_path / "effects.py"
    path.write_text(SIDE_EFFECTS.format(marker=str(marker)))
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(["convert", str(path)], stdout=out, stderr=err)
    assert status == 0, err.getvalue()
    assert not marker.exists(), "the CLI ran the input's top-level code"
    assert "security_effects" not in sys.modules and "effects" not in sys.modules
    assert "def clip(x)" in out.getvalue() and "ag__.if_stmt" in out.getvalue()
    compile(out.getvalue(), "converted.py", "exec")   # the output is valid Python (compiled, not run)
