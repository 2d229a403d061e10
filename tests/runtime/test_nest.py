"""`tf.nest` (runtime.nest): TensorFlow's order and names, and the places that must agree with its order
(function signatures, saved functions, staged dicts)."""
import collections

import numpy as np
import pytest

import runtime as tf


def test_dicts_flatten_in_sorted_key_order_as_tensorflow():
    # the keys were sorted by repr: {10: .., 9: ..} flattened 10 first ('1' < '9'); TensorFlow gives 9 first
    assert tf.nest.flatten({10: "b", 9: "a", 2: "c"}) == ["c", "a", "b"]
    assert tf.nest.flatten({"x": [1, {3: "p", 1: "q"}], "a": (5, 6)}) == [5, 6, 1, "q", "p"]
    assert tf.nest.flatten({1: "i", "a": "s"}) == ["s", "i"]        # keys that don't sort: by repr (TF refuses)
    assert tf.nest.flatten(collections.OrderedDict([("z", 1), ("a", 2)])) == [2, 1]


def test_tensorflow_names():
    assert tf.nest.map_structure(lambda a, b: a + b, {"k": [1, 2], "j": 3}, {"k": [10, 20], "j": 30}) == \
        {"k": [11, 22], "j": 33}
    assert tf.nest.pack_sequence_as({9: 0, 10: 0}, ["x", "y"]) == {9: "x", 10: "y"}
    assert tf.nest.is_nested([1]) and not tf.nest.is_nested(1)
    tf.nest.assert_same_structure({"a": [1, 2]}, {"a": [3, 4]})
    with pytest.raises(ValueError, match="same nested structure"):
        tf.nest.assert_same_structure([1, 2], [1, [2]])
    with pytest.raises(TypeError, match="same nested structure types"):   # TensorFlow's TypeError
        tf.nest.assert_same_structure([1, 2], (1, 2))
    tf.nest.assert_same_structure([1, 2], (1, 2), check_types=False)
    with pytest.raises(ValueError, match="2 leaves, got 3"):
        tf.nest.pack_sequence_as([0, 0], [1, 2, 3])
    with pytest.raises(ValueError, match="2 leaves, got 1"):   # was a StopIteration
        tf.nest.pack_sequence_as([0, 0], [1])


def test_int_keyed_dicts_through_functions_signatures_and_saving(tmp_path):
    # every place that pairs a dict's values with the placeholders nest.flatten made must use its order
    spec = {10: tf.TensorSpec([], tf.float32), 9: tf.TensorSpec([2], tf.float32)}

    @tf.function(input_signature=[spec])
    def f(d):
        return {"ten": d[10] * 1.0, "nine": tf.reduce_sum(d[9])}

    out = f({10: tf.constant(3.0), 9: tf.constant([1.0, 2.0])})
    assert float(out["ten"]) == 3.0 and float(out["nine"]) == 3.0
    concrete = f.get_concrete_function()
    again = concrete({10: tf.constant(5.0), 9: tf.constant([4.0, 4.0])})
    assert float(again["ten"]) == 5.0 and float(again["nine"]) == 8.0
    tf.save_function(f, str(tmp_path / "f"))
    loaded = tf.load_function(str(tmp_path / "f"))
    back = loaded({10: tf.constant(7.0), 9: tf.constant([1.0, 1.0])})
    assert float(back["ten"]) == 7.0 and float(back["nine"]) == 2.0


def test_an_int_keyed_dict_carried_by_a_staged_loop():
    @tf.function
    def f(n):
        d = {10: tf.constant(0.0), 9: tf.constant(100.0)}
        for i in tf.range(n):
            d = {10: d[10] + 1.0, 9: d[9] - 1.0}
        return d

    out = f(tf.constant(3))
    np.testing.assert_allclose([float(out[10]), float(out[9])], [3.0, 97.0])


def test_an_int_keyed_dict_defined_in_one_branch_only():
    # carried with a defined flag (autograph/operators/maybe.py), packed in runtime.nest's order
    @tf.function
    def f(x):
        if x > 0:
            d = {10: x * 1.0, 9: x * 2.0}
        else:
            d = None
        return d[10] - d[9] if d is not None else tf.constant(-1.0)

    assert float(f(tf.constant(3.0))) == -3.0
    assert float(f(tf.constant(-3.0))) == -1.0


def test_a_dict_with_keys_that_do_not_sort_together_in_a_staged_loop_and_if():
    # the loop's structure check sorted (key, structure) pairs: TypeError between 1 and "a", raised as the
    # user's own error while tracing the loop
    @tf.function
    def f(n):
        d = {1: tf.constant(0), "a": tf.constant(5)}
        for i in tf.range(n):
            d = {1: d[1] + 1, "a": d["a"] - 1}
        if n > 1:
            d = {1: d[1] * 10, "a": d["a"]}
        return d

    out = f(tf.constant(3))
    assert int(out[1]) == 30 and int(out["a"]) == 2


def test_a_defaultdict_is_rebuilt_with_its_default_factory():
    counts = collections.defaultdict(int, {"b": 1, "a": 2})
    out = tf.nest.map_structure(lambda v: v + 1, counts)   # was a TypeError: the factory went missing
    assert out == {"b": 2, "a": 3} and out.default_factory is int and out["zzz"] == 0
    traced = tf.function(lambda x: collections.defaultdict(list, {"x": x}))(tf.constant(1.0))
    assert traced.default_factory is list and float(traced["x"]) == 1.0
