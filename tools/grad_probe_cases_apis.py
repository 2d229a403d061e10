"""Cases for tools/grad_probe.py (tenth session): axes, `k`, depths, permutations and paddings given as
constant tensors made in the function (`axis=tf.constant(0)`, which TensorFlow takes and the runtime refused
with OperatorNotAllowedInGraphError), first and second derivatives through them.

Run alone with `PYTHONPATH=. /tmp/allv/bin/python tools/grad_probe.py -k axes2`. `case` is injected by
tools/grad_probe.py."""
import numpy as np
from grad_probe_common import _grad

_X = np.array([[3.0, 1.0, 2.0], [0.5, 4.0, -1.0]], np.float32)
_W = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)


def _c(lib, v):
    return lib.constant(v)


_CONSTANT_ARGS = {   # name: body(lib, x) -> a float tensor
    "concat": lambda lib, x: lib.concat([x, x * 2.0], axis=_c(lib, 1)),
    "concat_neg": lambda lib, x: lib.concat([x, x * x], axis=_c(lib, -2)),
    "concat_int64": lambda lib, x: lib.concat([x, x], axis=lib.constant(0, lib.int64)),
    "gather": lambda lib, x: lib.gather(x, [2, 0, 0], axis=_c(lib, 1)),
    "gather_neg": lambda lib, x: lib.gather(x, lib.constant([1, 1]), axis=_c(lib, -2)),
    "split": lambda lib, x: lib.split(x, 3, axis=_c(lib, 1))[2] * 3.0,
    "split_sizes": lambda lib, x: lib.split(x, _c(lib, [2, 1]), axis=_c(lib, -1))[0] ** 2,
    "sort": lambda lib, x: lib.sort(x, axis=_c(lib, 0)) * _W,
    "sort_desc": lambda lib, x: lib.sort(x, axis=_c(lib, -1), direction="DESCENDING") * _W,
    "argsort": lambda lib, x: lib.cast(lib.argsort(x, axis=_c(lib, 1)), lib.float32) * x,
    "top_k": lambda lib, x: lib.math.top_k(x, k=_c(lib, 2)).values * _W[:, :2],
    "expand_dims": lambda lib, x: lib.expand_dims(x, _c(lib, 1)) * _W[:, None, :],
    "one_hot_depth": lambda lib, x: lib.one_hot([0, 2], _c(lib, 3)) * x,
    "reverse": lambda lib, x: lib.reverse(x, _c(lib, [1])) * _W,
    "roll": lambda lib, x: lib.roll(x, _c(lib, 1), axis=_c(lib, 1)) * _W,
    "transpose": lambda lib, x: lib.transpose(x, _c(lib, [1, 0])) * _W.T,
    "boolean_mask": lambda lib, x: lib.boolean_mask(x, [True, False, True], axis=_c(lib, 1)) ** 2,
    "pad": lambda lib, x: lib.pad(x, _c(lib, [[1, 0], [0, 2]])) * lib.ones([3, 5]) * 2.0,
    "stack": lambda lib, x: lib.stack([x, x * x], axis=_c(lib, 1)),
}


def _second_order_case(name, body, value):
    """`body(lib, x)`, and the gradient of the sum of its square with the tape outside and inside `fn`."""
    def program(lib, fn):
        f = lambda x: lib.reduce_sum(body(lib, x) * body(lib, x))   # noqa: E731 - second order in x
        x = lib.constant(value)
        inside = fn(lambda v: _grad(lib, f, v))(x)
        forward = fn(lambda u: body(lib, u))(x)
        return [_grad(lib, fn(f), x), inside, forward]
    program.__name__ = name
    return program


for _name, _body in _CONSTANT_ARGS.items():
    case("axes2")(_second_order_case(f"{_name}_constant_tensor_argument", _body, _X))


