"""`autograph convert`: options, exit codes, error format, the never-executes guarantee, and the
drop-in behaviour of a converted module."""
import importlib.util
import io
import subprocess
import sys
import re
import textwrap

import numpy as np
import pytest

import runtime as tf
from autograph import cli

MODULE = textwrap.dedent('''\
    """A user module whose top level must never run during conversion."""
    from __future__ import annotations

    import pathlib

    import runtime as tf

    pathlib.Path(__file__).with_name("MARKER").write_text("the module ran")


    def scale(x, factor=2):
        """Multiply, or negate non-positive sums."""
        if tf.reduce_sum(x) > 0:
            return x * factor
        return -x


    def total(n):
        s = 0
        i = 0
        while i < n:
            s += i
            i += 1
        return s


    class Stepper:
        def __init__(self, step):
            self.step = step

        def run(self, x, n):
            for _ in tf.range(n):
                x = x + self.step
            return x

        @tf.function
        def traced(self, x):
            if x > 0:
                x = x * 2
            return x


    def numbers(n):
        for i in range(n):
            yield i


    def countdown(n):
        while n > 0:
            tf.autograph.experimental.set_loop_options(10)
            n -= 1
        return n

    raise SystemExit("the top level of this module raises")
    ''')


@pytest.fixture
def module_file(tmp_path):
    path = tmp_path / "model.py"
    path.write_text(MODULE)
    return path


