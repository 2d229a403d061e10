"""Cases for tools/grad_probe.py (seventh session): first and second derivatives at kinks and special points,
ties, duplicate indices, padding modes, and more of the tape's API.

`@case(area)` on `program(lib, fn)`, which returns what to compare (tensors, Python values, None, nested
lists); `fn` stages a function (identity in eager mode). `case` is injected by tools/grad_probe.py."""
import numpy as np

from grad_probe_common import _both, _first_and_second, _grad  # noqa: F401 - not every file uses all


def _op(lib, name):
    for part in name.split("."):
        lib = getattr(lib, part)
    return lib


# ---------------------------------------------------------------- second derivatives at special points
_AT_ZERO = {   # name: (function of x, input holding the special points)
    "abs": (lambda lib, x: lib.reduce_sum(lib.abs(x) * lib.constant([1.0, 2.0, 3.0])), [0.0, -1.5, 2.0]),
    "sign": (lambda lib, x: lib.reduce_sum(lib.sign(x) * x * x), [0.0, -1.5, 2.0]),
    "sqrt": (lambda lib, x: lib.reduce_sum(lib.sqrt(x)), [0.0, 4.0, 0.25]),
    "norm": (lambda lib, x: lib.norm(x), [0.0, 0.0, 0.0]),
    "norm_nonzero": (lambda lib, x: lib.norm(x) + lib.norm(x, ord=1) + lib.norm(x, ord=np.inf), [3.0, -4.0, 0.0]),
    "euclidean_norm": (lambda lib, x: lib.math.reduce_euclidean_norm(x), [0.0, 0.0, 0.0]),
    "l2_normalize": (lambda lib, x: lib.reduce_sum(lib.math.l2_normalize(x) * lib.constant([1.0, 2.0, 3.0])),
                     [0.0, 0.0, 0.0]),
    "pow_zero_base": (lambda lib, x: lib.reduce_sum(lib.pow(x, lib.constant([2.0, 0.5, 0.0, 3.0]))),
                      [0.0, 0.0, 0.0, 0.0]),
    "pow_zero_exponent": (lambda lib, x: lib.reduce_sum(lib.pow(lib.constant([0.0, 2.0, -1.0, 0.0]), x)),
                          [0.0, 0.0, 2.0, 1.0]),
    "square_relu_at_zero": (lambda lib, x: lib.reduce_sum(lib.square(lib.nn.relu(x))), [0.0, -1.0, 1.0]),
    "relu6_at_bounds": (lambda lib, x: lib.reduce_sum(lib.nn.relu6(x) * x), [0.0, 6.0, 3.0]),
    "leaky_relu_at_zero": (lambda lib, x: lib.reduce_sum(lib.nn.leaky_relu(x, 0.1) * x), [0.0, -2.0, 1.0]),
    "elu_at_zero": (lambda lib, x: lib.reduce_sum(lib.nn.elu(x) * x), [0.0, -1.0, 1.0]),
    "selu_at_zero": (lambda lib, x: lib.reduce_sum(lib.nn.selu(x) * x), [0.0, -1.0, 1.0]),
    "softplus_far": (lambda lib, x: lib.reduce_sum(lib.math.softplus(x)), [-100.0, 0.0, 100.0]),
    "sigmoid_far": (lambda lib, x: lib.reduce_sum(lib.sigmoid(x) * x), [-100.0, 0.0, 100.0]),
    "tanh_far": (lambda lib, x: lib.reduce_sum(lib.tanh(x) * x), [-30.0, 0.0, 30.0]),
    "erf_far": (lambda lib, x: lib.reduce_sum(lib.math.erf(x) * x), [-10.0, 0.0, 10.0]),
    "gelu_zero": (lambda lib, x: lib.reduce_sum(lib.nn.gelu(x) + lib.nn.gelu(x, approximate=True)), [0.0, -3.0, 3.0]),
    "log_sigmoid_far": (lambda lib, x: lib.reduce_sum(lib.math.log_sigmoid(x)), [-100.0, 0.0, 100.0]),
    "softmax_ties": (lambda lib, x: lib.reduce_sum(lib.nn.softmax(x) * lib.constant([1.0, 2.0, 3.0])),
                     [1.0, 1.0, 1.0]),
    "log_softmax_far": (lambda lib, x: lib.reduce_sum(lib.nn.log_softmax(x) * lib.constant([1.0, 2.0, 3.0])),
                        [-100.0, 0.0, 100.0]),
    "logsumexp_inf": (lambda lib, x: lib.reduce_logsumexp(x), [-np.inf, 0.0, 1.0]),
    "logsumexp_all_neg_inf": (lambda lib, x: lib.reduce_logsumexp(x), [-np.inf, -np.inf]),
    "reduce_max_ties": (lambda lib, x: lib.reduce_max(x) * lib.reduce_max(x), [3.0, 1.0, 3.0, 3.0]),
    "reduce_min_ties_axis": (lambda lib, x: lib.reduce_sum(lib.reduce_min(lib.reshape(x, [2, 2]), axis=1) ** 2),
                             [1.0, 1.0, 2.0, 0.0]),
    "maximum_ties": (lambda lib, x: lib.reduce_sum(lib.maximum(x, lib.constant([1.0, 2.0, 0.0])) ** 2),
                     [1.0, 2.0, 3.0]),
    "minimum_ties": (lambda lib, x: lib.reduce_sum(lib.minimum(lib.constant([1.0, 2.0, 0.0]), x) ** 2),
                     [1.0, 2.0, 3.0]),
    "maximum_self": (lambda lib, x: lib.reduce_sum(lib.maximum(x, x) * x), [1.0, -2.0, 0.0]),
    "clip_at_bounds": (lambda lib, x: lib.reduce_sum(lib.clip_by_value(x, -1.0, 1.0) * x), [-1.0, 1.0, 0.0]),
    "div_by_zero": (lambda lib, x: lib.reduce_sum(lib.constant([1.0, 0.0, -1.0]) / x), [0.0, 0.0, 0.0]),
    "divide_no_nan": (lambda lib, x: lib.reduce_sum(lib.math.divide_no_nan(lib.constant([1.0, 2.0, 3.0]), x)),
                      [0.0, 2.0, -1.0]),
    "xlogy_zero": (lambda lib, x: lib.reduce_sum(lib.math.xlogy(x, x + 1.0) + lib.math.xlogy(x, x)),
                   [0.0, 1.0, 2.0]),
    "log_zero": (lambda lib, x: lib.reduce_sum(lib.math.log(x)), [0.0, 1.0, 2.0]),
    "rsqrt_zero": (lambda lib, x: lib.reduce_sum(lib.math.rsqrt(x)), [0.0, 1.0, 4.0]),
    "reciprocal_zero": (lambda lib, x: lib.reduce_sum(lib.math.reciprocal(x)), [0.0, 1.0, 4.0]),
    "squared_difference_tie": (lambda lib, x: lib.reduce_sum(lib.math.squared_difference(x, 1.0)), [1.0, 2.0]),
    "reduce_std_constant": (lambda lib, x: lib.math.reduce_std(x), [2.0, 2.0, 2.0]),
    "reduce_prod_zeros": (lambda lib, x: lib.reduce_prod(x), [0.0, 2.0, 0.0]),
    "reduce_prod_one_zero": (lambda lib, x: lib.reduce_prod(x), [0.0, 2.0, 3.0]),
    "cumprod_zero": (lambda lib, x: lib.reduce_sum(lib.math.cumprod(x)), [2.0, 0.0, 3.0]),
    "floor_round_ceil": (lambda lib, x: lib.reduce_sum(lib.floor(x) + lib.round(x) + lib.math.ceil(x)) + lib.reduce_sum(x),
                         [0.5, 1.5, -2.5]),
    "floormod": (lambda lib, x: lib.reduce_sum(lib.math.floormod(x, 2.0) + lib.math.floormod(3.0, x)), [1.5, -3.0, 2.5]),
    "floordiv": (lambda lib, x: lib.reduce_sum(lib.math.floordiv(x, 2.0) * x), [1.5, -3.0, 2.5]),
    "tan_sinh_cosh": (lambda lib, x: lib.reduce_sum(lib.math.tan(x) + lib.math.sinh(x) * lib.math.cosh(x)),
                      [0.0, 0.5, -1.0]),
    "expm1_log1p": (lambda lib, x: lib.reduce_sum(lib.math.expm1(x) * lib.math.log1p(x)), [0.0, -0.5, 1.0]),
    "silu": (lambda lib, x: lib.reduce_sum(lib.nn.silu(x) * x), [0.0, -2.0, 3.0]),
    "softsign": (lambda lib, x: lib.reduce_sum(lib.nn.softsign(x)), [0.0, -2.0, 3.0]),   # TF: no SoftsignGrad rule
    "l2_loss": (lambda lib, x: lib.nn.l2_loss(x) * lib.nn.l2_loss(x), [0.0, -2.0, 3.0]),
    "complex_abs_zero": (lambda lib, x: lib.reduce_sum(lib.abs(lib.complex(x, x * 0.0))), [0.0, -2.0, 3.0]),
    "angle": (lambda lib, x: lib.reduce_sum(lib.math.angle(lib.complex(x, 1.0 - x))), [0.0, -2.0, 1.0]),
}


