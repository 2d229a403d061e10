"""Differential fuzzer for autograph: `python tools/fuzz.py --n 1000 --seed 0`.

Generates random Python functions and runs each four ways: (a) original,
(b) converted on Python values, (c) converted on eager runtime tensors,
(d) converted inside runtime.function. Prints a summary line; saves a
minimised reproducer for every disagreement or internal error; exits 1 if
there was any.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from tools.fuzz import generator, runner  # noqa: E402
from tools.fuzz.minimize import minimize  # noqa: E402


def parse_args(argv=None):
    parser = argparse.ArgumentParser(
        description="Differential fuzzing of autograph: random programs run as the original, converted on Python "
                    "values, converted on eager tensors, and traced with runtime.function must agree.",
        epilog="example: python tools/fuzz.py --n 1000 --seed 7 --out /tmp/fuzz")
    parser.add_argument("--n", type=int, default=200, help="how many programs per kind (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="first seed; program i uses seed+i (default 0)")
    parser.add_argument("--modes", default="abcd", help="modes to compare with (a): any of b, c, d (default abcd)")
    parser.add_argument("--out", type=pathlib.Path, default=None,
                        help="directory for minimised reproducers (default: a new temporary directory)")
    return parser.parse_args(argv)


def run(n: int, seed: int, modes: str, out: pathlib.Path) -> int:
    start = time.perf_counter()
    findings = []
    counts = {"python": 0, "staged": 0}
    for i in range(n):
        for staged in (False, True):
            source = generator.generate(seed + i, staged=staged)
            kind_modes = modes if staged else modes.replace("d", "").replace("c", "")
            finding = runner.check(source, kind_modes)
            counts["staged" if staged else "python"] += 1
            if finding is not None:
                small = minimize(source, lambda s, f=finding, m=kind_modes: _same(runner.check(s, m), f))
                out.mkdir(parents=True, exist_ok=True)
                path = out / f"seed{seed + i}_{'staged' if staged else 'python'}_{finding.mode}.py"
                path.write_text(f'"""{finding.kind} in mode {finding.mode}:\n{finding.detail}\n"""\n' + small)
                findings.append((finding, path))
                print(f"{finding.kind} (mode {finding.mode}), seed {seed + i}: {path}")
    disagreements = sum(1 for f, _ in findings if f.kind == "disagreement")
    internal = len(findings) - disagreements
    print(f"fuzz: {counts['python']} Python-only programs (modes a,b) + {counts['staged']} stageable programs "
          f"(modes {modes}), seeds {seed}..{seed + n - 1}: {disagreements} disagreements, {internal} internal "
          f"errors, {time.perf_counter() - start:.1f}s")
    return 1 if findings else 0


def _same(finding, original) -> bool:
    return finding is not None and finding.kind == original.kind and finding.mode == original.mode


def main(argv=None) -> int:
    args = parse_args(argv)
    out = args.out or pathlib.Path(tempfile.mkdtemp(prefix="autograph_fuzz_results_"))
    return run(args.n, args.seed, args.modes, out)


if __name__ == "__main__":
    sys.exit(main())
