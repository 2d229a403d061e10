"""`autograph convert`: convert a file's functions from their source text.

    autograph convert model.py                 # the converted module, on standard output
    autograph convert model.py -o model_graph.py
    autograph convert src/ -o build/src        # every .py below src/, mirrored under build/src
    autograph convert model.py --check         # report what can't be converted; write nothing
    autograph convert model.py --diff          # a unified diff of the original and the converted module
    cat model.py | autograph convert -         # standard input

The input is never imported or run (see `autograph.modules`). Problems are
reported on standard error as `path:line:col: error: message`, one per
function, and the other functions are still converted. Exit status: 0 when
everything converted, 1 when some function could not be converted, 2 for a
usage error or an input that can't be read or parsed.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import difflib
import multiprocessing
import os
import sys
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence, TextIO

from autograph.modules import ModuleConversion, ModuleSyntaxError, convert_module_source

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
DISTRIBUTION = "autograph-runtime"   # pyproject.toml's [project] name
_SKIPPED_DIRS = {"__pycache__", ".git", ".hg", ".svn", ".venv", "venv", ".tox", ".mypy_cache", ".pytest_cache",
                 "node_modules", "build", "dist"}
# Source bytes per worker process when -j is not given: starting a (spawned) worker costs about 0.8 s, and
# one process converts about 125 KB of source a second, so a worker is started only for about 2 s of work
# (docs/performance.md, "The command line": 13 files, 22 KB: -j 1 0.43-0.56 s, -j 2 1.27-1.42 s).
_BYTES_PER_WORKER = 256 * 1024

EPILOG = """\
examples:
  autograph convert model.py                  print the converted module
  autograph convert model.py -o model_ag.py   write it to a file
  autograph convert model.py -f relu -f Net.forward
                                              convert only these functions
  autograph convert src/ -o build/src         convert a package, mirroring its layout
  autograph convert model.py --check          list what can't be converted (like a linter)
  autograph convert model.py --diff           show what conversion changes
  cat model.py | autograph convert -          read standard input
  autograph convert src/ -o build/src -j 4 -q use 4 worker processes, no summary line
  autograph --version                         print the installed version

