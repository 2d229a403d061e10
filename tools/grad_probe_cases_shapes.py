"""Cases for tools/grad_probe.py: broadcasting, reductions, indexing, shape ops, shapes known at run time only.

`@case(area)` on `program(lib, fn)`, which returns what to compare (tensors, Python values, None, nested
lists); `fn` stages a function (identity in eager mode). `case` is injected by tools/grad_probe.py."""
import numpy as np

from grad_probe_common import _both, _grad  # noqa: F401 - not every file uses both


# ---------------------------------------------------------------- shapes
@case("shapes")
def broadcast_grad(lib, fn):
    def f(a, b):
        return lib.reduce_sum((a * b) ** 2 + a / (b + 3.0) - b)
    return _both(lib, fn, f, lib.constant([[1.0], [2.0], [-1.0]]), lib.constant([[0.5, 1.0, 2.0, -0.5]]))


@case("shapes")
def broadcast_rank(lib, fn):
    def f(a, b):
        return lib.reduce_sum(lib.maximum(a, b) * lib.minimum(a, b) + lib.pow(lib.abs(a) + 1.0, b))
    return _both(lib, fn, f, lib.constant([[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]]), lib.constant(0.7))


@case("shapes")
def reductions_keepdims(lib, fn):
    def f(x):
        m = lib.reduce_max(x, axis=1, keepdims=True)
        s = lib.reduce_sum(x, axis=[0], keepdims=True)
        p = lib.reduce_prod(x, axis=-1, keepdims=True)
        mean = lib.reduce_mean(x, axis=(0, 1), keepdims=True)
        lse = lib.reduce_logsumexp(x, axis=0, keepdims=True)
        mn = lib.reduce_min(x, axis=[-1])
        return lib.reduce_sum(x * m + x * s + p * mean + lse * 2.0) + lib.reduce_sum(mn * mn)
    return _both(lib, fn, f, lib.constant([[1.0, 3.0, 3.0], [2.0, -1.0, 0.5]]))


@case("shapes")
def reductions_with_zero(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.reduce_prod(x, axis=1)) + lib.reduce_prod(x * 0.0 + 2.0)
    return _both(lib, fn, f, lib.constant([[1.0, 0.0, 3.0], [0.0, 0.0, 2.0]]))


@case("shapes")
def slicing_grad(lib, fn):
    def f(x):
        return (lib.reduce_sum(x[::-1, 1:] * 2.0) + lib.reduce_sum(x[:, ::-2] ** 2) + x[-1, -1] * 5.0
                + lib.reduce_sum(x[1:, ::2] * x[:-1, ::2]) + lib.reduce_sum(x[..., None, 0] * 3.0)
                + lib.reduce_sum(x[-1:-3:-1, 2:0:-1] * lib.constant([1.0, 10.0])))
    return _both(lib, fn, f, lib.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]))


@case("shapes")
def slicing_tensor_bounds(lib, fn):
    def f(x, i):
        return lib.reduce_sum(x[i:i + 2] * lib.constant([1.0, 2.0])) + x[i] * x[-i - 1]
    return _both(lib, fn, f, lib.constant([1.0, 2.0, 3.0, 4.0]), lib.constant(1))


@case("shapes")
def gather_repeated(lib, fn):
    def f(x):
        g = lib.gather(x, [0, 2, 0, 0, 1], axis=0)
        h = lib.gather(x, [[1, 1], [0, 1]], axis=1)
        return lib.reduce_sum(g * lib.constant([[1.0], [2.0], [3.0], [4.0], [5.0]])) + lib.reduce_sum(h ** 2)
    return _both(lib, fn, f, lib.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))


@case("shapes")
def gather_batch_dims(lib, fn):
    def f(x):
        g = lib.gather(x, [[1, 1], [0, 1]], axis=1, batch_dims=1)
        return lib.reduce_sum(g * lib.constant([[1.0, 2.0], [3.0, 4.0]]))
    return _both(lib, fn, f, lib.constant([[1.0, 2.0], [3.0, 4.0]]))


