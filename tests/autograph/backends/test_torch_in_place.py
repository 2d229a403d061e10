"""In-place updates and loop-counter indexing in staged torch branches and loops (issue 18, item 3).

torch's cond and while_loop reject branches and bodies that change their inputs ("body_fn might be modifying
the input!" in run_decompositions, torch.compile and ONNX export): the backend changes copies and gives the new
values back after the operator (torch_capture.py). `xs[i]` with a staged loop counter is rewritten to indexing
that traces (torch_index.py). Each program runs exported, exported and decomposed, and compiled, against eager
PyTorch on inputs other than the ones traced with."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install -e '.[torch]' to run the "
                                             "PyTorch backend tests)")

import autograph as ag  # noqa: E402
from autograph.errors import StagingError  # noqa: E402
from tests.autograph.backends.torch_in_place_programs import *  # noqa: E402,F401,F403 - the programs


def on_paths(fn, *args) -> list:
    """(fn, arguments to trace with, arguments to run with) for each two consecutive `args`."""
    return [(fn, traced, run) for traced, run in zip(args, args[1:])]


X = torch.tensor([3.0, -8.0])
XS, A = torch.tensor([1.0, 2.0, 4.0, 8.0]), torch.arange(16.0).reshape(4, 4)
N_TRACED, N_RUN = torch.tensor(2), torch.tensor(3)
T, N_0 = torch.tensor, torch.tensor(0)
SIGNS = [(T([1.0, 2.0]),), (T([-1.0, 3.0]),), (T([2.0, -4.0]),), (T([-2.0, -3.0]),)]   # every path of two `if`s
SIGNS_AND_COUNTS = [(T([1.0, 2.0]), N_TRACED), (T([-1.0, 3.0]), N_RUN), (T([2.0, -4.0]), N_0),
                    (T([-2.0, 3.0]), N_TRACED), (T([2.0, 3.0]), N_0)]
PROGRAMS = [   # (function, arguments to trace with, arguments to run with)
    (halve_until_small, (X,), (torch.tensor([100.0, 1.0]),)),
    (count_up, (torch.tensor([2.5]),), (torch.tensor([4.5]),)),
    (add_in_branch, (torch.tensor([1.0]),), (torch.tensor([-1.0]),)),
    (add_in_branch, (torch.tensor([1.0]),), (torch.tensor([2.0]),)),
    (add_without_assigning, (torch.tensor([1.0]),), (torch.tensor([2.0]),)),
    (alias_sees_the_change, (torch.tensor([1.0]),), (torch.tensor([2.0]),)),
    (item_in_branch, (torch.tensor([1.0, 2.0]),), (torch.tensor([3.0, 2.0]),)),
    (fill, (XS, N_TRACED), (XS, N_RUN)),
    (gather, (XS, N_TRACED), (XS, N_RUN)),
    (from_the_end, (XS, N_TRACED), (XS, N_RUN)),
    (column, (A, N_TRACED), (A, N_RUN)),
    (augmented_item, (XS, N_TRACED), (XS, N_RUN)),
    (row_changed_in_place, (A, N_TRACED), (A, N_RUN)),
    (number_alias_after_if, (torch.tensor([1.0]),), (torch.tensor([-1.0]),)),
    (number_alias_after_if, (torch.tensor([-1.0]),), (torch.tensor([2.0]),)),
    (number_alias_in_loop, (torch.tensor([2.5]),), (torch.tensor([4.5]),)),
    (number_derived_from_a_carried_one, (torch.tensor([1.0]),), (torch.tensor([-1.0]),)),
    (number_derived_from_a_carried_one, (torch.tensor([-1.0]),), (torch.tensor([1.0]),)),
    (range_index_rebound, (XS, N_TRACED), (XS, N_RUN)),
    (count_then_alias, (torch.tensor([1.0, -2.0, 3.0]),), (torch.tensor([1.0, 2.0, 3.0]),)),
    (kept_then_changed, (torch.tensor([1.0, 2.0]),), (torch.tensor([-1.0, -2.0]),)),
    (kept_then_changed, (torch.tensor([-1.0, -2.0]),), (torch.tensor([1.0, 2.0]),)),
    (kept_and_the_original_changed, (torch.tensor([1.0, 2.0]),), (torch.tensor([-1.0, -2.0]),)),
    (tensor_of_a_number, (torch.tensor([1.0]),), (torch.tensor([-1.0]),)),
    (number_in_one_branch, (torch.tensor([1.0, 2.0]),), (torch.tensor([-1.0, -2.0]),)),
    (number_in_one_branch, (torch.tensor([-1.0, -2.0]),), (torch.tensor([1.0, 2.0]),)),
    *on_paths(number_in_one_branch_changed_in_a_later_if, *SIGNS),
    *on_paths(computed_from_a_number_in_one_branch, *SIGNS),
    *on_paths(number_in_one_branch_rebound_in_a_later_if, *SIGNS),
    *on_paths(number_in_one_branch_carried_by_a_loop, *SIGNS_AND_COUNTS),
    *on_paths(number_in_one_branch_made_a_tensor_by_a_loop, *SIGNS_AND_COUNTS),
    *on_paths(number_made_by_a_loop, *SIGNS_AND_COUNTS),
    *on_paths(number_in_one_branch_changed_in_place_in_a_loop, *SIGNS_AND_COUNTS),
    *on_paths(number_in_one_branch_changed_in_an_if_in_a_loop, *SIGNS_AND_COUNTS),
    (kept_then_changed_through_a_view, (torch.tensor([1.0, 2.0]),), (torch.tensor([-1.0, -2.0]),)),
    (kept_then_changed_through_a_view, (torch.tensor([-1.0, -2.0]),), (torch.tensor([1.0, 2.0]),)),
    (kept_by_two_ifs, (torch.tensor([1.0, 2.0]),), (torch.tensor([-1.0, -2.0]),)),
    (kept_by_two_ifs, (torch.tensor([-1.0, 2.0]),), (torch.tensor([1.0, -2.0]),)),
    (kept_inside_a_branch, (torch.tensor([1.0, 2.0]),), (torch.tensor([1.0, -2.0]),)),
    (kept_from_outside_a_branch, (torch.tensor([1.0, 2.0]),), (torch.tensor([1.0, -2.0]),)),
    (kept_by_an_inner_if, (torch.tensor([1.0, 2.0]),), (torch.tensor([1.0, -2.0]),)),
    (kept_on_a_condition_from_outside, (torch.tensor([1.0, 2.0]),), (torch.tensor([1.0, -2.0]),)),
    (kept_by_an_inner_if, (torch.tensor([-1.0, 2.0]),), (torch.tensor([1.0, 2.0]),)),
    (kept_in_a_loop_body, (torch.tensor([1.0, 2.0]), N_TRACED), (torch.tensor([2.0, 2.0]), N_RUN)),
    (kept_made_in_a_loop_body, (torch.tensor([1.0, 2.0]), N_TRACED), (torch.tensor([2.0, 2.0]), N_RUN)),
    (one_of_two_kept, (torch.tensor([1.0]),), (torch.tensor([-1.0]),)),
    (one_of_two_kept, (torch.tensor([-1.0]),), (torch.tensor([1.0]),)),
    (kept_by_a_loop_that_did_not_run, (torch.tensor([-1.0]),), (torch.tensor([1.0]),)),
    (kept_by_a_loop_that_did_not_run, (torch.tensor([1.0]),), (torch.tensor([-3.0]),)),
    (kept_by_a_range_loop, (XS, N_TRACED), (XS, torch.tensor(0))),
    (kept_by_a_range_loop, (XS, torch.tensor(0)), (XS, N_RUN)),
    (starts_as_a_tensor_it_reads, (torch.tensor([0.0]),), (torch.tensor([5.0]),)),
    (range_loop_starts_as_a_tensor_it_reads, (torch.tensor([0.0]),), (torch.tensor([4.0]),)),
    (walrus_in_a_loop_test_after_a_return, (torch.tensor([0.0]),), (torch.tensor([-4.0]),)),
]
IDS = [f"{fn.__name__}-{n}" for n, (fn, _, _) in enumerate(PROGRAMS)]
NOT_DECOMPOSED = [   # run_decompositions fails inside PyTorch ("Attempting to use FunctionalTensor on its own"):
                     # a staged loop inside a staged `if` (see test_nested_loops_...), a float number lifted in a body
    (kept_by_a_loop_in_a_branch, (torch.tensor([1.0]), N_TRACED), (torch.tensor([1.0]), torch.tensor(0))),
    (kept_by_a_loop_in_a_branch, (torch.tensor([1.0]), torch.tensor(0)), (torch.tensor([1.0]), N_RUN)),
    (kept_by_a_loop_in_a_branch, (torch.tensor([1.0]), N_TRACED), (torch.tensor([-1.0]), N_RUN)),
    (kept_by_a_range_loop_in_two_branches, (torch.tensor([1.0, 1.0]), N_TRACED),
     (torch.tensor([1.0, 1.0]), torch.tensor(0))),
    (kept_by_a_range_loop_in_two_branches, (torch.tensor([1.0, -1.0]), torch.tensor(0)),
     (torch.tensor([1.0, 1.0]), N_RUN)),
    *on_paths(number_in_one_branch_carried_by_a_loop_in_a_branch, *SIGNS_AND_COUNTS),
    *on_paths(number_in_one_branch_made_a_number_by_a_loop, *SIGNS_AND_COUNTS),
    *on_paths(number_in_one_branch_changed_in_nested_loops, *SIGNS_AND_COUNTS),
]
NOT_DECOMPOSED_IDS = [f"{fn.__name__}-{n}" for n, (fn, _, _) in enumerate(NOT_DECOMPOSED)]


def module(fn):
    class Model(torch.nn.Module):
        forward = staticmethod(ag.convert(fn))
    return Model()


def same(got, want) -> bool:
    got, want = (got if isinstance(got, tuple) else (got,)), (want if isinstance(want, tuple) else (want,))
    return len(got) == len(want) and all(torch.equal(torch.as_tensor(a), torch.as_tensor(b))
                                         for a, b in zip(got, want))


def fresh(args):
    return tuple(a.clone() for a in args)


@pytest.mark.parametrize("fn, traced, run", PROGRAMS, ids=IDS)
def test_exported_and_decomposed_programs_agree_with_eager(fn, traced, run):
    program = torch.export.export(module(fn), fresh(traced))
    assert same(program.module()(*fresh(run)), fn(*fresh(run)))
    assert same(program.run_decompositions().module()(*fresh(run)), fn(*fresh(run)))   # was "body_fn might be
                                                                                      # modifying the input!"


@pytest.mark.parametrize("fn, traced, run", PROGRAMS, ids=IDS)
def test_compiled_programs_agree_with_eager(fn, traced, run):
    compiled = torch.compile(module(fn), fullgraph=True, backend="aot_eager")
    assert same(compiled(*fresh(traced)), fn(*fresh(traced)))
    assert same(compiled(*fresh(run)), fn(*fresh(run)))


@pytest.mark.parametrize("fn, traced, run", NOT_DECOMPOSED, ids=NOT_DECOMPOSED_IDS)
def test_exported_and_compiled_programs_agree_with_eager(fn, traced, run):
    program = torch.export.export(module(fn), fresh(traced))
    assert same(program.module()(*fresh(run)), fn(*fresh(run)))
    compiled = torch.compile(module(fn), fullgraph=True, backend="aot_eager")
    assert same(compiled(*fresh(traced)), fn(*fresh(traced)))
    assert same(compiled(*fresh(run)), fn(*fresh(run)))     # was "cond_fn might be aliasing the input"


def test_the_numbers_mode_ends_with_the_converted_function():
    """The mode that makes `+=` on a carried number rebind is in force until the converted function returns."""
    from torch.overrides import _get_current_function_mode_stack

    from autograph.backends import torch_aliasing

    program = torch.export.export(module(number_alias_after_if), (torch.tensor([1.0]),))
    assert not any(isinstance(m, torch_aliasing._AfterStaging) for m in _get_current_function_mode_stack())
    assert not torch_aliasing._numbers() and not torch_aliasing.local.kept and not torch_aliasing.local.partly
    assert program.module()(torch.tensor([-1.0]))[0].tolist() == [-1.0]


def test_an_argument_a_staged_if_may_have_kept_is_changed_as_python_would():
    def bump_unless_doubled(x):
        y = x
        if x.sum() > 0:
            y = y * 2
        y += 1
        return y * 1

    program = torch.export.export(module(bump_unless_doubled), (torch.tensor([1.0]),))
    for value, changed in ((-1.0, 0.0), (1.0, 1.0)):      # kept (the input changes too), and replaced
        x = torch.tensor([value])
        assert same(program.module()(x), bump_unless_doubled(torch.tensor([value]))) and x.tolist() == [changed]


@pytest.mark.parametrize("operator", ["and", "or"])
def test_an_operand_a_staged_and_or_gives_is_changed_in_place_as_eager_torch_changes_it(operator):
    """`u = x and y` is `x` itself where `x` is false (fuzz seed 93713): `u -= 1` changes `x` there, as in eager
    torch (the cond's copy of `x` used to change alone)."""
    def pick_and_decrement(x, y):
        u = (x and y) if operator == "and" else (x or y)
        u -= 1
        return x * 1, u * 1

    program = torch.export.export(module(pick_and_decrement), (torch.tensor(0), torch.tensor(5)))
    for a, b in ((0, 5), (3, 5)):
        got = program.module()(torch.tensor(a), torch.tensor(b))
        assert same(got, pick_and_decrement(torch.tensor(a), torch.tensor(b))), (a, b)


def test_nested_loops_index_with_both_counters():
    """Exported and compiled (run_decompositions of nested staged loops fails inside PyTorch, with or without
    indexing: 'Attempting to use FunctionalTensor on its own')."""
    program = torch.export.export(module(nested), (A, N_TRACED))
    assert same(program.module()(A, N_RUN), nested(A, N_RUN))
    assert same(torch.compile(module(nested), fullgraph=True, backend="aot_eager")(A, N_RUN), nested(A, N_RUN))


def test_the_input_is_changed_as_python_would():
    """A function that changes its argument in place in a staged loop changes the exported program's input too."""
    def bump(x):
        while x.sum() < 10:
            x += 1
        return x * 1

    program = torch.export.export(module(bump), (torch.tensor([1.0, 2.0]),))
    x, expected = torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0])
    assert same(program.module()(x), bump(expected)) and same(x, expected) and x.tolist() == [5.0, 6.0]


