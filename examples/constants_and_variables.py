"""Seed 004: constants, Variables and functions run eagerly, without sessions."""
import runtime as tf

a = tf.constant([0, 1, 2])
b = tf.constant([10, 20, 30])
c = tf.add(a, b)  # or c = a + b
print(c)
print(c.numpy())

w = tf.Variable([[1.], [2.]])
x = tf.constant([[3., 4.]])
print(w)
print(x)
w_x_matmul = tf.matmul(w, x)
print(w_x_matmul)


def tf_sum(a, b):
    return a + b


print(tf_sum(a, b))
