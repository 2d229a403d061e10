"""Refresh the outputs shown in hand-written pages: each text block marked `<!-- output -->` becomes
what the Python block before it prints.

    python -m tools.docgen.outputs docs/limitations.md docs/tutorial.md
    python -m tools.docgen.outputs --check docs/*.md     # exit 1 if a shown output is stale

The blocks of a page run in order in one namespace, from a real file (so autograph can read the
functions' source), as tests/test_docs.py runs them. Only the marked text blocks change; review the
diff before committing, since a changed output may be a regression rather than an improvement.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import re
import sys
import tempfile
from pathlib import Path

BLOCK = re.compile(r"(?:<!-- (?:to_code: (?P<fn>\w+)|(?P<output>output)) -->\n)?```(?P<lang>\w*)\n(?P<code>.*?)```",
                   re.S)
COMMAND = "python -m tools.docgen.outputs"


def refreshed(text: str, stem: str = "page") -> str:
    """`text` with every `<!-- output -->` block replaced by what the Python block before it prints."""
    namespace = {"__name__": f"doc_{stem}"}
    source, printed, parts, end = "", "", [], 0
    with tempfile.TemporaryDirectory() as folder:
        sys.path.insert(0, folder)
        try:
            for m in BLOCK.finditer(text):
                if m.group("lang") == "python":
                    code = m.group("code")
                    padded = "\n" * source.count("\n") + code
                    source += code + "\n"
                    module = Path(folder) / f"doc_{stem}_{len(source)}.py"
                    module.write_text(source)
                    out = io.StringIO()
                    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                        exec(compile(padded, str(module), "exec"), namespace)  # noqa: S102 - the page's own code
                    printed = out.getvalue()
                elif m.group("output"):
                    parts += [text[end:m.start("code")], printed.rstrip() + "\n"]
                    end = m.end("code")
        finally:
            sys.path.remove(folder)
    return "".join(parts) + text[end:]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Refresh the <!-- output --> blocks of Markdown pages.")
    parser.add_argument("pages", nargs="+", type=Path)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if an output shown is stale")
    args = parser.parse_args(argv)
    stale = 0
    for page in args.pages:
        text = page.read_text()
        new = refreshed(text, page.stem)
        if new != text:
            stale += 1
            if args.check:
                print(f"{page}: outputs shown are stale; run: {COMMAND} {page}", file=sys.stderr)
            else:
                page.write_text(new)
                print(f"updated {page}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    if __package__ in (None, ""):
        sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    sys.exit(main())