def test_the_traced_inputs_are_not_changed_while_tracing():
    x = torch.tensor([1.0])
    torch.export.export(module(add_without_assigning), (x,))
    assert x.tolist() == [1.0]


def test_a_change_through_a_view_of_a_tensor_from_outside_changes_the_tensor():
    def through_view(x):
        y = x * 1
        if x.sum() > 0:
            row = y[0]                 # a view of `y` (a Python int index), changed in place: `y` changes
            row += 1
        return y

    program = torch.export.export(module(through_view), (torch.tensor([1.0, 2.0]),)).module()
    for x in (torch.tensor([1.0, 2.0]), torch.tensor([-1.0, -2.0])):
        assert same(program(x), through_view(x))


def test_a_change_through_a_view_from_outside_of_a_tensor_not_read_there_is_an_error_at_the_users_line():
    def through_view(x):
        y = x * 1
        row = y[0]
        if x.sum() > 0:
            row += 1                   # `y` is not read in the branch: it can't be given the change
        return y

    with pytest.raises(StagingError, match=r"test_torch_in_place.py:\d+.*`x\[0\] = x\[0\] \+ 1`"):
        torch.export.export(module(through_view), (torch.tensor([1.0, 2.0]),))


def test_a_loop_variable_changed_in_place_then_reassigned_is_an_error():
    def mixed(x):
        acc = x * 1
        while acc.sum() < 10:
            acc += 1
            acc = acc * 2
        return acc

    with pytest.raises(StagingError, match="'acc' is changed in place .* and then reassigned"):
        torch.export.export(module(mixed), (torch.tensor([1.0]),))


