"""Seed 000: a Python function as a graph, and the code autograph generates for it."""
import runtime as tf


def calc(a, b, c):
    d = a * b + c
    e = a * b * c
    return d, e


d, e = calc(2, 3, 4)
print('d:', d, 'e:', e)

calc = tf.function(calc)
print(tf.autograph.to_code(calc.python_function))

a = tf.constant(2.0, name="a")
b = tf.constant(3.0, name="b")
c = tf.constant(4.0, name="c")
d, e = calc(a, b, c)
print('d:', d)
print('e:', e)
print((d.numpy(), e.numpy()))
