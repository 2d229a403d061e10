"""Cases for tools/grad_probe.py: dtypes, forward values under jit_compile and the executor, second derivatives.

`@case(area)` on `program(lib, fn)`, which returns what to compare (tensors, Python values, None, nested
lists); `fn` stages a function (identity in eager mode). `case` is injected by tools/grad_probe.py."""
import numpy as np

from grad_probe_common import _both, _grad  # noqa: F401 - not every file uses both


# ---------------------------------------------------------------- dtypes
@case("dtypes")
def float64_grad(lib, fn):
    def f(x):
        y = x
        for i in lib.range(3):
            y = lib.sin(y) * x
        return y
    return _both(lib, fn, f, lib.constant(0.7, lib.float64))


@case("dtypes")
def float16_grad(lib, fn):
    def f(x):
        return lib.reduce_sum(x * x * lib.constant(3.0, lib.float16) + lib.exp(x))
    return _both(lib, fn, f, lib.constant([0.5, 1.0], lib.float16))


@case("dtypes")
def float16_loop(lib, fn):
    def f(x):
        y = x
        i = 0
        while i < 3:
            y = y * x
            i += 1
        return y
    return _both(lib, fn, f, lib.constant(1.5, lib.float16))


@case("dtypes")
def mixed_precision_cast(lib, fn):
    def f(x):
        h = lib.cast(x, lib.float16)
        d = lib.cast(x, lib.float64)
        return lib.cast(h * h, lib.float32) + lib.cast(lib.sin(d), lib.float32)
    return _both(lib, fn, f, lib.constant(1.25))


@case("dtypes")
def complex_grad(lib, fn):
    def f(x):
        z = lib.complex(x, x * 2.0)
        return lib.math.real(z * lib.math.conj(z)) + lib.math.imag(z * z)
    return _both(lib, fn, f, lib.constant(1.5))


@case("dtypes")
def complex_source(lib, fn):
    def f(z):
        return lib.math.real(z * z) + lib.math.abs(z)
    return _both(lib, fn, f, lib.constant(1.0 + 2.0j, lib.complex64))


@case("dtypes")
def int_loop_counter_grad(lib, fn):
    def f(x, n):
        y = x
        i = lib.constant(0)
        while i < n:
            y = y + x * lib.cast(i, lib.float32)
            i += 1
        return y
    return _grad(lib, fn(f), lib.constant(2.0), lib.constant(4), unconnected="zero")


# ---------------------------------------------------------------- more: dtypes
@case("dtypes")
def float16_reduce_mean(lib, fn):
    def f(x):
        return lib.reduce_mean(x * x) + lib.reduce_sum(lib.nn.softmax(x) * lib.constant([1.0, 2.0, 3.0], lib.float16))
    return _both(lib, fn, f, lib.constant([0.5, 1.0, 2.0], lib.float16))


@case("dtypes")
def float64_matmul_where(lib, fn):
    def f(a):
        return lib.reduce_sum(lib.where(a > 0, lib.matmul(a, a), a) ** 2)
    return _both(lib, fn, f, lib.constant([[1.0, -2.0], [0.5, 3.0]], lib.float64))


@case("dtypes")
def complex_matmul_grad(lib, fn):
    def f(a, b):
        z = lib.complex(a, b)
        w = lib.matmul(z, z, transpose_b=True)
        return lib.reduce_sum(lib.math.real(w * lib.math.conj(w)))
    return _both(lib, fn, f, lib.constant([[1.0, 0.5], [0.0, 2.0]]), lib.constant([[0.5, -1.0], [1.0, 0.0]]))


@case("dtypes")
def int_source_in_function(lib, fn):
    @fn
    def f(n, x):
        with lib.GradientTape() as t:
            t.watch([n, x])
            y = lib.cast(n, lib.float32) * x
        return t.gradient(y, [n, x])
    return f(lib.constant(3), lib.constant(2.0))


@case("dtypes")
def bool_select_grad(lib, fn):
    def f(x, b):
        return lib.reduce_sum(lib.where(b, x * x, x) + lib.cast(b, lib.float32) * x)
    return _both(lib, fn, f, lib.constant([1.0, 2.0, 3.0]), lib.constant([True, False, True]))


# ---------------------------------------------------------------- jit_compile and executor values
@case("values")
def float64_precision(lib, fn):
    @fn
    def f(x):
        return [(x + 1e-12) - x, x * 1e300, lib.cast(x, lib.float32) + 1e-9]
    return f(lib.constant(1.0, lib.float64))


