"""Cases for tools/grad_probe.py (fourteenth session), areas round14-values and round14-loops2: values and
gradients of the less used ops (`vectorized_map`, `meshgrid`, `saturate_cast`, `swish`, the segment reductions'
second derivatives, `is_inf`, `unique`, `py_function`, `numpy_function`, `clip_by_norm` at 0,
`clip_by_global_norm` of an inf, `range` and `linspace` edges, `one_hot` edges, int8 wrap-around, NaN in
reductions) and more gradients through staged loops (float counters, float16 and int64 state, a Python list
carried, nested functions, Variables assigned in the loop, a cond with an int output).

Left out on purpose, with TensorFlow 2.21's own answer in question: `saturate_cast` of int64 to float32 (it wraps
every value to -2**63, docs/runtime.md), `sort` of NaN (its kernel's order), and the gradient of a TensorArray
gathered twice at one index inside `tf.function` (its traced gradient keeps one of the two: 11 where eager
TensorFlow and the runtime give 15).

Run alone with `PYTHONPATH=. /tmp/allv/bin/python tools/grad_probe.py -k round14`. `case` is injected by
tools/grad_probe.py."""
import numpy as np
from grad_probe_common import _first_and_second, _grad, _third


def _x(lib, v=(0.5, -1.5, 2.0)):
    return lib.constant(np.array(v, np.float32))


@case("round14-values")
def vectorized_map_grad(lib, fn):
    @fn
    def g(x):
        return _grad(lib, lambda a: lib.vectorized_map(lambda r: lib.reduce_sum(r * r) * r, a), x)
    return g(lib.constant([[1.0, 2.0], [3.0, -1.0]]))


@case("round14-values")
def vectorized_map_second(lib, fn):
    return _first_and_second(lib, lambda a: lib.vectorized_map(lambda r: lib.sin(r) * r[0], a),
                             lib.constant([[1.0, 2.0], [3.0, -1.0]]))


@case("round14-values")
def meshgrid_grads(lib, fn):
    @fn
    def g(x, y):
        return _grad(lib, lambda a, b: [m * 2.0 for m in lib.meshgrid(a, b)] + [m * 3.0 for m in lib.meshgrid(a, b, indexing="ij")], x, y)
    return g(_x(lib), lib.constant([1.0, 2.0]))


@case("round14-values")
def saturate_cast_values(lib, fn):
    x = lib.constant(np.array([np.nan, np.inf, -np.inf, -3.5, 300.7, 255.5, -0.0, 1e10, 127.9], np.float32))
    return fn(lambda a: [lib.saturate_cast(a, lib.uint8), lib.saturate_cast(a, lib.int8), lib.saturate_cast(a, lib.int32),
                         lib.saturate_cast(a, lib.float16), lib.saturate_cast(a * 1e30, lib.float16)])(x)


@case("round14-values")
def saturate_cast_ints(lib, fn):
    x = lib.constant(np.array([-300, -1, 0, 200, 70000, 2**31 - 1], np.int64))
    return fn(lambda a: [lib.saturate_cast(a, lib.uint8), lib.saturate_cast(a, lib.int8), lib.saturate_cast(a, lib.int16),
                         lib.saturate_cast(a, lib.uint16)])(x)


@case("round14-values")
def saturate_cast_grad(lib, fn):
    @fn
    def g(x):
        return _grad(lib, lambda a: lib.saturate_cast(a, lib.float16) * 2.0, x)
    return g(_x(lib))


@case("round14-values")
def swish_grads(lib, fn):
    return _first_and_second(lib, lambda a: lib.nn.swish(a), _x(lib, (0.0, -100.0, 100.0, 1.0, -1.0)))


@case("round14-values")
def segment_mean_min_grads(lib, fn):
    @fn
    def g(x):
        return _grad(lib, lambda a: [lib.math.segment_mean(a, [0, 0, 2]), lib.math.segment_min(a, [0, 0, 1])], x)
    return g(lib.constant([[1.0, 2.0], [1.0, 0.0], [5.0, 6.0]]))


