"""Differential fuzzer for autograph: `python tools/fuzz.py --n 1000 --seed 0`.

Two independent program generators:

* `--generator control` (the default, tools/fuzz/generator.py): control flow
  graph mode can stage; each program runs four ways: (a) original, (b)
  converted on Python values, (c) converted on eager runtime tensors, (d)
  converted inside runtime.function; and, opt-in with `--modes abcdj`, (j)
  inside runtime.function(jit_compile=True), compared with (a) and with the
  executor (tools/fuzz/jit.py; needs JAX, else skipped with a note), and with
  `--modes abcde` / `abcdo`, (e) d's graph saved and loaded, (o) exported to
  ONNX and run by onnxruntime, compared with the executor (tools/fuzz/export.py;
  o needs the onnx extra, else skipped with a note).
* `--generator python` (tools/fuzz/pygen.py): the rest of Python's statement
  grammar (try/with/match/walrus/closures/iterators/...); each program runs as
  (a) the original, (b) the generated code on Python values, (p) inside
  runtime.function on Python values, and tensor programs also (t) inside
  runtime.function on tensors (tools/fuzz/pyrunner.py), and, opt-in with
  `--modes bptj`, (j) as t with jit_compile=True, and with `--modes bptx`, (x)
  on the torch backend, exported with torch.export (tools/fuzz/torchx.py;
  needs PyTorch, else skipped with a note), and with `--modes bptg`, (g) on
  the JAX backend under jax.jit (tools/fuzz/jaxg.py; needs JAX, likewise),
  and with `--modes bpts`, (s) as t traced afresh for each input, comparing
  the program's side effects (LOG, G) too where Python returns.
  Prints a coverage table.
* `--generator both`: one after the other.

Prints a summary line per generator; saves a minimised reproducer for every
disagreement or internal error; exits 1 if there was any.
"""
from __future__ import annotations

import argparse
import contextlib
import pathlib
import re
import signal
import sys
import tempfile
import time
from collections import Counter

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from tools.fuzz import export, generator, jaxg, jit, pygen, pyrunner, runner, torchx  # noqa: E402
from tools.fuzz.minimize import minimize  # noqa: E402


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description="Differential fuzzing of autograph: random programs run as the original, converted on Python "
                    "values, converted on eager tensors, traced with runtime.function, and (opt-in, mode j) "
                    "compiled with runtime.function(jit_compile=True) must agree.",
        epilog="example: python tools/fuzz.py --n 1000 --seed 7 --out /tmp/fuzz")
    parser.add_argument("--n", type=int, default=200, help="how many programs per kind (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="first seed; program i uses seed+i (default 0)")
    parser.add_argument("--generator", choices=["control", "python", "both"], default="control",
                        help="which program generator: control (tools/fuzz/generator.py, the default), python "
                        "(tools/fuzz/pygen.py), or both")
    parser.add_argument("--modes", default=None,
                        help="modes to compare with (a): any of b, c, d, j, e, o for the control generator (default "
                        "abcd; e and o, opt-in: the traced graph saved and loaded, and exported to ONNX and run by "
                        "onnxruntime, compared with the executor; o needs the onnx extra), "
                        "of b, p, t, j, x, g for the python generator (default bpt); j (opt-in: runtime.function("
                        "jit_compile=True), XLA through JAX, compared with (a) and with the executor) needs JAX "
                        "and is skipped with a note without it; x (opt-in, python generator: the torch backend, "
                        "ag.convert(f) exported with torch.export) needs PyTorch, likewise; g (opt-in, python "
                        "generator: the JAX backend, jax.jit(ag.convert(f))) needs JAX, likewise; s (opt-in, "
                        "python generator: t traced afresh for each input, its side effects compared too)")
    parser.add_argument("--exclude", default="",
                        help="python generator: comma-separated construct kinds not to generate (to look past a "
                        f"known cause): {', '.join(pygen.KINDS)}")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds one program may take in all its modes; longer is reported as a hang "
                        "(default 30)")
    parser.add_argument("--minimize-budget", type=float, default=60.0,
                        help="seconds spent shrinking each finding (0: save it as generated; default 60)")
    parser.add_argument("--memory", type=float, default=4.0,
                        help="GiB of address space the fuzzer may use (a runaway program then fails with "
                        "MemoryError, reported, instead of exhausting a shared machine; 0: no limit; default 4)")
    parser.add_argument("--progress", type=int, default=0, metavar="K",
                        help="print a progress line to stderr every K seeds (default: never)")
    parser.add_argument("--out", type=pathlib.Path, default=None,
                        help="directory for minimised reproducers (default: a new temporary directory)")
    return parser.parse_args(argv)