# ---------------------------------------------------------------- segment reductions and bincount
_D = np.array([[1.0, 2.0], [3.0, 3.0], [5.0, -6.0], [0.0, 1.0], [2.0, 0.0]], np.float32)
_SEGMENTS = {   # name: body(lib, d) with d of shape (5, 2); ties, empty segments, dropped (negative) ids
    **{f"segment_{k}": (lambda k: lambda lib, d: getattr(lib.math, f"segment_{k}")(d, [0, 0, 2, 2, 3]))(k)
       for k in ("sum", "mean", "max", "min", "prod")},
    **{f"unsorted_segment_{k}": (lambda k: lambda lib, d: getattr(lib.math, f"unsorted_segment_{k}")(
        d, [1, 0, -1, 1, 3], 4))(k) for k in ("sum", "mean", "max", "min", "prod", "sqrt_n")},
    "segment_max_ties": lambda lib, d: lib.math.segment_max(d * lib.constant([[1.0, 0.0]]) + 1.0, [0, 0, 0, 1, 1]),
    "unsorted_segment_min_items": lambda lib, d: lib.math.unsorted_segment_min(d, [[0, 1], [1, 1], [2, 0], [0, 0],
                                                                                  [2, 2]], 3),
    "unsorted_segment_prod_zeros": lambda lib, d: lib.math.unsorted_segment_prod(d - 1.0, [0, 0, 0, 1, 1], 2),
    "unsorted_segment_max_traced_ids": lambda lib, d: lib.math.unsorted_segment_max(
        d, lib.cast(d[:, 0] > 1.5, lib.int32), 2),
    "unsorted_segment_sum_tensor_count": lambda lib, d: lib.math.unsorted_segment_sum(d, [1, 1, 0, 0, 1],
                                                                                      lib.constant(3)),
}


for _name, _body in _SEGMENTS.items():
    case("segments")(_second_order_case(_name, _body, _D))

_BINCOUNTS = {
    "bincount": lambda lib, a, w: lib.math.bincount(a),
    "bincount_minlength": lambda lib, a, w: lib.math.bincount(a, minlength=7),
    "bincount_maxlength": lambda lib, a, w: lib.math.bincount(a, maxlength=2, dtype=lib.int64),
    "bincount_weights": lambda lib, a, w: lib.math.bincount(a, weights=w),
    "bincount_binary": lambda lib, a, w: lib.math.bincount(a, minlength=3, binary_output=True),
    "bincount_empty": lambda lib, a, w: lib.math.bincount(a[:0], minlength=2),
    "bincount_rows": lambda lib, a, w: lib.math.bincount(lib.reshape(a, [2, 3]), axis=-1),
    "bincount_float_dtype": lambda lib, a, w: lib.math.bincount(a, dtype=lib.float32),
}


def _bincount_case(name, body):
    def program(lib, fn):
        args = lib.constant([1, 1, 4, 0, 4, 4]), lib.constant([0.5, 1.0, 2.0, 3.0, -1.0, 0.25])
        return fn(lambda a, w: body(lib, a, w))(*args)
    program.__name__ = name
    return program


for _name, _body in _BINCOUNTS.items():
    case("segments", errors=True)(_bincount_case(_name, _body))


# ---------------------------------------------------------------- tf.gradients, recompute_grad, ForwardAccumulator
_V0 = np.array([1.0, 2.0, 0.5], np.float32)
_T0 = np.array([1.0, -0.5, 2.0], np.float32)


@case("apis", modes=("function", "interp", "jit"))
def gradients_in_function(lib, fn):
    w = lib.Variable([0.5, -1.0, 2.0])

    @fn
    def f(x):
        y = lib.reduce_sum(lib.sin(x) * w * x)
        z = x * x
        first = lib.gradients(y, [x, w])
        weighted = lib.gradients([y, z], x, grad_ys=[lib.constant(2.0), lib.constant([1.0, 0.0, 3.0])])
        held = lib.gradients(y + lib.reduce_sum(z), x, stop_gradients=[z])
        unconnected = lib.gradients(y, [x, lib.constant(1.0) + 0.0], unconnected_gradients="zero")
        second = lib.gradients(first[0], x)
        return [first, weighted, held, unconnected, second]
    return f(lib.constant(_V0))


@case("apis", modes=("function", "interp", "jit"))
def gradients_through_cond_and_loop(lib, fn):
    @fn
    def f(x):
        y = lib.cond(lib.reduce_sum(x) > 0.0, lambda: lib.reduce_sum(x ** 3), lambda: lib.reduce_sum(-x))
        i, acc = lib.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * x), (lib.constant(0), lib.ones_like(x)))
        return [lib.gradients(y, x), lib.gradients(lib.reduce_sum(acc), x), lib.gradients(acc, x, grad_ys=x)]
    return f(lib.constant(_V0))


@case("apis", modes=("function",))
def gradients_eagerly_refused(lib, fn):
    try:
        lib.gradients(lib.constant(1.0), lib.constant(2.0))
    except RuntimeError as e:
        return "eager execution" in str(e)
    return "computed"


def _recomputed_block(lib, w):
    return lambda a: lib.tanh(a * w) * a + lib.reduce_sum(a) * lib.exp(-a)


