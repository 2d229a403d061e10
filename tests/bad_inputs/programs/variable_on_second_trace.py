"""A runtime.function creating a Variable on every trace (a second trace must not create one)."""
import runtime as tf

EXPECT = ValueError
MATCH = r"Variable"


@tf.function
def f(x):
    v = tf.Variable(x)  # <- here
    return v + 1


def trigger():
    f(tf.constant(1))
    return f(tf.constant(1.0))
