"""autograph.backends.torch_state: PyTorch's leaf rules as staging.py uses them, and lists that change length."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install -e '.[torch]' to run the "
                                             "PyTorch backend tests)")
from autograph.backends import staging  # noqa: E402
from autograph.backends import torch_state as ts  # noqa: E402
from autograph.errors import StagingError  # noqa: E402

RULES = ts.RULES


def flat(values, names):
    return staging.flatten(RULES, values, names)


def test_flatten_and_unflatten_round_trip_with_leaf_names():
    state = (torch.ones(1), {"a": 1, "b": [2.0, "s"]}, None)
    leaves, layout = flat(state, ("x", "d", "n"))
    assert layout.leaf_names == ("x", "d", "d", "d", "n")
    tensor, tree, none = staging.unflatten(RULES, leaves, layout)
    assert tensor is state[0] and tree == {"a": 1, "b": [2.0, "s"]} and none is None


def test_branch_plan_static_values_dtypes_and_promotion():
    f32, i64 = torch.ones(()), torch.ones((), dtype=torch.int64)
    first, layout = flat((f32, 0, "same", True, 1), "abcde")
    second, _ = flat((f32 * 2, f32, "same", False, 2.5), "abcde")
    assert staging.branch_plan(RULES, first, second, layout, "this `if`") == (
        torch.float32, torch.float32, staging.STATIC, torch.bool, torch.float32)
    for a, b, message in [(f32, i64, "'y' is a float32 tensor.*an int64 tensor.*one dtype"),
                          ("a", "b", "'y' is the Python str 'a'.*'b'"),
                          (torch.ones(2), torch.ones(3), "'y'.*one shape"),
                          (torch.ones((), dtype=torch.int8), 300, "300 .*an int can't become int8"),
                          (i64, 0.5, "a float can't become int64"),
                          (torch.ones((), dtype=torch.float16), 1e5, "100000.0 .*a float can't become float16"),
                          (torch.ones((), dtype=torch.float16), 1e-8, "1e-08 .*a float can't become float16")]:
        (x,), layout = flat((a,), ("y",))
        with pytest.raises(StagingError, match=message):
            staging.branch_plan(RULES, [x], flat((b,), ("y",))[0], layout, "this `if`")


def check(before, after, names=("x",)):
    leaves, layout = flat(before, names)
    new, new_layout = flat(after, names)
    plan = staging.loop_plan(RULES, leaves)
    shapes = tuple(RULES.shape(v) for v in staging.lifted(RULES, leaves, plan))
    return staging.check_iteration(RULES, leaves, new, layout, new_layout, plan, shapes, "this `while` loop")


def test_a_python_number_that_becomes_a_wider_tensor_asks_for_a_retry_with_its_dtype():
    assert staging.loop_plan(RULES, [0, torch.ones(2)]) == (torch.int64, torch.float32)
    with pytest.raises(staging.Retry) as retry:
        check((0, torch.ones(2)), (torch.ones(()), torch.ones(2)), ("total", "x"))
    assert retry.value.plan == (torch.float32, torch.float32)


def test_loop_leaf_errors_name_the_variable():
    carried = torch.ones(2)
    with pytest.raises(StagingError, match="'x' changes dtype from float32 to int64"):
        check((carried,), (carried.long(),))
    with pytest.raises(StagingError, match=r"'x' changes shape from \[2\] to \[4\].*keep its shape"):
        check((carried,), (torch.ones(4),))
    with pytest.raises(StagingError, match="'x' changes from the Python str 'a' to the Python str 'b'"):
        check(("a",), ("b",))


def test_a_loop_changing_a_lists_length_is_list_resized_which_says_to_preallocate():
    _, before = flat(([], (torch.ones(1), [])), ("out", "acc"))
    _, longer = flat(([torch.ones(1)], (torch.ones(1), [])), ("out", "acc"))
    with pytest.raises(ts.ListResized, match="the list 'out' changes length.*0 elements before, 1 after.*preallocate"):
        ts.check_resized(longer, before, "this `for` loop")
    _, nested = flat(([], (torch.ones(1), [1.0, 2.0])), ("out", "acc"))
    with pytest.raises(ts.ListResized, match="a list in 'acc' changes length.*0 elements before, 2 after") as resized:
        ts.check_resized(nested, before, "this `for` loop")
    error = resized.value.cannot_unroll("it is a `while` loop", "Loop with `for`")
    assert type(error) is StagingError and "can't be unrolled: it is a `while` loop. Loop with `for`, or preallocate" \
        in str(error)


def test_other_structure_changes_are_plain_structure_errors():
    _, before = flat(([], torch.ones(1)), ("out", "x"))
    _, after = flat(([], (torch.ones(1),)), ("out", "x"))
    ts.check_resized(after, before, "this `for` loop")             # no list changed length
    with pytest.raises(StagingError, match="'x' changes structure in this `for` loop on a tensor: it is a single "
                                           "value on one path and a tuple of 1 item on another") as error:
        staging.check_structure(RULES, before, after, "this `for` loop")
    assert not isinstance(error.value, ts.ListResized)
