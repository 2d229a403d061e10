"""Cases for tools/grad_probe.py (thirteenth session), a sweep of the exported ops at edge inputs: every
elementwise unary op at -inf, negatives, -0.0, 0, positives, inf and NaN (value, first and second derivative);
every elementwise binary op over pairs of those; reductions of infinities, NaNs and empty tensors; ops with
repeated indices and ties; the inverse trigonometric functions, the matrix 2-norm, unsigned dtypes, and eager
tensors captured by control flow inside a function.

Run alone with `PYTHONPATH=. /tmp/allv/bin/python tools/grad_probe.py -k round13`. `case` is injected by
tools/grad_probe.py."""
import numpy as np

from grad_probe_common import _first_and_second, _grad

_EDGES = [-np.inf, -3.0, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 3.0, np.inf, np.nan]

_UNARY = {
    "abs": lambda lib, x: lib.abs(x), "negative": lambda lib, x: lib.negative(x), "sign": lambda lib, x: lib.sign(x),
    "square": lambda lib, x: lib.square(x), "sqrt": lambda lib, x: lib.sqrt(x), "exp": lambda lib, x: lib.exp(x),
    "log": lambda lib, x: lib.math.log(x), "sin": lambda lib, x: lib.sin(x), "cos": lambda lib, x: lib.cos(x),
    "tanh": lambda lib, x: lib.tanh(x), "sigmoid": lambda lib, x: lib.sigmoid(x), "tan": lambda lib, x: lib.math.tan(x),
    "sinh": lambda lib, x: lib.math.sinh(x), "cosh": lambda lib, x: lib.math.cosh(x),
    "log1p": lambda lib, x: lib.math.log1p(x), "expm1": lambda lib, x: lib.math.expm1(x),
    "reciprocal": lambda lib, x: lib.math.reciprocal(x), "rsqrt": lambda lib, x: lib.math.rsqrt(x),
    "erf": lambda lib, x: lib.math.erf(x), "softplus": lambda lib, x: lib.math.softplus(x),
    "log_sigmoid": lambda lib, x: lib.math.log_sigmoid(x), "softsign": lambda lib, x: lib.math.softsign(x),
    "rint": lambda lib, x: lib.math.rint(x), "round": lambda lib, x: lib.round(x), "floor": lambda lib, x: lib.floor(x),
    "ceil": lambda lib, x: lib.math.ceil(x), "relu": lambda lib, x: lib.nn.relu(x), "relu6": lambda lib, x: lib.nn.relu6(x),
    "elu": lambda lib, x: lib.nn.elu(x), "selu": lambda lib, x: lib.nn.selu(x), "gelu": lambda lib, x: lib.nn.gelu(x),
    "gelu_tanh": lambda lib, x: lib.nn.gelu(x, approximate=True), "leaky_relu": lambda lib, x: lib.nn.leaky_relu(x),
    "silu": lambda lib, x: lib.nn.silu(x), "asin": lambda lib, x: lib.math.asin(x), "acos": lambda lib, x: lib.math.acos(x),
    "atan": lambda lib, x: lib.math.atan(x), "asinh": lambda lib, x: lib.math.asinh(x),
    "acosh": lambda lib, x: lib.math.acosh(x), "atanh": lambda lib, x: lib.math.atanh(x),
    "softmax": lambda lib, x: lib.nn.softmax(x), "log_softmax": lambda lib, x: lib.nn.log_softmax(x),
    "l2_normalize": lambda lib, x: lib.math.l2_normalize(x, axis=-1), "cumsum": lambda lib, x: lib.cumsum(x, axis=1),
    "cumsum_exclusive_reverse": lambda lib, x: lib.cumsum(x, axis=1, exclusive=True, reverse=True),
    "cumprod": lambda lib, x: lib.math.cumprod(x, axis=1),
    "cumprod_exclusive": lambda lib, x: lib.math.cumprod(x, axis=1, exclusive=True),
    "clip": lambda lib, x: lib.clip_by_value(x, -1.0, 1.0), "pow_2": lambda lib, x: lib.pow(x, 2.0),
    "pow_half": lambda lib, x: lib.pow(x, 0.5), "pow_minus1": lambda lib, x: lib.pow(x, -1.0),
    "xlogy_self": lambda lib, x: lib.math.xlogy(x, x), "squared_difference": lambda lib, x: lib.math.squared_difference(x, 1.0),
    "is_finite_where": lambda lib, x: lib.where(lib.math.is_finite(x), x * x, lib.zeros_like(x)),
}

