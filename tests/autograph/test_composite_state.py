"""Attributes and items assigned in a staged `if` or loop (`self.count`, `d['total']`) are carried like
variables: each function runs on Python values through its generated code (same result as the original)
and on runtime tensors in `runtime.function` (the staged result, with `While`/`Cond` in the graph)."""
import pytest

import autograph as ag
import runtime as tf
from autograph.errors import StagingError
from runtime.control_flow import ControlFlowError
from tests.autograph.generated_code import python_run


def staged(fn, *args):
    """`fn` traced by runtime.function: its result as Python numbers, and the staged ops of its graph."""
    traced = tf.function(fn)
    out = traced(*args)
    ops = {op.type for op in traced.get_concrete_function(*args).graph.get_operations()}
    values = tuple(v.numpy().item() for v in out) if isinstance(out, tuple) else out.numpy().item()
    return values, ops


class Box:
    def __init__(self, **fields):
        self.__dict__.update(fields)


class Counter:
    def __init__(self, start=0):
        self.count = start
        self.stats = {"n": 0, "sum": 0}

    def count_up(self, n):
        while self.count < n:          # the loop test reads the carried attribute
            self.count = self.count + 1
        return self.count

    def add_all(self, xs):
        for x in xs:
            self.stats["n"] += 1
            self.stats["sum"] = self.stats["sum"] + x
        return self.stats["n"], self.stats["sum"]


def dict_sum(n):
    d = {"total": tf.constant(0)}
    for i in tf.range(n):
        d["total"] = d["total"] + i
    return d["total"]


def dict_sum_of_range(n):
    d = {"total": 0}
    for i in range(n):
        d["total"] = d["total"] + i
    return d["total"]


def test_dict_item_in_a_tensor_for_loop():
    value, ops = staged(dict_sum, tf.constant(4))
    assert value == 6 and "While" in ops
    assert ag.convert(dict_sum)(4).numpy() == dict_sum(4).numpy() == 6   # eager tensors: a Python loop
    assert python_run(dict_sum_of_range, 4) == 6
    value, ops = staged(dict_sum_of_range, tf.constant(4))
    assert value == 6 and "While" in ops


def test_attribute_of_self_in_a_tensor_while_in_a_method():
    assert python_run(Counter.count_up, Counter(), 5) == 5
    counter = Counter()
    assert tf.function(counter.count_up)(tf.constant(5)).numpy() == 5
    assert tf.function(Counter(2).count_up)(tf.constant(7)).numpy() == 7
    assert "self.count" in ag.to_code(Counter.count_up)


def method_counter(n):
    return Counter().count_up(n)


def test_a_method_called_from_a_traced_function_is_converted_with_its_attribute_state():
    assert python_run(method_counter, 3) == 3
    assert staged(method_counter, tf.constant(3))[0] == 3


def test_item_of_an_attribute_in_a_tensor_for_loop():
    def stats_of(xs):
        return Counter().add_all(xs)

    assert python_run(stats_of, [3, 4, 5]) == (3, 12)
    assert staged(stats_of, tf.constant([3, 4, 5]))[0] == (3, 12)


def attribute_chain(n):
    a = Box(b=Box(c=0))
    i = 0
    while i < n:
        a.b.c = a.b.c + i
        i += 1
    return a.b.c


def test_attribute_chain_a_b_c():
    assert python_run(attribute_chain, 5) == 10
    value, ops = staged(attribute_chain, tf.constant(5))
    assert value == 10 and "While" in ops
    assert "composites={'a.b.c': lambda: a}" in ag.to_code(attribute_chain)


def branches(x):
    box = Box(lo=0, hi=0)
    if x > 0:
        box.lo = -x
        box.hi = x        # assigned in this branch only: the other keeps 0
    else:
        box.lo = x
    return box.lo, box.hi


