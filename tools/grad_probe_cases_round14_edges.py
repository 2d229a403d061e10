"""Cases for tools/grad_probe.py (fourteenth session), areas round14-edges, round14-keras and round14-arrays:
composites (`clip_by_norm`, `clip_by_global_norm`, `l2_normalize`, `norm`, `reduce_logsumexp`, `softmax`, the
activations, the cross-entropies, `cumprod`, ...) and their gradients at inf, NaN, -0.0, 1e30 and on empty
tensors; Keras losses (on saturated probabilities, on a softmax's or sigmoid's output inside a function) and
optimizers (clipping and decay with inf, NaN, huge and zero gradients) and metrics at ties and NaN; array ops at
their edges (big and negative shifts, zero repeats, -1 sizes, negative axes, out-of-range slices).

Run alone with `PYTHONPATH=. /tmp/allv/bin/python tools/grad_probe.py -k round14`. `case` is injected by
tools/grad_probe.py."""
import numpy as np
from grad_probe_common import _grad

INF, NAN = np.inf, np.nan

_ROWS = np.array([[INF, 1.0], [NAN, 2.0], [-INF, -INF], [0.0, -0.0], [3.0, 4.0], [1e30, 1e30]], np.float32)

_OPS = {
    "clip_by_norm": lambda lib, x: lib.clip_by_norm(x, 1.0),
    "clip_by_norm_rows": lambda lib, x: lib.clip_by_norm(x, 1.0, axes=[1]),
    "l2_normalize": lambda lib, x: lib.math.l2_normalize(x, axis=1),
    "norm_rows": lambda lib, x: lib.norm(x, axis=1),
    "norm_1": lambda lib, x: lib.norm(x, ord=1, axis=1),
    "norm_inf": lambda lib, x: lib.norm(x, ord=np.inf, axis=1),
    "norm_3": lambda lib, x: lib.norm(x, ord=3, axis=1),
    "euclid": lambda lib, x: lib.math.reduce_euclidean_norm(x, axis=1),
    "logsumexp": lambda lib, x: lib.reduce_logsumexp(x, axis=1),
    "softmax": lambda lib, x: lib.nn.softmax(x),
    "log_softmax": lambda lib, x: lib.nn.log_softmax(x),
    "l2_loss": lambda lib, x: lib.nn.l2_loss(x),
    "moments": lambda lib, x: list(lib.nn.moments(x, axes=[1])),
    "variance": lambda lib, x: lib.math.reduce_variance(x, axis=1),
    "std": lambda lib, x: lib.math.reduce_std(x, axis=1),
    "log_sigmoid": lambda lib, x: lib.math.log_sigmoid(x),
    "softplus": lambda lib, x: lib.nn.softplus(x),
    "softsign": lambda lib, x: lib.nn.softsign(x),
    "silu": lambda lib, x: lib.nn.silu(x),
    "gelu": lambda lib, x: lib.nn.gelu(x),
    "gelu_approx": lambda lib, x: lib.nn.gelu(x, approximate=True),
    "elu": lambda lib, x: lib.nn.elu(x),
    "selu": lambda lib, x: lib.nn.selu(x),
    "relu6": lambda lib, x: lib.nn.relu6(x),
    "leaky": lambda lib, x: lib.nn.leaky_relu(x),
    "sigmoid_xent": lambda lib, x: lib.nn.sigmoid_cross_entropy_with_logits(labels=lib.constant([[1.0, 0.0]] * 6), logits=x),
    "softmax_xent": lambda lib, x: lib.nn.softmax_cross_entropy_with_logits(labels=lib.constant([[0.3, 0.7]] * 6), logits=x),
    "sparse_xent": lambda lib, x: lib.nn.sparse_softmax_cross_entropy_with_logits(labels=lib.constant([0, 1, 0, 1, 0, 1]), logits=x),
    "cumsum": lambda lib, x: lib.math.cumsum(x, axis=1, exclusive=True, reverse=True),
    "cumprod": lambda lib, x: lib.math.cumprod(x, axis=1),
    "count_nonzero": lambda lib, x: lib.math.count_nonzero(x, axis=1),
    "add_n": lambda lib, x: lib.math.add_n([x, x * 2.0, -x]),
    "squared_diff": lambda lib, x: lib.math.squared_difference(x, x[::-1]),
    "erf": lambda lib, x: lib.math.erf(x),
    "expm1": lambda lib, x: lib.math.expm1(x),
    "reciprocal": lambda lib, x: lib.math.reciprocal(x),
    "rsqrt": lambda lib, x: lib.math.rsqrt(x),
    "tan": lambda lib, x: lib.math.tan(x),
    "angle": lambda lib, x: lib.math.angle(x),
    "sign": lambda lib, x: lib.sign(x),
    "abs": lambda lib, x: lib.abs(x),
}

