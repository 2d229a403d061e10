"""Cases for tools/grad_probe.py (ninth session, continued from grad_probe_cases_tape2.py): jacobians of
empty, scalar, integer and unconnected targets and of Variables read in loops, with experimental_use_pfor both
ways; custom_gradient with several outputs, nested, in branches and loops, with Variables in its grad_fn; third
derivatives with the tapes outside a traced function (through a While, a Cond in a While, a break, map_fn).

`@case(area)` on `program(lib, fn)`, as in grad_probe_cases.py. `case` is injected by tools/grad_probe.py."""
from grad_probe_common import _both, _third


# ---------------------------------------------------------------- jacobians
@case("jacobians")
def jacobian_empty_target(lib, fn):
    def body(x):
        with lib.GradientTape(persistent=True) as t:
            t.watch(x)
            y = x[:0] * 2.0
        return [t.jacobian(y, x), t.jacobian(y, x, unconnected_gradients="zero"),
                t.jacobian(y, x, experimental_use_pfor=False)]
    return fn(body)(lib.constant([1.0, 2.0]))


@case("jacobians")
def jacobian_empty_source(lib, fn):
    def body(x, z):
        with lib.GradientTape(persistent=True) as t:
            t.watch([x, z])
            y = x * 2.0 + lib.reduce_sum(z)
        return [t.jacobian(y, z), t.jacobian(y, [x, z])]
    return fn(body)(lib.constant([1.0, 2.0]), lib.zeros([0]))


