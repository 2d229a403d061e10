"""The bad-input corpus: programs that must be rejected or reported clearly.

Each file in `programs/` is a small user program with real path and line
numbers. It defines:

- `trigger()`: runs the bad input;
- `EXPECT`: the exception class (or tuple of classes) expected, or the warning
  category when `WARNING = True`;
- `MATCH`: a regular expression the message must contain;
- optionally `LOCATION = "traceback"` for ordinary Python exceptions raised
  by the user's own line (the innermost traceback frame must be that line)
  instead of a message naming `file:line` (the default);
- optionally `RESULT`: for warning cases, the value `trigger()` must return.

Lines marked `# <- here` are the offending lines; the error must name one of
them. No case may end in a silent answer, or in a bare KeyError /
AttributeError / IndexError, or in an error that shows only internal frames.
"""
from __future__ import annotations

import importlib.util
import re
import sys
import traceback
import warnings
from pathlib import Path
from types import ModuleType

import pytest

PROGRAMS = Path(__file__).parent / "programs"
MARK = "# <- here"

# Cases the project currently gets wrong: stem -> the file and line of the wrong behaviour (strict xfail).
XFAIL: dict[str, str] = {}


def _load(path: Path) -> ModuleType:
    name = f"bad_inputs_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _marked_lines(path: Path) -> set[int]:
    lines = {i for i, text in enumerate(path.read_text().splitlines(), 1) if MARK in text}
    assert lines, f"{path.name} marks no offending line with '{MARK}'"
    return lines


def _names_user_line(text: str, path: Path, lines: set[int]) -> bool:
    found = {int(n) for n in re.findall(re.escape(path.name) + r"\"?(?:, line |:)(\d+)", text)}
    return bool(found & lines)


def _frames(exc: BaseException) -> list[traceback.FrameSummary]:
    return traceback.extract_tb(exc.__traceback__)


def _describe(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc))


def _cases():
    for path in sorted(PROGRAMS.glob("*.py")):
        marks = [pytest.mark.xfail(strict=True, reason=XFAIL[path.stem])] if path.stem in XFAIL else []
        yield pytest.param(path, id=path.stem, marks=marks)


def test_corpus_is_large_enough():
    assert len(list(PROGRAMS.glob("*.py"))) >= 40


@pytest.mark.parametrize("path", list(_cases()))
def test_bad_input(path: Path):
    module = _load(path)
    lines = _marked_lines(path)
    if getattr(module, "WARNING", False):
        _check_warning_case(module, path, lines)
    else:
        _check_error_case(module, path, lines)


def _check_error_case(module: ModuleType, path: Path, lines: set[int]) -> None:
    try:
        result = module.trigger()
    except Exception as e:  # noqa: BLE001 - the case decides what is right
        exc = e
    else:
        pytest.fail(f"{path.name}: no error; trigger() returned {result!r} (a silent answer)")
    shown = _describe(exc)
    assert type(exc) not in (KeyError, AttributeError, IndexError), f"internal error:\n{shown}"
    assert isinstance(exc, module.EXPECT), f"expected {module.EXPECT}, got:\n{shown}"
    assert re.search(module.MATCH, str(exc)), f"message does not match {module.MATCH!r}:\n{shown}"
    frames = _frames(exc)
    if getattr(module, "LOCATION", "message") == "traceback":
        last = frames[-1]
        assert last.filename == str(path) and last.lineno in lines, f"last frame is not the user's line:\n{shown}"
    else:
        assert _names_user_line(str(exc), path, lines), (
            f"the message does not name {path.name} and one of lines {sorted(lines)}:\n{shown}")
    assert any(f.filename == str(path) for f in frames), f"no frame of the user's file in the traceback:\n{shown}"


def _check_warning_case(module: ModuleType, path: Path, lines: set[int]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = module.trigger()
    relevant = [w for w in caught if issubclass(w.category, module.EXPECT) and re.search(module.MATCH, str(w.message))]
    assert relevant, f"no {module.EXPECT.__name__} matching {module.MATCH!r}; got {[str(w.message) for w in caught]}"
    assert any(
        (w.filename == str(path) and w.lineno in lines) or _names_user_line(str(w.message), path, lines)
        for w in relevant), [(w.filename, w.lineno, str(w.message)) for w in relevant]
    if hasattr(module, "RESULT"):
        assert result == module.RESULT
