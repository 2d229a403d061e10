"""Seed 003: a Python `if` on a tensor becomes a Cond in the graph; polymorphism."""
import runtime as tf


def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0


tf_simple_relu = tf.function(simple_relu)
print("First branch, with graph:", tf_simple_relu(tf.constant(1)).numpy())
print("Second branch, with graph:", tf_simple_relu(tf.constant(-1)).numpy())


@tf.function
def my_relu(x):
    return tf.maximum(0., x)


print(my_relu(tf.constant(5.5)))
print(my_relu([1, -1]))
print(my_relu(tf.constant([3., -3.])))
print(my_relu(tf.constant(-2.5)))
print(my_relu(tf.constant([-1., 1.])))
print(my_relu.pretty_printed_concrete_signatures())