# ops along an axis: each edge value in a row of its own, beside finite ones
_ROWWISE = {"softmax", "log_softmax", "l2_normalize", "cumsum", "cumsum_exclusive_reverse", "cumprod",
            "cumprod_exclusive"}
_EDGE_ROWS = np.array([[e, 1.0, -2.0] for e in _EDGES], np.float32)
# TensorFlow's softmax of a row holding inf or NaN is [nan, 0, 0] with its oneDNN kernels (the default on x86) and
# NaN in every entry with TF_ENABLE_ONEDNN_OPTS=0, as the runtime gives: those rows are left out
_NOT_FINITE_ROWS = {"softmax", "log_softmax"}
# tf.function rewrites pow(x, 0.5) as sqrt (NaN at -inf, -0.0 at -0.0) where its eager kernel, C's pow, gives inf and
# 0.0: the runtime gives pow's everywhere, so this one is compared eagerly only
_EAGER_ONLY = {"pow_half"}

for _name, _f in _UNARY.items():
    def _program(lib, fn, f=_f, name=_name):
        points = _EDGE_ROWS if name in _ROWWISE else np.array(_EDGES, np.float32)
        if name in _NOT_FINITE_ROWS:
            points = points[~np.isnan(points[:, 0]) & (points[:, 0] != np.inf)]
        return fn(lambda x: _first_and_second(lib, lambda v: f(lib, v), x))(lib.constant(points))
    _program.__name__ = f"unary_{_name}"
    case("round13-unary", modes=("eager",) if _name in _EAGER_ONLY else ("eager", "function", "interp", "jit"))(_program)


_PAIR = [-np.inf, -1.0, 0.0, 0.5, 2.0, np.inf, np.nan]
_XS = np.repeat(np.array(_PAIR, np.float32), len(_PAIR))
_YS = np.tile(np.array(_PAIR, np.float32), len(_PAIR))

_BINARY = {
    "add": lambda lib, x, y: x + y, "subtract": lambda lib, x, y: x - y, "multiply": lambda lib, x, y: x * y,
    "divide": lambda lib, x, y: x / y, "floordiv": lambda lib, x, y: x // y, "floormod": lambda lib, x, y: x % y,
    "pow": lambda lib, x, y: lib.pow(x, y), "maximum": lambda lib, x, y: lib.maximum(x, y),
    "minimum": lambda lib, x, y: lib.minimum(x, y), "atan2": lambda lib, x, y: lib.math.atan2(x, y),
    "xlogy": lambda lib, x, y: lib.math.xlogy(x, y), "xdivy": lambda lib, x, y: lib.math.xdivy(x, y),
    "divide_no_nan": lambda lib, x, y: lib.math.divide_no_nan(x, y),
    "squared_difference": lambda lib, x, y: lib.math.squared_difference(x, y),
}


def _binary_derivatives(lib, f, x, y):
    """f(x, y), its gradients and the gradients of the gradients' weighted sum."""
    with lib.GradientTape() as outer:
        outer.watch([x, y])
        with lib.GradientTape() as inner:
            inner.watch([x, y])
            z = f(x, y)
        gx, gy = inner.gradient(z, [x, y])
        total = lib.reduce_sum(gx * lib.constant(1.5)) + lib.reduce_sum(gy * lib.constant(-0.5))
    return [z, gx, gy, outer.gradient(total, [x, y])]


for _name, _f in _BINARY.items():
    def _program(lib, fn, f=_f):
        return fn(lambda x, y: _binary_derivatives(lib, lambda a, b: f(lib, a, b), x, y))(
            lib.constant(_XS), lib.constant(_YS))
    _program.__name__ = f"binary_{_name}"
    case("round13-binary")(_program)


_REDUCTIONS = {
    "sum": lambda lib: lib.reduce_sum, "mean": lambda lib: lib.reduce_mean, "max": lambda lib: lib.reduce_max,
    "min": lambda lib: lib.reduce_min, "prod": lambda lib: lib.reduce_prod, "logsumexp": lambda lib: lib.reduce_logsumexp,
    "std": lambda lib: lib.math.reduce_std, "variance": lambda lib: lib.math.reduce_variance,
    "euclidean_norm": lambda lib: lib.math.reduce_euclidean_norm,
}
_ROWS = {
    "infinities": [[np.inf, 1.0, 2.0], [-np.inf, 1.0, np.inf], [3.0, 3.0, 3.0]],
    "nans": [[np.nan, 1.0, 2.0], [np.nan, np.inf, 0.0], [0.0, -0.0, 0.0]],
}