@pytest.mark.parametrize("x", [3, -2])
def test_attributes_assigned_in_both_or_one_branch_of_a_tensor_if(x):
    expected = python_run(branches, x)
    value, ops = staged(branches, tf.constant(x))
    assert value == expected and "Cond" in ops


def countdown_items(n):
    d = {"left": n, "steps": 0}
    while d["left"] > 0:
        d["left"] -= 1
        d["steps"] += 2
    return d["steps"]


def test_item_read_in_the_while_test():
    assert python_run(countdown_items, 4) == 8
    assert staged(countdown_items, tf.constant(4))[0] == 8


def clipped_total(xs, limit):
    acc = Box(total=0)
    for x in xs:
        if acc.total + x > limit:
            break
        acc.total += x
    return acc.total


def first_total_over(xs, limit):
    acc = Box(total=0)
    for x in xs:
        acc.total += x
        if acc.total > limit:
            return acc.total
    return -1


@pytest.mark.parametrize("limit", [0, 6, 100])
def test_break_and_return_in_a_tensor_loop_with_attribute_state(limit):
    xs = [2, 3, 4]
    assert staged(clipped_total, tf.constant(xs), tf.constant(limit))[0] == python_run(clipped_total, xs, limit)
    assert staged(first_total_over, tf.constant(xs), tf.constant(limit))[0] == python_run(first_total_over, xs, limit)


def fresh_each_iteration(n, keep):
    c = keep
    total = 0
    for i in range(n):
        c = Box(count=0)      # the base is reassigned: `c.count` is not carried
        c.count = i * 2
        total += c.count
    return total


def test_a_composite_whose_base_is_reassigned_in_the_body_is_not_carried():
    assert "composites" not in ag.to_code(fresh_each_iteration)
    assert python_run(fresh_each_iteration, 4, Box(count=0)) == 12
    keep = Box(count=0)
    assert staged(fresh_each_iteration, tf.constant(4), keep)[0] == 12
    assert keep.count == 0     # as before composites were carried: the loop never touched it


def test_python_values_never_read_the_composites():
    """On Python values the operators ignore `composites`: a root that is not bound yet is never read."""
    def unbound_until_later(n):
        for i in range(n):
            box.x = i  # noqa: F821 - `box` is assigned after the loop
        while n > 100:
            missing.x = 1  # noqa: F821 - never runs
        box = Box(x=-1)
        return box.x

    assert "'box.x': lambda: box" in ag.to_code(unbound_until_later)
    assert python_run(unbound_until_later, 0) == -1


class Model:
    def __init__(self):
        self.count = tf.constant(0)
        self.pair = tf.constant(0)

    def recast(self, n):
        for _ in tf.range(n):
            self.count = tf.cast(self.count, tf.float32)
        return self.count

    def restructure(self, x):
        if x > 0:
            self.pair = (x, x)
        else:
            self.pair = x
        return x


def test_a_composite_changing_dtype_in_a_loop_is_named():
    with pytest.raises(ControlFlowError, match=r"self\.count is int32 before the loop but float32"):
        tf.function(Model().recast)(tf.constant(2))


def test_a_composite_with_different_structures_in_the_branches_is_named():
    model = Model()
    with pytest.raises(StagingError, match=r"'self\.pair' has a different structure in the two branches .*"
                                           r"a tuple of 2 at test_composite_state\.py:\d+ vs a single value"):
        tf.function(model.restructure)(tf.constant(1))
    assert model.pair.numpy() == 0      # the object gets its value back when staging fails


def grows_in_loop(n):
    d = {"x": 0}
    for i in tf.range(n):
        d["x"] = (d["x"], i)
    return d["x"]


def test_a_composite_changing_structure_in_a_loop_is_named():
    with pytest.raises(StagingError, match=r"'d\['x'\]' is a single value when an iteration .* but a tuple of 2"):
        tf.function(grows_in_loop)(tf.constant(2))


# --- the other backends: the same state tuple, no backend change ---------------------------------------

def count_then_scale(x):
    c = Box(count=0)
    while c.count < x:
        c.count = c.count + 1
    if x > 3:
        c.count = c.count * 10
    return c.count


