"""The Python-semantics generator (tools/fuzz/pygen.py) and its runner: a small budget of programs on every
CI run (the full run is in docs/fuzzing.md), and fast checks of the machinery: the generator is
deterministic, writes valid terminating programs, counts what it writes, and the runner reports a wrong
answer.
"""
import ast

import pytest

from tools.fuzz import pygen, pyrunner, runner

BUDGET = range(60000, 60040)   # not the seeds of the recorded run, so CI adds coverage


@pytest.mark.parametrize("seed", BUDGET)
def test_generated_programs_agree_with_python(seed):
    for tensor in (False, True):
        source = pygen.generate(seed, tensor=tensor)
        result = pyrunner.check(source, pyrunner.MODES + "s", tensor)   # s: side effects of traces too
        finding = result.finding
        assert finding is None, f"seed {seed} ({'tensor' if tensor else 'values'}): {finding.kind} in mode " \
                                f"{finding.mode}: {finding.detail}\n{source}"

SEEDS = range(30)


def test_generation_is_deterministic_per_seed_and_varied():
    for tensor in (False, True):
        assert pygen.generate(7, tensor=tensor) == pygen.generate(7, tensor=tensor)
        assert pygen.generate_with_coverage(7, tensor)[1] == pygen.generate_with_coverage(7, tensor)[1]
    assert len({pygen.generate(s) for s in SEEDS}) == len(SEEDS)


def test_programs_compile_and_run_in_plain_python():
    outcomes = set()
    for seed in SEEDS:
        for tensor in (False, True):
            source = pygen.generate(seed, tensor=tensor)
            compile(source, f"seed{seed}", "exec")
            module = runner.load(source)
            for a, b in pyrunner.INPUTS:
                module.reset()
                try:
                    value = module.f(a, b)
                    assert value is None or len(value) == 3, source
                    outcomes.add("value")
                except (ValueError, KeyError, ZeroDivisionError) as e:   # the program's own `raise`s
                    outcomes.add(type(e).__name__)
                except UnboundLocalError:   # a name first assigned in a statement that did not assign it
                    outcomes.add("UnboundLocalError")
                except TypeError as e:      # None (before a statement that did not assign it) in arithmetic
                    assert "NoneType" in str(e), source
                    outcomes.add("TypeError")
    assert {"value", "ValueError", "UnboundLocalError"} <= outcomes


def test_programs_use_the_constructs_named_in_issue_13():
    sources = "\n".join(pygen.generate(s, tensor=t) for s in range(60) for t in (False, True))
    for needle in ["try:", "except ", "finally:", "with Suppress()", "with tracked()", "match ", "case ",
                   ":=", "lambda v", "nonlocal ", "global G", "import ", "class C", "iter(", "zip(",
                   "enumerate(", "*q", "del ", "double(", "for j in range", "raise ", 'f"<{', ".format(", '" % (']:
        assert needle in sources, needle
    assert any(name + " =" in sources for name in pygen.GENERATED_LIKE)


def test_tensor_programs_use_the_constructs_named_in_issue_14():
    """Values across staged statements: each pattern appears in the tensor programs of the CI budget."""
    sources = "\n".join(pygen.generate(s, tensor=True) for s in range(400))
    for needle in [" = None", "is not None", "half(", "cat(", '["k"] =', ".v =", ".update(", ".insert(0",
                   ".extend([", "setattr(", "[0:1] =", ".pop(", "reverse()", "del d", "raise ", " or ", " and "]:
        assert needle in sources, needle


def test_tensor_programs_stage_some_tests():
    # a tensor program compares a or b (or a variable computed from them) in some if/while test
    staged = 0
    for seed in SEEDS:
        tree = ast.parse(pygen.generate(seed, tensor=True))
        f = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "f")
        tests = [ast.unparse(n.test) for n in ast.walk(f) if isinstance(n, (ast.If, ast.While))]
        staged += any(name in t.split() for t in tests for name in ("a", "b", "x"))
    assert staged > len(SEEDS) // 3


