"""Seed 002: eager execution — ops run at once and return values."""
import numpy as np

import runtime as tf

print(tf.executing_eagerly())

x = [[2.]]
m = tf.matmul(x, x)
print("hello, {}".format(m))

a = tf.constant([[1, 2],
                 [3, 4]])
print(a)

# Broadcasting
b = tf.add(a, 1)
print(b)

# Operator overloading
print(a * b)

# NumPy values
c = np.multiply(a, b)
print(c)

# The NumPy value of a tensor
print(a.numpy())