@case("shapes")
def gather_nd_repeated(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.gather_nd(x, [[0, 1], [0, 1], [1, 0]]) * lib.constant([1.0, 2.0, 3.0]))
    return _both(lib, fn, f, lib.constant([[1.0, 2.0], [3.0, 4.0]]))


@case("shapes")
def where_nan_unused_branch(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.where(x > 0, lib.sqrt(x), x * 0.0))
    return _both(lib, fn, f, lib.constant([4.0, -1.0, 0.0]))


@case("shapes")
def where_log_unused(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.where(x > 0, lib.math.log(x), lib.zeros_like(x)))
    return _both(lib, fn, f, lib.constant([4.0, 0.0, -2.0]))


@case("shapes")
def where_safe_pattern(lib, fn):
    def f(x):
        safe = lib.where(x > 0, x, lib.ones_like(x))
        return lib.reduce_sum(lib.where(x > 0, lib.math.log(safe), lib.zeros_like(x)))
    return _both(lib, fn, f, lib.constant([4.0, 0.0, -2.0]))


@case("shapes")
def where_broadcast(lib, fn):
    def f(x, y):
        return lib.reduce_sum(lib.where(lib.constant([[True], [False]]), x, y) * lib.constant([1.0, 2.0, 3.0]))
    return _both(lib, fn, f, lib.constant([1.0, 2.0, 3.0]), lib.constant([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]))


@case("shapes")
def matmul_batch_broadcast(lib, fn):
    def f(a, b):
        return lib.reduce_sum(lib.matmul(a, b) ** 2)
    return _both(lib, fn, f, lib.constant(np.arange(12.0, dtype="float32").reshape(2, 2, 3) / 10),
                 lib.constant(np.arange(6.0, dtype="float32").reshape(3, 2) / 5))


@case("shapes")
def tile_reshape_transpose(lib, fn):
    def f(x):
        t = lib.tile(x, [2, 3])
        r = lib.reshape(lib.transpose(t), [-1])
        return lib.reduce_sum(r * lib.range(24.0)) + lib.reduce_sum(lib.broadcast_to(x, [3, 2, 2]) ** 2)
    return _both(lib, fn, f, lib.constant([[1.0, 2.0], [3.0, 4.0]]))


@case("shapes")
def expand_squeeze_stack_unstack(lib, fn):
    def f(x):
        a, b = lib.unstack(x, axis=1)
        s = lib.stack([a * b, a, b], axis=0)
        return lib.reduce_sum(lib.squeeze(lib.expand_dims(s, 1)) * lib.constant([[1.0], [2.0], [3.0]]))
    return _both(lib, fn, f, lib.constant([[1.0, 2.0], [3.0, 4.0]]))


@case("shapes")
def scatter_and_segment(lib, fn):
    def f(x):
        s = lib.tensor_scatter_nd_update(x, [[0], [0]], [[9.0, 9.0], [8.0, 8.0]]) if False else x
        return lib.reduce_sum(lib.math.unsorted_segment_sum(s, [0, 1, 0], 2) ** 2) + lib.reduce_sum(
            lib.math.segment_sum(s, [0, 0, 1]) * lib.constant([[1.0, 2.0]]))
    return _both(lib, fn, f, lib.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))


@case("shapes")
def cumsum_cumprod(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.math.cumprod(x, axis=1) * lib.constant([1.0, 2.0, 3.0])) + lib.reduce_sum(
            lib.cumsum(x, axis=0, reverse=True) ** 2)
    return _both(lib, fn, f, lib.constant([[1.0, 0.5, 2.0], [-1.0, 3.0, 0.0]]))