@case("jacobians")
def jacobian_scalar_target(lib, fn):
    def body(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.reduce_sum(x * x)
        return t.jacobian(y, x)
    return fn(body)(lib.constant([[1.0, 2.0], [3.0, 4.0]]))


@case("jacobians")
def jacobian_wrt_variable_in_loop(lib, fn):
    v = lib.Variable([1.0, 2.0])

    def body(x):
        with lib.GradientTape() as t:
            y = x
            for i in lib.range(2):
                y = y * v + x
        return t.jacobian(y, v)
    return fn(body)(lib.constant([0.5, -1.0]))


@case("jacobians")
def jacobian_int_target(lib, fn):
    def body(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.cast(x * 2.0, lib.int32)
        return t.jacobian(y, x)
    return fn(body)(lib.constant([1.0, 2.0]))


@case("jacobians")
def jacobian_float64_and_complex_free(lib, fn):
    def body(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.sin(x) * x[::-1]
        return t.jacobian(y, x)
    return fn(body)(lib.constant([1.0, 2.0, 3.0], lib.float64))


@case("jacobians")
def jacobian_nested_tapes_hessian(lib, fn):
    def body(x):
        with lib.GradientTape() as t2:
            t2.watch(x)
            with lib.GradientTape() as t1:
                t1.watch(x)
                y = lib.reduce_sum(lib.sin(x) * x[::-1])
            g = t1.gradient(y, x)
        return [g, t2.jacobian(g, x)]
    return fn(body)(lib.constant([1.0, 2.0, 3.0]))


@case("jacobians")
def jacobian_through_cond_and_gather(lib, fn):
    def body(x):
        with lib.GradientTape() as t:
            t.watch(x)
            if lib.reduce_sum(x) > 0.0:
                y = lib.gather(x, [2, 0, 0]) * x
            else:
                y = x
        return t.jacobian(y, x)
    return [fn(body)(lib.constant(v)) for v in ([1.0, 2.0, 3.0], [-1.0, -2.0, 0.0])]


@case("jacobians")
def batch_jacobian_rows_mix(lib, fn):
    def body(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = x * lib.reduce_sum(x, axis=0, keepdims=True)
        return t.batch_jacobian(y, x)
    return fn(body)(lib.constant([[1.0, 2.0], [3.0, 4.0]]))


@case("jacobians")
def batch_jacobian_unconnected(lib, fn):
    def body(x, z):
        with lib.GradientTape(persistent=True) as t:
            t.watch([x, z])
            y = x * 2.0
        return [t.batch_jacobian(y, z), t.batch_jacobian(y, z, unconnected_gradients="zero")]
    return fn(body)(lib.constant([[1.0, 2.0], [3.0, 4.0]]), lib.constant([[1.0], [2.0]]))


@case("jacobians")
def batch_jacobian_3d(lib, fn):
    def body(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.matmul(x, x, transpose_b=True)
        return t.batch_jacobian(y, x)
    return fn(body)(lib.constant([[[1.0, 2.0], [3.0, 4.0]], [[0.5, -1.0], [2.0, 0.0]]]))


# ---------------------------------------------------------------- custom_gradient
@case("custom-gradient")
def custom_gradient_grad_returns_none_for_input(lib, fn):
    @lib.custom_gradient
    def f(x, y):
        def grad(dz):
            return dz * 7.0, None
        return x * y, grad

    def body(x, y):
        return f(x, y) * 2.0
    return _both(lib, fn, body, lib.constant(1.5), lib.constant(2.0))


@case("custom-gradient")
def custom_gradient_multiple_outputs_tuple(lib, fn):
    @lib.custom_gradient
    def f(x):
        def grad(da, db):
            return da * 2.0 + db * 3.0
        return (x * 1.0, x * x), grad

    def body(x):
        a, b = f(x)
        return a * b + b
    return _both(lib, fn, body, lib.constant(1.5))


@case("custom-gradient")
def custom_gradient_list_output(lib, fn):
    @lib.custom_gradient
    def f(x):
        def grad(da, db):
            return da + db * 100.0
        return [x * 2.0, x * 3.0], grad

    def body(x):
        a, b = f(x)
        return a + b * 0.0 + lib.reduce_sum(b)
    return _both(lib, fn, body, lib.constant([1.0, 2.0]))


@case("custom-gradient")
def custom_gradient_clip_in_loop_second_order_free(lib, fn):
    @lib.custom_gradient
    def clip(x):
        def grad(dy):
            return lib.clip_by_value(dy, -1.0, 1.0)
        return lib.identity(x), grad

    def body(x):
        y = x
        for i in lib.range(3):
            y = clip(y * x) + 1.0
        return y
    return _both(lib, fn, body, lib.constant(1.2))


@case("custom-gradient")
def custom_gradient_log1pexp(lib, fn):
    @lib.custom_gradient
    def log1pexp(x):
        e = lib.exp(x)

        def grad(upstream):
            return upstream * (1 - 1 / (1 + e))
        return lib.math.log(1 + e), grad

    def body(x):
        return log1pexp(x)
    return [_both(lib, fn, body, lib.constant([0.0, 100.0, -3.0]))]


@case("custom-gradient")
def custom_gradient_nested_custom(lib, fn):
    @lib.custom_gradient
    def inner(x):
        def grad(dy):
            return dy * 2.0
        return x * 1.0, grad

    @lib.custom_gradient
    def outer(x):
        y = inner(x) * 3.0

        def grad(dy):
            return dy * 5.0
        return y, grad

    def body(x):
        return outer(x) + inner(x)
    return _both(lib, fn, body, lib.constant(1.0))


@case("custom-gradient")
def custom_gradient_uses_variable_in_grad_only(lib, fn):
    v = lib.Variable(4.0)

    @lib.custom_gradient
    def f(x):
        def grad(dy):
            return dy * v
        return x * 2.0, grad

    def body(x):
        return f(x)
    staged = fn(body)
    x = lib.constant(1.5)
    with lib.GradientTape() as t:
        t.watch(x)
        y = staged(x)
    return [y, t.gradient(y, [x, v])]


@case("custom-gradient")
def custom_gradient_inside_cond_branch_one_side(lib, fn):
    @lib.custom_gradient
    def f(x):
        def grad(dy):
            return dy * 100.0
        return x * 1.0, grad

    def body(x):
        if x > 0.0:
            y = f(x) * x
        else:
            y = x * x
        return y
    return [_both(lib, fn, body, lib.constant(v)) for v in (2.0, -2.0)]


@case("custom-gradient")
def custom_gradient_persistent_two_calls(lib, fn):
    @lib.custom_gradient
    def f(x):
        def grad(dy):
            return dy * 3.0
        return x * 1.0, grad

    def body(x):
        with lib.GradientTape(persistent=True) as t:
            t.watch(x)
            y = f(x) * x
            z = f(y)
        return [t.gradient(y, x), t.gradient(z, x), t.gradient(z, y)]
    return fn(body)(lib.constant(2.0))


@case("custom-gradient")
def stop_gradient_partial_in_branches(lib, fn):
    def body(x, y):
        if lib.reduce_sum(x) > 0.0:
            z = lib.stop_gradient(x * y) + x * y
        else:
            z = x * lib.stop_gradient(y)
        return lib.reduce_sum(z * z)
    return [_both(lib, fn, body, lib.constant(v), lib.constant([0.5, 2.0])) for v in ([1.0, 2.0], [-1.0, -2.0])]


@case("custom-gradient")
def gradient_of_identity_n_and_tuple_return(lib, fn):
    def body(x):
        a, b = lib.identity_n([x, x * 2.0])
        return a * b
    return _both(lib, fn, body, lib.constant(1.5))


# ---------------------------------------------------------------- third derivatives, the tapes outside
@case("third-order")
def third_order_outside_function_loop(lib, fn):
    def f(x):
        y = x
        for i in lib.range(3):
            y = lib.sin(y) * x
        return y
    return _third(lib, fn(f), lib.constant(0.7))


@case("third-order")
def third_order_outside_function_cond_in_while(lib, fn):
    def f(x):
        y = x
        i = 0
        while i < 3:
            if y > 1.0:
                y = y * x
            else:
                y = y + x * x
            i += 1
        return y
    return [_third(lib, fn(f), lib.constant(v)) for v in (0.7, 1.3)]


@case("third-order")
def third_order_outside_function_while_break(lib, fn):
    def f(x):
        y = x
        while y < 10.0:
            y = y * x + 0.5
            if y > 5.0:
                break
        return y
    return [_third(lib, fn(f), lib.constant(v)) for v in (1.5, 3.0)]


@case("third-order")
def third_order_variable_in_loop(lib, fn):
    v = lib.Variable(1.2)

    def f(x):
        y = x
        for i in lib.range(2):
            y = y * v * x
        return y
    return _third(lib, fn(f), lib.constant(0.9))


@case("third-order")
def third_order_map_fn(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.map_fn(lambda r: r * r * r, x))
    return _third(lib, fn(f), lib.constant([0.5, -1.0]))


@case("third-order")
def mixed_tapes_inside_and_outside(lib, fn):
    x = lib.constant(0.8)

    def inner(x):
        with lib.GradientTape() as t1:
            t1.watch(x)
            y = x
            for i in lib.range(3):
                y = y * lib.tanh(x)
        return t1.gradient(y, x)
    staged = fn(inner)
    with lib.GradientTape() as t3:
        t3.watch(x)
        with lib.GradientTape() as t2:
            t2.watch(x)
            g = staged(x)
        h = t2.gradient(g, x)
    return [g, h, t3.gradient(h, x)]
