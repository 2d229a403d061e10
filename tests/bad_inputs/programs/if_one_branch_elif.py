"""A variable assigned in two of three branches of a tensor `if`/`elif` chain, used after it."""
import runtime as tf
from autograph.errors import StagingError

EXPECT = StagingError
MATCH = r"'label'"


@tf.function
def classify(x):
    if x > 0:
        label = 1  # <- here
    elif x < 0:
        label = -1  # <- here
    else:
        pass
    return label  # <- here


def trigger():
    return classify(tf.constant(3))