# ---------------------------------------------------------------- more: linear algebra and broadcasting
@case("shapes")
def matmul_flags_batch_broadcast(lib, fn):
    def f(a, b):
        return (lib.reduce_sum(lib.matmul(a, b, transpose_a=True) ** 2)
                + lib.reduce_sum(lib.matmul(b, a, transpose_a=True, transpose_b=True) * 0.5)
                + lib.reduce_sum(lib.matmul(a, b[None], transpose_a=True)))
    return _both(lib, fn, f, lib.constant(np.arange(18.0, dtype="float32").reshape(2, 3, 3) / 10),
                 lib.constant(np.arange(9.0, dtype="float32").reshape(3, 3) / 5))


@case("shapes")
def matmul_both_broadcast(lib, fn):
    def f(a, b):
        return lib.reduce_sum((a @ b) ** 2)
    return _both(lib, fn, f, lib.constant(np.arange(12.0, dtype="float32").reshape(2, 1, 2, 3) / 10),
                 lib.constant(np.arange(18.0, dtype="float32").reshape(3, 3, 2) / 5))


@case("shapes")
def einsum_broadcast(lib, fn):
    def f(a, b):
        return (lib.reduce_sum(lib.einsum("...ij,jk->...ik", a, b) ** 2)
                + lib.reduce_sum(lib.einsum("bij,bj->bi", a, b[:, :2] * 1.0))
                + lib.reduce_sum(lib.einsum("ii->i", b[:, :2])) + lib.einsum("ij,ij->", b, b))
    return _both(lib, fn, f, lib.constant(np.arange(8.0, dtype="float32").reshape(2, 2, 2) / 10),
                 lib.constant(np.arange(6.0, dtype="float32").reshape(2, 3) / 5 - 0.3))


@case("shapes")
def tensordot_grad(lib, fn):
    def f(a, b):
        return lib.reduce_sum(lib.tensordot(a, b, [[0, 2], [1, 0]]) ** 2) + lib.reduce_sum(lib.tensordot(a, b, 0))
    return _both(lib, fn, f, lib.constant(np.arange(12.0, dtype="float32").reshape(2, 3, 2) / 10),
                 lib.constant(np.arange(4.0, dtype="float32").reshape(2, 2) / 5))


@case("shapes")
def clip_bounds_grad(lib, fn):
    def f(x, lo, hi):
        return lib.reduce_sum(lib.clip_by_value(x, lo, hi) * lib.constant([1.0, 2.0, 3.0, 4.0]))
    return _both(lib, fn, f, lib.constant([-2.0, 0.5, 3.0, 1.0]), lib.constant(0.0), lib.constant([1.0, 1.0, 2.0, 1.0]))


@case("shapes")
def max_min_ties(lib, fn):
    def f(x):
        return (lib.reduce_sum(lib.reduce_max(x, axis=1) * lib.constant([1.0, 2.0]))
                + lib.reduce_sum(lib.reduce_min(x, axis=0, keepdims=True) * 3.0) + lib.reduce_max(x)
                + lib.reduce_sum(lib.maximum(x, 2.0)) + lib.reduce_sum(lib.minimum(x, x[:, :1])))
    return _both(lib, fn, f, lib.constant([[1.0, 3.0, 3.0], [2.0, 2.0, 3.0]]))


@case("shapes")
def strided_odd(lib, fn):
    def f(x):
        return (lib.reduce_sum(x[..., 1::2] * 2.0) + lib.reduce_sum(x[None, :, -1] * 3.0)
                + lib.reduce_sum(x[5:, :]) + lib.reduce_sum(x[::-1][1:, ::-1] * lib.constant([1.0, 2.0, 3.0, 4.0]))
                + lib.reduce_sum(x[-100:100:2, 3:-100:-2] * 7.0) + x[1][-1] * x[0, 0])
    return _both(lib, fn, f, lib.constant(np.arange(12.0, dtype="float32").reshape(3, 4)))


@case("shapes")
def boolean_mask_grad(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.boolean_mask(x, x > 1.0) ** 2) + lib.reduce_sum(
            lib.boolean_mask(x, [True, False], axis=0) * 3.0)
    return _grad(lib, fn(f), lib.constant([[1.0, 2.0, 3.0], [0.5, 4.0, -1.0]]))