def _special(name):
    def program(lib, fn):
        f, xs = _AT_ZERO[name]
        return fn(lambda x: _first_and_second(lib, lambda v: f(lib, v), x))(lib.constant(xs))
    program.__name__ = f"special_{name}"
    return program


for _name in _AT_ZERO:
    case("special-points")(_special(_name))


# ---------------------------------------------------------------- indices that repeat, padding, gathers
@case("indices")
def scatter_nd_duplicates(lib, fn):
    def f(u):
        return lib.reduce_sum(lib.scatter_nd([[1], [1], [3]], u, [4]) * lib.constant([1.0, 2.0, 3.0, 4.0]))
    return _both(lib, fn, f, lib.constant([1.0, 2.0, 3.0]))


@case("indices")
def tensor_scatter_nd_add_duplicates(lib, fn):
    def f(x, u):
        y = lib.tensor_scatter_nd_add(x, [[0], [2], [0]], u)
        return lib.reduce_sum(y * y)
    return _both(lib, fn, f, lib.constant([1.0, 2.0, 3.0]), lib.constant([0.5, -1.0, 2.0]))


@case("indices")
def tensor_scatter_nd_sub_rows(lib, fn):
    def f(x, u):
        y = lib.tensor_scatter_nd_sub(x, [[1], [0]], u)
        return lib.reduce_sum(y * lib.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    return _both(lib, fn, f, lib.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), lib.constant([[1.0, 1.0], [2.0, 2.0]]))


