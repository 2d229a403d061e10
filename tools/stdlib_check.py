"""Convert pure-Python modules of the standard library with `autograph convert` and run CPython's own tests
for each against its converted form: converted code must be Python, exactly, on real programs that no one
wrote for autograph (argparse, decimal, difflib, statistics, tokenize, ...).

Run: python tools/stdlib_check.py [MODULE ...] [--timeout S]

Needs CPython's test package (`python -m test` works; Debian's python3 splits it into python3-test). For each
module it prints the tests run and the outcome of the original and of the converted module, and the
problems `autograph convert` reported (a function it keeps as it is, with the reason). A module is
replaced by putting the converted file first on PYTHONPATH; modules that Python or autograph import
before the tests start (`re`, `string`, `ast`, `dataclasses`, `inspect`, ...) or that are frozen into the
interpreter (`runpy`) can't be replaced that way and are not in the list, nor are the modules whose outcome
differs for a reason docs/fuzzing.md gives (trace, bdb, pdb, profile, doctest, tempfile, pkgutil, tabnanny).
Exit status 1 when a converted module's outcome differs from the original's.
"""
from __future__ import annotations

import argparse
import pathlib
import re
import subprocess
import sys
import sysconfig
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
LIB = pathlib.Path(sysconfig.get_paths()["stdlib"])

# module -> its tests in CPython's test package (test.test_<module> unless given)
MODULES = {
    "aifc": None, "argparse": None, "base64": None, "bisect": None, "bz2": None, "calendar": None, "cgi": None,
    "cgitb": None, "cmd": None, "code": None, "codeop": None, "colorsys": None, "compileall": None,
    "configparser": None, "copy": None, "crypt": None, "csv": None, "difflib": None, "filecmp": None,
    "fileinput": None, "fnmatch": None, "fractions": None, "getopt": None, "getpass": None, "gettext": None,
    "glob": None, "graphlib": None, "gzip": None, "heapq": None, "hmac": None, "imghdr": None, "ipaddress": None,
    "locale": None, "lzma": None, "mailbox": None, "mailcap": None, "mimetypes": None, "modulefinder": None,
    "netrc": None, "numbers": "test.test_abstract_numbers", "optparse": None, "pickle": None, "pickletools": None,
    "pipes": None, "platform": None, "plistlib": None, "pprint": None, "pstats": None, "pty": None,
    "py_compile": None, "pyclbr": None, "_pydecimal": "test.test_decimal", "pydoc": None, "_pyio": "test.test_io",
    "queue": None, "quopri": None, "random": None, "rlcompleter": None, "sched": None, "secrets": None, "selectors": None,
    "shelve": None, "shlex": None, "shutil": None, "sndhdr": None, "socketserver": None, "statistics": None,
    "stringprep": None, "_strptime": "test.test_strptime", "sunau": None, "symtable": None, "tarfile": None,
    "telnetlib": None, "textwrap": None, "_threading_local": "test.test_threading_local", "timeit": None,
    "tokenize": None, "tracemalloc": None, "tty": None, "uu": None, "uuid": None, "wave": None, "webbrowser": None,
    "xdrlib": None, "zipapp": None, "zipfile": None,
}


def _outcome(output: str) -> str:
    ran = re.findall(r"^Ran (\d+) tests?", output, re.M)
    last = [line for line in output.splitlines() if re.match(r"^(OK|FAILED)\b", line)]
    return f"{ran[-1] if ran else '?'} tests, {last[-1] if last else 'no result (crashed or timed out)'}"


def _run_tests(test: str, path: str, module: str, timeout: float) -> str:
    check = f"import {module}, sys; assert {module}.__file__.startswith({path!r}), {module}.__file__" if path else ""
    code = f"{check}\nimport unittest\nunittest.main(module={test!r}, argv=['stdlib_check'])"
    # autograph's dependencies too, for tests that start Python without site-packages (`-S`, the base interpreter)
    env_path = ":".join([*([path] if path else []), str(ROOT), sysconfig.get_paths()["purelib"]])
    try:
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                             cwd=tempfile.gettempdir(), env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"})
    except subprocess.TimeoutExpired:
        return "timed out"
    return _outcome(run.stderr + run.stdout)


def check(module: str, test: str, timeout: float) -> bool:
    source = LIB / f"{module}.py"
    with tempfile.TemporaryDirectory(prefix="stdlib_check_") as out:
        convert = subprocess.run([sys.executable, "-m", "autograph", "convert", str(source), "-o",
                                  f"{out}/{module}.py", "-q"], capture_output=True, text=True, cwd=ROOT)
        problems = [line for line in convert.stderr.splitlines() if ": error: " in line]
        original = _run_tests(test, "", module, timeout)
        converted = _run_tests(test, out, module, timeout)
    same = original == converted
    print(f"{module:12s} original: {original:40s} converted: {converted}", flush=True)
    for problem in problems:
        print(f"    kept as it is: {problem.split(': error: ')[0].split('/')[-1]}: {problem.split(': error: ')[1][:110]}")
    return same


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help="modules to check (default: all of the list)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per test run (default 600)")
    args = parser.parse_args()
    names = args.modules or sorted(MODULES)
    differ = [m for m in names if not check(m, MODULES.get(m) or f"test.test_{m}", args.timeout)]
    print(f"{len(names) - len(differ)} of {len(names)} modules give the original's outcome converted"
          + (f"; differ: {', '.join(differ)}" if differ else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