@case("shapes")
def pow_edges(lib, fn):
    def f(x, y):
        return lib.reduce_sum(lib.pow(x, y) * lib.constant([1.0, 2.0, 3.0, 4.0]))
    return _both(lib, fn, f, lib.constant([0.0, -2.0, 3.0, 0.0]), lib.constant([2.0, 3.0, 0.5, 0.0]))


@case("shapes")
def squared_difference_broadcast(lib, fn):
    def f(a, b):
        return lib.reduce_sum(lib.math.squared_difference(a, b) * lib.constant([1.0, 2.0]))
    return _both(lib, fn, f, lib.constant([[1.0], [2.0], [3.0]]), lib.constant([0.5, -1.0]))


@case("shapes")
def where_scalar_broadcast(lib, fn):
    def f(x, s):
        return lib.reduce_sum(lib.where(x > 1.0, s, x) * lib.constant([1.0, 2.0, 3.0]))
    return _both(lib, fn, f, lib.constant([0.5, 2.0, 3.0]), lib.constant(10.0))


@case("shapes")
def softmax_xent_axis(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.nn.softmax(x, axis=0) * lib.constant([[1.0, 2.0], [3.0, 4.0], [0.0, 1.0]])) + \
            lib.reduce_sum(lib.nn.log_softmax(x, axis=0)[1])
    return _both(lib, fn, f, lib.constant([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]]))


@case("shapes")
def sort_topk_ties(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.sort(x, direction="DESCENDING") * lib.constant([1.0, 2.0, 3.0, 4.0])) + \
            lib.reduce_sum(lib.math.top_k(x, 2).values * lib.constant([5.0, 7.0]))
    return _both(lib, fn, f, lib.constant([1.0, 3.0, 3.0, 2.0]))


# ---------------------------------------------------------------- gradients with shapes known only at run time
def _grad_fn(lib, body):
    def run(*xs):
        with lib.GradientTape() as tape:
            tape.watch(list(xs))
            y = body(*xs)
        return [y, tape.gradient(y, list(xs))]
    return run


@case("unknown-shapes")
def broadcast_unknown(lib, fn):
    spec = [lib.TensorSpec([None, 1]), lib.TensorSpec([1, None])]
    run = fn(_grad_fn(lib, lambda a, b: lib.reduce_sum((a * b) ** 2 + a - b)), input_signature=spec)
    return run(lib.constant([[1.0], [2.0], [-1.0]]), lib.constant([[0.5, 1.0, 2.0, -0.5]]))


@case("unknown-shapes")
def broadcast_unknown_rank_mix(lib, fn):
    spec = [lib.TensorSpec([None, None]), lib.TensorSpec([None])]
    run = fn(_grad_fn(lib, lambda a, b: lib.reduce_sum(lib.maximum(a, b) * a / (b + 3.0))), input_signature=spec)
    return [run(lib.constant([[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]]), lib.constant([0.7, 0.1, -1.0])),
            run(lib.constant([[1.0], [2.0]]), lib.constant([0.7, 0.1, -1.0])),
            run(lib.constant([[1.0, 2.0, 3.0]]), lib.constant([0.7]))]


@case("unknown-shapes")
def matmul_unknown_batch(lib, fn):
    spec = [lib.TensorSpec([None, 2, 3]), lib.TensorSpec([3, 2])]
    run = fn(_grad_fn(lib, lambda a, b: lib.reduce_sum(lib.matmul(a, b) ** 2)), input_signature=spec)
    return run(lib.constant(np.arange(12.0, dtype="float32").reshape(2, 2, 3) / 10),
               lib.constant(np.arange(6.0, dtype="float32").reshape(3, 2) / 5))


