"""Cases for tools/grad_probe.py (seventh session, continued from grad_probe_cases_kinks.py): second
derivatives of composite ops and through control flow, extreme values, Variables read in other ways, empty
tensors and selections.

`@case(area)` on `program(lib, fn)`, as in grad_probe_cases_kinks.py. `case` is injected by tools/grad_probe.py."""
import numpy as np

from grad_probe_common import _both, _first_and_second, _grad  # noqa: F401 - not every file uses all


# ---------------------------------------------------------------- second derivatives of composite ops
_SECOND = {
    "softmax_xent": lambda lib, x: lib.reduce_sum(lib.nn.softmax_cross_entropy_with_logits(
        labels=lib.constant([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]]), logits=lib.reshape(x, [2, 3]))),
    "sigmoid_xent": lambda lib, x: lib.reduce_sum(lib.nn.sigmoid_cross_entropy_with_logits(
        labels=lib.constant([0.2, 0.3, 0.5, 1.0, 0.0, 0.0]), logits=x)),
    "sparse_xent": lambda lib, x: lib.reduce_sum(lib.nn.sparse_softmax_cross_entropy_with_logits(
        labels=lib.constant([2, 0]), logits=lib.reshape(x, [2, 3]))),
    "moments": lambda lib, x: lib.reduce_sum(lib.nn.moments(lib.reshape(x, [2, 3]), axes=[1])[1] * lib.constant([1.0, 2.0])),
    "l2_normalize_axis": lambda lib, x: lib.reduce_sum(lib.math.l2_normalize(lib.reshape(x, [2, 3]), axis=1)
                                                      * lib.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])),
    "clip_by_norm": lambda lib, x: lib.reduce_sum(lib.clip_by_norm(x, 2.0) * lib.range(6.0)),
    "clip_by_global_norm": lambda lib, x: lib.reduce_sum(lib.clip_by_global_norm([x, x * 2.0], 3.0)[0][1]
                                                         * lib.range(6.0)),
    "einsum_trace_like": lambda lib, x: lib.reduce_sum(lib.einsum("ij,jk->ik", lib.reshape(x, [2, 3]),
                                                                  lib.reshape(x, [3, 2])) ** 2),
    "matmul_transposes": lambda lib, x: lib.reduce_sum(lib.matmul(lib.reshape(x, [2, 3]), lib.reshape(x, [2, 3]),
                                                                  transpose_a=True) ** 2),
    "tensordot": lambda lib, x: lib.reduce_sum(lib.tensordot(lib.reshape(x, [2, 3]), lib.reshape(x, [3, 2]), 1) ** 2),
    "norm_fro_and_axis": lambda lib, x: (lib.norm(lib.reshape(x, [2, 3]), ord="fro", axis=[0, 1])
                                         + lib.reduce_sum(lib.norm(lib.reshape(x, [2, 3]), axis=1) * lib.constant([1.0, 2.0]))),
    "reduce_euclidean_norm_axis": lambda lib, x: lib.reduce_sum(
        lib.math.reduce_euclidean_norm(lib.reshape(x, [2, 3]), axis=0) * lib.constant([1.0, 2.0, 3.0])),
    "reduce_variance_std": lambda lib, x: lib.math.reduce_variance(x) * lib.math.reduce_std(x),
    "logsumexp_axis": lambda lib, x: lib.reduce_sum(lib.reduce_logsumexp(lib.reshape(x, [2, 3]), axis=0) ** 2),
    "sort_topk_second": lambda lib, x: (lib.reduce_sum(lib.sort(x) ** 2 * lib.range(6.0))
                                        + lib.reduce_sum(lib.math.top_k(x, 3).values ** 3)),
    "segment_sum_second": lambda lib, x: lib.reduce_sum(lib.math.unsorted_segment_sum(x * x, [0, 1, 0, -1, 2, 1], 3) ** 2),
    "add_n_identity_n": lambda lib, x: lib.reduce_sum(lib.math.add_n([x, x * x, lib.identity_n([x, x])[1] ** 3])),
    "bias_add": lambda lib, x: lib.reduce_sum(lib.nn.bias_add(lib.reshape(x, [2, 3]), x[:3]) ** 2),
    "split_unused_part": lambda lib, x: lib.reduce_sum(lib.split(x * x, [2, 3, 1])[1] ** 2),
    "unstack_unused": lambda lib, x: lib.reduce_sum(lib.unstack(lib.reshape(x * x, [3, 2]))[2] ** 2),
    "stack_same_twice": lambda lib, x: lib.reduce_sum(lib.stack([x, x, x * x]) ** 2),
    "linspace_ends": lambda lib, x: lib.reduce_sum(lib.linspace(x[0], x[1] * x[1], 5) ** 2),
    "broadcast_to": lambda lib, x: lib.reduce_sum(lib.broadcast_to(lib.reshape(x, [1, 6]), [3, 6]) ** 3),
    "gather_nd_second": lambda lib, x: lib.reduce_sum(lib.gather_nd(lib.reshape(x, [2, 3]), [[1, 1], [1, 1], [0, 2]]) ** 3),
    "scatter_nd_second": lambda lib, x: lib.reduce_sum(lib.scatter_nd([[1], [1], [0]], x[:3] * x[3:], [2]) ** 2),
    "where_second": lambda lib, x: lib.reduce_sum(lib.where(x > 1.0, x * x * x, lib.sin(x))),
    "maximum_second": lambda lib, x: lib.reduce_sum(lib.maximum(x * x, 2.0 * x) ** 2),
    "cumsum_second": lambda lib, x: lib.reduce_sum(lib.cumsum(x * x, reverse=True, exclusive=True) ** 2),
    "cumprod_second": lambda lib, x: lib.reduce_sum(lib.math.cumprod(x, exclusive=True) ** 2),
    "prod_second": lambda lib, x: lib.reduce_prod(lib.reshape(x, [2, 3]), axis=1)[0] ** 2,
    "pow_both_second": lambda lib, x: lib.reduce_sum(lib.pow(lib.abs(x) + 0.5, x)),
    "floormod_divisor": lambda lib, x: lib.reduce_sum(lib.math.floormod(lib.constant([5.0, -5.0, 7.5, 1.0, 2.0, 3.0]), x)),
    "abs_int_path": lambda lib, x: lib.reduce_sum(x * lib.cast(lib.abs(lib.cast(x, lib.int32)), lib.float32)),
}


