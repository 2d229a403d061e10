"""autograph.backends: registration, the per-type cache, is_staged refinement, module prefixes, threads."""
from __future__ import annotations

import threading

import pytest

from autograph import backends
from autograph.errors import UnsupportedCapabilityError


class Staged:
    def __init__(self, symbolic=True):
        self.symbolic = symbolic


class SubStaged(Staged):
    pass


@pytest.fixture
def fake():
    backend = backends.register_backend(backends.Backend(
        name="fake", staged_types=(Staged,), is_staged=lambda v: v.symbolic, modules=("fakefw", "fakefw_ext")))
    yield backend
    backends.unregister_backend("fake")


def test_python_values_are_not_claimed_and_the_answer_is_cached(fake):
    assert backends.backend_for(3) is None and backends.backend_for("s") is None
    assert backends._type_cache[int] is None and backends._type_cache[str] is None


def test_staged_types_and_subclasses_are_claimed(fake):
    assert backends.backend_for(Staged()) is fake and backends.backend_for(SubStaged()) is fake
    assert backends._type_cache[SubStaged] is fake


def test_is_staged_refines_per_value(fake):
    assert backends.backend_for(Staged(symbolic=False)) is None   # an eager value of the framework


def test_registration_clears_the_cache_and_replaces_by_name(fake):
    backends.backend_for(Staged())
    replacement = backends.register_backend(backends.Backend(name="fake", staged_types=(SubStaged,)))
    assert backends.backend_for(Staged()) is None and backends.backend_for(SubStaged()) is replacement
    assert [b.name for b in backends.registered()].count("fake") == 1


def test_owned_module_prefixes(fake):
    assert {"fakefw", "fakefw_ext"} <= set(backends.owned_module_prefixes())


def test_backend_for_any_finds_the_first_staged_value(fake):
    assert backends.backend_for_any([1, "a", Staged()]) is fake
    assert backends.backend_for_any([1, Staged(False)]) is None


def test_need_names_construct_and_framework(fake):
    assert fake.need("name", "x") == "fake"
    with pytest.raises(UnsupportedCapabilityError, match=r"a `while` loop on fake values .* no `while_loop`"):
        fake.need("while_loop", "a `while` loop")
    with pytest.raises(NotImplementedError):        # catchable as the matching builtin too
        fake.need("cond", "an `if`")


def test_concurrent_registration_and_lookup_stay_consistent():
    classes = [type(f"T{i}", (), {}) for i in range(8)]
    errors = []

    def worker(i):
        try:
            for _ in range(200):
                backends.register_backend(backends.Backend(name=f"t{i}", staged_types=(classes[i],)))
                assert backends.backend_for(classes[i]()).name == f"t{i}"
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert errors == []
        assert all(backends.backend_for(c()).name == f"t{i}" for i, c in enumerate(classes))
    finally:
        for i in range(8):
            backends.unregister_backend(f"t{i}")
    assert all(backends.backend_for(c()) is None for c in classes)


def test_python_values_never_reach_a_backends_is_staged():
    from autograph import operators as ops
    calls = []
    backends.register_backend(backends.Backend(
        name="counting", staged_types=(Staged,), is_staged=lambda v: calls.append(v) or True))
    try:
        assert ops.if_stmt(1, lambda: "t", lambda: "f", (), ()) == "t"
        assert ops.while_stmt(lambda i: i < 3, lambda i: i + 1, (0.0,), ("i",)) == 3.0
        assert ops.and_(lambda: [1], lambda: "b") == "b" and ops.len_("abc") == 3
        assert calls == []
        assert backends.backend_for(Staged()).name == "counting" and len(calls) == 1
    finally:
        backends.unregister_backend("counting")