def test_coverage_table_lists_every_kind_and_block():
    coverage = sum((pygen.generate_with_coverage(s, t)[1] for s in range(40) for t in (False, True)),
                   start=pygen.Counter())
    table = pygen.coverage_table(coverage)
    header = table.splitlines()[0]
    for block in pygen.BLOCKS:
        assert f" {block} |" in header
    for kind in ["try", "with (suppresses exceptions)", "match capture", "walrus in an and/or operand",
                 "walrus in a comprehension", "lambdas created in a loop (late binding)", "nonlocal", "global",
                 "for over zip(iterator), break, read again", "starred unpacking", "del", "import", "class",
                 "decorated helper call", "assignment to a name like a generated one", "raise", "break"]:
        assert f"| {kind} |" in table, kind
    # every row's total is the sum of its columns
    for row in table.splitlines()[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert sum(int(c) for c in cells[1:-1]) == int(cells[-1])


def test_exclude_leaves_a_construct_out():
    sources = "\n".join(pygen.generate(s, exclude={"match", "with"}) for s in range(30))
    assert "match " not in sources and "with " not in sources


def test_a_known_bad_program_is_a_finding():
    # the converted function must agree with the original; a program whose `converted` differs is reported.
    source = pygen.PRELUDE + "\n\ndef f(a, b):\n    record(a)\n    return a, b, 0\n"
    good = ("value", (1, 2, 0)), ([1], 0)
    assert pyrunner._compare("b", good, good, source, (1, 2), "p.py", []) is None
    wrong_value = ("value", (1, 2, 1)), ([1], 0)
    assert pyrunner._compare("b", good, wrong_value, source, (1, 2), "p.py", []).kind == "disagreement"
    wrong_log = ("value", (1, 2, 0)), ([1, 1], 0)
    assert "side effects" in pyrunner._compare("b", good, wrong_log, source, (1, 2), "p.py", []).detail
    wrong_error = ("error", KeyError(1)), ([1], 0)
    raised = ("error", ValueError(1)), ([1], 0)
    assert pyrunner._compare("b", raised, wrong_error, source, (1, 2), "p.py", []).kind == "disagreement"



def test_mode_s_compares_side_effects_where_python_returns():
    # mode s (t traced afresh for each input) compares LOG and G too; mode t, traced once for all inputs, can't
    source = pygen.PRELUDE + "\n\ndef f(a, b):\n    record(a)\n    return a, b, 0\n"
    good = ("value", (1, 2, 0)), ([1], 0)
    twice = ("value", (1, 2, 0)), ([1, 1], 0)
    assert "side effects" in pyrunner._compare("s", good, twice, source, (1, 2), "p.py", []).detail
    assert pyrunner._compare("t", good, twice, source, (1, 2), "p.py", []) is None
    raised = ("error", ValueError(1)), ([], 0)           # the trace goes on past Python's error, as TensorFlow's
    assert pyrunner._compare("s", raised, (("error", ValueError(1)), ([1], 0)), source, (1, 2), "p.py", []) is None
    assert pyrunner.check(source, "ts", tensor=True).finding is None   # record(a) outside staged statements


def test_mode_s_finds_a_side_effect_run_for_a_branch_python_did_not_take(monkeypatch):
    # a converter that stopped refusing a helper's global side effect in a staged branch: it runs once at trace
    # time for both branches, where Python runs it on one path only
    import autograph   # generated code calls `ag__.mutating_outer` with `import autograph as ag__`
    from autograph.operators import snapshots
    monkeypatch.setattr(autograph, "mutating_outer", lambda target, *args, **kwargs: target)
    monkeypatch.setattr(snapshots, "changed", lambda *args, **kwargs: None)   # what a called helper changed
    source = pygen.PRELUDE + "\n\ndef f(a, b):\n    y = 0\n    if a > 2:\n        y = record(1) + b\n    return a, b, y\n"
    finding = pyrunner.check(source, "ts", tensor=True).finding
    assert finding is not None and finding.mode == "s" and "side effects" in finding.detail

def test_a_program_the_converter_gets_wrong_is_reported_end_to_end(monkeypatch):
    # A converter that gets `if` wrong (it runs the false branch always), so the runner must report mode b.
    import autograph   # generated code calls `ag__.if_stmt` with `import autograph as ag__`
    monkeypatch.setattr(autograph, "if_stmt", lambda pred, true_fn, false_fn, *args, **kwargs: false_fn())
    source = pygen.PRELUDE + "\n\ndef f(a, b):\n    y = 3\n    if a > 0:\n        y = a\n" \
                             "    return a, b, y\n"
    result = pyrunner.check(source, "b")
    assert result.finding is not None and result.finding.mode == "b"


def test_a_clear_refusal_is_counted_not_reported():
    from autograph.errors import StagingError
    assert pyrunner.refused(StagingError("/tmp/p.py:3: can't stage this"), "/tmp/p.py")
    assert not pyrunner.refused(StagingError("somewhere else"), "/tmp/p.py")
    assert not pyrunner.refused(TypeError("/tmp/p.py:3"), "/tmp/p.py")
