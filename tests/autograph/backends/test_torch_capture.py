"""autograph.backends.torch_capture: finding the tensors a function reads, and swapping them."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install -e '.[torch]' to run the "
                                             "PyTorch backend tests)")
from autograph.backends import torch_capture as capture  # noqa: E402


def test_record_finds_free_tensors_in_first_use_order_and_not_made_ones():
    a, b, c = torch.ones(2), torch.full((2,), 2.0), torch.zeros(2)

    def branch():
        made = a * 3            # `a` is free, `made` is not
        return made + b, c      # `b` is read by an op, `c` is returned unchanged

    out, free = capture.record(branch)
    assert [id(t) for t in free] == [id(a), id(b), id(c)]
    assert out[0].tolist() == [5.0, 5.0]


def test_record_excludes_tensors_given_as_made():
    carried, outside = torch.ones(2), torch.ones(2)
    _, free = capture.record(lambda: carried + outside, made=[carried])
    assert [id(t) for t in free] == [id(outside)]


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
