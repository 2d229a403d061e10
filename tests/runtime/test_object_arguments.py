"""Objects passed to a runtime.function (instances of the user's classes, dataclasses, sets, bytearrays): a call
after one of their attributes changed traces again, so the function computes what Python computes. TensorFlow
keeps the values it traced (or refuses an unhashable object) and would give the first call's answer again."""
import dataclasses

import numpy as np
import pytest

import runtime as tf


class Plain:
    def __init__(self, scale, offset):
        self.scale, self.offset = scale, offset


@dataclasses.dataclass
class Params:   # unhashable: eq without frozen
    scale: object
    rows: list


def _twice_then_changed(f, obj, change):
    first = f(tf.constant(1), obj)
    assert f(tf.constant(1), obj).numpy() == first.numpy()
    change(obj)
    return first.numpy(), f(tf.constant(1), obj).numpy(), f.experimental_get_tracing_count()


def test_an_attribute_changed_between_calls_traces_again():
    f = tf.function(lambda x, d: x * d.scale + d.offset)
    assert _twice_then_changed(f, Plain(2, 3), lambda d: setattr(d, "offset", 10)) == (5, 12, 2)


def test_a_tensor_attribute_replaced_between_calls_is_read_again():
    f = tf.function(lambda x, d: x * d.scale)
    assert _twice_then_changed(f, Plain(tf.constant(2), 0), lambda d: setattr(d, "scale", tf.constant(7))) == (
        2, 7, 2)


def test_a_dataclass_field_and_a_list_it_holds_are_seen_changed():
    f = tf.function(lambda x, p: x * p.scale + sum(p.rows))
    assert _twice_then_changed(f, Params(2, [1]), lambda p: p.rows.append(5)) == (3, 8, 2)


def test_a_nested_object_changed_is_seen():
    f = tf.function(lambda x, d: x * d.scale.offset)
    assert _twice_then_changed(f, Plain(Plain(0, 4), 0), lambda d: setattr(d.scale, "offset", 6)) == (4, 6, 2)


def test_a_defaultdict_and_a_namedtuple_held_by_an_object_are_seen_changed():
    import collections
    Pair = collections.namedtuple("Pair", "a b")
    f = tf.function(lambda x, d: x * d.scale.b[0] + d.offset["k"])
    obj = Plain(Pair(0, [2]), collections.defaultdict(int, k=1))
    assert _twice_then_changed(f, obj, lambda d: d.offset.update(k=5)) == (3, 7, 2)
    assert int(f(tf.constant(1), obj)) == 7
    obj.scale.b.append(0)
    obj.scale.b[0] = 4
    assert int(f(tf.constant(1), obj)) == 9


def test_a_set_and_a_bytearray_are_keyed_by_their_contents_too():
    f = tf.function(lambda x, s: x * len(s))
    assert _twice_then_changed(f, {1, 2}, lambda s: s.add(3)) == (2, 3, 2)
    g = tf.function(lambda x, b: x * len(b))
    assert _twice_then_changed(g, bytearray(b"ab"), lambda b: b.extend(b"cd")) == (2, 4, 2)


def test_a_function_that_changes_its_argument_does_so_on_every_call_as_python_does():
    @tf.function
    def step(x, d):
        d.offset += 1
        return x * d.offset

    d = Plain(1, 0)
    assert [int(step(tf.constant(1), d)) for _ in range(3)] == [1, 2, 3] and d.offset == 3


def test_reduce_retracing_does_not_reuse_a_trace_made_before_the_change():
    @tf.function(reduce_retracing=True)
    def f(x, d):
        return tf.reduce_sum(x) * d.scale

    d = Plain(2, 0)
    assert [float(f(tf.ones([n]), d)) for n in (1, 2)] == [2.0, 4.0]
    d.scale = 10
    assert [float(f(tf.ones([n]), d)) for n in (3, 4)] == [30.0, 40.0]


def test_a_concrete_function_called_after_the_change_is_a_clear_error():
    f = tf.function(lambda x, d: x * d.scale)
    d = Plain(2, 0)
    concrete = f.get_concrete_function(tf.TensorSpec([], tf.int32), d)
    assert int(concrete(tf.constant(1), d)) == 2
    d.scale = 10
    with pytest.raises(TypeError, match="holds other values than when this concrete function was traced"):
        concrete(tf.constant(1), d)


def test_the_retrace_reason_names_the_changed_object():
    f = tf.function(lambda x, d: x * d.scale)
    d = Plain(2, 0)
    f(tf.constant(1), d)
    d.scale = 3
    f(tf.constant(1), d)
    assert f.last_retrace_reason.startswith("d: Plain object holding (('scale', (<class 'int'>, 2))")


@pytest.mark.parametrize("jit", [None, True])
def test_a_numpy_argument_changed_after_the_call_leaves_the_result_as_it_was(jit):
    # the result was the argument's own buffer: a later `a[0] = 100` changed a tensor the call had returned
    f = tf.function(lambda x: (x, x * 2), jit_compile=jit)
    a = np.array([1.0, 2.0], np.float32)
    same, double = f(a)
    a[0] = 100.0
    assert same.numpy().tolist() == [1.0, 2.0] and double.numpy().tolist() == [2.0, 4.0]
    assert f(a)[0].numpy().tolist() == [100.0, 2.0]
