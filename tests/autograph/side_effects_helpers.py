"""Helpers of the tests of side effects in staged statements (test_staged_side_effects*.py)."""
import os
import re

import pytest

import runtime as tf
from autograph.errors import StagingError


def staged(fn, x, *args):
    """`fn` traced with `x` a tensor (the other arguments as they are)."""
    out = tf.function(fn)(tf.constant(x), *args)
    return out.numpy().tolist() if isinstance(out, tf.Tensor) else out


def refused(fn, arg, *patterns):
    """`fn` traced on a tensor raises a StagingError at a line of the file that defines `fn`, naming
    `patterns`."""
    with pytest.raises(StagingError) as info:
        tf.function(fn)(tf.constant(arg))
    message = str(info.value)
    assert re.search(re.escape(os.path.basename(fn.__code__.co_filename)) + r":\d+: ", message), message
    for pattern in patterns:
        assert pattern in message, message
    return message


class Box:
    pass