for _rn, _r in _REDUCTIONS.items():
    for _vn, _vals in _ROWS.items():
        def _program(lib, fn, r=_r, vals=_vals):
            x = lib.constant(np.array(vals, np.float32))
            return [fn(lambda v: _grad(lib, lambda a: r(lib)(a, axis=1), v))(x),
                    fn(lambda v: _grad(lib, lambda a: r(lib)(a, axis=0, keepdims=True), v))(x)]
        _program.__name__ = f"reduce_{_rn}_{_vn}"
        case("round13-reduce")(_program)

    def _program(lib, fn, r=_r):
        x = lib.zeros([2, 0])
        return [fn(lambda v: _grad(lib, lambda a: r(lib)(a, axis=1), v))(x),
                fn(lambda v: _grad(lib, lambda a: r(lib)(a, axis=0), v))(x),
                fn(lambda v: _grad(lib, lambda a: r(lib)(a), v))(x)]
    _program.__name__ = f"reduce_{_rn}_empty"
    case("round13-reduce")(_program)


_D = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32)
_INDEXED = {
    "gather_repeated_negative_axis": lambda lib, x: lib.gather(x, lib.constant([2, 0, 2, 2], lib.int64), axis=0),
    "gather_axis1": lambda lib, x: lib.gather(x, [[1, 1], [0, 1]], axis=1),
    "gather_nd_repeated": lambda lib, x: lib.gather_nd(x, [[2, 1], [2, 1], [0, 0]]),
    "gather_nd_rows": lambda lib, x: lib.gather_nd(x, [[1], [1]]),
    "scatter_nd_repeated": lambda lib, x: lib.scatter_nd([[1], [1], [3]], x, [4, 2]),
    "tensor_scatter_add_repeated": lambda lib, x: lib.tensor_scatter_nd_add(x, [[0, 0], [0, 0], [2, 1]], x[:, 0] * 2.0),
    "tensor_scatter_sub_repeated": lambda lib, x: lib.tensor_scatter_nd_sub(x, [[1], [1]], x[:2] * x[:2]),
    "unsorted_segment_sum": lambda lib, x: lib.math.unsorted_segment_sum(x, [1, 1, -1], 3),
    "unsorted_segment_max_ties": lambda lib, x: lib.math.unsorted_segment_max(x * lib.constant([[1.0, 0.0]]), [0, 0, 0], 2),
    "unsorted_segment_min": lambda lib, x: lib.math.unsorted_segment_min(x, [2, 0, 2], 3),
    "unsorted_segment_prod": lambda lib, x: lib.math.unsorted_segment_prod(x - 3.0, [0, 0, 1], 2),
    "unsorted_segment_mean": lambda lib, x: lib.math.unsorted_segment_mean(x, [0, 0, 2], 3),
    "unsorted_segment_sqrt_n": lambda lib, x: lib.math.unsorted_segment_sqrt_n(x, [1, 1, 1], 2),
    "segment_max_gap": lambda lib, x: lib.math.segment_max(x, [0, 0, 2]),
    "segment_prod": lambda lib, x: lib.math.segment_prod(x - 3.0, [0, 1, 1]),
    "sort_ties": lambda lib, x: lib.sort(lib.reshape(x * lib.constant([[1.0, 0.0]]), [-1]), direction="DESCENDING"),
    "top_k_ties": lambda lib, x: lib.math.top_k(lib.reshape(lib.round(x / 2.0), [-1]), 3).values * lib.reshape(x, [-1])[:3],
    "reverse_roll": lambda lib, x: lib.roll(lib.reverse(x, [0, 1]), shift=[1, -1], axis=[0, 1]),
    "tile_repeat": lambda lib, x: lib.repeat(lib.tile(x, [1, 2]), [2, 0, 1], axis=0),
    "pad_reflect": lambda lib, x: lib.pad(x, [[1, 2], [1, 1]], mode="REFLECT"),
    "pad_symmetric": lambda lib, x: lib.pad(x, [[2, 0], [0, 2]], mode="SYMMETRIC"),
    "boolean_mask": lambda lib, x: lib.boolean_mask(x, [True, False, True]),
    "split_concat": lambda lib, x: lib.concat(lib.split(x, [1, 0, 2], axis=0)[::-1], axis=0),
    "einsum_outer_trace": lambda lib, x: lib.einsum("ij,kj->ik", x, x) + lib.einsum("ij,ij->", x, x),
    "tensordot": lambda lib, x: lib.tensordot(x, lib.transpose(x), axes=1),
    "matmul_batch_broadcast": lambda lib, x: lib.matmul(lib.reshape(x, [3, 1, 2]), lib.transpose(x)),
    "norm_ord2": lambda lib, x: lib.norm(x, ord=2, axis=[0, 1]),
    "norm_ord2_tall_keep": lambda lib, x: lib.norm(x, ord=2, axis=[1, 0], keepdims=True),
    "broadcast_to": lambda lib, x: lib.broadcast_to(x[:, :1], [2, 3, 2]),
    "where_broadcast": lambda lib, x: lib.where(x > 2.5, x, lib.constant([[10.0, 20.0]])),
}