def test_jax_carries_attributes_and_items_through_lax_control_flow():
    jax = pytest.importorskip("jax", reason="JAX is not installed (pip install -e '.[jax]' to run this test)")
    jnp = pytest.importorskip("jax.numpy")
    assert int(jax.jit(ag.convert(dict_sum_of_range))(jnp.int32(4))) == 6
    for x in (2, 5):
        assert int(jax.jit(ag.convert(count_then_scale))(jnp.int32(x))) == python_run(count_then_scale, x)
    eqns = jax.make_jaxpr(ag.convert(count_then_scale))(jnp.int32(5)).jaxpr.eqns
    assert {"while", "cond"} <= {e.primitive.name for e in eqns}


def test_torch_export_carries_attributes_and_items():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install -e '.[torch]' to run this "
                                                 "test)")

    class Model(torch.nn.Module):
        def forward(self, x):
            return ag.convert(count_then_scale)(x), ag.convert(dict_sum_of_range)(x)

    program = torch.export.export(Model(), (torch.tensor(5),))
    hops = {node.target.name() for node in program.graph.nodes
            if node.op == "call_function" and isinstance(node.target, torch._ops.HigherOrderOperator)}
    assert {"while_loop", "cond"} <= hops
    for x in (2, 5):
        count, total = program.module()(torch.tensor(x))
        assert (count.item(), total.item()) == (count_then_scale(x), dict_sum_of_range(x))


# --- stores that run the class's own Python code are refused, not carried ---------------------------------
# Carrying stores and reads an attribute or item again at the start of each branch or iteration and after the
# statement: a property's setter, or a `__setattr__`/`__setitem__` of the class, ran more often than in Python
# and gave back another value (`p.v = x` in a tensor `if` returned 18 where Python gives 8).

class Doubled:
    def __init__(self, v):
        self._v = v

    @property
    def v(self):
        return self._v * 2

    @v.setter
    def v(self, value):
        self._v = value + 1


class CountsStores:
    def __init__(self):
        self.a = 0

    def __setattr__(self, key, value):
        object.__setattr__(self, key, value)
        object.__setattr__(self, "stores", getattr(self, "stores", 0) + 1)


class LastKept(dict):
    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        super().__setitem__("last", value)


class Slotted:
    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v


def property_in_if(x):
    p = Doubled(x)
    if x > 0:
        p.v = x
    return p.v


def property_in_while(n):
    p = Doubled(1)
    i = 0
    while i < n:
        p.v += 1
        i += 1
    return p.v


def setattr_in_if(x):
    s = CountsStores()
    if x > 0:
        s.a = x
    return s.a, s.stores


def setitem_in_for(n):
    d = LastKept(total=0, last=0)
    for i in range(n):
        d["total"] = d["total"] + i
    return d["total"], d["last"]


def slot_in_while(n):
    s = Slotted(0)
    i = 0
    while i < n:
        s.v = s.v + i
        i += 1
    return s.v


@pytest.mark.parametrize("fn, arg, python, what", [
    (property_in_if, 3, 8, "`v` is a property of Doubled"),
    (property_in_while, 3, 44, "`v` is a property of Doubled"),
    (setattr_in_if, 3, (3, 2), "CountsStores defines `__setattr__` in Python"),
    (setitem_in_for, 4, (6, 6), "LastKept defines `__setitem__` in Python"),
])
def test_a_store_running_python_code_of_the_class_is_refused(fn, arg, python, what):
    assert fn(arg) == python_run(fn, arg) == python
    with pytest.raises(StagingError, match=what) as raised:
        tf.function(fn)(tf.constant(arg))
    assert "test_composite_state.py" in str(raised.value)


def test_a_slot_is_a_plain_store_and_is_carried():
    value, ops = staged(slot_in_while, tf.constant(4))
    assert value == slot_in_while(4) == 6 and "While" in ops
