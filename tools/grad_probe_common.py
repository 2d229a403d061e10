"""Helpers of the cases of tools/grad_probe.py (the `grad_probe_cases*.py` files)."""


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