@case("values")
def int64_large(lib, fn):
    @fn
    def f(x):
        return [x * 3, x + x, x // 7, lib.cast(x, lib.float64), lib.reduce_sum(lib.stack([x, x]))]
    return f(lib.constant(2 ** 40 + 3, lib.int64))


@case("values")
def int32_overflow(lib, fn):
    @fn
    def f(x):
        return [x * x, x + 2147483647, -x - 2147483647 - 2]
    return f(lib.constant(65536, lib.int32))


@case("values")
def floordiv_mod_signs(lib, fn):
    @fn
    def f(a, b):
        return [a // b, a % b, lib.math.floormod(a, b), lib.math.truncatediv(a, b) if hasattr(lib.math, "truncatediv")
                else a // b, lib.cast(a, lib.float32) // lib.cast(b, lib.float32),
                lib.cast(a, lib.float32) % lib.cast(b, lib.float32)]
    return f(lib.constant([7, -7, 7, -7, 0]), lib.constant([2, 2, -2, -2, 3]))


@case("values")
def float_mod_edges(lib, fn):
    @fn
    def f(a, b):
        return [a % b, a // b]
    return f(lib.constant([5.5, -5.5, 1e10, 0.0, -0.0, 3.0]), lib.constant([2.0, 2.0, 3.0, -1.0, 1.0, 0.0]))


@case("values")
def casts(lib, fn):
    @fn
    def f(x):
        return [lib.cast(x, lib.int32), lib.cast(x, lib.uint8), lib.cast(x, lib.bool), lib.cast(x, lib.float16),
                lib.cast(lib.cast(x, lib.int64), lib.float32), lib.round(x)]
    return f(lib.constant([2.5, -2.5, 3.5, -0.7, 0.0, 255.9, 1e5]))


@case("values")
def rounding_and_sign(lib, fn):
    @fn
    def f(x):
        return [lib.round(x), lib.sign(x), lib.math.floor(x), lib.math.ceil(x), lib.abs(x)]
    return f(lib.constant([0.5, 1.5, 2.5, -0.5, -1.5, float("nan"), -0.0, float("inf")]))


@case("values")
def reductions_of_empty_and_ints(lib, fn):
    @fn
    def f(x, e):
        return [lib.reduce_mean(x), lib.reduce_sum(e), lib.reduce_max(x), lib.reduce_prod(x),
                lib.reduce_mean(lib.cast(x, lib.float32)), lib.math.reduce_std(lib.cast(x, lib.float32))]
    return f(lib.constant([1, 2, 4]), lib.zeros([0]))


@case("values")
def while_int_and_float_state(lib, fn):
    @fn
    def f(n):
        i = lib.constant(0)
        s = lib.constant(0.0, lib.float64)
        h = lib.constant(1, lib.int64)
        while i < n:
            s += 1.0 / lib.cast(h, lib.float64)
            h *= 3
            i += 1
        return [i, s, h]
    return f(lib.constant(25))


@case("values")
def cond_int_outputs(lib, fn):
    @fn
    def f(x):
        if x > 0:
            y = x // 2
        else:
            y = -x % 3
        return y
    return [f(lib.constant(7)), f(lib.constant(-7))]


@case("values")
def maximum_minimum_nan(lib, fn):
    @fn
    def f(a, b):
        return [lib.maximum(a, b), lib.minimum(a, b), lib.reduce_max(a), lib.reduce_min(b), lib.argmax(a),
                lib.nn.relu(a), lib.clip_by_value(a, 0.0, 1.0)]
    nan = float("nan")
    return f(lib.constant([nan, 1.0, 2.0]), lib.constant([1.0, nan, 3.0]))


@case("values")
def pow_int_and_float(lib, fn):
    @fn
    def f(a, b, x):
        return [a ** b, x ** 0.5, x ** -1.0, lib.pow(x, 3.0), lib.pow(-x, 0.5)]
    return f(lib.constant([2, 3, -2, 0]), lib.constant([3, 0, 3, 2]), lib.constant([4.0, 0.0, 2.0, 9.0]))


@case("values")
def softmax_extremes(lib, fn):
    @fn
    def f(x):
        return [lib.nn.softmax(x), lib.nn.log_softmax(x), lib.reduce_logsumexp(x), lib.nn.softplus(x),
                lib.sigmoid(x), lib.math.log_sigmoid(x)]
    return f(lib.constant([1000.0, -1000.0, 0.0]))


@case("values")
def float16_arith(lib, fn):
    @fn
    def f(x):
        return [x * x * x, lib.reduce_sum(x), lib.reduce_mean(x), lib.exp(x), x / 3.0, lib.nn.softmax(x)]
    return f(lib.constant([100.0, 30.0, 0.1, -5.0], lib.float16))


@case("values")
def cumsum_exclusive_reverse(lib, fn):
    @fn
    def f(x):
        return [lib.cumsum(x, exclusive=True, reverse=True), lib.cumsum(x, axis=-1),
                lib.cumsum(lib.cast(x, lib.int32), 0)]
    return f(lib.constant([[1.5, 2.0, -3.0], [0.5, 1.0, 2.0]]))


@case("values")
def gather_and_slices_in_loop(lib, fn):
    @fn
    def f(x):
        acc = lib.zeros([2])
        for i in lib.range(3):
            acc = acc + lib.gather(x, [i, 2 - i]) * x[i]
        return acc
    return f(lib.constant([1.0, 2.0, 4.0]))


# ---------------------------------------------------------------- second derivatives of every unary rule
_UNARY2 = ["sqrt", "math.rsqrt", "math.reciprocal", "exp", "math.log", "math.log1p", "tanh", "sigmoid", "sin", "cos",
           "math.tan", "math.sinh", "math.cosh", "math.expm1", "math.erf", "math.softplus", "abs", "square",
           "nn.elu", "nn.selu", "nn.gelu", "nn.softsign", "math.log_sigmoid", "nn.silu", "nn.relu", "nn.relu6",
           "nn.leaky_relu", "math.reduce_logsumexp", "nn.softmax", "nn.log_softmax", "norm", "nn.l2_loss",
           "math.reduce_std", "math.l2_normalize"]


def _op(lib, name):
    for part in name.split("."):
        lib = getattr(lib, part)
    return lib


def _second(name):
    def program(lib, fn):
        def body(x):
            with lib.GradientTape() as t2:
                t2.watch(x)
                with lib.GradientTape() as t1:
                    t1.watch(x)
                    y = lib.reduce_sum(_op(lib, name)(x) * lib.constant([1.0, 2.0, -1.0, 0.5]))
                g = t1.gradient(y, x)
                s = lib.reduce_sum(g * g)
            return [y, g, t2.gradient(s, x)]
        return [fn(body)(lib.constant(v)) for v in ([0.5, 1.5, 2.0, 0.3], [-0.5, 0.7, -2.0, 1.0])]
    program.__name__ = f"second_{name}"
    return program


for _name in _UNARY2:
    case("second-order")(_second(_name))
