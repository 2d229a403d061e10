"""list_append / list_pop / list_stack on Python lists and on a backend's tensor lists."""
from __future__ import annotations

import pytest

from autograph import operators as ag
from tests.autograph.operators.conftest import Toy, ToyList


def test_python_lists_are_modified_in_place():
    values = [1]
    assert ag.list_append(values, 2) is values and values == [1, 2]
    assert ag.list_pop(values) == (values, 2) and values == [1]
    values = [1, 2, 3]
    assert ag.list_pop(values, 0) == ([2, 3], 1)
    assert ag.list_stack(values) is values


def test_pop_of_an_empty_python_list_raises_like_python():
    with pytest.raises(IndexError):
        ag.list_pop([])


def test_tensor_lists_use_the_backend(toy):
    tl = ag.list_append(ToyList([Toy(1)]), Toy(2))
    tl, last = ag.list_pop(tl)
    assert isinstance(tl, ToyList) and last.value == 2
    assert ag.list_stack(tl).value == [1]
    assert toy.names() == ["list_append", "list_pop", "list_stack"]


def test_missing_list_capability(bare_toy):
    from autograph import backends
    backends.register_backend(backends.Backend(name="toy", staged_types=(Toy,), list_types=(ToyList,)))
    with pytest.raises(NotImplementedError, match="`append` to a tensor list on toy values"):
        ag.list_append(ToyList(), 1)
