"""Helpers of the cases of tools/grad_probe.py (the `grad_probe_cases*.py` files)."""
import numpy as np


def _grad(lib, f, *xs, persistent=False, unconnected="none"):
    """f(*xs) and its gradients w.r.t. xs, the tape outside f."""
    with lib.GradientTape(persistent=persistent) as tape:
        for x in xs:
            tape.watch(x)
        y = f(*xs)
    return [y, tape.gradient(y, list(xs), unconnected_gradients=unconnected)]


def _both(lib, fn, body, *args):
    """The gradient taken with the tape outside the staged `body`, and with the tape inside a staged one."""
    outside = _grad(lib, fn(body), *args)
    inside = fn(lambda *a: _grad(lib, body, *a))(*args)
    return [outside, inside]


def _first_and_second(lib, f, x):
    """f(x) summed with weights, its gradient and the gradient of the gradient's weighted sum."""
    with lib.GradientTape() as t2:
        t2.watch(x)
        with lib.GradientTape() as t1:
            t1.watch(x)
            y = f(x)
        g = t1.gradient(y, x)
        weights = np.arange(1.0, 1.0 + np.prod(x.shape.as_list())).reshape(x.shape.as_list())
        s = None if g is None else lib.reduce_sum(g * lib.constant(weights, g.dtype))
    return [y, g, None if s is None else t2.gradient(s, x)]


def _third(lib, f, x):
    """f(x) and its first, second and third derivatives, each tape around the one before."""
    with lib.GradientTape() as t3:
        t3.watch(x)
        with lib.GradientTape() as t2:
            t2.watch(x)
            with lib.GradientTape() as t1:
                t1.watch(x)
                y = f(x)
            g = t1.gradient(y, x)
        h = t2.gradient(g, x)
    return [y, g, h, t3.gradient(h, x)]