_AS_XLA = {"softmax": "TensorFlow's oneDNN float32 softmax gives 0 beside an inf or NaN logit, its XLA (and float64) "
                      "kernel NaN, as the runtime"}

for _name, _f in _OPS.items():
    def _program(lib, fn, f=_f):
        return fn(lambda x: _grad(lib, lambda a: f(lib, a), x))(lib.constant(_ROWS))
    _program.__name__ = f"edges_{_name}"
    case("round14-edges", xla=_AS_XLA.get(_name, ""))(_program)

    def _empty(lib, fn, f=_f):
        return fn(lambda x: _grad(lib, lambda a: f(lib, a), x))(lib.zeros([0, 2]))
    _empty.__name__ = f"empty_{_name}"
    case("round14-edges", modes=("eager",))(_empty)   # TensorFlow's function of an empty l2_normalize's gradient dies of SIGFPE


def _opt_steps(lib, make, grads_list, var0=(1.0, -2.0, 3.0)):
    v = lib.Variable(np.array(var0, np.float32))
    opt = make(lib)
    out = []
    for g in grads_list:
        opt.apply_gradients([(lib.constant(np.array(g, np.float32)), v)])
        out.append(lib.identity(v))
    return out


_OPTS = {
    "sgd_clipnorm": lambda lib: lib.keras.optimizers.SGD(0.1, clipnorm=1.0),
    "sgd_global_clipnorm": lambda lib: lib.keras.optimizers.SGD(0.1, global_clipnorm=1.0),
    "sgd_clipvalue": lambda lib: lib.keras.optimizers.SGD(0.1, clipvalue=0.5),
    "sgd_nesterov": lambda lib: lib.keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True),
    "adam": lambda lib: lib.keras.optimizers.Adam(0.1),
    "adam_amsgrad": lambda lib: lib.keras.optimizers.Adam(0.1, amsgrad=True),
    "adam_decay": lambda lib: lib.keras.optimizers.Adam(0.1, weight_decay=0.1),
    "rmsprop_centered_momentum": lambda lib: lib.keras.optimizers.RMSprop(0.1, momentum=0.5, centered=True),
    "adagrad": lambda lib: lib.keras.optimizers.Adagrad(0.1),
}
_GRADS = {
    "zeros": [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
    "inf": [[INF, 1.0, 0.0], [1.0, 1.0, 1.0]],
    "nan": [[NAN, 1.0, 0.0], [1.0, 1.0, 1.0]],
    "huge": [[1e30, -1e30, 1e-30], [3.0, -4.0, 0.0]],
}
for _on, _o in _OPTS.items():
    for _gn, _g in _GRADS.items():
        def _program(lib, fn, o=_o, g=_g):
            return _opt_steps(lib, o, g)
        _program.__name__ = f"opt_{_on}_{_gn}"
        case("round14-keras", modes=("eager",))(_program)


_PROBS = np.array([[0.0, 1.0, 0.5], [1.0, 0.0, 1e-9], [0.3, 0.3, 0.4]], np.float32)
_LABELS = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]], np.float32)
_LOSSES = {
    "bce": lambda lib, y, p: lib.keras.losses.binary_crossentropy(y, p),
    "bce_logits": lambda lib, y, p: lib.keras.losses.binary_crossentropy(y, (p - 0.5) * 100.0, from_logits=True),
    "bce_smooth": lambda lib, y, p: lib.keras.losses.binary_crossentropy(y, p, label_smoothing=0.2),
    "cce": lambda lib, y, p: lib.keras.losses.categorical_crossentropy(y, p),
    "cce_logits": lambda lib, y, p: lib.keras.losses.categorical_crossentropy(y, p * 50.0, from_logits=True),
    "cce_smooth": lambda lib, y, p: lib.keras.losses.categorical_crossentropy(y, p, label_smoothing=0.1),
    "scce": lambda lib, y, p: lib.keras.losses.sparse_categorical_crossentropy(lib.constant([1, 0, 2]), p),
    "scce_logits": lambda lib, y, p: lib.keras.losses.sparse_categorical_crossentropy(lib.constant([1, 0, 2]), p, from_logits=True),
    "mse": lambda lib, y, p: lib.keras.losses.MeanSquaredError()(y, p),
    "mae": lambda lib, y, p: lib.keras.losses.MeanAbsoluteError()(y, p),
    "huber": lambda lib, y, p: lib.keras.losses.huber(y, p, delta=0.5),
    "BCE_class": lambda lib, y, p: lib.keras.losses.BinaryCrossentropy()(y, p),
    "Huber_class": lambda lib, y, p: lib.keras.losses.Huber(delta=1.0)(y, p * 3.0),
}
for _ln, _l in _LOSSES.items():
    def _program(lib, fn, l=_l):
        return fn(lambda y, p: _grad(lib, lambda a, b: l(lib, a, b), y, p))(lib.constant(_LABELS), lib.constant(_PROBS))
    _program.__name__ = f"loss_{_ln}"
    case("round14-keras", modes=("eager", "function"))(_program)


