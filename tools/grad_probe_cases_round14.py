"""Cases for tools/grad_probe.py (fourteenth session), areas round14-loops, round14-tape and round14-kinks:
gradients through the loops and branches autograph stages (`while` with `break` on a tensor, `for` over a
tensor's rows with an early `return`, nested loops, TensorArrays carried and read twice, a `switch_case`), first,
second and third derivatives with the tapes inside and outside the function, GradientTape's features through
staged code (`watch_accessed_variables=False`, `stop_recording`, `jacobian`/`batch_jacobian`,
`unconnected_gradients`, Variables read in a staged branch only, a `custom_gradient` in a loop and one whose
grad_fn loops, gradients computed inside a loop), and kinks: `where` with a NaN branch, `clip_by_value` at its
bounds, `maximum` ties, `abs` and `norm` at 0, `reduce_max` ties.

Run alone with `PYTHONPATH=. /tmp/allv/bin/python tools/grad_probe.py -k round14`. `case` is injected by
tools/grad_probe.py."""
import numpy as np
from grad_probe_common import _first_and_second, _grad, _third


def _x(lib, v=(0.5, -1.5, 2.0)):
    return lib.constant(np.array(v, np.float32))


@case("round14-loops")
def while_break_on_value_grad(lib, fn):
    @fn
    def f(x):
        with lib.GradientTape() as t:
            t.watch(x)
            s = x
            i = 0
            while i < 10:
                s = s * 1.5 + lib.sin(s)
                if lib.reduce_sum(s) > 5.0:
                    break
                i += 1
            y = lib.reduce_sum(s * s)
        return y, t.gradient(y, x)
    return f(_x(lib, (0.1, 0.2, 0.3)))


@case("round14-loops")
def for_over_tensor_early_return(lib, fn):
    @fn
    def g(x):
        acc = lib.constant(0.0)
        for r in x:
            if r > 1.0:
                return acc * r
            acc = acc + r * r
        return acc
    return _grad(lib, fn(g), _x(lib, (0.5, 0.7, 1.5, 3.0)))


@case("round14-loops")
def nested_loops_with_break_inner(lib, fn):
    @fn
    def g(x):
        s = lib.constant(0.0)
        for i in lib.range(3):
            j = 0
            while j < 4:
                s = s + x[j % 3] * lib.cast(i + 1, lib.float32)
                if s > 3.0:
                    break
                j += 1
        return s
    return _grad(lib, g, _x(lib, (0.5, 0.25, 0.125)))


@case("round14-loops")
def loop_carrying_list_append_stack_second(lib, fn):
    @fn
    def g(x):
        with lib.GradientTape() as t2:
            t2.watch(x)
            with lib.GradientTape() as t1:
                t1.watch(x)
                ta = lib.TensorArray(lib.float32, size=0, dynamic_size=True)
                s = x
                for i in lib.range(3):
                    s = s * x
                    ta = ta.write(i, s)
                y = lib.reduce_sum(ta.stack())
            g1 = t1.gradient(y, x)
        return y, g1, t2.gradient(g1, x)
    return g(lib.constant(1.5))


@case("round14-tape")
def custom_gradient_in_for_loop(lib, fn):
    @lib.custom_gradient
    def clip_grad(x):
        def grad(dy):
            return lib.clip_by_value(dy, -0.5, 0.5)
        return lib.identity(x), grad

    @fn
    def g(x):
        s = x
        for i in lib.range(3):
            s = clip_grad(s * 2.0)
        return lib.reduce_sum(s)
    return _grad(lib, g, _x(lib))


@case("round14-loops")
def stop_gradient_in_one_branch_of_if(lib, fn):
    @fn
    def g(x):
        if lib.reduce_sum(x) > 0.0:
            y = lib.stop_gradient(x) * x
        else:
            y = x * x
        return lib.reduce_sum(y)
    return [_grad(lib, g, _x(lib)), _grad(lib, g, _x(lib, (-1.0, -2.0, 0.5)))]


@case("round14-tape")
def variable_read_inside_staged_branch_only(lib, fn):
    v = lib.Variable([1.0, 2.0, 3.0])
    w = lib.Variable(2.0)

    @fn
    def g(x):
        with lib.GradientTape() as t:
            if x > 0.0:
                y = lib.reduce_sum(v * w)
            else:
                y = x
        return t.gradient(y, [v, w])
    return [g(lib.constant(1.0)), g(lib.constant(-1.0))]


