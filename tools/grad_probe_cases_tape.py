"""Cases for tools/grad_probe.py: GradientTape rules and Variables.

`@case(area)` on `program(lib, fn)`, which returns what to compare (tensors, Python values, None, nested
lists); `fn` stages a function (identity in eager mode). `case` is injected by tools/grad_probe.py."""
import numpy as np

from grad_probe_common import _both, _grad  # noqa: F401 - not every file uses both


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