def test_a_loop_variable_a_staged_if_in_the_body_may_have_kept_and_changed_in_place_is_an_error():
    def keep_or_double(x, n):
        y = x * 3
        acc = x * 0
        for _ in range(n):
            m = y
            if x[0] > 0:
                y = y * 2
            y += 1             # changes `m` too where the `if` kept `y`, and `m` is the loop's `y`
            acc = acc + m
        return y, acc

    with pytest.raises(StagingError, match=r"test_torch_in_place.py:\d+: 'y' is changed in place \(`add_`\) and then "
                                           r"reassigned"):
        torch.export.export(module(keep_or_double), (torch.tensor([1.0, 2.0]), N_TRACED))


def test_a_number_in_one_branch_changed_in_place_and_rebound_in_a_loop_body_is_an_error():
    """Where `n` is a tensor, `n += 1` changes it (and `m`) in place, and `n = n * 2` makes a new one: the loop
    can't carry both (it was a wrong `m`)."""
    def bump_or_double(x, k):
        if x[0] > 0:
            n = 1
        else:
            n = x.sum()
        m = n
        for i in range(k):
            if x[1] > i:
                n += 1
            else:
                n = n * 2
        return x + m, x + n

    with pytest.raises(StagingError, match=r"test_torch_in_place.py:\d+: 'n' is changed in place \(`copy_`\) where "
                                           r"it is a tensor .*\(`n = n \+ \.\.\.`"):
        torch.export.export(module(bump_or_double), (torch.tensor([1.0, 2.0]), N_TRACED))


