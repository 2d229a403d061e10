"""Graph programs that more than one lowering's tests run (the JAX lowering, ONNX export): each
staged `Cond`/`While` shape once."""
import runtime as tf
from tools.bench.workloads import collatz  # noqa: F401 - one definition, the benchmarks'


def branchy(x):
    if tf.reduce_sum(x) > 0:
        y = x * 3.0
    else:
        y = tf.tanh(x) - 1.0
    return y * 2.0


def while_with_break(n):
    total = tf.constant(0)
    i = tf.constant(0)
    while i < n:
        if total > 20:
            break
        total += i * i
        i += 1
    return total, i


def capped_loop(x):
    _, y = tf.while_loop(lambda i, y: y < 1e6, lambda i, y: (i + 1, y * y + 1.0), (0, x), maximum_iterations=3)
    return y


def fizzbuzz(max_num):
    counter = tf.constant(0)
    fizz = tf.constant(0)
    for num in tf.range(1, max_num + 1):
        if num % 3 == 0 and num % 5 == 0:
            fizz += 15
        elif num % 3 == 0:
            fizz += 3
        elif num % 5 == 0:
            fizz += 5
        counter += 1
    return counter, fizz


def counter_program():
    """Two Variables a staged loop and `if` read and assign, and the step function that does it."""
    v = tf.Variable(0, name="v")
    scale = tf.Variable([1.0, 2.0], name="scale")

    def step(n):
        for i in tf.range(n):
            v.assign_add(i)
            if i % 2 == 0:
                scale.assign(scale * 1.5)
        scale.assign_sub([0.5, 0.5])
        return v.read_value() + 1, scale * 2.0
    return v, scale, step
