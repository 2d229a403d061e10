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


def _graph(fn, *args):
    return tf.function(fn, autograph=False)(*args)


def test_seed001_plus_one_written_with_while_loop():
    def plus_one(x):
        ta = tf.TensorArray(dtype=tf.int32, size=0, dynamic_size=True)
        n = tf.size(x)
        _, ta = tf.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, x[i] + 1)), (0, ta))
        return ta.stack()

    assert str(_graph(plus_one, tf.constant([1, 2, 3]))) == "tf.Tensor([2 3 4], shape=(3,), dtype=int32)"


def test_unstack_read_and_size_inside_a_graph():
    def reverse(x):
        src = tf.TensorArray(tf.float32, size=3).unstack(x)
        n = src.size()
        body = lambda i, d: (i + 1, d.write(n - 1 - i, src.read(i)))  # noqa: E731
        _, dst = tf.while_loop(lambda i, d: i < n, body, (0, tf.TensorArray(tf.float32, size=3)))
        return dst.stack(), n

    stacked, n = _graph(reverse, tf.constant([1., 2., 3.]))
    assert stacked.numpy().tolist() == [3., 2., 1.] and n.numpy() == 3


def test_element_shape_gives_the_stacked_shape_while_tracing():
    shapes = []

    def repeat(x):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[2])
        _, ta = tf.while_loop(lambda i, ta: i < 3, lambda i, ta: (i + 1, ta.write(i, x)), (0, ta))
        shapes.append(ta.stack().shape)
        return ta.stack()

    assert _graph(repeat, tf.constant([1., 2.])).shape == (3, 2)
    assert shapes == [tf.TensorShape([None, 2])]


def test_writing_past_a_fixed_size_is_an_error_at_run_time():
    with pytest.raises(OutOfRangeError, match="out of range for a TensorArray of size 1"):
        _graph(lambda i: tf.TensorArray(tf.int32, size=1).write(i, 5).stack(), tf.constant(2))


def test_eager_tensor_array_as_an_eager_while_loop_variable_and_a_closure():
    _, ta = tf.while_loop(lambda i, ta: i < 3, lambda i, ta: (i + 1, ta.write(i, i * 10)),
                          (0, tf.TensorArray(tf.int32, size=0, dynamic_size=True)))
    assert ta.stack().numpy().tolist() == [0, 10, 20]
    assert _graph(lambda x: ta.stack() + x, tf.constant(1)).numpy().tolist() == [1, 11, 21]


def test_pop_removes_an_element_by_python_index_eagerly_and_in_a_graph():
    def pops(x):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True).unstack(x)
        ta, last = ta._pop()
        ta, first = ta._pop(0)
        ta, second_to_last = ta._pop(-2)
        return last, first, second_to_last, ta.stack(), ta.size()

    x = tf.constant([1, 2, 3, 4, 5])
    for result in (pops(x), _graph(pops, x)):
        assert [t.numpy().tolist() for t in result] == [5, 1, 3, [2, 4], 2]


def test_pop_in_a_while_loop_drains_the_array():
    def drain(x):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[]).unstack(x)

        def body(total, ta):
            ta, value = ta._pop()
            return total * 10.0 + value, ta

        return tf.while_loop(lambda total, ta: ta.size() > 0, body, (0.0, ta))[0]

    assert _graph(drain, tf.constant([1.0, 2.0, 3.0])).numpy() == 321.0


def test_pop_from_an_empty_array_or_past_its_end_is_out_of_range():
    empty = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    with pytest.raises(OutOfRangeError, match="trying to pop from an empty list"):
        empty._pop()
    with pytest.raises(OutOfRangeError, match="trying to pop from an empty list"):
        _graph(lambda n: tf.TensorArray(tf.int32, size=n)._pop()[1], tf.constant(0))
    with pytest.raises(OutOfRangeError, match="index -3 is out of range for a list of 2 elements"):
        _graph(lambda x: tf.TensorArray(tf.int32, size=2).unstack(x)._pop(-3)[1], tf.constant([1, 2]))


