"""autograph.backends.torch_capture: finding the tensors a function reads, and swapping them."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install -e '.[torch]' to run the "
                                             "PyTorch backend tests)")
from autograph.backends import torch_capture as capture  # noqa: E402
from autograph.errors import StagingError  # noqa: E402


def test_record_finds_free_tensors_in_first_use_order_and_not_made_ones():
    a, b, c = torch.ones(2), torch.full((2,), 2.0), torch.zeros(2)

    def branch():
        made = a * 3            # `a` is free, `made` is not
        return made + b, c      # `b` is read by an op, `c` is returned unchanged

    run = capture.record(branch)
    assert [id(t) for t in run.free] == [id(a), id(b), id(c)]
    assert run.out[0].tolist() == [5.0, 5.0] and run.changed == []


def test_record_excludes_tensors_given_as_inputs():
    carried, outside = torch.ones(2), torch.ones(2)
    run = capture.record(lambda: carried + outside, inputs=[carried])
    assert [id(t) for t in run.free] == [id(outside)]


@pytest.mark.parametrize("change", [
    lambda t: t.__iadd__(1), lambda t: t.add_(1), lambda t: t.__setitem__(0, 5.0), lambda t: torch.add(t, 1, out=t),
    lambda t: torch.nn.functional.relu(t, inplace=True)], ids=["+=", "add_", "x[0] = v", "out=", "inplace=True"])
def test_an_in_place_change_of_a_tensor_from_outside_changes_a_copy(change):
    """cond and while_loop reject branches that change their inputs: the run changes a copy, reports it, and
    later ops on the tensor see the copy."""
    x = torch.tensor([-1.0, 2.0])

    def branch():
        change(x)
        return x * 1, x
    run = capture.record(branch)
    assert x.tolist() == [-1.0, 2.0]                               # unchanged
    [(target, new, op)] = run.changed
    assert target is x and new.tolist() != [-1.0, 2.0]
    assert run.out[0].tolist() == new.tolist() and run.out[1] is x    # the copy is given back as `x`


def test_an_in_place_change_of_a_tensor_made_by_the_run_is_left_alone():
    def branch():
        y = torch.zeros(2)
        y += 1
        return y
    run = capture.record(branch)
    assert run.changed == [] and run.out.tolist() == [1.0, 1.0]


def test_an_in_place_change_through_a_view_of_an_outside_tensor_changes_a_copy_of_the_tensor():
    x = torch.zeros(3)
    run = capture.record(lambda: x[0].add_(1))
    assert x.tolist() == [0.0, 0.0, 0.0]
    [(target, new, op)] = run.changed
    assert target is x and new.tolist() == [1.0, 0.0, 0.0] and op == "add_"


def test_a_view_from_outside_sees_its_base_changed_in_place_in_the_run():
    x = torch.zeros(3)
    row = x[1:]                                  # made before the run: Python's `row` sees `x += 1`
    run = capture.record(lambda: (x.add_(1), row * 1)[1])
    assert run.out.tolist() == [1.0, 1.0] and x.tolist() == [0.0, 0.0, 0.0]


def test_an_in_place_change_through_a_view_of_an_outside_tensor_the_run_does_not_read_is_refused():
    x = torch.zeros(3)
    row = x[0]
    with pytest.raises(StagingError, match=r"x\[0\] = x\[0\] \+ 1"):
        capture.record(lambda: row.add_(1))
    assert x.tolist() == [0.0, 0.0, 0.0]


def test_substituted_changes_a_copy_of_a_stand_in():
    a, stand_in = torch.ones(2), torch.zeros(2)
    fn = capture.substituted(lambda: a.add_(1) * 1, [a])
    assert fn(stand_in).tolist() == [1.0, 1.0] and stand_in.tolist() == [0.0, 0.0]


def test_untraced_changes_copies():
    x = torch.zeros(1)
    assert capture.untraced(lambda: x.add_(1)).item() == 1.0 and x.item() == 0.0


def test_substituted_swaps_free_tensors_for_the_stand_ins():
    a, b = torch.ones(2), torch.full((2,), 10.0)
    fn = capture.substituted(lambda k: a * k + b, [a, b])
    assert fn(2.0, torch.full((2,), 3.0), torch.zeros(2)).tolist() == [6.0, 6.0]


def test_nested_substitutions_resolve_through_the_enclosing_one():
    a = torch.ones(1)
    outer_stand_in, inner_stand_in = torch.full((1,), 5.0), torch.full((1,), 7.0)

    def outer():
        assert capture.resolve(a) is outer_stand_in
        inner = capture.substituted(lambda: (a + 0, capture.resolve(a)), [a])
        return (a + 0, *inner(inner_stand_in))
    seen_outer, seen_inner, resolved_inner = capture.substituted(outer, [a])(outer_stand_in)
    assert seen_outer.item() == 5.0 and seen_inner.item() == 7.0 and resolved_inner is inner_stand_in
    assert capture.resolve(a) is a        # nothing in force afterwards


def test_untraced_returns_the_result():
    assert capture.untraced(lambda: torch.ones(1) + 1).item() == 2.0