@case("unknown-shapes")
def reductions_unknown(lib, fn):
    spec = [lib.TensorSpec([None, None])]
    run = fn(_grad_fn(lib, lambda x: lib.reduce_sum(lib.reduce_mean(x, axis=1, keepdims=True) * x)
                      + lib.reduce_sum(lib.reduce_max(x, axis=0) ** 2) + lib.reduce_prod(x[0])
                      + lib.reduce_sum(lib.nn.softmax(x) * x)), input_signature=spec)
    return [run(lib.constant([[1.0, 3.0, 3.0], [2.0, -1.0, 0.5]])), run(lib.constant([[1.0], [2.0]]))]


@case("unknown-shapes")
def slicing_unknown(lib, fn):
    spec = [lib.TensorSpec([None])]
    run = fn(_grad_fn(lib, lambda x: lib.reduce_sum(x[1:] * x[:-1]) + lib.reduce_sum(x[::-2] ** 2)
                      + lib.reduce_sum(lib.gather(x, [0, 0, 1])) + lib.reduce_sum(lib.reverse(x, [0]) * x)),
             input_signature=spec)
    return [run(lib.constant([1.0, 2.0, 3.0, 4.0])), run(lib.constant([1.0, -2.0]))]


@case("unknown-shapes")
def concat_stack_unknown(lib, fn):
    spec = [lib.TensorSpec([None, 2]), lib.TensorSpec([None, 2])]
    run = fn(_grad_fn(lib, lambda a, b: lib.reduce_sum(lib.concat([a, b * 2.0], 0) ** 2)
                      + lib.reduce_sum(lib.tile(a, [2, 1]) * 3.0) + lib.reduce_sum(lib.reshape(b, [-1]) ** 3)),
             input_signature=spec)
    return [run(lib.constant([[1.0, 2.0]]), lib.constant([[3.0, 4.0], [5.0, 6.0]]))]


@case("unknown-shapes")
def loop_unknown_length(lib, fn):
    spec = [lib.TensorSpec([None])]

    def body(x):
        acc = lib.constant(0.0)
        for i in lib.range(lib.shape(x)[0]):
            acc = acc * 0.5 + x[i] * x[i]
        return acc
    run = fn(_grad_fn(lib, body), input_signature=spec)
    return [run(lib.constant([1.0, 2.0, 3.0])), run(lib.constant([4.0]))]