@case("apis")
def recompute_grad_values_and_gradients(lib, fn):
    w = lib.Variable([0.5, -1.0, 2.0])
    block = lib.recompute_grad(_recomputed_block(lib, w))

    @fn
    def f(x):
        with lib.GradientTape() as tape:
            tape.watch(x)
            y = lib.reduce_sum(block(x) ** 2)
        return [y, tape.gradient(y, [x, w])]
    return f(lib.constant(_V0))


@case("apis")
def recompute_grad_second_order(lib, fn):
    block = lib.recompute_grad(lambda a: lib.sin(a) * a * a)

    @fn
    def f(x):
        with lib.GradientTape() as outer:
            outer.watch(x)
            with lib.GradientTape() as inner:
                inner.watch(x)
                y = lib.reduce_sum(block(x))
            g = inner.gradient(y, x)
        return [y, g, outer.gradient(lib.reduce_sum(g * x), x)]
    return f(lib.constant(_V0))


_JVPS = {   # name: body(lib, x) for ForwardAccumulator (x, tangent _T0)
    "jvp_elementwise": lambda lib, x: [lib.sin(x) * lib.exp(x), lib.sqrt(x), lib.math.log1p(x)],
    "jvp_reductions": lambda lib, x: [lib.reduce_sum(x ** 3), lib.reduce_max(x), lib.reduce_logsumexp(x)],
    "jvp_shapes": lambda lib, x: [lib.reshape(lib.tile(x, [2]), [2, 3]), lib.gather(x, [2, 0, 2]),
                                  lib.concat([x, x * x], 0), x[::-1]],
    "jvp_matmul_softmax": lambda lib, x: [lib.matmul(lib.reshape(x, [1, 3]), lib.reshape(x, [3, 1]) * 2.0),
                                          lib.nn.softmax(x), lib.sort(x * lib.constant([1.0, -1.0, 1.0]))],
    "jvp_integer_and_unconnected": lambda lib, x: [lib.cast(x, lib.int32), lib.constant([1.0, 2.0]),
                                                   lib.stop_gradient(x) * 2.0],
    "jvp_control_flow": lambda lib, x: [lib.cond(x[0] > 0.0, lambda: x * 2.0, lambda: x),
                                        lib.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, a * x),
                                                       (lib.constant(0), x))[1]],
}


def _jvp_case(name, body):
    def program(lib, fn):
        def run(x, t):
            with lib.autodiff.ForwardAccumulator(x, t) as acc:
                outs = body(lib, x)
            return [outs, acc.jvp(outs), acc.jvp(outs, unconnected_gradients="zero")]
        return fn(run)(lib.constant(_V0), lib.constant(_T0))
    program.__name__ = name
    return program


for _name, _body in _JVPS.items():
    case("apis")(_jvp_case(_name, _body))


@case("apis")
def jvp_of_a_gradient_is_a_hessian_vector_product(lib, fn):
    def run(x, t):
        with lib.autodiff.ForwardAccumulator(x, t) as acc:
            with lib.GradientTape() as tape:
                tape.watch(x)
                y = lib.reduce_sum(lib.sin(x) * x ** 2) + x[0] * x[2]
            g = tape.gradient(y, x)
        return [g, acc.jvp(g)]
    return fn(run)(lib.constant(_V0), lib.constant(_T0))


@case("apis")
def jvp_of_a_variable_and_a_structure(lib, fn):
    v = lib.Variable([1.0, 2.0])

    def run(t):
        with lib.autodiff.ForwardAccumulator(primals=[v], tangents=[t]) as acc:
            out = {"a": v * v, "b": (lib.reduce_sum(v), v + 1.0)}
        return [acc.jvp(out)]
    return fn(run)(lib.constant([0.5, -1.0]))


@case("apis")
def slice_static_and_constant_bounds(lib, fn):
    def body(x):
        return [lib.slice(x, [0, 1], [2, -1]), lib.slice(x, lib.constant([1, 0]), lib.constant([1, 2])),
                lib.slice(x, [0, 0], [0, 3])]

    def loss(x):
        return lib.reduce_sum(body(x)[0] ** 2) + lib.reduce_sum(body(x)[1] * 3.0)
    return [fn(body)(lib.constant(_X)), _grad(lib, fn(loss), lib.constant(_X))]


@case("apis", errors=True)
def slice_out_of_range(lib, fn):
    return fn(lambda x: lib.slice(x, [1, 2], [1, 2]))(lib.constant(_X))
