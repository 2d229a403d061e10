"""Seed 003: the same function eagerly and as a graph, timed."""
import timeit

import runtime as tf

x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)


def power(x, y):
    result = tf.eye(10, dtype=tf.dtypes.int32)
    for _ in range(y):
        result = tf.matmul(x, result)
    return result


number = 100
print("Eager execution:", timeit.timeit(lambda: power(x, 100), number=number), "seconds")
power_as_graph = tf.function(power)
print("Graph execution:", timeit.timeit(lambda: power_as_graph(x, 100), number=number), "seconds")
print("same result:", bool((power(x, 100).numpy() == power_as_graph(x, 100).numpy()).all()))