_Z = np.array([[100.0, 0.0, -100.0], [1.0, 2.0, 3.0]], np.float32)
_Y = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]], np.float32)


@case("round14-keras", modes=("eager", "function"))
def cce_of_softmax_output(lib, fn):
    return fn(lambda y, z: _grad(lib, lambda a: lib.keras.losses.categorical_crossentropy(y, lib.nn.softmax(a)), z))(
        lib.constant(_Y), lib.constant(_Z))


@case("round14-keras", modes=("eager", "function"))
def scce_of_softmax_output(lib, fn):
    return fn(lambda z: _grad(lib, lambda a: lib.keras.losses.sparse_categorical_crossentropy(
        lib.constant([2, 1]), lib.nn.softmax(a)), z))(lib.constant(_Z))


@case("round14-keras", modes=("eager", "function"))
def bce_of_sigmoid_output(lib, fn):
    return fn(lambda y, z: _grad(lib, lambda a: lib.keras.losses.binary_crossentropy(y, lib.sigmoid(a)), z))(
        lib.constant(_Y), lib.constant(_Z))


@case("round14-keras", modes=("eager", "function"))
def bce_class_of_sigmoid_output(lib, fn):
    return fn(lambda y, z: _grad(lib, lambda a: lib.keras.losses.BinaryCrossentropy()(y, lib.sigmoid(a)), z))(
        lib.constant(_Y), lib.constant(_Z))


@case("round14-keras", modes=("eager", "function"))
def scce_unnormalized(lib, fn):
    return fn(lambda p: _grad(lib, lambda a: lib.keras.losses.sparse_categorical_crossentropy(
        lib.constant([1, 0]), a), p))(lib.constant([[0.0, 1.0, 0.5], [2.0, 1.0, 1.0]]))


_A = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], np.float32)
_OPS = {
    "roll_big_shift": lambda lib, x: lib.roll(x, shift=7, axis=1),
    "roll_negative_multi": lambda lib, x: lib.roll(x, shift=[-4, 1], axis=[1, 0]),
    "roll_same_axis_twice": lambda lib, x: lib.roll(x, shift=[1, 1], axis=[1, 1]),
    "repeat_zero_counts": lambda lib, x: lib.repeat(x, [0, 2, 1], axis=1),
    "repeat_flat": lambda lib, x: lib.repeat(x, 2),
    "sequence_mask_float": lambda lib, x: lib.cast(lib.sequence_mask([1, 0, 3], 4), lib.float32) * x[0, 0],
    "split_minus_one": lambda lib, x: lib.split(x, [1, -1], axis=1),
    "tile_zero": lambda lib, x: lib.tile(x, [0, 2]),
    "pad_negative_axis_const": lambda lib, x: lib.pad(x, [[0, 1], [2, 0]], constant_values=-1.0),
    "reverse_neg_axis": lambda lib, x: lib.reverse(x, [-1]),
    "gather_neg_axis_batch": lambda lib, x: lib.gather(x, [[2, 0], [1, 1]], axis=-1, batch_dims=1),
    "gather_nd_batch": lambda lib, x: lib.gather_nd(x, [[2], [0]], batch_dims=1),
    "einsum_diag": lambda lib, x: lib.einsum("ii->i", lib.matmul(x, x, transpose_b=True)),
    "einsum_repeat_out": lambda lib, x: lib.einsum("ij->j", x),
    "einsum_sum_all": lambda lib, x: lib.einsum("ij->", x),
    "tensordot_0": lambda lib, x: lib.tensordot(x, x, axes=0),
    "tensordot_pairs": lambda lib, x: lib.tensordot(x, x, axes=[[0, 1], [0, 1]]),
    "top_k_0": lambda lib, x: lib.math.top_k(x, 0).values,
    "top_k_all_unsorted": lambda lib, x: lib.math.top_k(x, 3, sorted=True).values,
    "unstack_axis1": lambda lib, x: lib.unstack(x, axis=1),
    "stack_neg_axis": lambda lib, x: lib.stack([x, 2.0 * x], axis=-1),
    "concat_neg_axis": lambda lib, x: lib.concat([x, x[:, :1]], axis=-1),
    "expand_squeeze": lambda lib, x: lib.squeeze(lib.expand_dims(x, -1), [-1]),
    "reshape_zero_dim": lambda lib, x: lib.reshape(x[:0], [0, 3]),
    "strided_negative_step": lambda lib, x: x[::-1, ::-2],
    "strided_newaxis_ellipsis": lambda lib, x: x[..., None, 1:],
    "strided_out_of_range": lambda lib, x: x[:, 5:10],
    "slice_size_minus_one": lambda lib, x: lib.slice(x, [1, 1], [-1, -1]),
    "broadcast_to_same": lambda lib, x: lib.broadcast_to(x, [2, 3]),
    "boolean_mask_axis1": lambda lib, x: lib.boolean_mask(x, [True, False, True], axis=1),
    "where_scalar_cond": lambda lib, x: lib.where(True, x, -x),
    "searchsorted_right": lambda lib, x: lib.cast(lib.searchsorted(lib.sort(x), x, side="right"), lib.float32) * x,
    "clip_by_value_int_bounds_broadcast": lambda lib, x: lib.clip_by_value(x, [[-1.0], [0.0]], [4.0, 4.5, 5.0]),
    "cumsum_neg_axis": lambda lib, x: lib.cumsum(x, axis=-1, exclusive=True),
    "cumprod_reverse_exclusive": lambda lib, x: lib.math.cumprod(x, axis=0, exclusive=True, reverse=True),
    "reduce_neg_axes": lambda lib, x: lib.reduce_sum(x, axis=[-1, 0]),
    "reduce_dup_free_keep": lambda lib, x: lib.reduce_max(x, axis=[-2], keepdims=True),
    "one_hot_as_weights": lambda lib, x: lib.one_hot([2, 0], 3) * x,
    "add_n_single": lambda lib, x: lib.math.add_n([x]),
    "identity_n": lambda lib, x: lib.identity_n([x, x * 2.0]),
    "ensure_shape": lambda lib, x: lib.ensure_shape(x, [2, None]),
    "meshgrid_3": lambda lib, x: lib.meshgrid(x[0], x[1, :2], x[0, :1]),
}
for _name, _f in _OPS.items():
    def _program(lib, fn, f=_f):
        return fn(lambda x: _grad(lib, lambda a: f(lib, a), x))(lib.constant(_A))
    _program.__name__ = f"arr_{_name}"
    case("round14-arrays")(_program)