@case("indices")
def tensor_scatter_nd_update_grad(lib, fn):
    def f(x, u):
        y = lib.tensor_scatter_nd_update(x, [[2], [0]], u)
        return lib.reduce_sum(y * lib.constant([1.0, 2.0, 3.0, 4.0]))
    return _both(lib, fn, f, lib.constant([1.0, 2.0, 3.0, 4.0]), lib.constant([7.0, 8.0]))


@case("indices")
def gather_duplicates_second_order(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.gather(x, [0, 0, 2, 0]) ** 3)
    return fn(lambda x: _first_and_second(lib, f, x))(lib.constant([1.0, 2.0, 3.0]))


@case("indices")
def gather_axis1_batch_dims(lib, fn):
    def f(x):
        return (lib.reduce_sum(lib.gather(x, [[2, 2], [0, 1]], axis=1, batch_dims=1) * lib.constant([[1.0, 2.0], [3.0, 4.0]]))
                + lib.reduce_sum(lib.gather(x, [1, 1, 0], axis=1) ** 2))
    return _both(lib, fn, f, lib.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))


@case("indices")
def gather_nd_slices_duplicates(lib, fn):
    def f(x):
        return (lib.reduce_sum(lib.gather_nd(x, [[1], [1], [0]]) * lib.constant([1.0, 2.0, 3.0]))
                + lib.reduce_sum(lib.gather_nd(x, [[0, 2], [0, 2], [1, 0]]) ** 2))
    return _both(lib, fn, f, lib.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))


@case("indices")
def unsorted_segment_sum_duplicates(lib, fn):
    def f(x):
        s = lib.math.unsorted_segment_sum(x, [2, 0, 2, 2], 4)
        return lib.reduce_sum(s * s * lib.constant([1.0, 2.0, 3.0, 4.0]))
    return _both(lib, fn, f, lib.constant([1.0, 2.0, 3.0, 4.0]))


@case("indices")
def one_hot_and_embedding(lib, fn):
    def f(table):
        e = lib.nn.embedding_lookup(table, [1, 1, 0])
        return lib.reduce_sum(e * e) + lib.reduce_sum(lib.one_hot([0, 2], 3) * table[0])
    return _both(lib, fn, f, lib.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))