@case("round14-tape")
def watch_accessed_variables_false_in_loop(lib, fn):
    v = lib.Variable(2.0)
    u = lib.Variable(3.0)

    @fn
    def g(x):
        with lib.GradientTape(watch_accessed_variables=False) as t:
            t.watch(u)
            s = x
            for i in lib.range(3):
                s = s * v + u
        return t.gradient(s, [v, u])
    return g(lib.constant(1.0))


@case("round14-tape")
def stop_recording_inside_loop(lib, fn):
    @fn
    def g(x):
        with lib.GradientTape() as t:
            t.watch(x)
            s = x
            with t.stop_recording():
                k = x * 3.0
            for i in lib.range(2):
                s = s * k
        return t.gradient(s, x)
    return g(lib.constant(2.0))


@case("round14-tape")
def jacobian_of_loop_output(lib, fn):
    @fn
    def g(x):
        with lib.GradientTape() as t:
            t.watch(x)
            s = x
            i = lib.constant(0)
            while i < 3:
                s = lib.sin(s) * x
                i += 1
        return t.jacobian(s, x)
    return g(_x(lib))


@case("round14-tape")
def batch_jacobian_of_loop_output(lib, fn):
    @fn
    def g(x):
        with lib.GradientTape() as t:
            t.watch(x)
            s = x
            for i in lib.range(2):
                s = lib.tanh(lib.matmul(s, lib.constant([[1.0, 2.0], [0.5, -1.0]])))
        return t.batch_jacobian(s, x)
    return g(lib.constant([[0.1, 0.2], [0.3, -0.4], [1.0, 2.0]]))


@case("round14-tape")
def jacobian_unconnected_zero(lib, fn):
    @fn
    def g(x, z):
        with lib.GradientTape(persistent=True) as t:
            t.watch([x, z])
            y = x * 2.0
        return [t.jacobian(y, z), t.jacobian(y, z, unconnected_gradients="zero"),
                t.batch_jacobian(lib.reshape(y, [3, 1]), lib.reshape(z, [3, 1]), unconnected_gradients="zero")]
    return g(_x(lib), _x(lib))


@case("round14-kinks")
def where_grads_with_nan_branch(lib, fn):
    return _first_and_second(lib, lambda x: lib.where(x > 0.0, lib.sqrt(x), x * x), _x(lib, (0.0, -1.0, 4.0)))


@case("round14-kinks")
def clip_at_boundaries(lib, fn):
    return _first_and_second(lib, lambda x: lib.clip_by_value(x, -1.0, 1.0) * x, _x(lib, (-1.0, 1.0, 0.0, 2.0, -2.0)))


@case("round14-kinks")
def clip_tensor_bounds_grads(lib, fn):
    @fn
    def g(x, lo, hi):
        return _grad(lib, lambda a, b, c: lib.clip_by_value(a, b, c), x, lo, hi)
    return g(_x(lib, (-1.0, 1.0, 0.0, 2.0)), _x(lib, (-1.0, -1.0, -1.0, -1.0)), _x(lib, (1.0, 1.0, 1.0, 1.0)))


@case("round14-kinks")
def clip_scalar_bounds_grads(lib, fn):
    @fn
    def g(x, lo, hi):
        return _grad(lib, lambda a, b, c: lib.clip_by_value(a, b, c), x, lo, hi)
    return g(_x(lib, (-1.0, 1.0, 0.0, 2.0)), lib.constant(-1.0), lib.constant(1.0))


@case("round14-kinks")
def maximum_minimum_ties_second(lib, fn):
    y = _x(lib, (1.0, 1.0, 1.0))
    return [_grad(lib, lambda a, b: lib.maximum(a, b) * a, _x(lib, (1.0, 0.0, 2.0)), y),
            _grad(lib, lambda a, b: lib.minimum(a, b) * b, _x(lib, (1.0, 0.0, 2.0)), y)]


@case("round14-kinks")
def abs_sign_at_zero(lib, fn):
    return [_first_and_second(lib, lambda x: lib.abs(x) * x, _x(lib, (0.0, -0.0, 1.0))),
            _first_and_second(lib, lambda x: lib.sign(x) * x, _x(lib, (0.0, -0.0, 1.0)))]


@case("round14-kinks")
def norm_at_zero(lib, fn):
    z = lib.zeros([2, 2])
    return [_grad(lib, lambda a: lib.norm(a), z), _grad(lib, lambda a: lib.norm(a, axis=1), z),
            _grad(lib, lambda a: lib.norm(a, ord=1), z), _grad(lib, lambda a: lib.norm(a, ord=np.inf, axis=1), z),
            _grad(lib, lambda a: lib.norm(a, ord="fro", axis=[0, 1]), z),
            _grad(lib, lambda a: lib.math.reduce_euclidean_norm(a), z),
            _grad(lib, lambda a: lib.math.l2_normalize(a, axis=1), z)]