@case("round14-values")
def segment_prod_second(lib, fn):
    return _first_and_second(lib, lambda a: lib.math.segment_prod(a, [0, 1, 1]),
                             lib.constant([[-2.0, -1.0], [0.0, 1.0], [2.0, 3.0]]))


@case("round14-values")
def reduce_prod_second_at_zero(lib, fn):
    return [_first_and_second(lib, lambda a: lib.reduce_prod(a, axis=0), lib.constant([[-2.0, -1.0], [0.0, 1.0], [2.0, 3.0]])),
            _first_and_second(lib, lambda a: lib.reduce_prod(a), lib.constant([0.0, 0.0, 3.0]))]


@case("round14-values")
def is_inf_values(lib, fn):
    x = lib.constant(np.array([np.nan, np.inf, -np.inf, 0.0, 1e38 * 10], np.float32))
    return fn(lambda a: [lib.math.is_inf(a), lib.math.is_nan(a), lib.math.is_finite(a)])(x)


@case("round14-values")
def unique_values(lib, fn):
    x = lib.constant(np.array([3, 1, 3, 2, 1], np.int32))
    return fn(lambda a: list(lib.unique(a)))(x)


@case("round14-values", modes=("eager",))
def py_function_gradient(lib, fn):
    x = _x(lib)
    with lib.GradientTape() as t:
        t.watch(x)
        y = lib.py_function(lambda a: a * a * 3.0, [x], lib.float32)
    return y, t.gradient(y, x)