Problems are reported on standard error as path:line:col: error: message;
a function that can't be converted is left as it is and the others are
converted. Converted functions carry @ag__.do_not_convert, so that
runtime.function and autograph.convert run them as they are. Kept as they
are (not errors): generators, which run with Python's semantics; functions
decorated with a framework's function (converted when traced) or with
do_not_convert; functions already converted. A summary (files, functions,
time) goes to standard error; -q drops it. The output is written in the
encoding the input declares (# -*- coding: ... -*-), UTF-8 if none.

exit status: 0 converted, 1 some function could not be converted,
2 usage error (also a -f name the input doesn't define), unreadable or
unparsable input, or unwritable output. The input is never imported or run.
"""


class UsageError(Exception):
    """A command line that can't be carried out; reported as `autograph: error: ...`, exit 2."""


@dataclass
class FileResult:
    """One input file's outcome (picklable, so worker processes can return it)."""

    source_path: str
    output_path: Optional[str]
    conversion: Optional[ModuleConversion]
    fatal: Optional[str] = None      # unreadable or unparsable input


def _version() -> str:
    """The installed distribution's version; from a source checkout, `autograph.__version__` if set."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        import autograph
        return getattr(autograph, "__version__", "unknown (not installed)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autograph", description=textwrap.fill("AutoGraph-style transpiler: rewrites Python control flow "
                                                     "over tensors into functional cond / while_loop calls.", 79), formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  autograph convert model.py -o model_ag.py   convert a file's functions\n"
               "  autograph convert src/ --check              list what can't be converted\n\n"
               "Run 'autograph convert --help' for the convert command's options, more examples\nand the exit "
               "status.\nAt run time, AUTOGRAPH_VERBOSITY=1..3 (or autograph.set_verbosity) logs what is "
               "converted\nand staged: docs/logging.md.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    convert = commands.add_parser(
        "convert", help="convert a file's (or a directory's) functions from their source text",
        description=textwrap.fill(
            "Convert every function and method of PATH (or those named with -f) to its graph-ready "
            "form, from the source text alone: the input is never imported or run. The output is a drop-in "
            "module: imports and top-level code stay, each function is replaced by its converted form under "
            "its own name, and 'import autograph as ag__' is added.", 79),
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    convert.add_argument("path", metavar="PATH",
                         help="a .py file, a directory (every .py below it), or - for standard input")
    convert.add_argument("-o", "--output", metavar="OUT",
                         help="where to write: a file (for a file or -) or a directory (for a directory); "
                         "default: standard output (files only)")
    convert.add_argument("-f", "--function", metavar="NAME", action="append", dest="names",
                         help="convert only this function; repeat for several; a method is Class.method "
                         "(example: -f relu -f Net.forward)")
    mode = convert.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="convert nothing and write nothing: report the functions that could not be "
                      "converted, like a linter (exit 1 if there are any)")
    mode.add_argument("--diff", action="store_true",
                      help="print a unified diff of the original and the converted module instead of the "
                      "module; writes nothing")
    convert.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                         help="worker processes for a directory (default: from the amount of source, one "
                         "per 256 KB up to the number of CPUs: starting a worker costs about as much as "
                         "converting 100 KB)")
    convert.add_argument("-q", "--quiet", action="store_true", help="no summary on standard error")
    return parser


def main(argv: Optional[Sequence[str]] = None, stdin: Optional[TextIO] = None, stdout: Optional[TextIO] = None,
         stderr: Optional[TextIO] = None) -> int:
    """Run the command line; returns the exit status."""
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:          # argparse has printed its usage message (or --help / --version)
        return int(e.code or 0) if isinstance(e.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_help(stderr)
        return EXIT_USAGE
    try:
        return _convert_command(args, stdin, stdout, stderr)
    except UsageError as e:
        print(f"autograph: error: {e}", file=stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("autograph: interrupted; files already written are complete, the others were not written",
              file=stderr)
        return 130


# --- the convert command -----------------------------------------------------------------------------

def _convert_command(args, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    args.started = time.perf_counter()     # for the summary
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    if args.diff and args.output:
        raise UsageError("--diff prints the changes and writes nothing; leave out -o")
    if args.check and args.output:
        raise UsageError("--check writes nothing; leave out -o")
    if args.path == "-":
        return _convert_one(_from_text(_read_stream(stdin), "<stdin>", args), args, stdout, stderr)
    path = Path(args.path)
    if path.is_dir():
        return _convert_directory(path, args, stdout, stderr)
    if not path.exists():
        raise UsageError(f"{args.path}: no such file or directory")
    if args.output and Path(args.output).resolve() == path.resolve():
        raise UsageError(f"-o {args.output} is the input file; write the converted module somewhere else")
    if args.output and Path(args.output).is_dir():
        raise UsageError(f"-o {args.output} is a directory; for a single file give the output file's path")
    return _convert_one(_from_file(str(path), args.output, args.names, fail_on_missing_names=True), args,
                        stdout, stderr)


def _from_text(source: str, filename: str, args) -> FileResult:
    result = FileResult(filename, args.output, None)
    try:
        result.conversion = convert_module_source(source, filename, args.names)
    except ModuleSyntaxError as e:
        result.fatal = str(e.problem)
    except KeyError as e:
        raise UsageError(e.args[0]) from None
    return result


def _from_file(path: str, output: Optional[str], names, fail_on_missing_names: bool) -> FileResult:
    result = FileResult(path, output, None)
    try:
        source = _read(path)
    except (OSError, UnicodeDecodeError, SyntaxError) as e:   # SyntaxError: a bad encoding declaration
        result.fatal = f"{path}: error: can't read the file: {e}"
        return result
    try:
        result.conversion = convert_module_source(source, path, names, missing_ok=not fail_on_missing_names)
    except ModuleSyntaxError as e:
        result.fatal = str(e.problem)
    except KeyError as e:
        raise UsageError(e.args[0]) from None
    return result


def _read_stream(stream: TextIO) -> str:
    """Standard input's text, decoded as Python decodes a module: by its coding declaration (UTF-8 if none)."""
    binary = getattr(stream, "buffer", None)
    if binary is None:            # a text stream only (in-process callers): its text as it is
        return stream.read()
    import io
    import tokenize
    data = binary.read()
    try:
        encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    except SyntaxError as e:      # an unknown encoding in the declaration
        raise UsageError(f"<stdin>: {e}") from None
    return data.decode(encoding)


def _write_stream(stream: TextIO, text: str) -> None:
    """`text` on `stream` in the encoding the module declares, so that `autograph convert m.py > out.py` of a
    latin-1 module gives a latin-1 file, as -o does (a text-only stream gets the text as it is)."""
    binary = getattr(stream, "buffer", None)
    encoding = _declared_encoding(text)
    if binary is None or encoding == "utf-8" and (getattr(stream, "encoding", "") or "").lower() in ("utf-8", "utf8"):
        stream.write(text)
        return
    stream.flush()
    binary.write(text.encode(encoding))
    binary.flush()


def _read(path: str) -> str:
    import tokenize
    with tokenize.open(path) as f:     # honours a `# -*- coding: ... -*-` line, as Python does
        return f.read()


def _convert_one(result: FileResult, args, stdout: TextIO, stderr: TextIO) -> int:
    status = _report(result, args, stderr)
    if result.conversion is None:
        return status
    if args.diff:
        stdout.write(_diff(result))
    elif result.output_path and not args.check:
        _write(result.output_path, result.conversion.code)
    elif not args.check:
        _write_stream(stdout, result.conversion.code)
    _summary(args, stderr, [result])      # on standard error, whatever goes to standard output
    return status


def _report(result: FileResult, args, stderr: TextIO) -> int:
    if result.fatal is not None:
        print(result.fatal, file=stderr)
        return EXIT_USAGE
    for problem in result.conversion.problems:
        print(problem, file=stderr)
    return EXIT_PROBLEMS if result.conversion.problems else EXIT_OK


def _summary(args, stderr: TextIO, results: list[FileResult]) -> None:
    if args.quiet:
        return
    done = [r.conversion for r in results if r.conversion is not None]
    converted = sum(len(c.converted) for c in done)
    kept = sum(len(c.skipped) for c in done)
    failed = sum(len(c.problems) for c in done)
    verb = "can be converted" if args.check else "converted"
    files = f"{len(results)} file" + ("s" if len(results) != 1 else "")
    elapsed = time.perf_counter() - args.started
    print(f"autograph: {files}, {converted} function(s) {verb}, {kept} kept as they are, "
          f"{failed} could not be converted, in {elapsed:.2f} s", file=stderr)


def _diff(result: FileResult) -> str:
    return "".join(difflib.unified_diff(result.conversion.original.splitlines(keepends=True),
                                        result.conversion.code.splitlines(keepends=True),
                                        fromfile=result.source_path, tofile=f"{result.source_path} (converted)"))


def _declared_encoding(text: str) -> str:
    """The encoding the module's `# -*- coding: ... -*-` line declares (kept from the input), else UTF-8."""
    import io
    import tokenize
    head = "".join(text.splitlines(keepends=True)[:2]).encode("ascii", "replace")
    try:
        return tokenize.detect_encoding(io.BytesIO(head).readline)[0]
    except SyntaxError:
        return "utf-8"


def _write(path: str, text: str) -> None:
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.autograph-partial")
        partial.write_text(text, encoding=_declared_encoding(text))
        os.replace(partial, target)     # atomic: an interrupted run never leaves a half-written module
    except OSError as e:
        raise UsageError(f"can't write {path}: {e.strerror or e}") from None


# --- directories -------------------------------------------------------------------------------------

def _python_files(root: Path) -> list[Path]:
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS and not d.startswith("."))
        found.extend(Path(folder) / f for f in sorted(files) if f.endswith(".py"))
    return found


def _convert_directory(root: Path, args, stdout: TextIO, stderr: TextIO) -> int:
    if not args.output and not args.check and not args.diff:
        raise UsageError(f"{args.path} is a directory: give -o DIR to write the converted files there "
                         "(or use --check or --diff)")
    out_root = Path(args.output).resolve() if args.output else None
    if out_root is not None and (out_root == root.resolve() or root.resolve() in out_root.parents):
        raise UsageError(f"-o {args.output} is inside the input directory; choose a directory outside it")
    files = _python_files(root)
    if not files:
        raise UsageError(f"{args.path}: no .py files below it")
    jobs = [(str(f), str(out_root / f.relative_to(root)) if out_root else None, args.names) for f in files]
    results = _run_jobs(jobs, args.jobs or _default_workers(files), stderr)
    if args.names is not None:
        defined = {q for r in results if r.conversion for q in r.conversion.defined}
        unmatched = [n for n in args.names if n not in defined]
        if unmatched:
            raise UsageError(f"no file below {args.path} defines {', '.join(map(repr, unmatched))}")
    status = EXIT_OK
    for result in results:
        status = max(status, _report(result, args, stderr))
        if result.conversion is None or args.check:
            continue
        if args.diff:
            stdout.write(_diff(result))
        else:
            _write(result.output_path, result.conversion.code)
    _summary(args, stderr, results)
    return status


def _default_workers(files: list[Path]) -> int:
    """Worker processes worth starting for `files`: one per `_BYTES_PER_WORKER` of source, at most one per CPU."""
    size = 0
    for f in files:
        try:
            size += f.stat().st_size
        except OSError:
            pass                      # reported when it is read
    return max(1, min(os.cpu_count() or 1, len(files), size // _BYTES_PER_WORKER))


def _job(job: tuple) -> FileResult:
    path, output, names = job
    return _from_file(path, output, names, fail_on_missing_names=False)


def _run_jobs(jobs: list, workers: int, stderr: TextIO) -> list[FileResult]:
    progress = _Progress(len(jobs), stderr)
    if workers == 1 or len(jobs) == 1:
        results = []
        for job in jobs:
            results.append(_job(job))
            progress.step()
    else:
        # spawn, not fork: forking a process that runs threads (JAX, PyTorch) can deadlock the child
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context) as pool:
            results = []
            for result in pool.map(_job, jobs, chunksize=4):
                results.append(result)
                progress.step()
    progress.done()
    return results


class _Progress:
    """A one-line progress bar on a terminal; nothing when standard error is a file or a pipe."""

    def __init__(self, total: int, stream: TextIO):
        self.total, self.count, self.stream = total, 0, stream
        self.enabled = hasattr(stream, "isatty") and stream.isatty()

    def step(self) -> None:
        self.count += 1
        if self.enabled:
            filled = 30 * self.count // self.total
            self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.count}/{self.total} files")
            self.stream.flush()

    def done(self) -> None:
        if self.enabled:
            self.stream.write("\n")


if __name__ == "__main__":   # python -m autograph.cli, as python -m autograph
    sys.exit(main())