# ---------------------------------------------------------------- gradients of shape ops, one op a case
_X34 = np.arange(12.0, dtype="float32").reshape(3, 4) / 7.0 - 0.5
_SHAPE_OPS = {
    "pad_reflect": lambda lib, x: lib.pad(x, [[1, 2], [2, 1]], mode="REFLECT"),
    "pad_symmetric": lambda lib, x: lib.pad(x, [[2, 1], [0, 3]], mode="SYMMETRIC"),
    "pad_constant": lambda lib, x: lib.pad(x, [[1, 0], [0, 2]], constant_values=3.0),
    "roll": lambda lib, x: lib.roll(x, [1, -2], [0, 1]),
    "reverse": lambda lib, x: lib.reverse(x, [0, 1]),
    "repeat": lambda lib, x: lib.repeat(x, [1, 0, 2], axis=0),
    "repeat_flat": lambda lib, x: lib.repeat(x, 2),
    "split_unused": lambda lib, x: lib.split(x, [1, 2, 1], axis=1)[1],
    "unstack_one": lambda lib, x: lib.unstack(x)[2],
    "tile": lambda lib, x: lib.tile(x, [2, 1]),
    "gather_axis1_neg": lambda lib, x: lib.gather(x, [3, 0, 3], axis=-1),
    "gather_nd_batch": lambda lib, x: lib.gather_nd(x, [[0, 1], [2, 3], [0, 1]]),
    "strided_newaxis": lambda lib, x: x[None, ::2, ..., 1:3, None],
    "strided_shrink_neg": lambda lib, x: x[-1, ::-1],
    "strided_ellipsis_mid": lambda lib, x: lib.reshape(x, [3, 2, 2])[1:, ..., ::-1],
    "boolean_mask_axis": lambda lib, x: lib.boolean_mask(x, [True, False, True, True], axis=1),
    "transpose_reshape": lambda lib, x: lib.reshape(lib.transpose(x), [2, 6]),
    "broadcast_to": lambda lib, x: lib.broadcast_to(x[:1], [2, 3, 4]),
    "concat_neg_axis": lambda lib, x: lib.concat([x, x * 2.0, x[:, :1]], -1),
    "stack_axis1": lambda lib, x: lib.stack([x, -x], axis=1),
    "expand_squeeze": lambda lib, x: lib.squeeze(lib.expand_dims(x, 1), [1]),
    "one_hot_times": lambda lib, x: lib.one_hot([0, 3, 1], 4) * x,
    "scatter_update": lambda lib, x: lib.tensor_scatter_nd_update(x, [[0, 1], [2, 2]], [10.0, 20.0]),
    "scatter_add_dup": lambda lib, x: lib.tensor_scatter_nd_add(x, [[0, 1], [0, 1]], x[1, :2]),
    "scatter_nd_dup": lambda lib, x: lib.scatter_nd([[1], [1], [0]], x[:, :2], [3, 2]),
    "top_k": lambda lib, x: lib.math.top_k(x, 2).values,
    "sort_axis0": lambda lib, x: lib.sort(x, axis=0, direction="DESCENDING"),
    "cumsum_rev_excl": lambda lib, x: lib.cumsum(x, axis=0, exclusive=True, reverse=True),
    "einsum_trace_like": lambda lib, x: lib.einsum("ij,kj->ik", x, x),
    "einsum_outer": lambda lib, x: lib.einsum("i,j->ij", x[0], x[1]),
    "linspace": lambda lib, x: lib.linspace(x[0, 0], x[1, 1], 5),
    "clip_by_norm_axes": lambda lib, x: lib.clip_by_norm(x, 0.5, axes=[1]),
    "bias_add": lambda lib, x: lib.nn.bias_add(x, x[0]),
    "l2_normalize_ax0": lambda lib, x: lib.math.l2_normalize(x, axis=0),
    "softmax_ax0": lambda lib, x: lib.nn.softmax(x, axis=0),
    "logsumexp_keep": lambda lib, x: lib.reduce_logsumexp(x, axis=0, keepdims=True),
    "moments": lambda lib, x: lib.nn.moments(x, axes=[0])[1],
    "where_x_y_broadcast": lambda lib, x: lib.where(x > 0, x, x[0]),
    "matmul_ta_tb": lambda lib, x: lib.matmul(x, x, transpose_a=True) + lib.matmul(x, x, transpose_b=True)[0, 0],
    "norm_ord1_ax": lambda lib, x: lib.norm(x, ord=1, axis=0),
    "norm_inf": lambda lib, x: lib.norm(x, ord=np.inf, axis=1),
    "reduce_std_keep": lambda lib, x: lib.math.reduce_std(x, axis=1, keepdims=True),
    "embedding_lookup": lambda lib, x: lib.nn.embedding_lookup(x, [2, 2, 0]),
    "identity_n": lambda lib, x: lib.identity_n([x, x * 2.0])[1],
    "ensure_shape": lambda lib, x: lib.ensure_shape(x, [3, None]),
    "tensordot_axes2": lambda lib, x: lib.tensordot(x, x, 2),
    "sequence_mask_times": lambda lib, x: lib.cast(lib.sequence_mask([1, 4, 2], 4), x.dtype) * x,
}


def _shape_op(name):
    def program(lib, fn):
        def f(x):
            y = _SHAPE_OPS[name](lib, x)
            shape = y.shape.as_list()
            weights = np.sin(np.arange(1.0, 1.0 + np.prod(shape))).reshape(shape)
            return lib.reduce_sum(y * lib.constant(weights, y.dtype))
        return _both(lib, fn, f, lib.constant(_X34))
    program.__name__ = f"grad_{name}"
    return program


for _name in _SHAPE_OPS:
    case("shape-ops")(_shape_op(_name))
