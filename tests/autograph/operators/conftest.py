"""A toy framework for the operator tests: its staged values record calls, so
the tests prove the operators dispatch through the protocol alone."""
from __future__ import annotations

import pytest

from autograph import backends


class Toy:
    """A staged value: `value` is what it would compute, every capability call is logged."""

    def __init__(self, value, dtype=None):
        self.value = value
        self.dtype = dtype or type(value).__name__

    def __bool__(self):
        raise AssertionError("a staged Toy value must never be used as a Python bool")

    def __lt__(self, other):
        return Toy(self.value < _v(other))

    def __gt__(self, other):
        return Toy(self.value > _v(other))

    def __add__(self, other):
        return Toy(self.value + _v(other), self.dtype)

    def __sub__(self, other):
        return Toy(self.value - _v(other), self.dtype)

    def __repr__(self):
        return f"Toy({self.value!r})"


class ToyList(list):
    """The toy framework's tensor list."""


def _v(x):
    return x.value if isinstance(x, Toy) else x


class Recorder:
    def __init__(self):
        self.calls = []

    def log(self, *entry):
        self.calls.append(entry)

    def names(self):
        return [c[0] for c in self.calls]


def make_backend(rec: Recorder, **overrides) -> backends.Backend:
    """Capabilities that evaluate eagerly on `value` while recording each call."""

    def cond(pred, true_fn, false_fn, names=()):
        rec.log("cond", pred.value)
        t, f = true_fn(), false_fn()          # a staging framework traces both branches
        return t if pred.value else f

    def while_loop(test, body, state, opts):
        rec.log("while_loop", opts)
        state = state.values
        while _v(test(*state)):
            new = tuple(body(*state))
            for a, b in zip(state, new):
                if isinstance(a, Toy) and isinstance(b, Toy) and a.dtype != b.dtype:
                    raise TypeError(f"dtype changed from {a.dtype} to {b.dtype}")
            state = new
        return state

    def for_loop(iterable, body, state, extra_test, opts):
        rec.log("for_loop", opts)
        state = state.values
        for item in iterable.value:
            if extra_test is not None and not _v(extra_test(*state)):
                break
            state = tuple(body(Toy(item), *state))
        return state

    fields = dict(
        name="toy", staged_types=(Toy,), is_staging=lambda: True, modules=("toyframework",),
        cond=cond, while_loop=while_loop, for_loop=for_loop,
        range=lambda *a: (rec.log("range", a), Toy(list(range(*map(_v, a)))))[1],
        len=lambda x: (rec.log("len"), Toy(len(x.value)))[1],
        logical_and=lambda a, b: (rec.log("and"), Toy(a.value and _v(b())))[1],
        logical_or=lambda a, b: (rec.log("or"), Toy(a.value or _v(b())))[1],
        logical_not=lambda a: (rec.log("not"), Toy(not a.value))[1],
        print=lambda *a, **k: rec.log("print", tuple(map(_v, a))),
        assert_=lambda c, m: rec.log("assert", c.value, m() if m else None),
        list_from=lambda values: ToyList(values), list_types=(ToyList,),
        list_append=lambda l, x: (rec.log("list_append"), ToyList([*l, x]))[1],
        list_pop=lambda l, i: (rec.log("list_pop"), (ToyList(l[:-1]), l[-1]))[1],
        list_stack=lambda l: (rec.log("list_stack"), Toy([_v(x) for x in l]))[1],
        int=lambda x: Toy(int(x.value)), float=lambda x: Toy(float(x.value)),
    )
    fields.update(overrides)
    return backends.Backend(**fields)


@pytest.fixture
def toy():
    """Registers the toy backend for one test and yields its call recorder."""
    rec = Recorder()
    backends.register_backend(make_backend(rec))
    yield rec
    backends.unregister_backend("toy")


@pytest.fixture
def bare_toy():
    """The toy framework with no capabilities at all."""
    backends.register_backend(backends.Backend(name="toy", staged_types=(Toy,)))
    yield
    backends.unregister_backend("toy")
