"""Cases for tools/grad_probe.py: `@case(area)` on `program(lib, fn)`, which returns what to compare
(tensors, Python values, None, nested lists). `fn` stages a function (identity in eager mode)."""
# `case` is injected by tools/grad_probe.py.
import numpy as np


def _grad(lib, f, *xs, persistent=False, unconnected="none"):
    """f(*xs) and its gradients w.r.t. xs, the tape outside f."""
    with lib.GradientTape(persistent=persistent) as tape:
        for x in xs:
            tape.watch(x)
        y = f(*xs)
    return [y, tape.gradient(y, list(xs), unconnected_gradients=unconnected)]


def _both(lib, fn, body, *args):
    """The gradient taken with the tape outside the staged `body`, and with the tape inside a staged one."""
    outside = _grad(lib, fn(body), *args)
    inside = fn(lambda *a: _grad(lib, body, *a))(*args)
    return [outside, inside]


# ---------------------------------------------------------------- control flow
@case("control")
def if_tensor(lib, fn):
    def f(x):
        if x > 0:
            y = x * x
        else:
            y = -3.0 * x
        return y
    return [_both(lib, fn, f, lib.constant(v)) for v in (2.0, -3.0)]


@case("control")
def if_only_one_branch_uses(lib, fn):
    def f(x, w):
        if x > 0:
            y = x * w
        else:
            y = x + 1.0
        return y
    return [_both(lib, fn, f, lib.constant(v), lib.constant(4.0)) for v in (2.0, -3.0)]


@case("control")
def nested_if_elif(lib, fn):
    def f(x):
        if x > 2:
            if x > 5:
                y = x ** 3
            else:
                y = x ** 2
        elif x > 0:
            y = lib.sin(x)
        else:
            y = lib.exp(x)
        return y
    return [_both(lib, fn, f, lib.constant(v)) for v in (6.0, 3.0, 1.0, -1.0)]


@case("control")
def while_tensor(lib, fn):
    def f(x):
        y = x
        while y < 100.0:
            y = y * x
        return y
    return [_both(lib, fn, f, lib.constant(v)) for v in (2.0, 3.5)]


@case("control")
def while_break(lib, fn):
    def f(x):
        y = lib.constant(1.0)
        i = 0
        while i < 10:
            y = y * x + 1.0
            if y > 50.0:
                break
            i += 1
        return y
    return [_both(lib, fn, f, lib.constant(v)) for v in (2.0, 1.1)]


@case("control")
def for_range_continue(lib, fn):
    def f(x):
        y = lib.constant(0.0)
        for i in lib.range(6):
            if i % 2 == 0:
                continue
            y = y + x ** lib.cast(i, lib.float32)
        return y
    return [_both(lib, fn, f, lib.constant(v)) for v in (1.5, -0.5)]


@case("control")
def for_range_return(lib, fn):
    def f(x):
        y = x
        for i in lib.range(10):
            y = y * 1.5 + x
            if y > 20.0:
                return y * 2.0
        return y
    return [_both(lib, fn, f, lib.constant(v)) for v in (1.0, 0.01)]


@case("control")
def for_over_tensor_rows(lib, fn):
    def f(x):
        s = lib.zeros([3])
        for row in x:
            if lib.reduce_sum(row) > 0:
                s = s + row * row
            else:
                s = s - row
        return lib.reduce_sum(s * lib.constant([1.0, 2.0, 3.0]))
    return _both(lib, fn, f, lib.constant([[1.0, 2.0, -0.5], [-3.0, 0.5, 1.0], [0.2, 0.2, 0.2]]))


@case("control")
def nested_loops(lib, fn):
    def f(x):
        acc = lib.constant(0.0)
        i = lib.constant(0)
        while i < 3:
            j = lib.constant(0)
            while j < i + 1:
                acc = acc + x * lib.cast(i * j + 1, lib.float32)
                j += 1
            i += 1
        return acc * x
    return _both(lib, fn, f, lib.constant(1.5))