def test_plus_a_list_appends_and_indexing_counts_from_the_end_like_a_python_list():
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True) + [1, 2]
    ta += (3,)
    assert ta.stack().numpy().tolist() == [1, 2, 3]
    assert [int(ta[i]) for i in (0, -1, -3)] == [1, 3, 1]
    with pytest.raises(IndexError):
        ta[3]
    with pytest.raises(TypeError, match="one int or scalar tensor"):
        ta[1:]


def test_gather_gives_the_stacked_rows_at_the_indices_eagerly_and_in_a_graph():
    def gathered(x):
        ta = tf.TensorArray(tf.float32, size=3).unstack(x)
        return ta.gather([2, 0]), ta.gather(tf.constant([1]))

    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    for f in (gathered, tf.function(gathered)):
        pair, one = f(x)
        assert pair.numpy().tolist() == [[5.0, 6.0], [1.0, 2.0]] and one.numpy().tolist() == [[3.0, 4.0]]
    with pytest.raises(InvalidArgumentError, match=r"elements \[1\] were never written"):
        tf.function(lambda: tf.TensorArray(tf.float32, size=2).write(0, 1.0).gather([0]))()


# --- the element shape that writes in a loop body or a branch teach ----------------------------------

def _filled(write_rows):
    @tf.function
    def f(n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        return write_rows(ta, n).stack()
    return f


def test_a_loop_that_runs_zero_times_stacks_rows_of_the_shape_its_body_writes():
    def autograph_loop(ta, n):
        for i in tf.range(n):
            ta = ta.write(i, [1.0, 2.0])
        return ta

    def while_loop(ta, n):
        return tf.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, tf.zeros([2, 3]))), (0, ta))[1]

    def nested_loops(ta, n):
        for i in tf.range(n):
            for j in tf.range(n):
                ta = ta.write(i * n + j, tf.zeros([3]))
        return ta

    assert _filled(autograph_loop)(tf.constant(0)).shape == (0, 2)       # TensorFlow: (0, 2); was (0,)
    assert _filled(autograph_loop)(tf.constant(2)).shape == (2, 2)
    assert _filled(while_loop)(tf.constant(0)).shape == (0, 2, 3)
    assert _filled(nested_loops)(tf.constant(0)).shape == (0, 3)


def test_a_branch_that_writes_gives_its_element_shape_to_the_other():
    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        if x > 0:
            pass
        else:
            ta = ta.write(0, [1, 2])
        return ta.stack()

    assert f(tf.constant(1)).shape == (0, 2) and f(tf.constant(-1)).numpy().tolist() == [[1, 2]]


def test_an_eager_array_with_elements_not_written_yet_passes_into_a_function_that_writes_them():
    f = tf.function(lambda ta: ta.write(1, 5).stack())
    assert f(tf.TensorArray(tf.int32, size=2).write(0, 1)).numpy().tolist() == [1, 5]   # as TensorFlow
    g = tf.function(lambda ta: ta.size())
    assert int(g(tf.TensorArray(tf.int32, size=3))) == 3


@pytest.mark.parametrize("placement", ["tapes outside the function", "tapes inside the function"])
def test_third_derivative_through_map_fn_reads_a_shorter_gradient_list(placement):
    # the third derivative differentiates TensorListElementGrad, whose rule reads the gradient list it took an
    # element of; that list can be shorter than the list (trailing zeros left out): an IndexError before
    def third(f, x):
        with tf.GradientTape() as t3:
            t3.watch(x)
            with tf.GradientTape() as t2:
                t2.watch(x)
                with tf.GradientTape() as t1:
                    t1.watch(x)
                    y = f(x)
                g = t1.gradient(y, x)
            h = t2.gradient(g, x)
        return g, h, t3.gradient(h, x)

    def cubes(x):
        return tf.reduce_sum(tf.map_fn(lambda r: r * r * r, x))

    x = tf.constant([0.5, -1.0])
    if placement == "tapes outside the function":
        g, h, k = third(tf.function(cubes), x)
    else:
        g, h, k = tf.function(lambda x: third(cubes, x))(x)
    assert g.numpy().tolist() == [0.75, 3.0] and h.numpy().tolist() == [3.0, -6.0]
    assert k.numpy().tolist() == [6.0, 6.0]