class _Hang(BaseException):   # not caught by the runner's `except Exception`
    pass


@contextlib.contextmanager
def _time_limit(seconds: float):
    """Raise _Hang in this (main) thread after `seconds`, and again every 0.1 s until the block is left: a
    program's `with` whose `__exit__` returns True swallows it (a minimiser's candidate may loop for ever)."""
    def expire(signum, frame):
        raise _Hang()
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.1)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _save(out: pathlib.Path, seed: int, kind: str, finding, small: str):
    """Write the (minimised) reproducer of `finding` and say where: (finding, path)."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"seed{seed}_{kind}_{finding.mode}.py"
    path.write_text(f'"""{finding.kind} in mode {finding.mode}:\n{finding.detail}\n"""\n' + small)
    print(f"{finding.kind} (mode {finding.mode}), seed {seed}: {path}", flush=True)
    return finding, path


def _check(source: str, modes: str, timeout: float, check=runner.check):
    try:
        with _time_limit(timeout):
            return check(source, modes)
    except _Hang:
        return runner.Finding("hang", modes, f"took longer than {timeout:g}s", source)


def _shrink(source: str, finding, modes: str, timeout: float, budget: float, check=runner.check) -> str:
    if budget <= 0 or finding.kind == "hang":
        return source
    deadline = time.perf_counter() + budget

    def still_fails(candidate: str) -> bool:
        if time.perf_counter() > deadline:
            return False   # out of budget: keep what we have
        return _same(_check(candidate, modes, timeout, check), finding)
    return minimize(source, still_fails)


def run(n: int, seed: int, modes: str, out: pathlib.Path, timeout: float = 30.0, budget: float = 60.0,
        progress: int = 0) -> int:
    start = time.perf_counter()
    findings, tally, skipped = [], jit.Tally(), _skipped_note(modes)
    exported, onnx_skipped = export.Tally(), "o" in modes and not export.installed()
    modes = export.usable(jit.usable(modes))
    counts = {"python": 0, "staged": 0}
    for i in range(n):
        for staged in (False, True):
            source = generator.generate(seed + i, staged=staged)
            kind_modes = modes if staged else re.sub("[cdjeo]", "", modes)
            finding = _check(source, kind_modes, timeout, lambda s, m: runner.check(s, m, tally, exported))
            counts["staged" if staged else "python"] += 1
            if finding is not None:
                small = _shrink(source, finding, kind_modes, timeout, budget)
                findings.append(_save(out, seed + i, "staged" if staged else "python", finding, small))
        if progress and (i + 1) % progress == 0:
            print(f"fuzz: {i + 1}/{n} seeds, {len(findings)} findings, {time.perf_counter() - start:.0f}s",
                  file=sys.stderr, flush=True)
    disagreements = sum(1 for f, _ in findings if f.kind == "disagreement")
    hangs = sum(1 for f, _ in findings if f.kind == "hang")
    internal = len(findings) - disagreements - hangs
    print(f"fuzz: {counts['python']} Python-only programs (modes a,b) + {counts['staged']} stageable programs "
          f"(modes {modes}), seeds {seed}..{seed + n - 1}: {disagreements} disagreements, {internal} internal "
          f"errors, {hangs} hangs, {time.perf_counter() - start:.1f}s", flush=True)
    _print_jit(modes, skipped, tally)
    for mode in export.MODES:
        if mode in modes:
            print(f"fuzz: {exported.summary(mode)}", flush=True)
    if onnx_skipped:
        print(f"fuzz: {export.SKIPPED}", flush=True)
    return 1 if findings else 0


def _skipped_note(modes: str) -> str | None:
    return jit.SKIPPED if jit.MODE in modes and not jit.installed() else None


def _print_jit(modes: str, skipped: str | None, tally: jit.Tally) -> None:
    """Mode j's line under the summary: skipped (no JAX), or what it compared and could not lower."""
    if skipped:
        print(f"fuzz: {skipped}", flush=True)
    elif jit.MODE in modes:
        print(f"fuzz: {tally.summary()}", flush=True)


