"""The helpers every pygen program starts with (`record`, `check`, the decorated `double`, `Track`, `Box`,
the tensor helpers `vec`, `half`, ...): plain Python that the converted programs call."""

PRELUDE = '''\
import contextlib
import functools

import runtime as tf

LOG = []
G = 0
K = 1      # read by programs, never assigned: the runner rebinds it between calls (a traced f must see it)


def reset():
    global G
    LOG.clear()
    G = 0


def state():
    return list(LOG), G


def record(v):
    LOG.append(v)
    return v


def check(v):
    if v % 3 == 0:
        raise ValueError(v)
    return v


def plus_one(fn):
    @functools.wraps(fn)
    def wrapper(v):
        return fn(v) + 1
    return wrapper


def logged(fn):
    @functools.wraps(fn)
    def wrapper(v):
        record(100)
        return fn(v)
    return wrapper


@plus_one
def double(v):
    return v * 2


@logged
def tri(v):
    return v * 3


def gen(k):
    for i in range(k):
        yield i


class Track:
    def __enter__(self):
        record(-1)
        return 3

    def __exit__(self, *exc):
        record(-2)
        return False


class Suppress:
    def __enter__(self):
        record(-3)
        return 4

    def __exit__(self, *exc):
        record(-4)
        return True


@contextlib.contextmanager
def tracked():
    record(-5)
    yield 5
    record(-6)


def vec(v):
    """A one-element sequence: a list of a Python value, a vector of a tensor."""
    if hasattr(v, "shape"):
        return tf.reshape(v, [1])
    return [v]


def cat(v):
    return v + v if isinstance(v, list) else tf.concat([v, v], 0)


def size(v):
    return len(v) if isinstance(v, list) else tf.size(v)


def total(v):
    return sum(v) if isinstance(v, list) else tf.reduce_sum(v)


def half(v):
    """Half of v: a float (a float32 tensor for a tensor, as a tensor program casts before mixing dtypes)."""
    if hasattr(v, "shape"):
        return tf.cast(v, tf.float32) * 0.5
    return v * 0.5


def whole(v):
    """v as an int (an int32 tensor for a tensor): a float made by half() and doubled is a whole number."""
    if hasattr(v, "shape"):
        return tf.cast(v, tf.int32)
    return int(v)


class Box:
    pass


class Point:
    __match_args__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y
'''