@case("round14-values", modes=("eager", "function"))
def numpy_function_gradient_is_none(lib, fn):
    @fn
    def g(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.numpy_function(lambda a: a * 2.0, [x], lib.float32) + x
        return t.gradient(y, x)
    return g(_x(lib))


@case("round14-values")
def logical_xor_or(lib, fn):
    a = lib.constant([True, False, True, False])
    b = lib.constant([True, True, False, False])
    return fn(lambda p, q: [lib.math.logical_xor(p, q), lib.logical_or(p, q)])(a, b)


@case("round14-values")
def comparisons_nan(lib, fn):
    x = lib.constant(np.array([np.nan, 1.0, np.inf, -0.0], np.float32))
    y = lib.constant(np.array([np.nan, np.nan, np.inf, 0.0], np.float32))
    return fn(lambda a, b: [lib.greater(a, b), lib.greater_equal(a, b), lib.less(a, b), lib.less_equal(a, b),
                            lib.equal(a, b), lib.not_equal(a, b)])(x, y)


@case("round14-values")
def rank_of_things(lib, fn):
    return fn(lambda a: [lib.rank(a), lib.rank(a[0]), lib.size(a), lib.shape(a)])(lib.zeros([2, 0, 3]))


@case("round14-loops2")
def gradient_of_a_list_built_by_a_python_loop_and_stacked(lib, fn):
    @fn
    def g(x):
        with lib.GradientTape() as t:
            t.watch(x)
            out = []
            for i in range(3):
                out.append(x[i] * float(i))
            y = lib.stack(out)
        return t.gradient(y, x)
    return g(_x(lib))


@case("round14-loops2")
def tape_watch_variable_slice_none(lib, fn):
    v = lib.Variable([1.0, 2.0])

    @fn
    def g():
        with lib.GradientTape(persistent=True) as t:
            y = v * v
            s = v[0]
        return [t.gradient(y, v), t.gradient(y, s)]
    return g()


@case("round14-loops2")
def float_counter_loop_grad(lib, fn):
    @fn
    def g(x):
        with lib.GradientTape() as t:
            t.watch(x)
            c = x
            s = lib.constant(0.0)
            while c < 5.0:
                s = s + c * c
                c = c + 1.5
        return s, t.gradient(s, x)
    return g(lib.constant(0.5))


@case("round14-loops2")
def cond_returns_variable_vs_tensor(lib, fn):
    v = lib.Variable(3.0)

    @fn
    def g(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.cond(x > 0.0, lambda: v * x, lambda: v.read_value())
        return t.gradient(y, [x, v])
    return [g(lib.constant(2.0)), g(lib.constant(-2.0))]


@case("round14-loops2")
def gradient_float16_loop_dtype(lib, fn):
    @fn
    def g(x):
        with lib.GradientTape() as t:
            t.watch(x)
            s = x
            for i in lib.range(3):
                s = s * x + lib.cast(i, lib.float16)
        return s, t.gradient(s, x)
    return g(lib.constant(np.float16(1.25)))


@case("round14-loops2")
def gradient_wrt_int_loop_counter_source(lib, fn):
    @fn
    def g(n, x):
        with lib.GradientTape() as t:
            t.watch([n, x])
            s = x
            i = n
            while i < 5:
                s = s * 2.0
                i += 1
        return t.gradient(s, [n, x])
    return g(lib.constant(2), lib.constant(1.0))


@case("round14-values")
def clip_by_norm_at_zero(lib, fn):
    @fn
    def g(x):
        return [_grad(lib, lambda a: lib.clip_by_norm(a, 1.0), x), _grad(lib, lambda a: lib.clip_by_norm(a, 1.0, axes=[1]), x)]
    return g(lib.constant([[0.0, 0.0], [3.0, 4.0]]))


@case("round14-values")
def clip_by_global_norm_inf(lib, fn):
    @fn
    def g(x, y):
        return lib.clip_by_global_norm([x, y], 1.0)
    return g(lib.constant([np.inf, 1.0]), lib.constant([2.0]))


@case("round14-values")
def range_float_lengths(lib, fn):
    return fn(lambda: [lib.range(0.1, 1.0, 0.3), lib.range(1.0, 0.0, -0.25), lib.range(0.0, 0.0), lib.range(5, 1, -2),
                       lib.range(3.0), lib.range(0, 10, 3, dtype=lib.float64), lib.range(2, dtype=lib.int64)])()


@case("round14-values")
def one_hot_edges(lib, fn):
    return fn(lambda i: [lib.one_hot(i, 3), lib.one_hot(i, 3, on_value=5, off_value=-1), lib.one_hot(i, 3, axis=0),
                         lib.one_hot(i, 0), lib.one_hot(i, 2, dtype=lib.float64)])(lib.constant([0, -1, 2, 3]))


@case("round14-values")
def int_overflow_edges(lib, fn):
    a = lib.constant(np.array([-128, 127, 0, -1], np.int8))
    return fn(lambda x: [lib.abs(x), -x, x + x, x * x, lib.math.cumsum(x), lib.reduce_sum(x), lib.reduce_mean(x),
                         x // lib.constant(np.int8(-3)), x % lib.constant(np.int8(-3)), lib.math.reduce_prod(x)])(a)


@case("round14-values")
def float_cast_edges(lib, fn):
    # no subnormal: TensorFlow flushes them to 0 (docs/runtime.md)
    a = lib.constant(np.array([-0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 1e-30, 65519.0, 65520.0], np.float32))
    return fn(lambda x: [lib.cast(x, lib.int32), lib.cast(x, lib.float16), lib.round(x), lib.math.rint(x),
                         lib.cast(x, lib.bool), lib.cast(lib.cast(x, lib.bool), lib.float32), lib.floor(x), lib.math.ceil(x)])(a)


@case("round14-values")
def mod_and_floordiv_edges(lib, fn):
    x = lib.constant(np.array([-0.0, 5.0, -5.0, np.inf, 5.0, -5.0, 0.0, 7.5], np.float32))
    y = lib.constant(np.array([1.0, np.inf, np.inf, 2.0, -np.inf, -np.inf, -3.0, -2.0], np.float32))
    return fn(lambda a, b: [a % b, a // b])(x, y)


@case("round14-values")
def linspace_edges(lib, fn):
    return fn(lambda: [lib.linspace(0.0, 1.0, 1), lib.linspace(0.0, 1.0, 0), lib.linspace(1.0, -1.0, 5),
                       lib.linspace(lib.constant([0.0, 1.0]), lib.constant([1.0, 3.0]), 3),
                       lib.linspace(lib.constant([0.0, 1.0]), lib.constant([1.0, 3.0]), 3, axis=1)])()


@case("round14-values")
def linspace_grad(lib, fn):
    @fn
    def g(a, b):
        return _grad(lib, lambda s, e: lib.linspace(s, e, 4) * lib.constant([1.0, 2.0, 3.0, 4.0]), a, b)
    return g(lib.constant(1.0), lib.constant(3.0))


@case("round14-values")
def bincount_edges(lib, fn):
    return fn(lambda x, w: [lib.math.bincount(x), lib.math.bincount(x, minlength=7), lib.math.bincount(x, maxlength=2),
                            lib.math.bincount(x, weights=w), lib.math.bincount(lib.zeros([0], lib.int32))])(
        lib.constant([1, 1, 3, 0]), lib.constant([0.5, 1.0, 2.0, 3.0]))


@case("round14-values")
def reduce_ops_nan(lib, fn):
    x = lib.constant(np.array([[np.nan, 1.0], [2.0, 3.0]], np.float32))
    return fn(lambda a: [lib.reduce_max(a, axis=0), lib.reduce_min(a, axis=1), lib.reduce_logsumexp(a, axis=0),
                         lib.maximum(a, 1.0), lib.minimum(a, 1.0), lib.math.cumprod(a, axis=0), lib.math.reduce_std(a, axis=0)])(x)


@case("round14-loops2")
def second_order_while_break_tape_outside(lib, fn):
    @fn
    def g(x):
        s = x
        i = lib.constant(0)
        while i < 5:
            s = s * lib.cos(s) + x
            if s > 2.0:
                break
            i += 1
        return s
    return _third(lib, g, lib.constant(0.3))


@case("round14-loops2")
def loop_carrying_python_list_grad(lib, fn):
    @fn
    def g(x):
        vals = [x, x * 2.0]
        for i in lib.range(3):
            vals = [vals[1], vals[0] * vals[1]]
        return vals[0] + vals[1]
    return _first_and_second(lib, g, lib.constant(0.9))


@case("round14-loops2")
def for_over_tensor_with_else_like_flag(lib, fn):
    @fn
    def g(x):
        found = lib.constant(False)
        acc = lib.constant(1.0)
        for r in x:
            if not found and r < 0.0:
                found = lib.constant(True)
                acc = acc * r * r
            else:
                acc = acc + r
        return acc
    return _first_and_second(lib, g, _x(lib, (0.5, -1.5, 2.0, -3.0)))


@case("round14-loops2")
def nested_tf_function_in_loop(lib, fn):
    @fn
    def inner(a, k):
        return lib.sin(a) * k

    @fn
    def g(x):
        s = x
        for i in lib.range(3):
            s = inner(s, lib.cast(i, lib.float32) + 1.0)
        return s
    return _first_and_second(lib, g, _x(lib))


@case("round14-loops2")
def while_loop_with_variable_assign_and_gradient(lib, fn):
    v = lib.Variable(1.0)

    @fn
    def g(x):
        v.assign(1.0)
        with lib.GradientTape() as t:
            t.watch(x)
            s = x
            for i in lib.range(3):
                v.assign_add(s)
                s = s * v
        return s, t.gradient(s, [x, v])
    return g(lib.constant(0.5))


@case("round14-loops2")
def gradient_through_reshape_minus_one_in_loop(lib, fn):
    @fn
    def g(x):
        s = x
        for i in lib.range(2):
            s = lib.reshape(lib.transpose(lib.reshape(s, [2, -1])), [-1]) * 1.5
        return s
    return _first_and_second(lib, g, lib.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))


@case("round14-loops2")
def tape_gradient_of_cond_with_int_branch_output(lib, fn):
    @fn
    def g(x):
        with lib.GradientTape() as t:
            t.watch(x)
            if x > 0.0:
                y, n = x * x, 1
            else:
                y, n = x, 2
            z = y * lib.cast(n, lib.float32)
        return t.gradient(z, x)
    return [g(lib.constant(2.0)), g(lib.constant(-2.0))]


@case("round14-loops2")
def gradient_unconnected_through_loop_zero_dtype(lib, fn):
    @fn
    def g(x, y):
        with lib.GradientTape() as t:
            t.watch([x, y])
            s = x
            for i in lib.range(2):
                s = s * 2.0
        return t.gradient(s, [x, y], unconnected_gradients="zero")
    return g(lib.constant(1.0), lib.constant(np.array([1.0, 2.0], np.float64)))