def run_python(n: int, seed: int, modes: str, out: pathlib.Path, timeout: float = 30.0, budget: float = 60.0,
               progress: int = 0, exclude=frozenset()) -> int:
    """The python generator: for each seed a program on Python values (modes a, b, p) and a tensor program
    (a, b, p, t). Prints findings, the coverage table and a summary line."""
    start = time.perf_counter()
    findings, coverage, refused, tally, skipped = [], Counter(), 0, jit.Tally(), _skipped_note(modes)
    torch_tally, torch_skipped = torchx.Tally(), torchx.MODE in modes and not torchx.installed()
    jax_tally, jax_skipped = jaxg.Tally(), jaxg.MODE in modes and not jaxg.installed()
    modes = jaxg.usable(torchx.usable(jit.usable(modes)))
    in_tensor, refused_in = Counter(), Counter()   # tensor programs with each construct, and those refused
    refused_x, refused_g = Counter(), Counter()     # ... and those modes x and g refused
    for i in range(n):
        for tensor in (False, True):
            source, covered = pygen.generate_with_coverage(seed + i, tensor=tensor, exclude=exclude)
            coverage += covered
            kind_modes = modes if tensor else re.sub("[tjxgs]", "", modes)
            check = _PythonCheck(tensor)
            finding = _check(source, kind_modes, timeout, check)
            refused += check.refusals
            tally.add(check.jit)
            torch_tally.add(check.torch)
            jax_tally.add(check.jax)
            if tensor:
                kinds = {kind for kind, _ in covered}
                in_tensor.update(kinds)
                if check.refusals:
                    refused_in.update(kinds)
                if check.torch.refused:
                    refused_x.update(kinds)
                if check.jax.refused:
                    refused_g.update(kinds)
            if finding is not None:
                check.keep_reference(source)
                small = _shrink(source, finding, finding.mode, timeout, budget, check)   # only its mode
                findings.append(_save(out, seed + i, "tensor" if tensor else "values", finding, small))
        if progress and (i + 1) % progress == 0:
            print(f"fuzz: {i + 1}/{n} seeds, {len(findings)} findings, {time.perf_counter() - start:.0f}s",
                  file=sys.stderr, flush=True)
    print(pygen.coverage_table(coverage), flush=True)
    print("\nTensor programs: how many contain each construct, and how many of those mode t refused on some "
          "input (the rest agreed with Python on every input, or are findings), and with mode x or g how many "
          "that mode refused on some input\n")
    extra = [(m, refused) for m, refused in ((torchx.MODE, refused_x), (jaxg.MODE, refused_g)) if m in modes]
    print("| construct | tensor programs | refused on some input |"
          + "".join(f" mode {m} refused on some input |" for m, _ in extra) + "\n|---|---|---|" + "---|" * len(extra))
    for kind in sorted(in_tensor):
        print(f"| {kind} | {in_tensor[kind]} | {refused_in[kind]} |"
              + "".join(f" {refused[kind]} |" for _, refused in extra))
    by_kind = Counter(f.kind for f, _ in findings)
    by_mode = Counter(f.mode for f, _ in findings)
    print(f"fuzz (python generator): {n} programs on Python values (modes a,{','.join(re.sub('[tjxgs]', '', modes))}) + "
          f"{n} tensor programs (modes a,{','.join(modes)}), seeds {seed}..{seed + n - 1}: "
          f"{by_kind['disagreement']} disagreements, {by_kind['internal error']} internal errors, "
          f"{by_kind['hang']} hangs (by mode: {dict(sorted(by_mode.items()))}); {refused} tensor runs refused "
          f"clearly; {time.perf_counter() - start:.1f}s", flush=True)
    _print_jit(modes, skipped, tally)
    if torch_skipped:
        print(f"fuzz: {torchx.SKIPPED}", flush=True)
    elif torchx.MODE in modes:
        print(f"fuzz: {torch_tally.summary()}", flush=True)
    if jax_skipped:
        print(f"fuzz: {jaxg.SKIPPED}", flush=True)
    elif jaxg.MODE in modes:
        print(f"fuzz: {jax_tally.summary()}", flush=True)
    return 1 if findings else 0


