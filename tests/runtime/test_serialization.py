"""Saving a concrete function to JSON and running it in a fresh process."""
import subprocess
import sys

import pytest

import runtime as tf


def _save_and_load(fn, specs, tmp_path):
    concrete = tf.function(fn, autograph=False).get_concrete_function(*specs)
    path = tmp_path / "f.json"
    tf.save_function(concrete, str(path))
    return concrete, tf.load_function(str(path))


def test_saved_function_runs_in_a_fresh_process(tmp_path):
    v = tf.Variable(10)

    @tf.function
    def f(x, n):
        def body(i, acc, ta):
            return i + 1, tf.cond(i % 2 == 0, lambda: acc + x, lambda: acc - 1), ta.write(i, acc)

        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True, element_shape=[2])
        _, acc, ta = tf.while_loop(lambda i, acc, ta: i < n, body, (tf.constant(0), tf.constant([0, 0]), ta))
        return {"total": acc + v + x[0:1][0] * 0, "history": ta.stack()}

    cf = f.get_concrete_function(tf.TensorSpec([2], tf.int32), tf.TensorSpec([], tf.int32))
    result = cf(tf.constant([3, 4]), tf.constant(5))
    expected = {key: value.numpy().tolist() for key, value in result.items()}
    path = tmp_path / "f.json"
    tf.save_function(cf, str(path))
    script = (f"import runtime as tf\ng = tf.load_function({str(path)!r})\n"
              "out = g(tf.constant([3, 4]), tf.constant(5))\n"
              "print({key: value.numpy().tolist() for key, value in out.items()})")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(expected)


def test_loaded_function_returns_the_same_structure_with_python_values(tmp_path):
    def f(x):
        return {"b": (x * 2, 3, None), "a": [x]}

    original, loaded = _save_and_load(f, [tf.TensorSpec([], tf.float32)], tmp_path)
    out = loaded(tf.constant(1.5))
    assert list(out) == ["b", "a"] and out["b"][1:] == (3, None)
    assert out["b"][0].numpy() == 3.0 and out["a"][0].numpy() == 1.5
    assert str(loaded.graph) == str(original.graph)  # the same ops, names, attributes and types


def test_saved_variables_start_from_their_saved_values(tmp_path):
    v = tf.Variable(5)

    def bump():
        v.assign_add(1)
        return v.read_value()

    _, loaded = _save_and_load(bump, [], tmp_path)
    assert [loaded().numpy(), loaded().numpy()] == [6, 7]
    assert v.numpy() == 5  # the loaded function has its own copy


def test_returning_an_unsavable_python_value_is_a_clear_error(tmp_path):
    with pytest.raises(TypeError, match="only tensors, numbers, strings and None"):
        _save_and_load(lambda x: (x, object()), [tf.TensorSpec([], tf.float32)], tmp_path)


def test_loading_a_file_that_is_not_a_saved_function_is_a_clear_error(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "something-else"}')
    with pytest.raises(ValueError, match="not a saved runtime function"):
        tf.load_function(str(path))


def test_loaded_function_takes_the_arguments_as_the_traced_function_did(tmp_path):
    def f(pair, scale, offset=1.0):
        return pair["a"] * scale + pair["b"] + offset

    specs = [{"a": tf.TensorSpec([2], tf.float32), "b": tf.TensorSpec([], tf.float32)}, 3.0]
    original, loaded = _save_and_load(f, specs, tmp_path)
    out = loaded({"a": tf.constant([1.0, 2.0]), "b": tf.constant(10.0)}, 3.0)
    assert out.numpy().tolist() == [14.0, 17.0]
    assert loaded.pretty_printed_signature() == original.pretty_printed_signature()
    assert loaded.structured_input_signature == original.structured_input_signature


def test_unsavable_python_arguments_fall_back_to_flat_tensor_inputs(tmp_path):
    marker = object()
    _, loaded = _save_and_load(lambda x, tag: x + 1, [tf.TensorSpec([], tf.int32), marker], tmp_path)
    assert loaded(tf.constant(1)).numpy() == 2


def test_string_and_complex_constants_and_attributes_round_trip(tmp_path):
    def f(s, z):
        tail = tf.constant([[b"\xff\x00a"]])
        return tf.strings.join([s, "-x"]), z * tf.constant([1j], tf.complex64) + 2.0, tail

    _, loaded = _save_and_load(f, [tf.TensorSpec([], tf.string), tf.TensorSpec([1], tf.complex64)], tmp_path)
    joined, product, tail = loaded(tf.constant("é"), tf.constant([1 + 1j], tf.complex64))
    assert joined.numpy() == "é-x".encode() and tail.numpy().tolist() == [[b"\xff\x00a"]]
    assert product.dtype is tf.complex64 and product.numpy().tolist() == [1 + 1j]


def test_a_branch_capturing_tensors_of_two_loops_saves_each_under_its_own_name(tmp_path):
    # a branch captured `while:0`, `while:1` and `while_1:0` as capture_while, capture_while_1 and (again)
    # capture_while_1: the loaded branch returned the wrong tensor, silently (control fuzz seed 97178)
    @tf.function
    def f(a, b):
        x, i = a, b
        while i < 3:
            x, i = x + i, i + 1
        y = a
        while y < 5:
            y += 2
        if a > 0:
            r = x * 100 + i * 10 + y
        else:
            r = x - i - y
        return r

    spec = tf.TensorSpec([], tf.int32)
    concrete = f.get_concrete_function(spec, spec)
    tf.save_function(concrete, str(tmp_path / "f.json"))
    loaded = tf.load_function(str(tmp_path / "f.json"))
    for a, b in ((2, 0), (-4, 7)):
        expected = f.python_function(a, b)
        assert loaded(tf.constant(a), tf.constant(b)).numpy() == concrete(tf.constant(a), tf.constant(b)).numpy() \
            == expected


def test_op_names_stay_unique_when_a_name_looks_numbered():
    graph = tf.Graph()
    names = [graph.unique_name(base) for base in ("a", "a", "a_1", "a", "a_1")]
    assert len(set(names)) == len(names) and names[:2] == ["a", "a_1"]


def test_a_return_value_defined_on_some_paths_is_saved_whole(tmp_path):
    # the loaded function returned only the first of `return x, y, z` (autograph's value defined on some paths
    # was saved as one tensor); where no return ran, it gives None as the traced function (and Python) does
    @tf.function
    def f(n):
        for i in tf.range(n):
            if i > 2:
                return i, i * 2, -i

    concrete = f.get_concrete_function(tf.TensorSpec([], tf.int32))
    tf.save_function(concrete, str(tmp_path / "f.json"))
    loaded = tf.load_function(str(tmp_path / "f.json"))
    assert [t.numpy() for t in loaded(tf.constant(5))] == [3, 6, -3]
    assert loaded(tf.constant(1)) is None is concrete(tf.constant(1))