def _second_of(name):
    def program(lib, fn):
        x = lib.constant([1.5, -0.5, 2.0, 0.25, -1.0, 3.0])
        return fn(lambda v: _first_and_second(lib, lambda u: _SECOND[name](lib, u), v))(x)
    program.__name__ = f"second_{name}"
    return program


for _name in _SECOND:
    case("second-order-ops")(_second_of(_name))


@case("indices")
def unsorted_segment_sum_negative_ids(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.math.unsorted_segment_sum(x, [1, -1, 0, 1], 2) * lib.constant([3.0, 5.0]))
    return _both(lib, fn, f, lib.constant([1.0, 2.0, 3.0, 4.0]))


@case("tape-api")
def variable_not_trainable_and_int_variable(lib, fn):
    frozen = lib.Variable(2.0, trainable=False)
    counter = lib.Variable(3)

    @fn
    def f(x):
        with lib.GradientTape() as t:
            y = frozen * x + lib.cast(counter, lib.float32) * x
        return t.gradient(y, [frozen, counter])
    return f(lib.constant(1.5))


@case("tape-api")
def watch_variable_explicitly_without_auto_watch(lib, fn):
    v = lib.Variable([1.0, 2.0])

    @fn
    def f(x):
        with lib.GradientTape(watch_accessed_variables=False, persistent=True) as t:
            y0 = lib.reduce_sum(v * x)
            t.watch(v)
            y1 = lib.reduce_sum(v * v * x)
        return [t.gradient(y0, v), t.gradient(y1, v), t.gradient(y0 + y1, [v, x])]
    return f(lib.constant(3.0))


@case("tape-api")
def gradient_inside_the_context(lib, fn):
    def body(x):
        with lib.GradientTape(persistent=True) as t:
            t.watch(x)
            y = x * x
            g = t.gradient(y, x)     # recorded too: y2 depends on x through g
            y2 = g * x
        return [g, t.gradient(y2, x)]
    return fn(body)(lib.constant(3.0))


@case("tape-api")
def zero_iterations_loop_gradient(lib, fn):
    def f(x, n):
        y = x * 2.0
        for i in lib.range(n):
            y = y * x
        return y
    return [_both(lib, fn, f, lib.constant(1.5), lib.constant(k)) for k in (0, 2)]


@case("tape-api")
def while_loop_zero_max_iterations(lib, fn):
    def f(x):
        return lib.while_loop(lambda a: a < 100.0, lambda a: (a * x,), [x], maximum_iterations=0)[0] * 3.0
    return _both(lib, fn, f, lib.constant(2.0))


