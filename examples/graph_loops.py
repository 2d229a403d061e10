"""Seed 001: loops over tensors with Variables and TensorArrays; seed 002's line search."""
import sys

import runtime as tf

v = tf.Variable(1)


@tf.function
def f(x):
    for i in tf.range(x):
        v.assign_add(i)


f(3)
print(v)


@tf.function
def plus_one(x):
    ta = tf.TensorArray(dtype=tf.int32, size=0, dynamic_size=True)
    for i in range(len(x)):
        ta = ta.write(i, x[i] + 1)
    return ta.stack()


print(plus_one(tf.constant([1, 2, 3])))


@tf.function
def fizzbuzz(max_num):
    counter = tf.constant(0)
    for num in tf.range(1, max_num + 1):
        if num % 3 == 0 and num % 5 == 0:
            tf.print('FizzBuzz', output_stream=sys.stdout)
        elif num % 3 == 0:
            tf.print('Fizz', output_stream=sys.stdout)
        elif num % 5 == 0:
            tf.print('Buzz', output_stream=sys.stdout)
        else:
            tf.print(num, output_stream=sys.stdout)
        counter += 1
    return counter


print(fizzbuzz(tf.constant(15)))


def fn(x):
    return tf.reduce_sum((x - 1.0) * (x - 1.0))


@tf.function
def line_search_step(init_x, grad, rate=1.0):
    value = fn(init_x)
    grad_norm = tf.reduce_sum(grad * grad)
    init_value = value
    x = init_x
    while value > init_value - rate * grad_norm:
        x = init_x - rate * grad
        value = fn(x)
        rate /= 2.0
    return x, value


x0 = tf.constant([3.0, -1.0])
x, value = line_search_step(x0, 2.0 * (x0 - 1.0), tf.constant(1.0))
print("line search:", x.numpy(), value.numpy())