@case("round14-kinks")
def reduce_max_ties_second(lib, fn):
    return [_first_and_second(lib, lambda x: lib.reduce_max(x) * x, _x(lib, (2.0, 2.0, 1.0))),
            _first_and_second(lib, lambda x: lib.reduce_min(x * x, axis=0), _x(lib, (-1.0, 1.0, 1.0)))]


@case("round14-tape")
def int_inputs_none_grads(lib, fn):
    @fn
    def g(x, n, b):
        return _grad(lib, lambda a, i, c: a * lib.cast(i, lib.float32) + lib.cast(c, lib.float32), x, n, b,
                     unconnected="zero")
    return g(_x(lib), lib.constant([1, 2, 3]), lib.constant([True, False, True]))


@case("round14-tape")
def gradient_of_gradient_inside_while(lib, fn):
    @fn
    def g(x):
        s = lib.constant(0.0)
        i = lib.constant(0)
        while i < 3:
            with lib.GradientTape() as t:
                t.watch(x)
                y = lib.reduce_sum(lib.sin(x * lib.cast(i + 1, lib.float32)))
            s = s + lib.reduce_sum(t.gradient(y, x) * x)
            i += 1
        return s
    return _first_and_second(lib, g, _x(lib))


@case("round14-tape")
def jacobian_of_gradient_computed_in_loop(lib, fn):
    @fn
    def g(x):
        with lib.GradientTape() as outer:
            outer.watch(x)
            total = lib.zeros_like(x)
            for i in lib.range(2):
                with lib.GradientTape() as inner:
                    inner.watch(x)
                    y = lib.reduce_sum(x * x * x) * lib.cast(i + 1, lib.float32)
                total = total + inner.gradient(y, x)
        return outer.jacobian(total, x)
    return g(_x(lib))


@case("round14-tape")
def custom_gradient_whose_grad_loops(lib, fn):
    @lib.custom_gradient
    def f(x):
        def grad(dy):
            acc = dy
            for i in lib.range(3):
                acc = acc * 0.5 + x
            return acc
        return x * x, grad

    @fn
    def g(x):
        return lib.reduce_sum(f(x) * 2.0)
    return _grad(lib, g, _x(lib))


@case("round14-loops")
def switch_case_and_case_grads(lib, fn):
    @fn
    def g(x, k):
        return _grad(lib, lambda a: [lib.switch_case(k, [lambda: a * 2.0, lambda: lib.sin(a), lambda: a * a]),
                                     lib.case([(k > 1, lambda: a * 3.0), (k > 0, lambda: -a)], default=lambda: a * a)],
                     x)
    return [g(_x(lib), lib.constant(0)), g(_x(lib), lib.constant(1)), g(_x(lib), lib.constant(2)), g(_x(lib), lib.constant(7))]


@case("round14-loops")
def map_fn_with_signature_and_cond_grad(lib, fn):
    @fn
    def g(x):
        return _grad(lib, lambda a: lib.map_fn(lambda r: lib.cond(r > 0.0, lambda: r * r, lambda: -r), a,
                                               fn_output_signature=lib.float32), x)
    return g(_x(lib))


@case("round14-loops")
def scan_two_outputs_and_foldl_tuple(lib, fn):
    @fn
    def g(x):
        return _grad(lib, lambda a: [lib.scan(lambda c, r: (c[0] + r, c[1] * r), a, initializer=(lib.constant(0.0), lib.constant(1.0))),
                                     lib.foldl(lambda c, r: (c[0] * r, c[1] + r * r), a, initializer=(lib.constant(1.0), lib.constant(0.0)))], x)
    return g(_x(lib))