@case("control")
def loop_carried_dtypes(lib, fn):
    def f(x):
        n = lib.constant(0, lib.int64)
        h = lib.constant(1.0, lib.float64)
        y = x
        flag = lib.constant(False)
        while n < 4:
            y = y * lib.cast(h, lib.float32) + x
            h = h * 0.5
            flag = lib.logical_not(flag)
            n += 1
        return y + lib.cast(flag, lib.float32)
    return _both(lib, fn, f, lib.constant(2.0))


@case("control")
def loop_var_unused_grad(lib, fn):
    def f(x, w):
        y = x
        i = 0
        while i < 3:
            y = y + x
            i += 1
        return y
    return _grad(lib, fn(f), lib.constant(1.0), lib.constant(2.0), unconnected="zero")


@case("control")
def while_loop_max_iter(lib, fn):
    def f(x):
        return lib.while_loop(lambda i, a: a < 1e6, lambda i, a: (i + 1, a * x), [0, x],
                              maximum_iterations=3)[1]
    return [_both(lib, fn, f, lib.constant(v)) for v in (2.0, 0.5)]


@case("control")
def while_loop_max_iter_tensor(lib, fn):
    def f(x, n):
        return lib.while_loop(lambda i, a: True, lambda i, a: (i + 1, a * x + i), [lib.constant(0.0), x],
                              maximum_iterations=n)[1]
    return _grad(lib, fn(f), lib.constant(1.5), lib.constant(4))


@case("control")
def cond_grad_nan_branch(lib, fn):
    def f(x):
        return lib.cond(x > 0, lambda: lib.sqrt(x), lambda: x * 0.0)
    return [_both(lib, fn, f, lib.constant(v)) for v in (4.0, -1.0, 0.0)]


@case("control")
def switch_case_grad(lib, fn):
    def f(k, x):
        return lib.switch_case(k, [lambda: x * 2.0, lambda: x * x, lambda: lib.sin(x)])
    return [_grad(lib, fn(f), lib.constant(k), lib.constant(1.5)) for k in (0, 1, 2, 7)]


@case("control")
def ternary_and_or(lib, fn):
    def f(x):
        y = x * 2.0 if (x > 0) and (x < 10) else x * x
        return y
    return [_both(lib, fn, f, lib.constant(v)) for v in (1.0, 11.0, -2.0)]


@case("control")
def cond_returns_different_structure_dtype(lib, fn):
    def f(x):
        if x > 1.0:
            y, k = x * x, lib.constant(1)
        else:
            y, k = x, lib.constant(2)
        return y * lib.cast(k, lib.float32)
    return [_both(lib, fn, f, lib.constant(v)) for v in (2.0, 0.5)]


@case("control")
def loop_grad_wrt_vector(lib, fn):
    def f(x):
        y = x
        for _ in lib.range(3):
            y = lib.tanh(y) * x + lib.reduce_sum(y)
        return lib.reduce_sum(y * lib.constant([1.0, -2.0, 0.5]))
    return _both(lib, fn, f, lib.constant([0.1, 0.2, -0.3]))


@case("control")
def loop_grows_shape(lib, fn):
    def f(x):
        y = x
        for i in lib.range(3):
            y = lib.concat([y, y * 2.0], 0)
        return lib.reduce_sum(y * y)
    return _grad(lib, fn(f), lib.constant([1.0, 2.0]))


# ---------------------------------------------------------------- tapes
@case("tape")
def persistent_twice(lib, fn):
    @fn
    def f(x):
        with lib.GradientTape(persistent=True) as t:
            t.watch(x)
            y = x * x
            z = y * x
        return [t.gradient(y, x), t.gradient(z, x), t.gradient(z, y)]
    return f(lib.constant(3.0))


@case("tape")
def watch_constant_inside(lib, fn):
    @fn
    def f(x):
        c = lib.constant(2.0)
        with lib.GradientTape() as t:
            t.watch(c)
            y = c * x + c * c
        return t.gradient(y, c)
    return f(lib.constant(5.0))