def test_a_loop_body_that_makes_a_number_in_one_branch_one_elsewhere_is_an_error():
    """Where the loop's `n` is a number would change from one iteration to the next (it was a wrong `m`)."""
    def maybe_reset(x, k):
        if x[0] > 0:
            n = 1
        else:
            n = x.sum()
        for i in range(k):
            if x[1] > i:
                n = 1
        m = n
        n += 1
        return x + m, x + n

    with pytest.raises(StagingError, match=r"test_torch_in_place.py:\d+: 'n' is a Python number on some paths only "
                                           r"before this `for` loop .*`n = torch.as_tensor\(n\)`"):
        torch.export.export(module(maybe_reset), (torch.tensor([1.0, 2.0]), N_TRACED))


def test_the_max_of_numbers_is_a_number():
    """Exported only: torch.compile can't trace `max` of a tensor (a data-dependent guard)."""
    def larger_then_bump(x):
        n = 1
        if x.sum() > 0:
            n = 3
        k = max(n, 2)              # export makes it a clamp, of numbers alone: a number
        j = k
        k += 1
        return x + j, x + k

    program = torch.export.export(module(larger_then_bump), (torch.tensor([1.0]),))
    for value in (1.0, -1.0):
        assert same(program.module()(torch.tensor([value])), larger_then_bump(torch.tensor([value])))