@case("round14-loops")
def vectorized_map_with_cond_jacobian(lib, fn):
    @fn
    def g(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.vectorized_map(lambda r: lib.where(r > 0.0, lib.exp(r), r * r), x)
        return t.jacobian(y, x)
    return g(_x(lib))


@case("round14-loops")
def loop_over_ta_elements_read_twice(lib, fn):
    @fn
    def g(x):
        ta = lib.TensorArray(lib.float32, size=3, clear_after_read=False).unstack(x)
        s = lib.constant(0.0)
        for i in lib.range(3):
            s = s + ta.read(i) * ta.read(2 - i)
        return s
    return _first_and_second(lib, g, _x(lib))


@case("round14-tape")
def while_break_on_variable(lib, fn):
    v = lib.Variable(2.0)

    @fn
    def g(x):
        with lib.GradientTape() as t:
            t.watch(x)
            s = x
            i = lib.constant(0)
            while i < 5:
                if s > v:
                    break
                s = s * v + x
                i += 1
        return s, t.gradient(s, [x, v])
    return g(lib.constant(0.25))


@case("round14-loops")
def loop_with_float64_and_int64(lib, fn):
    @fn
    def g(x):
        s = x
        i = lib.constant(0, lib.int64)
        while i < 3:
            s = s * lib.cast(i + 2, lib.float64) + lib.sin(s)
            i += 1
        return s
    return _first_and_second(lib, g, lib.constant(np.array([0.5, -1.0], np.float64)))


@case("round14-loops")
def cond_returning_pre_loop_value(lib, fn):
    @fn
    def g(x):
        before = x * 3.0
        s = x
        for i in lib.range(3):
            s = s * s
        if lib.reduce_sum(s) > 10.0:
            out = before
        else:
            out = s
        return lib.reduce_sum(out)
    return [_grad(lib, g, _x(lib)), _grad(lib, g, _x(lib, (0.1, 0.2, 0.3)))]


@case("round14-tape")
def nested_function_with_tape_inside_called_in_loop(lib, fn):
    @fn
    def inner(a):
        with lib.GradientTape() as t:
            t.watch(a)
            y = lib.reduce_sum(lib.tanh(a) ** 2)
        return t.gradient(y, a)

    @fn
    def g(x):
        s = x
        for i in lib.range(2):
            s = s + inner(s)
        return lib.reduce_sum(s)
    return _first_and_second(lib, g, _x(lib))


@case("round14-tape")
def persistent_tape_jacobian_and_gradient_in_loop(lib, fn):
    @fn
    def g(x):
        with lib.GradientTape(persistent=True) as t:
            t.watch(x)
            s = x
            for i in lib.range(2):
                s = lib.sin(s) + x
            y = lib.reduce_sum(s)
        return [t.gradient(y, x), t.jacobian(s, x), t.gradient(s, x, output_gradients=lib.constant([1.0, 2.0, 3.0]))]
    return g(_x(lib))


@case("round14-loops")
def for_over_tensor_with_continue_and_return(lib, fn):
    @fn
    def g(x):
        acc = lib.constant(1.0)
        for r in x:
            if r < 0.0:
                continue
            acc = acc * r + 1.0
            if acc > 5.0:
                return acc * 2.0
        return acc
    return [_third(lib, g, _x(lib, (0.5, -1.5, 2.0, 3.0))), _first_and_second(lib, g, _x(lib, (0.5, -1.5, 0.2)))]


@case("round14-loops")
def stop_gradient_on_loop_result_in_branch(lib, fn):
    @fn
    def g(x):
        s = x
        for i in lib.range(3):
            if lib.reduce_sum(s) > 1.0:
                s = lib.stop_gradient(s) * x
            else:
                s = s + x
        return lib.reduce_sum(s)
    return _first_and_second(lib, g, _x(lib, (0.2, 0.1, 0.3)))


@case("round14-tape")
def unconnected_zero_for_variable_in_untaken_branch(lib, fn):
    v = lib.Variable([1.0, 2.0])

    @fn
    def g(x):
        with lib.GradientTape() as t:
            t.watch(x)
            if x > 0.0:
                y = x * 2.0
            else:
                y = lib.reduce_sum(v) * x
        return t.gradient(y, [x, v], unconnected_gradients="zero")
    return [g(lib.constant(1.0)), g(lib.constant(-1.0))]


@case("round14-loops")
def for_continue_third_constant(lib, fn):
    @fn
    def g(x):
        acc = lib.constant(1.0)
        for r in x:
            if r < 0.0:
                continue
            acc = acc * r + 1.0
        return acc
    return _third(lib, g, lib.constant(np.array([0.5, -1.5, 0.2], np.float32)))


@case("round14-loops")
def while_third_constant(lib, fn):
    @fn
    def g(x):
        acc = lib.constant(1.0)
        i = lib.constant(0)
        while i < 3:
            acc = acc * x[i] + 1.0
            i += 1
        return acc
    return _third(lib, g, lib.constant(np.array([0.5, -1.5, 0.2], np.float32)))


@case("round14-loops")
def while_linear_second(lib, fn):
    """Left WRONG: the second derivative of a loop linear in x is a zero that TensorFlow's graph keeps connected to
    x through its While's gradient (so the third is 0.0); the runtime's is a constant zero, whose gradient is None."""
    @fn
    def g(x):
        acc = x
        i = lib.constant(0)
        while i < 3:
            acc = acc * 2.0 + 1.0
            i += 1
        return acc
    return _third(lib, g, lib.constant(0.5))