@case("tape-api")
def float64_and_float16_gradient_dtypes(lib, fn):
    def f(a, b):
        return lib.reduce_sum(a * a) + lib.cast(lib.reduce_sum(b * b), lib.float64)
    return _both(lib, fn, f, lib.constant([1.0, 2.0], lib.float64), lib.constant([0.5, 1.5], lib.float16))


# ---------------------------------------------------------------- second derivatives through control flow, dtypes
@case("control-second")
def cond_in_while_second(lib, fn):
    def f(x):
        y = x
        i = 0
        while i < 3:
            if y > 1.0:
                y = y * lib.sin(x)
            else:
                y = y + x * x
            i += 1
        return y
    return [fn(lambda v: _first_and_second(lib, f, v))(lib.constant(v)) for v in (2.0, 0.5)]


@case("control-second")
def while_in_cond_second(lib, fn):
    def f(x):
        if x > 0:
            y = x
            for i in lib.range(2):
                y = y * x + 1.0
        else:
            y = x * x * x
        return y
    return [fn(lambda v: _first_and_second(lib, f, v))(lib.constant(v)) for v in (1.5, -2.0)]


@case("control-second")
def where_in_loop_second(lib, fn):
    def f(x):
        y = x
        for i in lib.range(3):
            y = lib.where(y > 0.0, y * x, -y)
        return lib.reduce_sum(y)
    return fn(lambda v: _first_and_second(lib, f, v))(lib.constant([0.5, -1.0, 2.0]))


@case("control-second")
def variable_in_loop_second(lib, fn):
    w = lib.Variable(0.5)

    @fn
    def f(x):
        with lib.GradientTape() as outer:
            with lib.GradientTape() as inner:
                y = x
                for i in lib.range(3):
                    y = lib.tanh(y * w)
            g = inner.gradient(y, w)
        return [y, g, outer.gradient(g, w)]
    return f(lib.constant(2.0))


@case("control-second")
def custom_gradient_in_while_second(lib, fn):
    @lib.custom_gradient
    def clip_grad(x):
        def grad(dy):
            return lib.clip_by_value(dy, -1.0, 1.0) * x
        return x * x, grad

    def f(x):
        y = x
        for i in lib.range(2):
            y = clip_grad(y) + x
        return y
    return _both(lib, fn, f, lib.constant(0.7))


@case("control-second")
def float16_second(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.tanh(x) * x * x)
    return fn(lambda v: _first_and_second(lib, f, v))(lib.constant([0.5, -1.0, 2.0], lib.float16))


@case("control-second")
def float64_softmax_second(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.nn.log_softmax(x) * lib.constant([1.0, 2.0, 3.0], lib.float64))
    return fn(lambda v: _first_and_second(lib, f, v))(lib.constant([0.5, -1.0, 2.0], lib.float64))


@case("control-second")
def complex_casts_gradient(lib, fn):
    def f(x):
        z = lib.cast(x, lib.complex64) * lib.constant(1.0 + 2.0j, lib.complex64)
        return lib.reduce_sum(lib.cast(z, lib.float32) + lib.math.real(z * z) + lib.math.imag(lib.math.conj(z) * 3.0))
    return _both(lib, fn, f, lib.constant([1.0, -2.0]))


@case("control-second")
def real_imag_of_real(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.math.real(x) * 2.0 + lib.math.imag(x) + lib.math.conj(x) * x)
    return _both(lib, fn, f, lib.constant([1.0, -2.0]))


@case("control-second")
def complex_division_and_abs(lib, fn):
    def f(z, w):
        q = z / w
        return lib.reduce_sum(lib.abs(q) + lib.math.real(q * lib.math.conj(w)) + lib.math.angle(z))
    return _both(lib, fn, f, lib.constant([1.0 + 2.0j, -0.5 + 0.0j], lib.complex64),
                 lib.constant([0.5 - 1.0j, 2.0 + 0.5j], lib.complex64))


@case("control-second")
def map_fn_second(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.map_fn(lambda r: lib.sin(r) * r, x))
    return fn(lambda v: _first_and_second(lib, f, v))(lib.constant([0.5, -1.0, 2.0]))


@case("control-second")
def scan_second(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.scan(lambda a, r: a * r + r * r, x, initializer=lib.constant(1.0)))
    return fn(lambda v: _first_and_second(lib, f, v))(lib.constant([0.5, -1.0, 2.0]))