@case("indices")
def boolean_mask_2d_and_axis(lib, fn):
    def f(x):
        return (lib.reduce_sum(lib.boolean_mask(x, [[True, False, True], [False, True, True]]) ** 2)
                + lib.reduce_sum(lib.boolean_mask(x, [False, True, True], axis=1) * 3.0))
    return _both(lib, fn, f, lib.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))


@case("indices")
def where_broadcast_three_ways(lib, fn):
    def f(c, a, b):
        return lib.reduce_sum(lib.where(c > 0.0, a * a, b) * lib.constant([[1.0, 2.0, 3.0]]))
    return _both(lib, fn, f, lib.constant([[1.0], [-1.0]]), lib.constant([0.5, -2.0, 3.0]), lib.constant(4.0))


@case("padding")
def pad_constant_value(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.pad(x, [[1, 2], [0, 1]], constant_values=3.0) ** 2)
    return _both(lib, fn, f, lib.constant([[1.0, 2.0], [3.0, 4.0]]))


@case("padding")
def pad_reflect_weighted(lib, fn):
    def f(x):
        y = lib.pad(x, [[1, 1], [2, 1]], mode="REFLECT")
        return lib.reduce_sum(y * lib.reshape(lib.range(1.0, 1.0 + 5 * 6), [5, 6]))
    return _both(lib, fn, f, lib.constant(np.arange(9.0, dtype="float32").reshape(3, 3)))


@case("padding")
def pad_symmetric_weighted(lib, fn):
    def f(x):
        y = lib.pad(x, [[2, 0], [1, 3]], mode="SYMMETRIC")
        return lib.reduce_sum(y * lib.reshape(lib.range(1.0, 1.0 + 4 * 7), [4, 7]))
    return _both(lib, fn, f, lib.constant(np.arange(6.0, dtype="float32").reshape(2, 3)))


@case("padding")
def pad_reflect_1d_square(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.pad(x, [[2, 2]], mode="reflect") ** 2)
    return _both(lib, fn, f, lib.constant([1.0, -2.0, 3.0]))


@case("padding")
def pad_symmetric_second_order(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.pad(x, [[1, 2]], mode="SYMMETRIC") ** 3)
    return fn(lambda x: _first_and_second(lib, f, x))(lib.constant([1.0, -2.0, 3.0]))


@case("padding")
def reverse_roll_tile(lib, fn):
    def f(x):
        return (lib.reduce_sum(lib.reverse(x, [0]) * lib.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
                + lib.reduce_sum(lib.roll(x, 1, 0) * lib.constant([[1.0, 0.0], [0.0, 2.0], [3.0, 0.0]]))
                + lib.reduce_sum(lib.tile(x, [2, 3]) ** 2) + lib.reduce_sum(lib.repeat(x, 2, axis=1) * 0.5))
    return _both(lib, fn, f, lib.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))


@case("padding")
def transpose_perm_and_conjugate(lib, fn):
    def f(x):
        y = lib.transpose(lib.reshape(x, [2, 3, 1]), [2, 0, 1])
        return lib.reduce_sum(y * lib.reshape(lib.range(6.0), [1, 2, 3]))
    return _both(lib, fn, f, lib.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))


@case("padding")
def cumsum_exclusive_reverse_axis0_second(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.cumsum(x, axis=0, exclusive=True, reverse=True) ** 2
                              + lib.cumsum(x, axis=1, exclusive=True) ** 3)
    return fn(lambda x: _first_and_second(lib, f, x))(lib.constant([[1.0, 2.0], [3.0, -1.0]]))


# ---------------------------------------------------------------- the tape's API
@case("tape-api")
def stop_gradient_in_cond_and_while(lib, fn):
    def f(x):
        if x > 0:
            y = lib.stop_gradient(x * x) + x
        else:
            y = x
        i = 0
        while i < 3:
            y = y * lib.stop_gradient(x) + x
            i += 1
        return y
    return [_both(lib, fn, f, lib.constant(v)) for v in (1.5, -0.5)]


@case("tape-api")
def jacobian_matrix_and_zero(lib, fn):
    def body(x, z):
        with lib.GradientTape(persistent=True) as t:
            t.watch([x, z])
            y = lib.matmul(x, x) + 2.0 * x
        return [t.jacobian(y, x), t.jacobian(y, z, unconnected_gradients=lib.UnconnectedGradients.ZERO)]
    return fn(body)(lib.constant([[1.0, 2.0], [3.0, 4.0]]), lib.constant([1.0, 2.0, 3.0]))


