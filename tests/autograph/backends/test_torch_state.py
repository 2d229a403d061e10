"""autograph.backends.torch_state: flattening the state, branch plans and loop checks."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install -e '.[torch]' to run the "
                                             "PyTorch backend tests)")
from autograph.backends import torch_state as ts  # noqa: E402
from autograph.errors import StagingError  # noqa: E402


def test_flatten_and_unflatten_round_trip_with_leaf_names():
    state = (torch.ones(1), {"a": 1, "b": [2.0, "s"]}, None)
    leaves, layout = ts.flatten(state, ("x", "d", "n"))
    assert layout.leaf_names == ("x", "d", "d", "d", "n")
    tensor, tree, none = ts.unflatten(leaves, layout)
    assert tensor is state[0] and tree == {"a": 1, "b": [2.0, "s"]} and none is None


def test_branch_plan_static_values_dtypes_and_promotion():
    f32, i64 = torch.ones(()), torch.ones((), dtype=torch.int64)
    plan = ts.branch_plan([f32, 0, "same", True, 1], [f32 * 2, f32, "same", False, 2.5], ["a", "b", "c", "d", "e"])
    assert plan == (torch.float32, torch.float32, ts.STATIC, torch.bool, torch.float32)
    with pytest.raises(StagingError, match="'y' is a float32 tensor.*int64 tensor"):
        ts.branch_plan([f32], [i64], ["y"])
    with pytest.raises(StagingError, match="'s' is the Python str 'a'.*'b'"):
        ts.branch_plan(["a"], ["b"], ["s"])


def test_branch_shapes_must_match():
    with pytest.raises(StagingError, match="'y'.*same shape"):
        ts.check_branch_shapes([torch.ones(2)], [torch.ones(3)], ["y"])


def test_loop_leaf_from_a_python_number_asks_for_a_retry_with_the_tensor_dtype():
    plan = ts.loop_plan([0, torch.ones(2)])
    assert plan == (torch.int64, torch.float32)
    with pytest.raises(ts.Retry) as retry:
        ts.check_loop_leaf(torch.ones(()), 0, torch.tensor(0), torch.int64, "total", "`while` loop", plan, 0, True)
    assert retry.value.plan == (torch.float32, torch.float32)


def test_loop_leaf_errors_name_the_variable():
    carried = torch.ones(2)
    with pytest.raises(StagingError, match="'x' changes dtype from float32 to int64"):
        ts.check_loop_leaf(carried.long(), carried, carried, torch.float32, "x", "`while` loop", (), 0, False)
    with pytest.raises(StagingError, match="'x' changes shape from \\(2,\\) to \\(4,\\)"):
        ts.check_loop_leaf(torch.ones(4), carried, carried, torch.float32, "x", "`while` loop", (), 0, False)
    with pytest.raises(StagingError, match="'s' changes from the Python str 'a' to the Python str 'b'"):
        ts.check_loop_leaf("b", "a", None, ts.STATIC, "s", "`while` loop", (), 0, False)


def test_a_loop_changing_a_lists_length_is_list_resized_which_says_to_preallocate():
    _, before = ts.flatten(([], (torch.ones(1), [])), ("out", "acc"))
    _, longer = ts.flatten(([torch.ones(1)], (torch.ones(1), [])), ("out", "acc"))
    with pytest.raises(ts.ListResized, match="the list 'out' changes length.*0 elements before, 1 after.*preallocate"):
        ts.check_loop_structure(longer, before, "this `for` loop")
    _, nested = ts.flatten(([], (torch.ones(1), [1.0, 2.0])), ("out", "acc"))
    with pytest.raises(ts.ListResized, match="a list in 'acc' changes length.*0 elements before, 2 after") as resized:
        ts.check_loop_structure(nested, before, "this `for` loop")
    error = resized.value.cannot_unroll("it is a `while` loop", "Loop with `for`")
    assert type(error) is StagingError and "can't be unrolled: it is a `while` loop. Loop with `for`, or preallocate" \
        in str(error)


def test_other_structure_changes_and_branches_are_plain_structure_errors():
    _, before = ts.flatten(([], torch.ones(1)), ("out", "x"))
    _, after = ts.flatten(([], (torch.ones(1),)), ("out", "x"))
    with pytest.raises(StagingError, match="'x' changes structure in this `for` loop") as error:
        ts.check_loop_structure(after, before, "this `for` loop")
    assert not isinstance(error.value, ts.ListResized)
    _, longer = ts.flatten(([1.0], torch.ones(1)), ("out", "x"))
    with pytest.raises(StagingError, match="'out' changes structure in this `if`") as error:
        ts.check_structure(longer, before, "this `if`")
    assert not isinstance(error.value, ts.ListResized)