@case("control-second")
def optimizer_none_gradient(lib, fn):
    v, unused = lib.Variable([1.0, 2.0]), lib.Variable(3.0)
    opt = lib.keras.optimizers.SGD(0.1)

    @fn
    def step(x):
        with lib.GradientTape() as t:
            loss = lib.reduce_sum(v * x)
        grads = t.gradient(loss, [v, unused])
        opt.apply_gradients([(g, var) for g, var in zip(grads, [v, unused]) if g is not None])
        return [grads[0], grads[1] is None, v.read_value()]
    return [step(lib.constant([1.0, 2.0])), step(lib.constant([0.5, 0.5]))]


# ---------------------------------------------------------------- extreme values, Variables read in other ways
_EXTREMES = {
    "log_softmax_neg_inf": lambda lib, x: lib.reduce_sum(lib.nn.log_softmax(x + lib.constant([-np.inf, 0.0, 0.0, 0.0]))
                                                        * lib.constant([0.0, 1.0, 2.0, 3.0])),
    "softmax_neg_inf": lambda lib, x: lib.reduce_sum(lib.nn.softmax(x + lib.constant([-np.inf, 0.0, 0.0, 0.0]))
                                                    * lib.constant([1.0, 1.0, 2.0, 3.0])),
    "softmax_huge": lambda lib, x: lib.reduce_sum(lib.nn.softmax(x * 1e4) * lib.constant([1.0, 2.0, 3.0, 4.0])),
    "reduce_max_nan": lambda lib, x: lib.reduce_max(x * lib.constant([1.0, np.nan, 1.0, 1.0])),
    "reduce_max_neg_inf_ties": lambda lib, x: lib.reduce_max(x * 0.0 - np.inf),
    "reduce_min_inf_mixed": lambda lib, x: lib.reduce_min(x + lib.constant([np.inf, 0.0, 0.0, np.inf])),
    "sigmoid_float16": lambda lib, x: lib.reduce_sum(lib.cast(lib.sigmoid(lib.cast(x * 20.0, lib.float16)), lib.float32)),
    "exp_overflow": lambda lib, x: lib.reduce_sum(lib.exp(x * 100.0)),
    "log1p_minus_one": lambda lib, x: lib.reduce_sum(lib.math.log1p(x - x[3] - 1.0)),
    "sqrt_tiny": lambda lib, x: lib.reduce_sum(lib.sqrt(x * 1e-30)),
    "pow_negative_base_int_exponent": lambda lib, x: lib.reduce_sum(lib.pow(-x, lib.constant([2.0, 3.0, 1.0, 0.0]))),
    "pow_negative_base_frac_exponent": lambda lib, x: lib.reduce_sum(lib.pow(-x, 0.5)),
    "l2_normalize_tiny": lambda lib, x: lib.reduce_sum(lib.math.l2_normalize(x * 1e-8) * lib.constant([1.0, 2.0, 3.0, 4.0])),
    "norm_tiny": lambda lib, x: lib.norm(x * 1e-25),
    "logsumexp_huge": lambda lib, x: lib.reduce_logsumexp(x * 1e5),
    "softplus_huge": lambda lib, x: lib.reduce_sum(lib.math.softplus(x * 1e3)),
    "tanh_huge_second": lambda lib, x: lib.reduce_sum(lib.tanh(x * 50.0)),
    "divide_tiny": lambda lib, x: lib.reduce_sum(lib.constant(1.0) / (x * 1e-20)),
}


def _extreme(name):
    def program(lib, fn):
        return fn(lambda v: _first_and_second(lib, lambda u: _EXTREMES[name](lib, u), v))(
            lib.constant([1.5, 0.5, 2.0, 0.25]))
    program.__name__ = f"extreme_{name}"
    return program


for _name in _EXTREMES:
    case("extremes")(_extreme(_name))


@case("variables2")
def variable_slice_and_identity(lib, fn):
    v = lib.Variable([[1.0, 2.0], [3.0, 4.0]])

    @fn
    def f(x):
        with lib.GradientTape() as t:
            y = lib.reduce_sum(v[0] * x) + lib.reduce_sum(lib.identity(v) ** 2) + v[1, 1] * 5.0
        return t.gradient(y, v)
    return f(lib.constant([1.0, 2.0]))


@case("variables2")
def variable_read_value_and_stop_gradient(lib, fn):
    v = lib.Variable(2.0)

    @fn
    def f(x):
        with lib.GradientTape(persistent=True) as t:
            r = v.read_value()
            y = r * x + lib.stop_gradient(v) * 10.0 + v.value() * 3.0
        return [t.gradient(y, v), t.gradient(y, r)]
    return f(lib.constant(1.5))