def _metric(lib, make, updates):
    m = make(lib)
    out = []
    for args in updates:
        m.update_state(*[lib.constant(np.array(a)) if a is not None else None for a in args])
        out.append(m.result())
    return out


_METRICS = {
    "binary_accuracy_threshold_tie": (lambda lib: lib.keras.metrics.BinaryAccuracy(threshold=0.5),
                                      [([[1.0], [0.0], [1.0]], [[0.5], [0.5], [0.7]])]),
    "binary_accuracy_nan": (lambda lib: lib.keras.metrics.BinaryAccuracy(),
                            [([[1.0], [0.0]], [[np.nan], [np.nan]])]),
    "categorical_accuracy_ties": (lambda lib: lib.keras.metrics.CategoricalAccuracy(),
                                  [([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], [[0.4, 0.4, 0.2], [0.3, 0.3, 0.3]])]),
    "sparse_cat_acc_ties": (lambda lib: lib.keras.metrics.SparseCategoricalAccuracy(),
                            [([[1], [0]], [[0.4, 0.4, 0.2], [0.3, 0.3, 0.3]])]),
    "sparse_cat_acc_flat_labels": (lambda lib: lib.keras.metrics.SparseCategoricalAccuracy(),
                                   [([1.0, 2.0], [[0.4, 0.5, 0.1], [0.1, 0.1, 0.8]])]),
    "accuracy_float_vs_int": (lambda lib: lib.keras.metrics.Accuracy(),
                              [([1, 2, 3], [1.0, 2.0000001, 3.5])]),
    "mean_weighted_zero": (lambda lib: lib.keras.metrics.Mean(),
                           [([1.0, 2.0], [0.0, 0.0]), ([3.0], [1.0])]),
    "mean_nothing": (lambda lib: lib.keras.metrics.Mean(), []),
    "sum_weighted": (lambda lib: lib.keras.metrics.Sum(), [([1.0, 2.0], [0.5, 2.0])]),
    "mean_nan": (lambda lib: lib.keras.metrics.Mean(), [([np.nan, 1.0], None)]),
}
for _n, (_make, _ups) in _METRICS.items():
    def _program(lib, fn, make=_make, ups=_ups):
        return _metric(lib, make, ups)
    _program.__name__ = f"metric_{_n}"
    case("round14-keras", modes=("eager",))(_program)


@case("round14-keras", modes=("eager",))
def huber_at_delta_and_grads(lib, fn):
    y = lib.constant([[0.0, 0.0, 0.0, 0.0]])
    p = lib.constant([[1.0, -1.0, 0.5, 2.0]])
    with lib.GradientTape() as t:
        t.watch(p)
        loss = lib.keras.losses.huber(y, p, delta=1.0)
    return loss, t.gradient(loss, p)