class _PythonCheck:
    """pyrunner.check as a `check(source, modes) -> finding` for _check and _shrink; keeps the number of
    clear refusals (mode t) and what modes j, x and g found in its last call."""

    def __init__(self, tensor: bool):
        self.tensor, self.refusals, self.reference, self.inputs, self.last_input = tensor, 0, None, None, None
        self.jit, self.torch, self.jax = jit.Tally(), torchx.Tally(), jaxg.Tally()

    def keep_reference(self, source: str) -> None:
        """From now on, run only the input of the last finding, and count a program whose original behaves
        differently from `source`'s there (a value, or which exception) as passing: shrinking must not
        produce a program that is wrong in Python itself."""
        self.inputs = [self.last_input] if self.last_input else list(pyrunner.INPUTS)   # () if it did not convert
        self.reference = pyrunner.reference(source, self.inputs)

    def __call__(self, source: str, modes: str):
        self.refusals, self.jit, self.torch, self.jax = 0, jit.Tally(), torchx.Tally(), jaxg.Tally()
        if self.reference is not None and pyrunner.reference(source, self.inputs) != self.reference:
            return None
        result = pyrunner.check(source, modes, self.tensor, self.inputs or pyrunner.INPUTS)
        self.refusals, self.last_input, self.jit, self.torch, self.jax = len(result.refusals), result.input, \
            result.jit, result.torch, result.jax
        return result.finding


def _same(finding, original) -> bool:
    return finding is not None and finding.kind == original.kind and finding.mode == original.mode and \
        _signature(finding) == _signature(original)


def _signature(finding) -> str:
    """What kind of wrong: the exception type of an internal error; for a disagreement, whether values,
    side effects or exception types differ (and which types), so shrinking keeps the same symptom."""
    detail = finding.detail
    if finding.kind == "internal error":
        heads = re.findall(r"^([\w.]+(?:Error|Exception|Exit|Iteration))\b", detail, re.MULTILINE)
        return heads[-1] if heads else detail
    for marker in ("side effects", "returned", "raised"):
        if marker in detail.split("\n")[0]:
            return marker + " " + " ".join(w for w in detail.split() if w.endswith("Error") or w.endswith("Error:"))
    return " ".join(w.split("(")[0] for w in detail.split() if "Error" in w)


def _limit_memory(gib: float) -> None:
    if gib > 0:
        import resource
        limit = int(gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def main(argv=None) -> int:
    args = parse_args(argv)
    _limit_memory(args.memory)
    out = args.out or pathlib.Path(tempfile.mkdtemp(prefix="autograph_fuzz_results_"))
    status = 0
    if args.generator in ("control", "both"):
        status |= run(args.n, args.seed, args.modes or "abcd", out, args.timeout, args.minimize_budget,
                      args.progress)
    if args.generator in ("python", "both"):
        exclude = frozenset(k for k in args.exclude.split(",") if k)
        status |= run_python(args.n, args.seed, args.modes or pyrunner.MODES, out / "python", args.timeout,
                             args.minimize_budget, args.progress, exclude)
    return status


if __name__ == "__main__":
    sys.exit(main())