@case("tape")
def unconnected_in_function(lib, fn):
    @fn
    def f(x, z):
        with lib.GradientTape(persistent=True) as t:
            t.watch([x, z])
            y = x * 2.0
            w = lib.cast(z, lib.int32)
        return [t.gradient(y, [x, z]), t.gradient(y, [x, z], unconnected_gradients="zero"),
                t.gradient(w, z, unconnected_gradients=lib.UnconnectedGradients.ZERO)]
    return f(lib.constant(1.0), lib.constant([1.0, 2.0]))


@case("tape")
def stop_gradient_in_loop(lib, fn):
    def f(x):
        y = x
        for i in lib.range(3):
            y = lib.stop_gradient(y) * x + y
        return y
    return _both(lib, fn, f, lib.constant(2.0))


@case("tape")
def custom_gradient_in_cond(lib, fn):
    @lib.custom_gradient
    def clip_grad(x):
        def grad(dy):
            return lib.clip_by_value(dy, -0.5, 0.5)
        return x * 1.0, grad

    def f(x):
        if x > 0:
            y = clip_grad(x * 3.0) * 2.0
        else:
            y = x
        return y
    return [_both(lib, fn, f, lib.constant(v)) for v in (2.0, -1.0)]


@case("tape")
def custom_gradient_in_loop(lib, fn):
    @lib.custom_gradient
    def scaled(x):
        def grad(dy):
            return dy * 10.0
        return x + 0.0, grad

    def f(x):
        y = x
        i = 0
        while i < 2:
            y = scaled(y) * x
            i += 1
        return y
    return _both(lib, fn, f, lib.constant(1.5))


@case("tape")
def second_derivative_through_loop(lib, fn):
    def body(x):
        with lib.GradientTape() as t2:
            t2.watch(x)
            with lib.GradientTape() as t1:
                t1.watch(x)
                y = x
                for i in lib.range(3):
                    y = y * x
            g = t1.gradient(y, x)
        return [y, g, t2.gradient(g, x)]
    return [fn(body)(lib.constant(v)) for v in (1.5, -2.0)]


@case("tape")
def second_derivative_through_cond(lib, fn):
    def body(x):
        with lib.GradientTape() as t2:
            t2.watch(x)
            with lib.GradientTape() as t1:
                t1.watch(x)
                if x > 0:
                    y = x ** 3
                else:
                    y = lib.sin(x)
            g = t1.gradient(y, x)
        return [y, g, t2.gradient(g, x)]
    return [fn(body)(lib.constant(v)) for v in (1.5, -2.0)]


@case("tape")
def second_derivative_while_break(lib, fn):
    def body(x):
        with lib.GradientTape() as t2:
            t2.watch(x)
            with lib.GradientTape() as t1:
                t1.watch(x)
                y = x
                while y < 10.0:
                    y = y * x
                    if y > 5.0:
                        break
            g = t1.gradient(y, x)
        return [y, g, t2.gradient(g, x)]
    return [fn(body)(lib.constant(v)) for v in (1.5, 3.0)]


