"""A variable assigned in two of three branches of a tensor `if`/`elif` chain, used after it: unbound at run
time on the third."""
import runtime as tf

EXPECT = UnboundLocalError
MATCH = r"'label'"


@tf.function
def classify(x):
    if x > 0:
        label = 1  # <- here
    elif x < 0:  # <- here
        label = -1  # <- here
    else:
        pass
    return label  # <- here


def trigger():
    return classify(tf.constant(0))
