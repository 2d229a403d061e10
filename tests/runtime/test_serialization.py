"""Saving a concrete function to JSON and running it in a fresh process."""
import subprocess
import sys

import runtime as tf


def test_saved_function_runs_in_a_fresh_process(tmp_path):
    v = tf.Variable(10)

    @tf.function
    def f(x, n):
        def body(i, acc):
            return i + 1, tf.cond(i % 2 == 0, lambda: acc + x, lambda: acc - 1)
        _, acc = tf.while_loop(lambda i, acc: i < n, body, (tf.constant(0), tf.constant(0)))
        return acc + v + x[0:1][0] * 0

    cf = f.get_concrete_function(tf.TensorSpec([2], tf.int32), tf.TensorSpec([], tf.int32))
    expected = cf(tf.constant([3, 4]), tf.constant(5)).numpy().tolist()
    path = tmp_path / "f.json"
    tf.save_function(cf, str(path))
    script = (f"import runtime as tf\ng = tf.load_function({str(path)!r})\n"
              "print(g(tf.constant([3, 4]), tf.constant(5)).numpy().tolist())")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(expected)


def test_loading_a_file_that_is_not_a_saved_function_is_a_clear_error(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "something-else"}')
    import pytest
    with pytest.raises(ValueError, match="not a saved runtime function"):
        tf.load_function(str(path))