@case("tape")
def jacobian_simple(lib, fn):
    def body(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = x * x * lib.constant([1.0, 2.0, 3.0])
            y = lib.concat([y, [lib.reduce_sum(x)]], 0)
        return t.jacobian(y, x)
    return fn(body)(lib.constant([1.0, -1.0, 2.0]))


@case("tape")
def jacobian_through_loop(lib, fn):
    def body(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = x
            for i in lib.range(2):
                y = lib.sin(y) * x
        return t.jacobian(y, x)
    return fn(body)(lib.constant([0.5, 1.0]))


@case("tape")
def batch_jacobian_simple(lib, fn):
    def body(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.matmul(x, lib.constant([[1.0, 2.0], [3.0, -1.0]])) ** 2
        return t.batch_jacobian(y, x)
    return fn(body)(lib.constant([[1.0, 0.5], [-1.0, 2.0], [0.0, 1.0]]))


@case("tape")
def jacobian_unconnected(lib, fn):
    def body(x, z):
        with lib.GradientTape(persistent=True) as t:
            t.watch([x, z])
            y = x * 2.0
        return [t.jacobian(y, z), t.jacobian(y, z, unconnected_gradients="zero")]
    return fn(body)(lib.constant([1.0, 2.0]), lib.constant([3.0]))


@case("tape")
def int_and_bool_inputs(lib, fn):
    def f(x, n, b):
        y = x * lib.cast(n, lib.float32)
        if b:
            y = y * 2.0
        return y
    return _grad(lib, fn(f), lib.constant(1.5), lib.constant(3), lib.constant(True))


@case("tape")
def output_gradients_in_function(lib, fn):
    @fn
    def f(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = x * x
        return t.gradient(y, x, output_gradients=lib.constant([1.0, -2.0]))
    return f(lib.constant([3.0, 4.0]))


# ---------------------------------------------------------------- variables
@case("variables")
def variable_assign_in_branch(lib, fn):
    v = lib.Variable(2.0)
    w = lib.Variable(0.0)

    def f(x):
        if x > 0:
            w.assign_add(1.0)
            y = v * x
        else:
            w.assign_add(10.0)
            y = v * v
        return y
    staged = fn(f)
    with lib.GradientTape() as t:
        y1 = staged(lib.constant(3.0))
    g1 = t.gradient(y1, v)
    with lib.GradientTape() as t:
        y2 = staged(lib.constant(-3.0))
    g2 = t.gradient(y2, v)
    return [y1, g1, y2, g2, w.read_value()]


@case("variables")
def variable_assign_in_loop(lib, fn):
    v = lib.Variable(1.0)
    counter = lib.Variable(0)

    @fn
    def f(x):
        with lib.GradientTape() as t:
            y = lib.constant(0.0)
            for i in lib.range(3):
                y = y + v * x
                v.assign_add(1.0)
                counter.assign_add(1)
        return [y, t.gradient(y, v)]
    out = f(lib.constant(2.0))
    return [out, v.read_value(), counter.read_value()]


@case("variables")
def variable_read_after_assign_grad(lib, fn):
    v = lib.Variable(3.0)

    @fn
    def f(x):
        with lib.GradientTape() as t:
            a = v * x
            v.assign(v * 2.0)
            b = v * x
        return [a + b, t.gradient(a + b, v)]
    return [f(lib.constant(1.0)), v.read_value()]


@case("variables")
def variable_side_effect_branch_not_taken(lib, fn):
    v = lib.Variable([1.0, 2.0])

    @fn
    def f(x):
        if lib.reduce_sum(x) > 100.0:
            v.assign(x)
        elif lib.reduce_sum(x) > 0:
            v.assign_sub(x)
        return v.read_value()
    return [f(lib.constant([1.0, 1.0])), f(lib.constant([-5.0, 1.0])), v.read_value()]


@case("variables")
def variable_loop_break(lib, fn):
    v = lib.Variable(0.0)

    @fn
    def f(n):
        i = lib.constant(0)
        while i < n:
            if i == 3:
                break
            v.assign_add(lib.cast(i, lib.float32))
            i += 1
        return i
    return [f(lib.constant(10)), v.read_value(), f(lib.constant(2)), v.read_value()]


@case("variables")
def two_variables_in_loop_grad(lib, fn):
    a = lib.Variable(0.5)
    b = lib.Variable([1.0, 2.0])

    def f(x):
        y = x
        for i in lib.range(3):
            y = lib.tanh(y * a + b)
        return lib.reduce_sum(y)
    staged = fn(f)
    with lib.GradientTape() as t:
        y = staged(lib.constant([0.3, -0.3]))
    return [y, t.gradient(y, [a, b])]


# ---------------------------------------------------------------- higher-order functions
@case("higher-order")
def map_fn_grad(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.map_fn(lambda r: lib.reduce_prod(r) * r, x))
    return _both(lib, fn, f, lib.constant([[1.0, 2.0], [3.0, -1.0]]))


@case("higher-order")
def scan_grad(lib, fn):
    def f(x, c):
        out = lib.scan(lambda a, r: a * c + r * r, x, initializer=lib.constant(0.5))
        return lib.reduce_sum(out * lib.constant([1.0, 2.0, 3.0]))
    return _both(lib, fn, f, lib.constant([1.0, -2.0, 0.5]), lib.constant(0.9))


@case("higher-order")
def scan_reverse_tuple(lib, fn):
    def f(x):
        a, b = lib.scan(lambda acc, r: (acc[0] + r, acc[1] * r), x, initializer=(lib.constant(0.0), lib.constant(1.0)),
                        reverse=True)
        return lib.reduce_sum(a * b)
    return _both(lib, fn, f, lib.constant([1.0, -2.0, 0.5]))


@case("higher-order")
def foldl_grad(lib, fn):
    def f(x):
        return lib.foldl(lambda a, r: a * r + 1.0, x, initializer=lib.constant(1.0))
    return _both(lib, fn, f, lib.constant([1.0, -2.0, 0.5]))


@case("higher-order")
def map_fn_with_cond_inside(lib, fn):
    def g(r):
        return lib.cond(r > 0, lambda: r * r, lambda: -r)

    def f(x):
        return lib.reduce_sum(lib.map_fn(g, x))
    return _both(lib, fn, f, lib.constant([1.0, -2.0, 0.5]))


@case("higher-order")
def tensor_array_loop(lib, fn):
    def f(x):
        ta = lib.TensorArray(lib.float32, size=3)
        y = x
        for i in lib.range(3):
            y = y * x
            ta = ta.write(i, y)
        return lib.reduce_sum(ta.stack() * lib.constant([1.0, 0.5, 0.25]))
    return _both(lib, fn, f, lib.constant(1.2))


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


# ---------------------------------------------------------------- more: control flow
@case("control")
def cond_only_predicate_uses(lib, fn):
    def f(x, w):
        y = x
        while w * y < 10.0:
            y = y * 2.0
        return y
    return [_grad(lib, fn(f), lib.constant(1.0), lib.constant(0.5)),
            _grad(lib, fn(f), lib.constant(1.0), lib.constant(0.5), unconnected="zero")]


@case("control")
def for_tensor_break(lib, fn):
    def f(xs, w):
        acc = lib.constant(0.0)
        for x in xs:
            if x * w > 4.0:
                break
            acc = acc + x * w * w
        return acc
    return _both(lib, fn, f, lib.constant([1.0, 2.0, 3.0, 1.0]), lib.constant(1.5))


@case("control")
def while_cond_inside_assign(lib, fn):
    def f(x):
        y = x
        z = lib.constant(0.0)
        i = lib.constant(0)
        while i < 4:
            if i % 2 == 0:
                z = z + y
            else:
                y = y * x
            i += 1
        return y + z
    return _both(lib, fn, f, lib.constant(1.5))


@case("control")
def nested_while_loop_max_iter(lib, fn):
    def f(x):
        def outer(i, a):
            inner = lib.while_loop(lambda j, b: b < 100.0, lambda j, b: (j + 1, b * x), [0, a], maximum_iterations=2)
            return i + 1, inner[1] + 1.0
        return lib.while_loop(lambda i, a: i < 3, outer, [0, x])[1]
    return [_both(lib, fn, f, lib.constant(v)) for v in (1.5, 3.0)]


@case("control")
def gradient_per_iteration(lib, fn):
    @fn
    def f(x):
        total = lib.constant(0.0)
        for i in lib.range(3):
            with lib.GradientTape() as t:
                t.watch(x)
                y = x ** lib.cast(i + 1, lib.float32)
            total = total + t.gradient(y, x)
        return total
    return f(lib.constant(2.0))


@case("control")
def loop_over_python_list_tensors(lib, fn):
    def f(a, b):
        y = a
        for t in [a, b, a * b]:
            if lib.reduce_sum(t) > 0:
                y = y + t * t
        return lib.reduce_sum(y)
    return _both(lib, fn, f, lib.constant([1.0, -2.0]), lib.constant([0.5, 0.5]))


@case("control")
def python_loop_tensor_if_return(lib, fn):
    def f(x):
        for k in range(4):
            if x > float(k):
                return x * float(k + 1)
        return -x
    return [_both(lib, fn, f, lib.constant(v)) for v in (0.5, 2.5, -1.0)]


@case("control")
def while_else(lib, fn):
    def f(x):
        y = x
        while y < 5.0:
            y = y * 2.0
            if y > 100.0:
                break
        else:
            y = y + 1000.0 * x
        return y
    return [_both(lib, fn, f, lib.constant(v)) for v in (1.0, 60.0)]


@case("control")
def second_derivative_while_loop_max_iter(lib, fn):
    def body(x):
        with lib.GradientTape() as t2:
            t2.watch(x)
            with lib.GradientTape() as t1:
                t1.watch(x)
                y = lib.while_loop(lambda a: a < 1000.0, lambda a: (a * x,), [x], maximum_iterations=3)[0]
            g = t1.gradient(y, x)
        return [y, g, t2.gradient(g, x)]
    return [fn(body)(lib.constant(v)) for v in (2.0, 20.0)]


@case("control")
def batch_jacobian_loop(lib, fn):
    def body(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = x
            for i in lib.range(2):
                y = lib.tanh(y * lib.reduce_sum(x, axis=1, keepdims=True))
        return t.batch_jacobian(y, x)
    return fn(body)(lib.constant([[0.1, 0.2], [0.3, -0.4], [0.5, 0.0]]))


# ---------------------------------------------------------------- more: tapes and variables
@case("tape")
def custom_gradient_variables(lib, fn):
    v = lib.Variable(2.0)

    @lib.custom_gradient
    def f(x):
        y = x * v

        def grad(dy, variables=None):
            return dy * 3.0, [dy * 5.0 for _ in variables]
        return y, grad

    @fn
    def run(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = f(x)
        return t.gradient(y, [x, v])
    return run(lib.constant(1.0))


@case("tape")
def custom_gradient_two_inputs_none(lib, fn):
    @lib.custom_gradient
    def f(x, y):
        def grad(dy):
            return dy * y, None
        return x * y, grad

    def g(x, y):
        return f(x, y) * 2.0
    return _both(lib, fn, g, lib.constant(3.0), lib.constant(4.0))


@case("tape")
def persistent_tape_loop_two_targets(lib, fn):
    @fn
    def f(x):
        with lib.GradientTape(persistent=True) as t:
            t.watch(x)
            a = x
            b = x
            i = lib.constant(0)
            while i < 3:
                a = a * x
                b = b + a
                i += 1
        return [t.gradient(a, x), t.gradient(b, x), t.gradient([a, b], x), t.gradient(b, a)]
    return f(lib.constant(1.5))


@case("tape")
def watch_intermediate(lib, fn):
    @fn
    def f(x):
        with lib.GradientTape() as t:
            y = x * 2.0
            t.watch(y)
            z = y * y + x
        return t.gradient(z, [x, y])
    return f(lib.constant(3.0))


@case("tape")
def stop_recording(lib, fn):
    @fn
    def f(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = x * x
            with t.stop_recording():
                z = y * 3.0
            w = y + z
        return t.gradient(w, x)
    return f(lib.constant(3.0))


@case("tape")
def tape_reset(lib, fn):
    @fn
    def f(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = x * x
            t.reset()
            t.watch(x)
            z = x * 5.0
        return t.gradient(y + z, x)
    return f(lib.constant(3.0))


@case("variables")
def variable_assign_in_cond_gradient(lib, fn):
    v = lib.Variable(2.0)

    @fn
    def f(x):
        with lib.GradientTape() as t:
            if x > 0:
                v.assign(v * x)
                y = v * 3.0
            else:
                y = v * v
        return [y, t.gradient(y, [v, x])]
    return [f(lib.constant(2.0)), v.read_value(), f(lib.constant(-1.0)), v.read_value()]


@case("variables")
def variable_in_while_predicate(lib, fn):
    v = lib.Variable(1.0)

    @fn
    def f(x):
        i = lib.constant(0)
        while v < x:
            v.assign(v * 2.0)
            i += 1
        return i
    return [f(lib.constant(10.0)), v.read_value(), f(lib.constant(3.0)), v.read_value()]


@case("variables")
def variable_grad_loop_assign_sub(lib, fn):
    w = lib.Variable([1.0, -1.0])

    @fn
    def train(x):
        for _ in lib.range(3):
            with lib.GradientTape() as t:
                loss = lib.reduce_sum((w * x - 1.0) ** 2)
            w.assign_sub(0.1 * t.gradient(loss, w))
        return loss
    return [train(lib.constant([2.0, 3.0])), w.read_value()]


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


# ---------------------------------------------------------------- more variables
@case("variables")
def assign_then_read_under_outer_tape(lib, fn):
    v = lib.Variable(3.0)

    @fn
    def f(x):
        a = v * x
        v.assign(v * 2.0 + x)
        return a + v * x
    with lib.GradientTape() as t:
        x = lib.constant(1.5)
        t.watch(x)
        y = f(x)
    return [y, t.gradient(y, [x, v]), v.read_value()]


@case("variables")
def assign_add_from_source_in_loop(lib, fn):
    v = lib.Variable(1.0)

    @fn
    def f(x):
        y = lib.constant(0.0)
        for i in lib.range(3):
            v.assign_add(x)
            y = y + v * x
        return y
    with lib.GradientTape() as t:
        x = lib.constant(2.0)
        t.watch(x)
        y = f(x)
    return [y, t.gradient(y, [x, v]), v.read_value()]


@case("variables")
def gather_from_variable(lib, fn):
    v = lib.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])

    @fn
    def f(i):
        with lib.GradientTape() as t:
            y = lib.reduce_sum(lib.gather(v, i) * lib.constant([[1.0, 2.0]]))
        return lib.convert_to_tensor(t.gradient(y, v))
    return f(lib.constant([2, 0, 2]))


@case("variables")
def variable_in_cond_in_loop_grad(lib, fn):
    w = lib.Variable(0.5)

    def f(x):
        y = x
        for i in lib.range(4):
            if y > 1.0:
                y = y * w
            else:
                y = y + w * x
        return y
    staged = fn(f)
    with lib.GradientTape() as t:
        x = lib.constant(0.8)
        t.watch(x)
        y = staged(x)
    return [y, t.gradient(y, [x, w])]


@case("variables")
def optimizer_step_in_function_with_cond(lib, fn):
    w = lib.Variable([1.0, -2.0])
    opt = lib.keras.optimizers.SGD(0.1, momentum=0.5)

    @fn
    def step(x):
        with lib.GradientTape() as t:
            p = lib.reduce_sum(w * x)
            loss = p * p if p > 0 else -p
        opt.apply_gradients([(t.gradient(loss, w), w)])
        return loss
    return [[step(lib.constant([1.0, 0.5])) for _ in range(3)], w.read_value()]


# ---------------------------------------------------------------- more higher-order
@case("higher-order")
def scan_grad_initializer(lib, fn):
    def f(x, c0):
        out = lib.scan(lambda a, r: lib.tanh(a * r + c0), x, initializer=c0, reverse=True)
        return lib.reduce_sum(out * lib.constant([1.0, 2.0, 3.0]))
    return _both(lib, fn, f, lib.constant([0.5, -1.0, 2.0]), lib.constant(0.3))


@case("higher-order")
def map_fn_int_output(lib, fn):
    def f(x):
        idx, val = lib.map_fn(lambda r: (lib.argmax(r, output_type=lib.int32), lib.reduce_max(r) * 2.0), x,
                              fn_output_signature=(lib.int32, lib.float32))
        return lib.reduce_sum(val * lib.cast(idx + 1, lib.float32))
    return _both(lib, fn, f, lib.constant([[1.0, 3.0], [4.0, -1.0], [0.5, 0.6]]))


@case("higher-order")
def tensor_array_dynamic_gather(lib, fn):
    def f(x):
        ta = lib.TensorArray(lib.float32, size=0, dynamic_size=True)
        y = x
        i = lib.constant(0)
        while lib.reduce_sum(y) < 20.0:
            y = y * 1.5 + 1.0
            ta = ta.write(i, y)
            i += 1
        g = ta.gather([0, i - 1])
        return lib.reduce_sum(g * lib.constant([[1.0, 2.0], [3.0, 4.0]])) + lib.reduce_sum(ta.stack())
    return _both(lib, fn, f, lib.constant([1.0, 2.0]))


@case("higher-order")
def tensor_array_unstack_read(lib, fn):
    def f(x):
        ta = lib.TensorArray(lib.float32, size=3).unstack(x)
        acc = lib.zeros([2])
        for i in lib.range(3):
            acc = acc * ta.read(i) + ta.read(2 - i)
        return lib.reduce_sum(acc * acc)
    return _both(lib, fn, f, lib.constant([[1.0, 2.0], [0.5, -1.0], [2.0, 0.1]]))


@case("higher-order")
def while_loop_shape_invariant_grad(lib, fn):
    def f(x):
        def body(i, acc):
            return i + 1, lib.concat([acc, acc[-1:] * x], 0)
        _, out = lib.while_loop(lambda i, acc: i < 3, body, [lib.constant(0), lib.reshape(x, [1])],
                                shape_invariants=[lib.TensorShape([]), lib.TensorShape([None])])
        return lib.reduce_sum(out * out)
    return _both(lib, fn, f, lib.constant(1.5))


@case("higher-order")
def python_list_append_in_loop(lib, fn):
    def f(x):
        ys = []
        y = x
        for i in lib.range(3):
            y = y * x
            ys.append(y)
        return lib.reduce_sum(lib.stack(ys) * lib.constant([1.0, 2.0, 3.0]))
    return _both(lib, fn, f, lib.constant(1.3))


@case("higher-order")
def jacobian_of_map_fn(lib, fn):
    def body(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.map_fn(lambda r: r * r * lib.reduce_sum(x), x)
        return t.jacobian(y, x)
    return fn(body)(lib.constant([1.0, 2.0, -1.0]))


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


# ---------------------------------------------------------------- more tape rules
@case("tape")
def same_source_twice_and_target_is_source(lib, fn):
    @fn
    def f(x):
        with lib.GradientTape(persistent=True) as t:
            t.watch(x)
            y = x * x
        return [t.gradient(y, [x, x]), t.gradient(x, x), t.gradient([y, x], x), t.gradient(y * 0.0, x)]
    return f(lib.constant(3.0))


@case("tape")
def variable_target(lib, fn):
    v = lib.Variable(2.0)

    @fn
    def f():
        with lib.GradientTape() as t:
            y = v * 3.0
        return t.gradient([y, v], v)
    return f()


@case("tape")
def output_gradients_partial(lib, fn):
    @fn
    def f(x):
        with lib.GradientTape() as t:
            t.watch(x)
            a, b = x * 2.0, x * x
        return t.gradient([a, b], x, output_gradients=[lib.constant([1.0, 0.5]), lib.constant([2.0, -1.0])])
    return f(lib.constant([1.0, 3.0]))


@case("tape")
def nested_functions_tape_between(lib, fn):
    @fn
    def inner(x):
        y = x
        for _ in lib.range(2):
            y = lib.sin(y) * x
        return y

    @fn
    def outer(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = inner(x) * inner(x * 2.0)
        return [y, t.gradient(y, x)]
    return outer(lib.constant(0.7))


@case("tape")
def gradient_of_gradient_wrt_other(lib, fn):
    @fn
    def f(x, w):
        with lib.GradientTape() as t2:
            t2.watch(w)
            with lib.GradientTape() as t1:
                t1.watch(x)
                y = lib.reduce_sum(lib.tanh(x * w) * x)
            g = t1.gradient(y, x)
            s = lib.reduce_sum(g * g)
        return [g, t2.gradient(s, w)]
    return f(lib.constant([0.5, -1.0]), lib.constant([2.0, 0.3]))