def test_an_in_place_change_of_a_view_a_branch_gave_is_an_error_at_the_users_line():
    def pick_and_bump(x):
        y = x * 1
        if x.sum() > 0:
            n = y[0]
        else:
            n = y[1]
        n += 1                 # changes `y` in Python; after the `if`, `n` is a new tensor
        return y

    with pytest.raises(StagingError, match=r"test_torch_in_place.py:\d+: .*gave as a view of another tensor"):
        torch.export.export(module(pick_and_bump), (torch.tensor([1.0, 2.0]),))


def test_the_onnx_export_of_the_docs_examples_runs_in_onnxruntime():
    pytest.importorskip("onnxscript", reason="torch.onnx.export(dynamo=True) needs onnxscript (pip install "
                                             "onnxscript)")
    ort = pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    import numpy as np

    class Gate(torch.nn.Module):
        @ag.convert
        def forward(self, x):
            if x.sum() > 0:
                return x * 2
            return x - 1

    for model, traced, runs in ((module(halve_until_small), [3.0, -8.0], ([100.0, 1.0], [0.5, 0.2])),
                                (Gate(), [1.0, 2.0], ([-3.0, 1.0], [1.0, 2.0]))):
        onnx_program = torch.onnx.export(model, (torch.tensor(traced),), dynamo=True)
        session = ort.InferenceSession(onnx_program.model_proto.SerializeToString())
        for x in runs:
            got = session.run(None, {session.get_inputs()[0].name: np.array(x, dtype=np.float32)})
            assert same(tuple(torch.as_tensor(g) for g in got), model(torch.tensor(x)))


def count_to(k):                  # a generator: autograph does not convert it
    for i in range(k):            # <- here: `k` is a traced tensor
        yield i


@pytest.mark.parametrize("staged_before", [False, True], ids=["in-a-branch", "after-an-if"])
def test_torchs_data_dependent_error_in_an_unconverted_helper_names_the_users_line(staged_before):
    """torch names the frame that called the op as the one that raised it: ours, where a branch is traced or
    after a staged statement (fuzz mode x, seed 53730); the note names the user's."""
    from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode

    def in_a_branch(a, b):
        y = a + 2
        if b > 0:
            y = y + sum(count_to(y % 3))
        return y

    def after_an_if(a, b):
        y = a + 2
        if b > 0:
            y = y * 2
        return sum(count_to(y % 3))

    fn = after_an_if if staged_before else in_a_branch
    with pytest.raises(GuardOnDataDependentSymNode) as raised:
        torch.export.export(module(fn), (torch.tensor(0), torch.tensor(0)))
    line = count_to.__code__.co_firstlineno + 1
    assert any(note.startswith(f"{__file__}:{line}: (autograph) a traced tensor is used as a Python value")
               for note in raised.value.__notes__)