def run(*argv, stdin_text=""):
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(list(argv), stdin=io.StringIO(stdin_text), stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_conversion_never_imports_or_runs_the_input(module_file):
    status, out, err = run("convert", str(module_file))
    assert status == 1                                   # countdown() can't be converted: reported, not fatal
    assert not (module_file.parent / "MARKER").exists()
    assert "def scale(x, factor=2):" in out and "ag__.if_stmt" in out and "ag__.while_stmt" in out
    assert out.count("import autograph as ag__") == 1


def test_problems_use_the_compiler_format_and_other_functions_still_convert(module_file):
    status, out, err = run("convert", str(module_file))
    line = MODULE.splitlines().index("        tf.autograph.experimental.set_loop_options(10)") + 1
    assert err.startswith(f"{module_file}:{line}:9: error: set_loop_options takes keyword arguments only\n")
    assert "def numbers(n):\n    for i in range(n):\n        yield i" in out   # a generator: kept as it was
    assert "ag__.for_stmt" in out                                           # Stepper.run converted


def test_output_file_is_a_drop_in_module(module_file, tmp_path):
    source = MODULE.replace('raise SystemExit("the top level of this module raises")', "").replace(
        'pathlib.Path(__file__).with_name("MARKER").write_text("the module ran")', "")
    clean = tmp_path / "clean.py"
    clean.write_text(source)
    out_path = tmp_path / "out" / "clean_ag.py"
    status, out, err = run("convert", str(clean), "-o", str(out_path), "-f", "scale", "-f", "total",
                           "-f", "Stepper.run", "-f", "Stepper.traced")
    assert status == 0 and out == ""
    assert "3 function(s) converted, 1 kept as they are, 0 could not be converted" in err
    original, converted = load(clean, "clean_original"), load(out_path, "clean_converted")
    # Python values: the same results
    assert converted.total(10) == original.total(10) == 45
    assert converted.scale(3) == original.scale(3) == 6 and converted.scale(-3) == 3
    assert converted.scale.__doc__ == original.scale.__doc__
    # runtime tensors inside runtime.function: graph control flow with the right results
    scale_fn = tf.function(converted.scale, autograph=False)
    for x, expected in (([1.0, 2.0], [2.0, 4.0]), ([-1.0, -2.0], [1.0, 2.0])):
        np.testing.assert_allclose(scale_fn(tf.constant(x)).numpy(), expected)
    ops = {op.type for op in scale_fn.get_concrete_function(tf.constant([1.0])).graph.get_operations()}
    assert "Cond" in ops
    run_fn = tf.function(converted.Stepper(1.5).run, autograph=False)
    assert float(run_fn(tf.constant(0.0), tf.constant(4))) == 6.0
    assert "While" in {op.type for op in run_fn.get_concrete_function(
        tf.constant(0.0), tf.constant(4)).graph.get_operations()}
    # a function decorated with runtime.function keeps its decorator and is not converted twice
    assert "@tf.function\n    def traced(self, x):\n        if x > 0:" in out_path.read_text()
    assert float(converted.Stepper(1).traced(tf.constant(2))) == 4
    # runtime.function's default autograph=True runs the converted functions as they are
    total_fn = tf.function(converted.total)
    assert int(total_fn(tf.constant(10))) == 45
    assert "While" in {op.type for op in total_fn.get_concrete_function(tf.constant(1)).graph.get_operations()}
    import autograph as ag
    assert ag.convert(converted.total) is converted.total


def test_function_selection_and_unknown_names(module_file):
    status, out, err = run("convert", str(module_file), "-f", "total")
    assert status == 0 and "ag__.while_stmt" in out and "ag__.if_stmt" not in out
    status, out, err = run("convert", str(module_file), "-f", "nope", "-f", "Stepper.nope")
    assert status == 2 and out == ""
    assert err.startswith("autograph: error: ") and "'Stepper.nope', 'nope'" in err and "Stepper.run" in err


def test_check_reports_and_writes_nothing(module_file, tmp_path):
    status, out, err = run("convert", str(module_file), "--check")
    assert status == 1 and out == ""
    assert err.count(": error: ") == 1 and "error: set_loop_options" in err
    assert "4 function(s) can be converted, 2 kept as they are, 1 could not" in err     # traced, numbers: kept
    status, out, err = run("convert", str(module_file), "--check", "-f", "scale")
    assert status == 0
    assert run("convert", str(module_file), "--check", "-o", str(tmp_path / "x.py"))[0] == 2


def test_diff_shows_the_changes_only(module_file):
    status, out, err = run("convert", str(module_file), "--diff", "-f", "scale")
    assert status == 0
    assert out.startswith(f"--- {module_file}\n+++ {module_file} (converted)\n")
    assert "-    if tf.reduce_sum(x) > 0:" in out and "+import autograph as ag__" in out
    assert run("convert", str(module_file), "--diff", "--check")[0] == 2      # mutually exclusive


def test_standard_input(module_file):
    status, out, err = run("convert", "-", "-f", "total", stdin_text=MODULE)
    assert status == 0 and "def total(n):" in out and "ag__.while_stmt" in out


def test_unreadable_and_invalid_inputs_exit_2(tmp_path):
    status, out, err = run("convert", str(tmp_path / "missing.py"))
    assert status == 2 and "no such file or directory" in err
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n    pass\n")
    status, out, err = run("convert", str(broken))
    assert status == 2 and err.startswith(f"{broken}:1:7: error: invalid syntax")
    binary = tmp_path / "binary.py"
    binary.write_bytes(b"x = '\xff\xfe'\n")
    status, out, err = run("convert", str(binary))
    assert status == 2 and f"{binary}: error: can't read the file" in err


def test_output_may_not_overwrite_the_input(module_file):
    status, out, err = run("convert", str(module_file), "-o", str(module_file))
    assert status == 2 and "is the input file" in err
    assert module_file.read_text() == MODULE


def test_usage_errors(module_file):
    assert run()[0] == 2
    assert run("convert")[0] == 2
    assert run("convert", str(module_file), "--jobs", "0")[0] == 2
    assert run("convert", str(module_file), "--no-such-option")[0] == 2


def test_directory_is_mirrored_and_converted_in_parallel(tmp_path):
    src = tmp_path / "pkg"
    for i in range(10):   # enough files to use worker processes
        folder = src / ("sub" if i % 2 else "") / ""
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"m{i}.py").write_text(f"def f{i}(x):\n    while x > {i}:\n        x -= 1\n    return x\n")
    (src / "notes.txt").write_text("not python")
    (src / "__pycache__").mkdir()
    (src / "__pycache__" / "junk.py").write_text("def bad(:\n")
    out = tmp_path / "out"
    status, stdout, err = run("convert", str(src), "-o", str(out), "-j", "2")
    assert status == 0, err
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.py"))
    assert written == sorted(p.relative_to(src).as_posix() for p in src.rglob("m*.py"))
    assert not (out / "notes.txt").exists() and not (out / "__pycache__").exists()
    assert not list(out.rglob("*autograph-partial"))                      # written atomically, nothing left over
    assert "autograph: 10 files, 10 function(s) converted, " in err and "\r" not in err   # no progress bar off a terminal
    module = load(out / "sub" / "m3.py", "m3_converted")
    assert module.f3(10) == 3


def test_directory_needs_an_output_and_a_known_name(tmp_path):
    src = tmp_path / "pkg"
    src.mkdir()
    (src / "a.py").write_text("def f(x):\n    return x\n")
    assert run("convert", str(src))[0] == 2
    status, out, err = run("convert", str(src), "-o", str(tmp_path / "o"), "-f", "g")
    assert status == 2 and "defines 'g'" in err
    assert run("convert", str(src), "-o", str(src / "inside"))[0] == 2


