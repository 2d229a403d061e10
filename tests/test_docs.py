"""Every Python code block in README.md and docs/ runs; generated-code excerpts and shown outputs are real.

Markers in the Markdown, on the line before a block:
- `<!-- to_code: NAME -->` before a text block: the block is part of `autograph.to_code(NAME)`.
- `<!-- output -->` before a text block: the block is exactly what the Python block before it prints.
"""
import contextlib
import importlib.util
import io
import pathlib
import re
import textwrap

import pytest

import autograph as ag

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"(?:<!-- (?:to_code: (?P<fn>\w+)|(?P<output>output)) -->\n)?```(?P<lang>\w*)\n(?P<code>.*?)```",
                   re.S)


def blocks(page):
    return [(m.group("lang"), m.group("code"), m.group("fn") or m.group("output"))
            for m in BLOCK.finditer(page.read_text())]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_python_blocks_run_and_to_code_excerpts_match(page, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    namespace = {"__name__": f"doc_{page.stem}"}
    # Code blocks run from a real file so that autograph can read the functions' source.
    source, printed = "", ""
    for lang, code, fn_name in blocks(page):
        if lang == "python":
            _skip_unless_installed(code, page)
            padded = "\n" * source.count("\n") + code  # keeps line numbers of the file below
            source += code + "\n"
            module = tmp_path / f"doc_{page.stem}_{len(source)}.py"
            module.write_text(source)
            out = io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):  # tf.print writes to stderr
                exec(compile(padded, str(module), "exec"), namespace)
            printed = out.getvalue()
        elif fn_name == "output":
            assert printed.rstrip() == code.rstrip(), \
                f"{page.name}: the output shown differs from what the block prints; if the change is right, run: " \
                f"python -m tools.docgen.outputs {page.relative_to(ROOT)}"
        elif fn_name is not None:
            generated = ag.to_code(namespace[fn_name])
            excerpt = textwrap.dedent(code)
            dedented_generated = "\n".join(line[8:] for line in generated.splitlines())
            assert excerpt.strip() in dedented_generated, f"{page.name}: excerpt of to_code({fn_name}) is stale"


# The optional frameworks a page's blocks may import, and the extra that installs each (pyproject.toml).
EXTRAS = {"jax": "jax", "torch": "torch", "onnx": "onnx", "onnxruntime": "onnx", "tensorflow": "tensorflow"}


def _skip_unless_installed(code: str, page: pathlib.Path) -> None:
    """Skip the rest of the page (the blocks before this one have run) at a block that imports an optional
    framework that is not installed."""
    imported = set(re.findall(r"^\s*(?:import|from)\s+(\w+)", code, re.M))
    for module, extra in EXTRAS.items():
        if module in imported and not _installed(module):
            pytest.skip(f"{page.name}: a block imports {module}, which is not installed (pip install -e "
                        f"'.[{extra}]' to run the rest of the page)")


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


def test_pages_have_code():
    assert sum(1 for page in PAGES for lang, _, _ in blocks(page) if lang == "python") >= 8


LINK = re.compile(r"\]\(([\w./-]*[./][\w./-]*)(?:#[\w-]*)?\)")


# The pages written by the documentation work (other pages' links are their authors' to keep: a page may link
# a file its author has not committed yet).
LINKED_PAGES = [ROOT / "README.md", *(ROOT / "docs" / name for name in
                                      ("tutorial.md", "limitations.md", "errors.md", "autograph.md")),
                *sorted((ROOT / "docs" / "reference").glob("*.md"))]


@pytest.mark.parametrize("page", LINKED_PAGES, ids=lambda p: p.name)
def test_relative_links_point_at_files_that_exist(page):
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)   # links only, not code
    missing = [target for target in LINK.findall(text)
               if "://" not in target and not (page.parent / target).exists()]
    assert not missing, f"{page.relative_to(ROOT)} links to missing files: {missing}"
