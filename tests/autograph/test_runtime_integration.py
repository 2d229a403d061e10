"""Seed programs with tensor-dependent control flow, in runtime.function (graph) and eagerly."""
import numpy as np
import pytest

import autograph as ag
import runtime as tf
from autograph.errors import StagingError

pytestmark = pytest.mark.jit_twin   # every graph also runs under jit_compile=True (tests/jit_twin.py)


def op_types(fn, *args):
    return [op.type for op in fn.get_concrete_function(*args).graph.get_operations()]


def test_simple_relu_both_branches():
    def simple_relu(x):
        if tf.greater(x, 0):
            return x
        else:
            return 0

    tf_simple_relu = tf.function(simple_relu)
    assert tf_simple_relu(tf.constant(1)).numpy() == 1
    assert tf_simple_relu(tf.constant(-1)).numpy() == 0
    assert "Cond" in op_types(tf_simple_relu, tf.constant(1))
    assert simple_relu(tf.constant(-1)) == 0  # eagerly: a Python if on the tensor's value


def test_seed001_if_reduce_sum():
    @tf.function
    def f(x):
        if tf.reduce_sum(x) > 0:
            return x * x
        else:
            return -x // 2

    assert f(tf.constant(-2)).numpy() == 1
    assert f(tf.constant(3)).numpy() == 9


def test_seed001_variable_loop_over_tf_range():
    v = tf.Variable(1)

    @tf.function
    def f(x):
        for i in tf.range(x):
            v.assign_add(i)

    f(3)
    assert v.numpy() == 4
    f(tf.constant(3))
    assert v.numpy() == 7
    assert "While" in op_types(f, tf.constant(3))


def test_seed001_tensor_array_loop():
    @tf.function
    def f(x):
        ta = tf.TensorArray(dtype=tf.int32, size=0, dynamic_size=True)
        for i in range(len(x)):
            ta = ta.write(i, x[i] + 1)
        return ta.stack()

    assert f(tf.constant([1, 2, 3])).numpy().tolist() == [2, 3, 4]


def test_seed003_power_unrolled_with_python_range_and_staged_with_tensor():
    def power(x, y):
        result = tf.eye(10, dtype=tf.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result

    x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.int32, seed=3)
    expected = np.linalg.matrix_power(x.numpy().astype(np.int64), 5).astype(np.int32)
    graph = tf.function(power)
    assert (graph(x, 5).numpy() == expected).all()
    assert op_types(graph, x, 5).count("MatMul") == 5 and "While" not in op_types(graph, x, 5)
    assert (graph(x, tf.constant(5)).numpy() == expected).all()
    assert "While" in op_types(graph, x, tf.constant(5))


def test_fizzbuzz_over_tf_range(capsys):
    @tf.function
    def fizzbuzz(max_num):
        counter = tf.constant(0)
        for num in tf.range(1, max_num + 1):
            if num % 3 == 0 and num % 5 == 0:
                tf.print("FizzBuzz", output_stream=__import__("sys").stdout)
            elif num % 3 == 0:
                tf.print("Fizz", output_stream=__import__("sys").stdout)
            elif num % 5 == 0:
                tf.print("Buzz", output_stream=__import__("sys").stdout)
            else:
                tf.print(num, output_stream=__import__("sys").stdout)
            counter += 1
        return counter

    assert fizzbuzz(tf.constant(15)).numpy() == 15
    assert capsys.readouterr().out.split() == [
        "1", "2", "Fizz", "4", "Buzz", "Fizz", "7", "8", "Fizz", "Buzz", "11", "Fizz", "13", "14", "FizzBuzz"]


def test_line_search_while_loop():
    def fn(x):
        return tf.reduce_sum(x * x)

    @tf.function
    def line_search_step(init_x, grad, rate):
        value = fn(init_x)
        grad_norm = tf.reduce_sum(grad * grad)
        init_value = value
        x = init_x
        while value > init_value - rate * grad_norm:
            x = init_x - rate * grad
            value = fn(x)
            rate /= 2.0
        return x, value

    x0 = tf.constant([1.0, 2.0])
    x, value = line_search_step(x0, 2.0 * x0, tf.constant(1.0))
    assert np.allclose(x.numpy(), [0.0, 0.0]) and value.numpy() == 0.0


def test_break_and_while_else_on_tensors():
    @tf.function
    def first_square_at_least(n, limit):
        i = tf.constant(0)
        while i < limit:
            if i * i >= n:
                break
            i += 1
        else:
            i = tf.constant(-1)
        return i

    assert first_square_at_least(tf.constant(10), tf.constant(100)).numpy() == 4
    assert first_square_at_least(tf.constant(10), tf.constant(3)).numpy() == -1


