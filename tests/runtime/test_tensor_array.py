"""TensorArray eagerly and as a while_loop variable."""
import pytest

import runtime as tf
from runtime.errors import InvalidArgumentError, OutOfRangeError


def test_eager_write_read_stack_unstack_size():
    ta = tf.TensorArray(tf.int32, size=2)
    ta = ta.write(0, 5).write(1, 6)
    assert ta.read(1).numpy() == 6 and ta.size().numpy() == 2
    assert ta.stack().numpy().tolist() == [5, 6]
    assert tf.TensorArray(tf.float32).unstack([1.0, 2.0]).read(0).numpy() == 1.0
    with pytest.raises(OutOfRangeError, match="dynamic_size=True"):
        tf.TensorArray(tf.int32, size=1).write(3, 1)
    with pytest.raises(InvalidArgumentError, match="can't hold"):
        tf.TensorArray(tf.int32, size=1).write(0, 1.5)


def test_tensor_array_as_a_while_loop_variable():
    @tf.function
    def squares(n):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)

        def body(i, ta):
            return i + 1, ta.write(i, i * i)

        _, ta = tf.while_loop(lambda i, ta: i < n, body, (tf.constant(0), ta))
        return ta.stack()

    assert squares(tf.constant(4)).numpy().tolist() == [0, 1, 4, 9]
    assert squares(tf.constant(0)).numpy().tolist() == []


def test_reading_an_unwritten_element_is_an_error_in_a_graph():
    @tf.function
    def f(i):
        return tf.TensorArray(tf.int32, size=3).read(i)

    with pytest.raises(InvalidArgumentError, match="never written"):
        f(tf.constant(1))