@case("tape-api")
def batch_jacobian_nonlinear(lib, fn):
    def body(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.concat([lib.sin(x) * x[:, :1], lib.reduce_sum(x * x, axis=1, keepdims=True)], axis=1)
        return t.batch_jacobian(y, x)
    return fn(body)(lib.constant([[1.0, 2.0], [0.5, -1.0], [0.0, 3.0]]))


@case("tape-api")
def jacobian_of_gradient(lib, fn):
    def body(x):
        with lib.GradientTape() as outer:
            outer.watch(x)
            with lib.GradientTape() as inner:
                inner.watch(x)
                y = lib.reduce_sum(lib.tanh(x) * x[::-1])
            g = inner.gradient(y, x)
        return outer.jacobian(g, x)
    return fn(body)(lib.constant([0.5, -1.0, 2.0]))


@case("tape-api")
def persistent_many_targets(lib, fn):
    def body(x, w):
        with lib.GradientTape(persistent=True) as t:
            t.watch([x, w])
            a = x * w
            b = lib.sin(a)
            c = {"p": a * a, "q": [b, x]}
        return [t.gradient(c, [x, w]), t.gradient(b, a), t.gradient(a, {"x": x, "w": w}),
                t.gradient([a, b], x, output_gradients=[lib.constant([1.0, 2.0]), lib.constant([3.0, 4.0])])]
    return fn(body)(lib.constant([1.0, 2.0]), lib.constant([0.5, -1.0]))


@case("tape-api")
def watch_accessed_variables_false(lib, fn):
    v, w = lib.Variable(2.0), lib.Variable(3.0)

    @fn
    def f(x):
        with lib.GradientTape(watch_accessed_variables=False) as t:
            t.watch(w)
            y = v * x + w * w
        return t.gradient(y, [v, w, x], unconnected_gradients="zero")
    return f(lib.constant(1.5))


@case("tape-api")
def watched_variables_list(lib, fn):
    v, w = lib.Variable(2.0, name="v"), lib.Variable(3.0, name="w")

    @fn
    def f(x):
        with lib.GradientTape() as t:
            y = v * x
            z = w + 1.0
        return [len(t.watched_variables()), t.gradient(y + z, [v, w])]
    return f(lib.constant(1.5))


@case("tape-api")
def stop_recording_second_order(lib, fn):
    def body(x):
        with lib.GradientTape() as outer:
            outer.watch(x)
            with lib.GradientTape() as inner:
                inner.watch(x)
                y = x * x * x
            with outer.stop_recording():
                g_hidden = inner.gradient(y, x)
            h = g_hidden * x
        return [g_hidden, outer.gradient(h, x)]
    return fn(body)(lib.constant(2.0))


@case("tape-api")
def unconnected_zero_int_and_variable(lib, fn):
    v = lib.Variable([1.0, 2.0])

    @fn
    def f(x, n):
        with lib.GradientTape(persistent=True) as t:
            t.watch([x, n])
            y = x * 2.0
        return [t.gradient(y, [x, n, v], unconnected_gradients="zero"), t.gradient(y, n)]
    return f(lib.constant([1.0, 2.0]), lib.constant([1, 2]))


@case("tape-api")
def int_and_bool_targets(lib, fn):
    @fn
    def f(x):
        with lib.GradientTape(persistent=True) as t:
            t.watch(x)
            n = lib.cast(x * 3.0, lib.int32)
            b = x > 0.5
            y = lib.cast(n, lib.float32) * x
        return [t.gradient(n, x), t.gradient(b, x), t.gradient(y, x), t.gradient(lib.cast(b, lib.float32), x)]
    return f(lib.constant([0.7, 0.2]))


@case("tape-api")
def int_cast_round_trip(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.cast(lib.cast(x, lib.int64), lib.float32) * x + lib.cast(lib.cast(x, lib.float64), lib.float32))
    return _both(lib, fn, f, lib.constant([1.7, -2.2]))


@case("tape-api")
def bool_and_int_source_watched(lib, fn):
    @fn
    def f(b, n, x):
        with lib.GradientTape() as t:
            t.watch([b, n, x])
            y = lib.where(b, x, 0.0) * lib.cast(n, lib.float32)
        return t.gradient(y, [b, n, x])
    return f(lib.constant([True, False]), lib.constant([2, 3]), lib.constant([1.0, 1.0]))


@case("tape-api")
def custom_gradient_two_in_two_out(lib, fn):
    @lib.custom_gradient
    def f(x, y):
        def grad(da, db):
            return da * 10.0 + db, da - db * 100.0
        return [x * y, x + y], grad

    def g(x, y):
        a, b = f(x, y)
        return a * 2.0 + b * 3.0
    return _both(lib, fn, g, lib.constant(3.0), lib.constant(4.0))


@case("tape-api")
def custom_gradient_one_output_unused(lib, fn):
    @lib.custom_gradient
    def f(x):
        def grad(da, db):
            return (da if da is not None else 0.0) * 7.0 + (db if db is not None else 0.0)
        return [x * x, x * 3.0], grad

    def g(x):
        return f(x)[0] * 2.0
    return _both(lib, fn, g, lib.constant(3.0))


@case("tape-api")
def custom_gradient_second_order(lib, fn):
    @lib.custom_gradient
    def cube(x):
        def grad(dy):
            return dy * 3.0 * x * x
        return x * x * x, grad

    def body(x):
        with lib.GradientTape() as outer:
            outer.watch(x)
            with lib.GradientTape() as inner:
                inner.watch(x)
                y = cube(x)
            g = inner.gradient(y, x)
        return [g, outer.gradient(g, x)]
    return fn(body)(lib.constant(2.0))


@case("tape-api")
def input_signature_gradient(lib, fn):
    def f(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.reduce_sum(x * x * lib.cast(lib.range(lib.shape(x)[0]), x.dtype))
        return t.gradient(y, x)
    staged = fn(f, input_signature=[lib.TensorSpec([None], lib.float32)])
    return [staged(lib.constant([1.0, 2.0])), staged(lib.constant([1.0, 2.0, 3.0]))]


@case("tape-api")
def tape_outside_input_signature(lib, fn):
    staged = fn(lambda x: lib.reduce_sum(lib.sin(x) * x), input_signature=[lib.TensorSpec([None], lib.float32)])
    return [_grad(lib, staged, lib.constant([1.0, 2.0])), _grad(lib, staged, lib.constant([0.5, 1.0, -1.0]))]


@case("tape-api")
def gradient_of_sum_of_none_paths(lib, fn):
    def body(x, y):
        with lib.GradientTape() as t:
            t.watch([x, y])
            z = lib.stop_gradient(x) * y + lib.cast(lib.cast(x, lib.int32), lib.float32)
        return t.gradient(z, [x, y])
    return fn(body)(lib.constant(2.5), lib.constant(3.0))


@case("tape-api")
def complex_source_holomorphic(lib, fn):
    def f(z):
        w = z * z + lib.math.conj(z) * 2.0
        return lib.math.real(w) + lib.math.imag(w * z)
    return _both(lib, fn, f, lib.constant([1.0 + 2.0j, -0.5 + 0.5j], lib.complex64))


@case("tape-api")
def complex_target_gradient(lib, fn):
    def body(z):
        with lib.GradientTape() as t:
            t.watch(z)
            w = z * z
        return t.gradient(w, z)
    return fn(body)(lib.constant([1.0 + 2.0j], lib.complex64))


@case("tape-api")
def gradient_inside_cond_branch(lib, fn):
    def body(x):
        if x > 0:
            with lib.GradientTape() as t:
                t.watch(x)
                y = x * x * x
            g = t.gradient(y, x)
        else:
            g = x * 0.0
        return g
    return [fn(body)(lib.constant(v)) for v in (2.0, -1.0)]


@case("tape-api")
def tape_inside_while_body(lib, fn):
    def body(x):
        total = lib.constant(0.0)
        for i in lib.range(3):
            with lib.GradientTape() as t:
                t.watch(x)
                y = lib.sin(x * lib.cast(i + 1, lib.float32))
            total = total + t.gradient(y, x)
        return total
    return fn(body)(lib.constant(0.5))


@case("tape-api")
def hessian_through_while(lib, fn):
    def body(x):
        with lib.GradientTape() as outer:
            outer.watch(x)
            with lib.GradientTape() as inner:
                inner.watch(x)
                y = x
                i = 0
                while i < 2:
                    y = lib.sin(y) * x
                    i += 1
                y = lib.reduce_sum(y)
            g = inner.gradient(y, x)
        return [g, outer.jacobian(g, x)]
    return fn(body)(lib.constant([0.5, 1.0]))