@case("variables2")
def assign_inside_tape_then_read(lib, fn):
    v = lib.Variable(1.0)

    @fn
    def f(x):
        with lib.GradientTape() as t:
            a = v * x
            v.assign(a * 2.0)
            b = v * v
        return [a, b, t.gradient(a + b, [v, x])]
    return f(lib.constant(3.0))


@case("variables2")
def variable_used_in_cond_predicate_and_branch(lib, fn):
    v = lib.Variable(2.0)

    @fn
    def f(x):
        with lib.GradientTape() as t:
            if v * x > 1.0:
                y = v * v * x
            else:
                y = x
        return t.gradient(y, v)
    return [f(lib.constant(1.0)), f(lib.constant(0.1))]


@case("variables2")
def two_tapes_different_variables(lib, fn):
    a, b = lib.Variable(1.5), lib.Variable(-0.5)

    @fn
    def f(x):
        with lib.GradientTape() as ta:
            with lib.GradientTape(watch_accessed_variables=False) as tb:
                tb.watch(b)
                y = a * b * x
            gb = tb.gradient(y, [a, b])
        return [gb, ta.gradient(gb[1], a)]
    return f(lib.constant(2.0))


@case("variables2")
def jacobian_wrt_variable(lib, fn):
    v = lib.Variable([1.0, 2.0, 3.0])

    @fn
    def f(x):
        with lib.GradientTape() as t:
            y = v * v * x
        return t.jacobian(y, v)
    return f(lib.constant(2.0))


@case("variables2")
def output_gradients_with_none_and_structure(lib, fn):
    def body(x):
        with lib.GradientTape(persistent=True) as t:
            t.watch(x)
            a, b = x * 2.0, x * x
        return [t.gradient([a, b], x, output_gradients=[lib.constant([1.0, 0.5]), None]),
                t.gradient({"a": a}, [x], output_gradients={"a": lib.constant([3.0, 4.0])})]
    return fn(body)(lib.constant([1.0, 2.0]))


# ---------------------------------------------------------------- empty tensors and empty selections
@case("empty")
def boolean_mask_all_false(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.boolean_mask(x, [False, False, False]) ** 2) + x[0] * 0.0
    return _both(lib, fn, f, lib.constant([1.0, 2.0, 3.0]))


@case("empty")
def reductions_over_empty(lib, fn):
    def f(x):
        e = x[:0]
        return lib.reduce_sum(e) + lib.reduce_prod(e) + lib.reduce_sum(lib.reduce_sum(lib.reshape(x, [3, 1])[:, :0], axis=1))
    return _both(lib, fn, f, lib.constant([1.0, 2.0, 3.0]))


@case("empty")
def gather_nothing(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.gather(x, lib.zeros([0], lib.int32))) + lib.reduce_sum(x) * 2.0
    return _both(lib, fn, f, lib.constant([1.0, 2.0, 3.0]))


@case("empty")
def segment_with_empty_segments(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.math.unsorted_segment_sum(x, [3, 3, 0], 5) * lib.constant([1.0, 2.0, 3.0, 4.0, 5.0]))
    return _both(lib, fn, f, lib.constant([1.0, 2.0, 3.0]))


@case("empty")
def concat_with_empty(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.concat([x[:0], x, x[3:]], axis=0) * lib.constant([1.0, 2.0, 3.0]))
    return _both(lib, fn, f, lib.constant([1.0, 2.0, 3.0]))


@case("empty")
def loop_over_empty_tensor(lib, fn):
    def f(x):
        y = x[0] * 1.0
        for row in x[:0]:
            y = y * row
        return y
    return _both(lib, fn, f, lib.constant([1.5, 2.0]))


@case("empty")
def top_k_ties_and_argmax_gather(lib, fn):
    def f(x):
        i = lib.argmax(x)
        return lib.reduce_sum(lib.math.top_k(x, 2).values * lib.constant([1.0, 10.0])) + lib.gather(x, i) * 100.0
    return _both(lib, fn, f, lib.constant([3.0, 1.0, 3.0, 3.0]))


@case("empty")
def sort_ties_descending(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.sort(x, direction="DESCENDING") * lib.constant([1.0, 2.0, 3.0, 4.0]))
    return _both(lib, fn, f, lib.constant([2.0, 1.0, 2.0, 2.0]))