for _name, _f in _INDEXED.items():
    def _program(lib, fn, f=_f):
        return fn(lambda x: _first_and_second(lib, lambda v: f(lib, v), x))(lib.constant(_D))
    _program.__name__ = _name
    case("round13-indexed")(_program)


@case("round13-dtypes")
def unsigned_arithmetic(lib, fn):
    results = []
    for dt in (lib.uint16, lib.uint32, lib.uint64):
        a, b = lib.constant([1, 200, 7, 3], dt), lib.constant([9, 70, 1, 33], dt)
        results.append(fn(lambda a, b: [a + b, b - a, a * b, a // b, a % b, lib.reduce_sum(a), lib.reduce_prod(a),
                                         lib.reduce_mean(a), lib.cumsum(a), lib.maximum(a, b), a < b, a / b,
                                         lib.cast(a, lib.float32), lib.bitwise.invert(a),
                                         lib.math.unsorted_segment_min(a, [0, 0, 1, 1], 3), lib.sort(a),
                                         lib.gather(a, [3, 0]), lib.concat([a, b], 0)])(a, b))
    return results


@case("round13-dtypes")
def casts_to_unsigned(lib, fn):
    x = lib.constant([0.7, 3e9, 4294967295.0, 65535.0, 1e19], lib.float64)
    return fn(lambda v: [lib.cast(v[:3], lib.uint32), lib.cast(v[3:4], lib.uint16), lib.cast(v, lib.uint64)])(x)


@case("round13-dtypes")
def small_int_reductions(lib, fn):
    return [fn(lambda a: [lib.reduce_prod(a), lib.math.cumprod(a), lib.reduce_sum(a), lib.cumsum(a), lib.reduce_max(a)])(
        lib.constant([100, 3, 2], dt)) for dt in (lib.int8, lib.uint8, lib.int16)]


_X = np.array([1.0, 2.0], np.float32)


@case("round13-captures")
def eager_tensor_captured_by_cond_and_loop(lib, fn):
    x = lib.constant(_X)

    def body():
        with lib.GradientTape() as tape:
            tape.watch(x)
            chosen = lib.cond(x[0] > 0, lambda: x * 2.0, lambda: x * 3.0)
            doubled = lib.while_loop(lambda k, a: k < 3, lambda k, a: (k + 1, a * x), [0, x])[1]
        return tape.gradient([chosen, doubled], x)
    return fn(body)()


@case("round13-captures", modes=("function", "interp", "jit"))
def tf_gradients_of_an_eager_tensor(lib, fn):
    x, unused = lib.constant(_X), lib.constant([[3.0]])
    return fn(lambda: lib.gradients(x * x * 2.0, [x, unused], unconnected_gradients="zero"))()


@case("round13-captures")
def custom_gradient_capturing_an_eager_tensor(lib, fn):
    x, w = lib.constant(_X), lib.constant([3.0, 4.0])

    @lib.custom_gradient
    def scaled(a):
        return a * w, lambda dy: dy * w * 2.0

    def body():
        with lib.GradientTape() as tape:
            tape.watch([x, w])
            y = lib.cond(x[0] > 0, lambda: scaled(x), lambda: x)
        return tape.gradient(y, [x, w])
    return fn(body)()


# the unary ops again in float64 and float16, at finite points
_FINITE = [v for v in _EDGES if np.isfinite(v)]
for _dt in ("float64", "float16"):
    for _name, _f in _UNARY.items():
        if _name in _ROWWISE or _name in _EAGER_ONLY:
            continue

        def _program(lib, fn, f=_f, dt=_dt):
            return fn(lambda x: _first_and_second(lib, lambda v: f(lib, v), x))(lib.constant(_FINITE, getattr(lib, dt)))
        _program.__name__ = f"unary_{_name}_{_dt}"
        case("round13-unary-dtypes")(_program)


