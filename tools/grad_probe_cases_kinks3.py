"""Cases for tools/grad_probe.py (ninth session): first and second derivatives of single ops at their kinks
and edges (sqrt, norms and l2_normalize at zero, divide_no_nan, ties of max/min and reduce_max, logsumexp and
log_softmax with -inf, xlogy/xdivy at zero, activations at zero and far out, clip at its bounds, products with
zeros, gathers and scatters with repeated indices, clip_by_norm at zero), and some of them in float16 and float64.

`case` is injected by tools/grad_probe.py."""
import numpy as np
from grad_probe_common import _first_and_second, _grad

_OPS = {
    "sqrt_zero": (lambda lib, x: lib.sqrt(x), [0.0, 4.0]),
    "norm_zero": (lambda lib, x: lib.norm(x), [0.0, 0.0]),
    "norm_zero_axis": (lambda lib, x: lib.norm(lib.reshape(x, [2, 1]), axis=1), [0.0, 3.0]),
    "euclid_zero": (lambda lib, x: lib.math.reduce_euclidean_norm(x), [0.0, 0.0]),
    "l2_normalize_zero": (lambda lib, x: lib.math.l2_normalize(x), [0.0, 0.0]),
    "divide_no_nan_zero": (lambda lib, x: lib.math.divide_no_nan(x, x - x), [1.0, 2.0]),
    "divide_no_nan_mixed": (lambda lib, x: lib.math.divide_no_nan(lib.constant([1.0, 2.0]), x), [0.0, 2.0]),
    "abs_zero": (lambda lib, x: lib.abs(x), [0.0, -0.0]),
    "relu_zero": (lambda lib, x: lib.nn.relu(x), [0.0, 1.0]),
    "relu6_edges": (lambda lib, x: lib.nn.relu6(x), [0.0, 6.0]),
    "leaky_zero": (lambda lib, x: lib.nn.leaky_relu(x), [0.0, -1.0]),
    "elu_zero": (lambda lib, x: lib.nn.elu(x), [0.0, -1.0]),
    "clip_bounds": (lambda lib, x: lib.clip_by_value(x, 0.0, 1.0), [0.0, 1.0]),
    "maximum_tie": (lambda lib, x: lib.maximum(x, lib.constant([0.0, 1.0])), [0.0, 1.0]),
    "minimum_tie": (lambda lib, x: lib.minimum(x, lib.constant([0.0, 1.0])), [0.0, 1.0]),
    "reduce_max_ties": (lambda lib, x: lib.reduce_max(lib.concat([x, x], 0)), [1.0, 1.0]),
    "reduce_min_ties_axis": (lambda lib, x: lib.reduce_min(lib.reshape(lib.concat([x, x], 0), [2, 2]), axis=0), [1.0, 1.0]),
    "logsumexp_neginf": (lambda lib, x: lib.reduce_logsumexp(lib.math.log(x)), [0.0, 0.0]),
    "logsumexp_one_neginf": (lambda lib, x: lib.reduce_logsumexp(lib.math.log(x)), [0.0, 2.0]),
    "logsumexp_inf": (lambda lib, x: lib.reduce_logsumexp(x * lib.constant([np.inf, 1.0])), [1.0, 2.0]),
    "log_softmax_neginf": (lambda lib, x: lib.nn.log_softmax(lib.math.log(x)), [0.0, 2.0]),
    "xlogy_zero": (lambda lib, x: lib.math.xlogy(x, x), [0.0, 2.0]),
    "xdivy_zero": (lambda lib, x: lib.math.xdivy(x, x), [0.0, 2.0]),
    "pow_zero_base": (lambda lib, x: lib.pow(x, 2.0), [0.0, -1.0]),
    "pow_zero_zero": (lambda lib, x: lib.pow(x, x), [0.0, 1.0]),
    "pow_half_zero": (lambda lib, x: lib.pow(x, 0.5), [0.0, 4.0]),
    "square_of_sqrt_zero": (lambda lib, x: lib.square(lib.sqrt(x)), [0.0, 4.0]),
    "sign_grad": (lambda lib, x: lib.sign(x) * x, [0.0, -2.0]),
    "rsqrt_zero": (lambda lib, x: lib.math.rsqrt(x), [0.0, 4.0]),
    "log1p_minus1": (lambda lib, x: lib.math.log1p(x), [-1.0, 0.0]),
    "reciprocal_zero": (lambda lib, x: lib.math.reciprocal(x), [0.0, 2.0]),
    "atan_like_tanh_big": (lambda lib, x: lib.tanh(x), [100.0, -100.0]),
    "sigmoid_big": (lambda lib, x: lib.sigmoid(x), [100.0, -100.0]),
    "softplus_big": (lambda lib, x: lib.math.softplus(x), [100.0, -100.0]),
    "log_sigmoid_big": (lambda lib, x: lib.math.log_sigmoid(x), [100.0, -100.0]),
    "where_nan_unselected": (lambda lib, x: lib.where(x > 0.0, lib.sqrt(x), lib.zeros_like(x)), [0.0, 4.0]),
    "where_inf_unselected": (lambda lib, x: lib.where(x > 0.0, lib.math.log(x), x), [0.0, 4.0]),
    "reduce_std_constant": (lambda lib, x: lib.math.reduce_std(x), [1.0, 1.0]),
    "softmax_xent_zero_label": (lambda lib, x: lib.nn.softmax_cross_entropy_with_logits(
        labels=lib.constant([0.0, 1.0]), logits=x * lib.constant([-np.inf, 1.0])), [1.0, 2.0]),
    "sparse_xent": (lambda lib, x: lib.nn.sparse_softmax_cross_entropy_with_logits(
        labels=lib.constant(1), logits=x), [1.0, 2.0]),
    "reduce_prod_zero": (lambda lib, x: lib.reduce_prod(x), [0.0, 2.0]),
    "reduce_prod_two_zeros": (lambda lib, x: lib.reduce_prod(lib.concat([x, x], 0)), [0.0, 2.0]),
    "cumprod_zero": (lambda lib, x: lib.math.cumprod(lib.concat([x, x], 0)), [0.0, 2.0]),
    "gather_repeat": (lambda lib, x: lib.gather(x, [1, 1, 0, 1]), [1.0, 2.0]),
    "gather_nd_repeat": (lambda lib, x: lib.gather_nd(x, [[1], [1]]), [1.0, 2.0]),
    "scatter_nd_repeat": (lambda lib, x: lib.scatter_nd([[0], [0], [2]], lib.concat([x, x[:1]], 0), [3]), [1.0, 2.0]),
    "tensor_scatter_update_repeat": (lambda lib, x: lib.tensor_scatter_nd_update(lib.concat([x, x], 0), [[0], [1]], x * 3.0), [1.0, 2.0]),
    "math_angle": (lambda lib, x: lib.math.angle(lib.complex(x, x - 1.0)), [1.0, 0.0]),
    "erf": (lambda lib, x: lib.math.erf(x), [0.0, 1.0]),
    "squared_difference": (lambda lib, x: lib.math.squared_difference(x, lib.constant(1.0)), [0.0, 1.0]),
    "floor_round_ceil": (lambda lib, x: lib.floor(x) + lib.round(x) + lib.math.ceil(x), [0.5, 1.5]),
    "mod_grad": (lambda lib, x: lib.math.floormod(x, 1.5), [2.0, -2.0]),
    "truncatediv_like": (lambda lib, x: x // 1.5, [2.0, -2.0]),
    "gelu": (lambda lib, x: lib.nn.gelu(x), [0.0, -1.0]),
    "gelu_approx": (lambda lib, x: lib.nn.gelu(x, approximate=True), [0.0, -1.0]),
    "selu": (lambda lib, x: lib.nn.selu(x), [0.0, -1.0]),
    "silu": (lambda lib, x: lib.nn.silu(x), [0.0, -1.0]),
    "softsign": (lambda lib, x: lib.math.softsign(x), [0.0, -1.0]),
    "expm1": (lambda lib, x: lib.math.expm1(x), [0.0, -1.0]),
    "cosh_sinh_tan": (lambda lib, x: lib.math.cosh(x) + lib.math.sinh(x) + lib.math.tan(x), [0.0, -1.0]),
    "l2_loss": (lambda lib, x: lib.nn.l2_loss(x), [0.0, -1.0]),
    "moments_const": (lambda lib, x: lib.nn.moments(x, axes=[0])[1], [1.0, 1.0]),
    "clip_by_norm_zero": (lambda lib, x: lib.clip_by_norm(x, 1.0), [0.0, 0.0]),
    "clip_by_global_norm_zero": (lambda lib, x: lib.clip_by_global_norm([x], 1.0)[0][0], [0.0, 0.0]),
    "clip_by_norm_edge": (lambda lib, x: lib.clip_by_norm(x, 5.0), [3.0, 4.0]),
    "top_k_ties": (lambda lib, x: lib.math.top_k(lib.concat([x, x], 0), 3).values, [1.0, 1.0]),
    "argmax_path": (lambda lib, x: lib.gather(x, lib.argmax(x)), [1.0, 1.0]),
    "dropout_rate0": (lambda lib, x: lib.nn.dropout(x, rate=0.0), [1.0, 2.0]),
}

# Compared eagerly only: with the tapes outside a tf.function, TensorFlow's second derivative there is NaN where
# its eager one (and the runtime's, in every placement) is -inf or 0 (a 0 * inf that its graph gradient does not
# keep at 0); and zeros where its eager one (and the runtime's) is None, as the first derivative is a constant
_EAGER_ONLY = {"pow_half_zero", "log1p_minus1", "where_inf_unselected", "tensor_scatter_update_repeat"}

for _name, (_f, _vals) in _OPS.items():
    def _program(lib, fn, f=_f, vals=_vals):
        def body(x):
            return f(lib, x)
        return [_grad(lib, fn(body), lib.constant(vals)), _first_and_second(lib, fn(body), lib.constant(vals))]
    _program.__name__ = _name
    case("kinks3", modes=("eager",) if _name in _EAGER_ONLY else ("eager", "function", "interp", "jit"))(_program)

for _dt in ("float16", "float64"):
    for _name in ("sqrt_zero", "norm_zero", "logsumexp_one_neginf", "divide_no_nan_mixed", "reduce_max_ties",
                  "sigmoid_big", "softplus_big", "gelu", "where_nan_unselected", "clip_by_norm_zero"):
        def _program(lib, fn, f=_OPS[_name][0], vals=_OPS[_name][1], dt=_dt):
            def body(x):
                return f(lib, x)
            return _grad(lib, fn(body), lib.constant(vals, getattr(lib, dt)))
        _program.__name__ = f"{_name}_{_dt}"
        case("kinks3-dtypes")(_program)


# ---------------------------------------------------------------- reductions' axes given in other forms
_AXES = {   # a tensor axis made in the function was an OperatorNotAllowedInGraphError (read with .numpy())
    "np_int": lambda lib: np.int64(1),
    "tuple_neg": lambda lib: (-1, 0),
    "tensor": lambda lib: lib.constant(1),
    "tensor_list": lambda lib: lib.constant([0, -1]),
    "list_neg_unordered": lambda lib: [-1, -3],
}
_X3 = np.array([[[1.0, 2.0, 2.0], [0.5, -1.0, 3.0]], [[0.0, 2.0, 1.0], [4.0, -2.0, 0.5]]], np.float32)

for _an, _axis in _AXES.items():
    for _r in ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_logsumexp"):
        for _kd in (False, True):
            def _program(lib, fn, axis=_axis, r=_r, kd=_kd):
                body = lambda x: lib.reduce_sum(getattr(lib, r)(x, axis=axis(lib), keepdims=kd) ** 2)  # noqa: E731
                return _grad(lib, fn(body), lib.constant(_X3)) + [fn(lambda x: _grad(lib, body, x))(lib.constant(_X3))]
            _program.__name__ = f"{_r}_axis_{_an}_{'keep' if _kd else 'drop'}"
            case("axes")(_program)
