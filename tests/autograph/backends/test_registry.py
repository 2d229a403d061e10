"""autograph.backends: registration, the per-type cache, is_staged refinement, module prefixes, threads."""
from __future__ import annotations

import sys
import threading
import warnings

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
    taken, i = None, 0.0

    def true_fn():
        nonlocal taken
        taken = "t"

    def false_fn():
        nonlocal taken
        taken = "f"

    def step():
        nonlocal i
        i = i + 1

    try:
        ops.if_stmt(1, true_fn, false_fn, ("taken",))
        ops.while_stmt(lambda: i < 3, step, ("i",))
        ops.for_stmt([0.5, 1.5], lambda x: step(), ("i",), extra_test=lambda: i < 4.5)
        assert taken == "t" and i == 5.0
        assert ops.and_(lambda: [1], lambda: "b") == "b" and ops.len_("abc") == 3
        assert calls == []
        assert backends.backend_for(Staged()).name == "counting" and len(calls) == 1
    finally:
        backends.unregister_backend("counting")


# --- the lazy adapter table (how this backend gets loaded), on a fake framework ------------------------

@pytest.fixture
def fake_framework(tmp_path, monkeypatch):
    """A framework `lazyfw` and its adapter `lazyfw_adapter`, entered in the lazy table."""
    (tmp_path / "lazyfw.py").write_text("class Staged:\n    pass\n")
    (tmp_path / "lazyfw_adapter.py").write_text(
        "import lazyfw\nfrom autograph import backends\n"
        "backends.register_backend(backends.Backend(name='lazyfw', staged_types=(lazyfw.Staged,), "
        "is_staging=lambda: False))\n")
    (tmp_path / "broken_adapter.py").write_text("raise RuntimeError('adapter bug')\n")
    (tmp_path / "slow_adapter.py").write_text("import time\ntime.sleep(0.3)\nimport lazyfw_adapter\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(backends.LAZY_ADAPTERS, "lazyfw", "lazyfw_adapter")
    monkeypatch.setattr(backends, "_lazy_pending", backends._lazy_pending | {"lazyfw"})
    yield
    backends.unregister_backend("lazyfw")
    for name in ("lazyfw", "lazyfw_adapter", "broken_adapter", "slow_adapter"):
        sys.modules.pop(name, None)


def test_a_framework_type_loads_its_adapter_on_first_lookup(fake_framework):
    import lazyfw
    assert "lazyfw_adapter" not in sys.modules
    assert backends.backend_for(lazyfw.Staged()).name == "lazyfw"
    assert "lazyfw" not in backends._lazy_pending


def test_threads_wait_for_an_adapter_being_imported(fake_framework, monkeypatch):
    import lazyfw
    monkeypatch.setitem(backends.LAZY_ADAPTERS, "lazyfw", "slow_adapter")
    found = []
    threads = [threading.Thread(target=lambda: found.append(backends.backend_for(lazyfw.Staged())))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [b.name if b else None for b in found] == ["lazyfw"] * 4


def test_any_staging_loads_adapters_of_imported_frameworks(fake_framework, monkeypatch):
    monkeypatch.setattr(backends, "_lazy_watch", backends._lazy_watch + ("lazyfw",))
    import lazyfw  # noqa: F401
    backends.any_staging()
    assert any(b.name == "lazyfw" for b in backends.registered())
    assert "lazyfw" not in backends._lazy_watch


def test_a_broken_adapter_warns_once_and_leaves_python_semantics(fake_framework, monkeypatch):
    import lazyfw
    monkeypatch.setitem(backends.LAZY_ADAPTERS, "lazyfw", "broken_adapter")
    with pytest.warns(RuntimeWarning, match="could not load its lazyfw backend .*adapter bug"):
        assert backends.backend_for(lazyfw.Staged()) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")                             # no second attempt, no second warning
        assert backends.backend_for(lazyfw.Staged()) is None


def test_mark_converted_sees_functions_converted_before_and_after_registration():
    """A framework whose tracer must be told about converted code (torch's dynamo) marks each function that
    `convert` returns, including those made before its backend registered."""
    import autograph as ag

    def before(x):
        return x

    def after(x):
        return x

    early = ag.convert(before)
    marked = []
    backends.register_backend(backends.Backend(name="marking", mark_converted=marked.append))
    try:
        assert early in marked
        late = ag.convert(after)
        assert marked[-1] is late and late.__wrapped__ is after
    finally:
        backends.unregister_backend("marking")
