"""Cases for tools/grad_probe.py (twelfth session), area round12: matrix norms, `for` over tf.range with bounds
the wrong way and float steps, einsum gradients with '...' and repeated subscripts, back_prop=False of map_fn,
scan and the folds, tf.hessians, jacobians of Variable targets, searchsorted.

Run alone with `PYTHONPATH=. /tmp/allv/bin/python tools/grad_probe.py -k round12`. `case` is injected by
tools/grad_probe.py."""
import numpy as np

from grad_probe_common import _grad

_Y = np.array([[3.0, -4.0], [1.0, 2.0]], np.float32)


@case("round12")
def matrix_norms_and_p_norms(lib, fn):
    def f(y):
        return (lib.norm(y, ord=1, axis=[0, 1]) + lib.norm(y, ord=np.inf, axis=[1, 0]) * 2.0
                + lib.norm(y, ord=3) * 3.0 + lib.reduce_sum(lib.norm(y, ord=1.5, axis=0)))
    return _grad(lib, fn(f), lib.constant(_Y))


@case("round12")
def for_over_ranges_the_wrong_way(lib, fn):
    @fn
    def f(a, b, d, x):
        s, y = lib.constant(0), x
        for i in lib.range(a, b, d):
            s += i
            y = y * x
        for t in lib.range(lib.cast(a, lib.float32), lib.cast(b, lib.float32), lib.cast(d, lib.float32) * 0.5):
            y = y + t * x
        return s, y
    return [f(lib.constant(k), lib.constant(m), lib.constant(d), lib.constant(1.5))
            for k, m, d in ((0, -3, 1), (5, 2, 1), (2, 9, 3), (9, 2, -2), (2, 9, -1))]


@case("round12")
def einsum_traces_diagonals_and_ellipses(lib, fn):
    x, b = lib.constant(np.arange(1.0, 10.0, dtype=np.float32).reshape(3, 3)), lib.constant(np.ones((2, 3, 3), np.float32))

    def f(x, b):
        return (lib.einsum("ii->", x) + lib.reduce_sum(lib.einsum("ii->i", x) * lib.constant([1.0, 2.0, 3.0]))
                + lib.reduce_sum(lib.einsum("...ij,jk->...ik", b, x) ** 2) + lib.reduce_sum(lib.einsum("bii->b", b * x)))
    return _grad(lib, fn(f), x, b)


@case("round12", modes=("function", "interp", "jit"))   # TensorFlow's eager loops ignore back_prop; here it holds
def back_prop_false_of_higher_order_functions(lib, fn):
    def f(x):
        return (lib.reduce_sum(lib.map_fn(lambda r: r * r, x, back_prop=False))
                + lib.reduce_sum(lib.scan(lambda a, r: a + r * r, x, back_prop=False))
                + lib.foldl(lambda a, r: a + r * r, x, back_prop=False) + lib.reduce_sum(x * 0.5))
    return _grad(lib, fn(f), lib.constant([1.0, 2.0, 3.0]))


@case("round12", modes=("function", "interp", "jit"))
def hessians_in_a_function(lib, fn):
    @fn
    def f(x):
        y = lib.reduce_sum(x ** 3) + x[0] * x[1]
        return lib.hessians(y, x)
    return f(lib.constant([1.0, 2.0, 3.0]))


@case("round12")
def jacobian_of_a_variable_target(lib, fn):
    v = lib.Variable([1.0, 2.0])

    @fn
    def f():
        with lib.GradientTape(persistent=True) as tape:
            y = v * v
        return [tape.jacobian(y, v), tape.jacobian(v, v)]
    return f()


@case("round12")
def searchsorted_rows(lib, fn):
    rows = lib.constant([[1.0, 2.0, 2.0, 5.0], [0.0, 0.0, 4.0, 9.0]])
    values = lib.constant([[2.0, 0.0, 6.0], [0.0, 4.5, -1.0]])
    return fn(lambda s, v: [lib.searchsorted(s, v), lib.searchsorted(s, v, side="right")])(rows, values)
