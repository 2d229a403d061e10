"""`del` of a variable inside a tensor-dependent `if`, and the variable is read after the `if`: unbound at run time
on the path that deletes it, as in Python."""
import runtime as tf

EXPECT = UnboundLocalError
MATCH = r"'tmp'.*leaves it unassigned"


@tf.function
def f(x):
    tmp = x * 2
    if x > 0:  # <- here
        del tmp
    return tmp


def trigger():
    return f(tf.constant(1))