def test_variable_in_one_branch_of_tensor_if_is_unbound_on_the_other_path():
    @tf.function
    def f(x):
        if x > 0:
            y = x
        return y

    assert int(f(tf.constant(1))) == 1
    with pytest.raises(UnboundLocalError, match=r"'y'") as info:
        f(tf.constant(-1))
    assert "test_runtime_integration.py" in str(info.value)


def test_to_code_through_runtime_autograph():
    @tf.function
    def calc(a, b, c):
        d = a * b + c
        e = a * b * c
        return d, e

    assert tf.autograph.to_code(calc.python_function).startswith("def ag__calc(a, b, c):")
    d, e = calc(tf.constant(2.0), tf.constant(3.0), tf.constant(4.0))
    assert str(d) == "tf.Tensor(10.0, shape=(), dtype=float32)" and e.numpy() == 24.0


def test_converted_function_works_eagerly_with_tensors():
    def clip(x):
        if x > 3:
            x = tf.constant(3)
        return x

    assert ag.convert(clip)(tf.constant(5)).numpy() == 3


def test_a_comprehension_variable_named_like_a_loop_variable_is_not_loop_state():
    # `y` in the comprehension is the comprehension's own: the loop need not carry (or define) the outer `y`
    def scaled(xs):
        for x in xs:
            y = x
        return [y * 2 for y in range(3)], [(lambda y: y + 1)(5)]

    assert tf.function(scaled)(tf.constant([1, 2])) == ([0, 2, 4], [6])
    assert ag.convert(scaled).generated([1, 2]) == scaled([1, 2])


def _doubling_while(x):
    while True:               # the test is Python's: the first iteration runs in Python, the rest is staged
        ag.set_loop_options(maximum_iterations=3)
        x = x * 2.0
        if x > 1000.0:
            break
    return x


def _doubling_for(x):
    for _ in range(10):       # a Python range: the tensor `break` stages the rest of it
        ag.set_loop_options(maximum_iterations=3)
        x = x * 2.0
        if x > 1000.0:
            break
    return x


@pytest.mark.parametrize("fn", [_doubling_while, _doubling_for])
def test_maximum_iterations_counts_the_iterations_run_in_python_before_the_loop_is_staged(fn):
    """Three iterations in all, not one in Python and three more staged (found by the JAX gradient work)."""
    assert float(tf.function(fn)(tf.constant(1.0))) == 8.0
    assert float(tf.function(fn)(tf.constant(600.0))) == 1200.0


def test_a_staged_range_with_bounds_the_wrong_way_is_empty_as_pythons():
    # runtime.range raises there, as TensorFlow's does (range(-3)); Python's range(-3) is empty
    def f(x, s):
        t = 0
        for i in range(x):
            t += i
        u = 0
        for i in range(5, x, s):
            u += i
        v = 0
        for _ in zip(range(5, 2), range(x)):
            v += 1
        return t, u, v

    traced = tf.function(f)
    for x in (-3, 0, 2, 9):
        for s in (1, -1, 2, -2):
            assert tuple(int(v) for v in traced(tf.constant(x), tf.constant(s))) == f(x, s), (x, s)
    jitted = tf.function(lambda x: f(x, 1), jit_compile=True)
    assert [tuple(int(v) for v in jitted(tf.constant(x))) for x in (-3, 4)] == [f(-3, 1), f(4, 1)]


def test_the_probe_of_a_loops_python_numbers_leaves_the_users_lists_and_dicts_alone():
    # the probe that types `i = 0` ran the body on the user's own list: `out` had an item before the loop began
    def appended(x):
        out = []
        i = 0
        while i < x:
            out.append(i)
            i += 1
        return out

    def stored(x):
        d = {"n": 0}
        i = 0
        while i < x:
            d["n"] = d["n"] + i
            i += 1
        return d["n"], i

    assert [t.numpy() for t in tf.function(appended)(tf.constant(3))] == appended(3)   # a list, as Python's
    assert [int(v) for v in tf.function(stored)(tf.constant(4))] == list(stored(4))


# --- a Variable as a condition: staged on its value while a function is traced, as in TensorFlow --------

def test_an_if_and_a_while_on_a_bool_variable_are_staged_on_its_value():
    flag, count = tf.Variable(True), tf.Variable(0)

    @tf.function
    def once(x):
        if flag:
            flag.assign(False)
            return x * 2
        return x

    @tf.function
    def until_three():
        while flag:
            count.assign_add(1)
            if count >= 3:
                flag.assign(False)
        return count.read_value()

    assert [int(once(tf.constant(3))), int(once(tf.constant(3))), bool(flag.numpy())] == [6, 3, False]
    flag.assign(True)
    assert int(until_three()) == 3 and not flag.numpy()


def test_and_or_not_on_variables_are_staged():
    a, b = tf.Variable(True), tf.Variable(False)
    f = tf.function(lambda: (a and b, a or b, not b))
    assert [bool(t) for t in f()] == [False, True, True]
    assert (1 if a else 0) == 1   # eagerly, a Variable's truth is its value