# binary ops whose operands broadcast against each other ([3, 1] with [1, 4], and a scalar)
_A = np.array([[0.5], [-1.5], [2.0]], np.float32)
_B = np.array([[1.0, -0.25, 3.0, 0.0]], np.float32)
for _name, _f in _BINARY.items():
    def _program(lib, fn, f=_f):
        body = lambda x, y: _binary_derivatives(lib, lambda a, b: f(lib, a, b), x, y)  # noqa: E731
        return [fn(body)(lib.constant(_A), lib.constant(_B)), fn(body)(lib.constant(_B), lib.constant(1.5))]
    _program.__name__ = f"broadcast_{_name}"
    case("round13-broadcast")(_program)


_EMPTY = {
    "gather_no_indices": lambda lib, x: lib.gather(x, lib.zeros([0], lib.int32)),
    "gather_nd_no_indices": lambda lib, x: lib.gather_nd(x, lib.zeros([0, 2], lib.int32)),
    "scatter_nd_no_updates": lambda lib, x: lib.scatter_nd(lib.zeros([0, 1], lib.int32), x[:0], [4, 2]) + x[0],
    "segment_sum_no_rows": lambda lib, x: lib.math.unsorted_segment_sum(x[:0], lib.zeros([0], lib.int32), 2),
    "segment_max_no_rows": lambda lib, x: lib.math.unsorted_segment_max(x[:0], lib.zeros([0], lib.int32), 2),
    "sort_no_rows": lambda lib, x: lib.sort(x[:, :0]),
    "top_k_zero": lambda lib, x: lib.math.top_k(x, 0).values,
    "cumsum_empty": lambda lib, x: lib.cumsum(x[:0], axis=0),
    "matmul_inner_zero": lambda lib, x: lib.matmul(x[:, :0], lib.transpose(x)[:0]),
    "einsum_empty": lambda lib, x: lib.einsum("ij,ik->jk", x[:0], x[:0]),
    "concat_with_empty": lambda lib, x: lib.concat([x[:0], x, x[3:]], axis=0),
    "logsumexp_empty_axis": lambda lib, x: lib.reduce_logsumexp(x[:, :0], axis=1),
    "softmax_empty": lambda lib, x: lib.nn.softmax(x[:0]),
    "norm_empty": lambda lib, x: lib.norm(x[:0]),
    "pad_empty": lambda lib, x: lib.pad(x[:0], [[1, 1], [0, 0]]),
}
for _name, _f in _EMPTY.items():
    def _program(lib, fn, f=_f):
        return fn(lambda x: _grad(lib, lambda v: f(lib, v), x))(lib.constant(_D))
    _program.__name__ = _name
    case("round13-empty")(_program)


@case("round13-ints")
def int_sources_and_targets(lib, fn):
    def body(i, x):
        with lib.GradientTape(persistent=True) as tape:
            tape.watch([i, x])
            f = lib.cast(i, lib.float32) * x
            j = i * 2 + lib.cast(x, lib.int32)
        return [tape.gradient(f, [i, x]), tape.gradient(j, [i, x]),
                tape.gradient(f, [i, x], unconnected_gradients="zero"), tape.gradient(j, i, unconnected_gradients="zero")]
    return fn(body)(lib.constant([1, 2]), lib.constant([0.5, 1.5]))


@case("round13-ints")
def int_ops_inside_a_float_gradient(lib, fn):
    def body(x):
        k = lib.cast(lib.reduce_sum(lib.cast(x > 0.7, lib.int32)), lib.float32)
        idx = lib.argmax(x)
        return lib.reduce_sum(x * k) + lib.gather(x, idx) * lib.cast(lib.size(x), lib.float32)
    return fn(lambda x: _first_and_second(lib, body, x))(lib.constant([0.5, 1.5, 1.0]))


@case("round13-ints")
def int_variable_gradients(lib, fn):
    v, w = lib.Variable([1, 2]), lib.Variable([1.0, 2.0])

    def body():
        with lib.GradientTape() as tape:
            y = lib.cast(v, lib.float32) * w
        return tape.gradient(y, [v, w], unconnected_gradients="zero")   # the int Variable: zeros (TensorFlow's)
    return fn(body)()
