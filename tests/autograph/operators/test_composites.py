"""operators.composites and the operators' `composites=`: ignored on Python values; on staged values
carried after the variables (named as the user wrote them), set on their objects after the statement."""
from __future__ import annotations


import pytest

from autograph import backends, operators as ag
from autograph.operators import composites
from autograph.operators.variables import Undefined
from tests.autograph.operators.conftest import Recorder, Toy, make_backend


class Box:
    def __init__(self, **fields):
        self.__dict__.update(fields)


def never_read():
    raise AssertionError("a composite was read on the Python path")


def test_read_follows_attribute_and_item_chains():
    box = Box(stats={"n": [5, 6]}, inner=Box(c=7))
    found = composites.read({"box.stats['n'][-1]": lambda: box, "box.inner.c": lambda: box}, "`if`")
    assert [(c.name, c.owner, c.key, c.is_attribute, value) for c, value in found] == [
        ("box.stats['n'][-1]", box.stats["n"], -1, False, 6), ("box.inner.c", box.inner, "c", True, 7)]
    found[0][0].set(9)
    found[1][0].set(8)
    assert box.stats["n"] == [5, 9] and box.inner.c == 8


def test_read_leaves_out_what_can_not_be_reached():
    def unbound():
        raise NameError("free variable 'box' referenced before assignment")

    box = Box(x=[1], d={})
    found = composites.read({"box.x[3]": lambda: box, "box.z.w": lambda: box, "other.x": unbound,
                             "box.x[0]": lambda: box}, "`if`")
    assert [c.name for c, _ in found] == ["box.x[0]"]


def test_read_gives_undefined_for_what_the_statement_creates():
    box = Box(x=1, d={})
    found = composites.read({"box.y": lambda: box, "box.d['k']": lambda: box}, "`if`")
    assert [(c.name, repr(value)) for c, value in found] == [
        ("box.y", "Undefined('box.y')"), ("box.d['k']", "Undefined(\"box.d['k']\")")]
    (y, _), (k, _) = found
    y.set(2)
    k.set(3)
    assert box.y == 2 and box.d == {"k": 3}
    y.set(Undefined("box.y"))
    k.set(Undefined("box.d['k']"))
    assert not hasattr(box, "y") and box.d == {}
    k.set(Undefined("box.d['k']"))   # removing what is not there: nothing to do


def test_python_values_ignore_composites():
    spec = {"box.x": never_read}
    a, i, s = 1, 0, 0

    def add_one():
        nonlocal a
        a = a + 1

    def keep():
        pass

    def step():
        nonlocal i
        i = i + 1

    def add(item):
        nonlocal s
        s = s + item

    assert ag.if_stmt(True, add_one, keep, ("a",), composites=spec) is None and a == 2
    assert ag.while_stmt(lambda: i < 3, step, ("i",), composites=spec) is None and i == 3
    assert ag.for_stmt(range(3), add, ("s",), composites=spec) is None and s == 3
    s = 0
    assert ag.for_stmt(range(9), add, ("s",), extra_test=lambda: s < 3, composites=spec) is None and s == 3


def test_staged_if_carries_an_attribute_after_the_variables(toy):
    box = Box(x=Toy(1))
    a = Toy(0)

    def true_fn():   # what each branch sees is kept on the function (an object the branches read may not change)
        nonlocal a
        true_fn.seen = box.x
        box.x = box.x + 10
        a = a + 1

    def false_fn():
        false_fn.seen = box.x

    assert ag.if_stmt(Toy(True), true_fn, false_fn, ("a",), composites={"box.x": lambda: box}) is None
    assert a.value == 1
    assert box.x.value == 11 and true_fn.seen.value == false_fn.seen.value == 1


def test_staged_if_keeps_the_old_value_on_the_branch_that_does_not_assign(toy):
    box = Box(x=Toy(1))

    def assigns():
        box.x = Toy(5)

    assert ag.if_stmt(Toy(False), assigns, lambda: None, composites={"box.x": lambda: box}) is None
    assert box.x.value == 1


def test_staged_while_test_and_body_see_the_carried_value_and_the_backend_sees_its_name():
    d = {"left": Toy(3)}
    seen = []
    loop = make_backend(Recorder()).while_loop

    def while_loop(test, body, state, opts):
        seen.append(state.names)
        return loop(test, body, state, opts)

    steps = Toy(0)

    def body():
        nonlocal steps
        d["left"] = d["left"] - 1
        steps = steps + 2

    backends.register_backend(make_backend(Recorder(), while_loop=while_loop))
    try:
        ag.while_stmt(lambda: d["left"] > 0, body, ("steps",), composites={"d['left']": lambda: d})
    finally:
        backends.unregister_backend("toy")
    assert steps.value == 6 and d["left"].value == 0
    assert seen == [("steps", "d['left']")]


def test_staged_for_carries_an_item_through_extra_test(toy):
    acc = {"total": Toy(0)}

    def body(item):
        acc["total"] = acc["total"] + item

    assert ag.for_stmt(Toy([1, 2, 3, 4]), body, extra_test=lambda: acc["total"] < 3,
                       composites={"acc['total']": lambda: acc}) is None
    assert acc["total"].value == 3


def test_a_failed_staging_gives_the_object_its_value_back(toy):
    box = Box(x=Toy(1))
    n = Toy(0)

    def body(item):
        nonlocal n
        n = n + item
        box.x = Toy(2)
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        ag.for_stmt(Toy([1]), body, ("n",), composites={"box.x": lambda: box})
    assert box.x.value == 1 and n.value == 0     # the object and the variable, as they were
