"""A small budget of the differential fuzzer on every CI run (the full run is in docs/fuzzing.md)."""
import pytest

from tools.fuzz import generator, runner
from tools.fuzz.minimize import minimize

SEEDS = range(1000, 1040)   # not the seeds the recorded run starts with, so CI adds coverage


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_programs_agree_in_every_mode(seed):
    for staged in (False, True):
        source = generator.generate(seed, staged=staged)
        finding = runner.check(source, "abcd" if staged else "ab")
        assert finding is None, f"seed {seed} ({'staged' if staged else 'python'}): {finding.kind} in mode " \
                                f"{finding.mode}: {finding.detail}\n{source}"


def test_generation_is_reproducible_and_varied():
    assert generator.generate(7, staged=True) == generator.generate(7, staged=True)
    assert len({generator.generate(s, staged=True) for s in range(20)}) == 20


def test_the_runner_reports_a_disagreement():
    # a program whose converted form must not differ, checked against a deliberately wrong "converted" one
    # (the first seed whose f(1, 2) reaches the final return, which the wrong one changes)
    final = 'return x, y, (z + s["k"] + o.v) % 1000'
    for seed in range(50):
        source = generator.generate(seed, staged=False)
        broken = source.replace(final, 'return x, y, (z + s["k"] + o.v + 1) % 1000')
        assert broken != source
        original, module = runner.load(source), runner.load(broken)
        if original.f(1, 2) != module.f(1, 2):
            break
    else:
        raise AssertionError("no generated program reaches its final return for f(1, 2)")
    assert runner._compare("b", ("value", original.f(1, 2)), ("value", module.f(1, 2)), source,
                           exact=True) is not None
    assert runner._compare("b", ("value", original.f(1, 2)), ("value", original.f(1, 2)), source,
                           exact=True) is None


def test_minimize_keeps_the_failure_and_shrinks():
    source = "def f(a, b):\n    x = 1\n    y = 2\n    z = x / 0\n    return z\n"

    def fails(candidate):
        return "/ 0" in candidate
    small = minimize(source, fails)
    assert "/ 0" in small and small.count("\n") < source.count("\n")


def test_staged_programs_return_on_a_loop_counter():
    # a return behind an `if` on a counter that starts as a Python int: the pattern where probing a staged
    # loop body on its Python initial state missed the return (tests/runtime/test_backend.py)
    import re
    pattern = re.compile(r"if n\d+ (>|==|>=) \d:\n +return ")
    assert any(pattern.search(generator.generate(s, staged=True)) for s in range(50))


def _fuzz_cli():
    import importlib.util
    import pathlib
    spec = importlib.util.spec_from_file_location("fuzz_cli", pathlib.Path(__file__).parents[2] / "tools" / "fuzz.py")
    fuzz_cli = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fuzz_cli)
    return fuzz_cli


def test_a_finding_is_saved_as_a_reproducer_that_names_it(tmp_path, capsys):
    fuzz_cli = _fuzz_cli()
    finding = runner.Finding("disagreement", "b", "f(1, 2): 3 vs 4", "def f(a, b):\n    return a\n")
    saved, path = fuzz_cli._save(tmp_path / "out", 7, "values", finding, "def f(a, b):\n    return a\n")
    assert saved is finding and path.name == "seed7_values_b.py"
    assert path.read_text().startswith('"""disagreement in mode b:\nf(1, 2): 3 vs 4\n"""')
    assert str(path) in capsys.readouterr().out


def test_a_hang_is_reported_even_through_a_with_that_swallows_exceptions():
    # a minimiser's candidate may loop for ever inside `with Suppress()`, whose __exit__ swallows the first _Hang
    fuzz_cli = _fuzz_cli()

    class Suppress:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return True

    def loops_for_ever():
        while True:
            with Suppress():
                sum(range(100))

    with pytest.raises(fuzz_cli._Hang):
        with fuzz_cli._time_limit(0.05):
            loops_for_ever()