def test_python_dash_m_help_and_version():
    result = subprocess.run([sys.executable, "-m", "autograph", "convert", "--help"], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0
    for option in ("-o OUT", "-f NAME", "--check", "--diff", "--jobs", "examples:", "exit status", "generators",
                   "encoding", "256 KB"):
        assert option in result.stdout
    top = subprocess.run([sys.executable, "-m", "autograph", "--help"], capture_output=True, text=True, timeout=60)
    assert "examples:" in top.stdout and "AUTOGRAPH_VERBOSITY" in top.stdout
    version = subprocess.run([sys.executable, "-m", "autograph", "--version"], capture_output=True, text=True,
                             timeout=60)
    assert version.returncode == 0 and version.stdout.startswith("autograph ")
    module = subprocess.run([sys.executable, "-m", "autograph.cli", "--version"], capture_output=True, text=True,
                            timeout=60)   # the module itself, which once ran nothing and said nothing
    assert module.returncode == 0 and module.stdout == version.stdout


def test_the_listing_in_docs_cli_md_is_current(tmp_path):
    import pathlib
    doc = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    source = doc.split("For this input:\n\n```text\n")[1].split("```")[0]
    shown = doc.split("`autograph convert model.py` prints:\n\n```text\n")[1].split("```")[0]
    (tmp_path / "model.py").write_text(source)
    status, out, err = run("convert", str(tmp_path / "model.py"))
    assert status == 0 and out == shown, "docs/cli.md shows stale output: paste the output of autograph convert"


def test_progress_bar_only_on_a_terminal(tmp_path):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    src = tmp_path / "pkg"
    src.mkdir()
    for i in range(3):
        (src / f"m{i}.py").write_text(f"def f(x):\n    return x + {i}\n")
    err = Terminal()
    status = cli.main(["convert", str(src), "-o", str(tmp_path / "out"), "-j", "1"], stdout=io.StringIO(),
                      stderr=err)
    assert status == 0 and "\r[" in err.getvalue() and "3/3 files" in err.getvalue()


def test_output_that_cannot_be_written_is_a_usage_error(module_file, tmp_path):
    status, out, err = run("convert", str(module_file), "-o", str(tmp_path))     # a directory
    assert status == 2 and "is a directory" in err
    blocker = tmp_path / "afile"
    blocker.write_text("")
    status, out, err = run("convert", str(module_file), "-f", "total", "-o", str(blocker / "x.py"))
    assert status == 2 and err.startswith(f"autograph: error: can't write {blocker / 'x.py'}")


def test_version_in_process(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("autograph ")


def test_directory_with_a_broken_file_converts_the_rest(tmp_path):
    src = tmp_path / "pkg"
    src.mkdir()
    (src / "good.py").write_text("def f(x):\n    if x:\n        x = 2\n    return x\n")
    (src / "other.py").write_text("def g(x):\n    return x\n")
    (src / "broken.py").write_text("def bad(:\n")
    out = tmp_path / "out"
    status, stdout, err = run("convert", str(src), "-o", str(out), "-f", "f")
    assert status == 2
    assert f"{src / 'broken.py'}:1:9: error: invalid syntax\n" in err
    assert "ag__.if_stmt" in (out / "good.py").read_text()
    assert (out / "other.py").read_text() == (src / "other.py").read_text()    # defines none of -f: unchanged
    assert not (out / "broken.py").exists()


def test_output_keeps_the_declared_encoding(tmp_path):
    source = '# -*- coding: latin-1 -*-\nNAME = "caf\xe9"\n\n\ndef f(x):\n    if x:\n        return NAME\n    return x\n'
    path = tmp_path / "latin.py"
    path.write_bytes(source.encode("latin-1"))
    status, out, err = run("convert", str(path), "-o", str(tmp_path / "latin_ag.py"))
    assert status == 0
    module = load(tmp_path / "latin_ag.py", "latin_ag")
    assert module.f(1) == "caf\xe9" and module.f(0) == 0


def test_quiet_drops_the_summary_but_not_the_errors(module_file, tmp_path):
    status, out, err = run("convert", str(module_file), "-o", str(tmp_path / "q.py"), "-q")
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and ": error: set_loop_options" in err       # the problem only, no summary line
    status, out, err = run("convert", str(module_file), "--check", "--quiet")
    assert status == 1 and "function(s)" not in err


def test_to_code_of_a_converted_module_function_is_its_code(tmp_path):
    import autograph as ag

    source = tmp_path / "calc.py"
    source.write_text("class K:\n    def calc(self, a, b):\n        if a > b:\n            a = b\n        return a\n")
    status, out, err = run("convert", str(source), "-o", str(tmp_path / "calc_ag.py"))
    assert status == 0
    module = load(tmp_path / "calc_ag.py", "calc_ag")
    shown = ag.to_code(module.K.calc)
    assert shown.startswith("@ag__.do_not_convert\ndef calc(self, a, b):\n    with ag__.FunctionScope(")
    assert shown.count("FunctionScope") == 1                      # not converted a second time
    assert module.K().calc(3, 1) == 1


LATIN = '# -*- coding: latin-1 -*-\nNAME = "caf\xe9"\n\n\ndef f(x):\n    if x:\n        return NAME\n    return x\n'


def test_standard_output_keeps_the_declared_encoding(tmp_path):
    """`autograph convert latin.py > out.py` gives a latin-1 file, as -o does (it wrote UTF-8 under the latin-1
    declaration: 'cafÃ©' on import)."""
    path = tmp_path / "latin.py"
    path.write_bytes(LATIN.encode("latin-1"))
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    status = cli.main(["convert", str(path)], stdout=stdout, stderr=io.StringIO())
    stdout.flush()
    assert status == 0
    written = stdout.buffer.getvalue()
    assert b'"caf\xe9"' in written and written.startswith(b"# -*- coding: latin-1 -*-\n")
    (tmp_path / "latin_out.py").write_bytes(written)
    module = load(tmp_path / "latin_out.py", "latin_out")
    assert module.f(1) == "caf\xe9" and module.f(0) == 0


def test_standard_input_is_decoded_by_its_declaration(tmp_path):
    stdin = io.TextIOWrapper(io.BytesIO(LATIN.encode("latin-1")), encoding="utf-8")
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    status = cli.main(["convert", "-"], stdin=stdin, stdout=stdout, stderr=io.StringIO())
    stdout.flush()
    assert status == 0 and stdout.buffer.getvalue().decode("latin-1").count('"caf\xe9"') == 1


def test_a_summary_on_standard_error_when_the_module_goes_to_standard_output(module_file):
    status, out, err = run("convert", str(module_file), "-f", "total")
    assert status == 0 and "def total(n):" in out
    assert re.fullmatch(r"autograph: 1 file, 1 function\(s\) converted, 0 kept as they are, 0 could not be "
                        r"converted, in \d+\.\d\d s\n", err)
    status, out, err = run("convert", str(module_file), "-f", "total", "--diff")
    assert out.startswith("---") and err.startswith("autograph: 1 file, 1 function(s) converted")
    assert run("convert", str(module_file), "-f", "total", "-q")[2] == ""


def test_check_does_not_report_generators_or_global_in_an_if(tmp_path):
    path = tmp_path / "honest.py"
    path.write_text(textwrap.dedent("""\
        counter = 0


        def numbers(n):
            for i in range(n):
                yield i


        def bump(x):
            global counter
            if x > 0:
                counter += 1
            return sum(numbers(x))
        """))
    status, out, err = run("convert", str(path), "--check")
    assert status == 0 and ": error:" not in err, err
    assert "1 function(s) can be converted, 1 kept as they are, 0 could not be converted" in err
    status, out, err = run("convert", str(path), "-o", str(tmp_path / "honest_ag.py"))
    module = load(tmp_path / "honest_ag.py", "honest_ag")
    assert module.bump(3) == 3 and module.counter == 1            # converted code assigns the global
    assert list(module.numbers(2)) == [0, 1]


def test_default_jobs_come_from_the_amount_of_source(tmp_path, monkeypatch):
    """A small directory is converted in this process by default: starting workers cost more than they saved
    (13 files: 1.3 s with 2 workers against 0.5 s in one process; docs/performance.md)."""
    src = tmp_path / "pkg"
    src.mkdir()
    for i in range(13):
        (src / f"m{i}.py").write_text(f"def f{i}(x):\n    while x > {i}:\n        x -= 1\n    return x\n")

    def no_workers(*args, **kwargs):
        raise AssertionError("worker processes were started for a small directory")

    monkeypatch.setattr(cli.concurrent.futures, "ProcessPoolExecutor", no_workers)
    status, out, err = run("convert", str(src), "-o", str(tmp_path / "out"))
    assert status == 0 and "13 files, 13 function(s) converted" in err
    monkeypatch.setattr(cli.os, "cpu_count", lambda: 4)
    big = [src / "m0.py"] * 13
    monkeypatch.setattr(cli.Path, "stat", lambda self: type("S", (), {"st_size": 100 * 1024})())
    assert cli._default_workers(big) == 4             # 1.3 MB: a worker per 256 KB, at most one per CPU
    assert cli._default_workers(big[:3]) == 1         # 300 KB
