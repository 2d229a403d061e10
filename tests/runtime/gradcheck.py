"""A gradient check shared by the op tests: the tape's gradient against central finite differences."""
import numpy as np

import runtime as tf


def check_gradient(f, *values, rtol=1e-4, atol=1e-6, eps=1e-6, seed=0):
    """`f` takes tensors and returns one tensor; `values` are float64 arrays. Checks d(sum(w * f))/d(each value)
    for a random weighting `w`, eagerly and inside a traced function."""
    values = [np.asarray(v, dtype=np.float64) for v in values]
    out = np.asarray(f(*[tf.constant(v) for v in values]))
    weights = np.random.default_rng(seed).uniform(0.5, 1.5, size=out.shape)

    def objective(*xs):
        return float(np.sum(np.asarray(f(*[tf.constant(x) for x in xs])) * weights))

    def tape_gradients(*xs):
        with tf.GradientTape() as tape:
            tape.watch(xs)
            y = tf.reduce_sum(f(*xs) * tf.constant(weights))
        return tape.gradient(y, list(xs))

    eager = tape_gradients(*[tf.constant(v) for v in values])
    traced = tf.function(tape_gradients, autograph=False)(*[tf.constant(v) for v in values])
    for i, v in enumerate(values):
        numeric = np.zeros_like(v)
        for index in np.ndindex(v.shape):
            up, down = [x.copy() for x in values], [x.copy() for x in values]
            up[i][index] += eps
            down[i][index] -= eps
            numeric[index] = (objective(*up) - objective(*down)) / (2 * eps)
        for got in (eager[i], traced[i]):
            got = np.zeros_like(v) if got is None else np.asarray(got)
            np.testing.assert_allclose(got, numeric, rtol=rtol, atol=atol)


def tape_gradient(f, *values):
    """The tape's gradients of `f(*values)` (values made constants and watched); None where it gives None."""
    xs = [tf.constant(v) for v in values]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = f(*xs)
    return [None if g is None else g.numpy() for g in tape.gradient(y, xs)]
