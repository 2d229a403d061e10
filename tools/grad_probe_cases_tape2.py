"""Cases for tools/grad_probe.py (ninth session): GradientTape semantics not covered before — structured
targets and sources, output_gradients of a structure, persistent tapes asked inside and outside their block,
watch_accessed_variables=False, a tape recording a traced function with a staged break or return, third
derivatives, custom_gradient's arguments, jacobians with experimental_use_pfor both ways and of empty or
unconnected tensors, and a function traced for unknown dimensions differentiated at several shapes.

`@case(area)` on `program(lib, fn)`, as in grad_probe_cases.py. `case` is injected by tools/grad_probe.py."""
import numpy as np

from grad_probe_common import _both, _first_and_second, _grad, _third


# ---------------------------------------------------------------- tapes
@case("tape2")
def dict_of_targets_and_sources(lib, fn):
    def body(x, y):
        with lib.GradientTape(persistent=True) as t:
            t.watch([x, y])
            out = {"a": x * y, "b": [lib.sin(x), y * y]}
        return [t.gradient(out, {"x": x, "y": y}), t.gradient(out["b"], (y, [x]))]
    return fn(body)(lib.constant([1.0, 2.0]), lib.constant([3.0, -1.0]))


@case("tape2")
def output_gradients_structure(lib, fn):
    def body(x):
        with lib.GradientTape() as t:
            t.watch(x)
            out = [x * x, lib.reduce_sum(x)]
        return t.gradient(out, x, output_gradients=[lib.constant([1.0, 2.0]), lib.constant(3.0)])
    return fn(body)(lib.constant([1.0, 2.0]))


@case("tape2")
def persistent_used_three_times_in_and_out(lib, fn):
    def body(x):
        with lib.GradientTape(persistent=True) as t:
            t.watch(x)
            y = x ** 3
            g1 = t.gradient(y, x)
            z = y * 2.0
        return [g1, t.gradient(z, x), t.gradient(y, x), t.gradient(g1, x)]
    return fn(body)(lib.constant(2.0))


@case("tape2")
def watch_accessed_false_explicit(lib, fn):
    v = lib.Variable(2.0)
    w = lib.Variable(3.0)

    def body(x):
        with lib.GradientTape(watch_accessed_variables=False) as t:
            t.watch(v)
            y = v * w * x
        return t.gradient(y, [v, w, x])
    return fn(body)(lib.constant(1.5))


@case("tape2")
def stop_recording_mid(lib, fn):
    def body(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = x * x
            with t.stop_recording():
                z = y * 3.0
            w = y + z
        return t.gradient(w, x)
    return fn(body)(lib.constant(2.0))


@case("tape2")
def tape_records_function_with_while_break(lib, fn):
    def f(x):
        y = x
        i = 0
        while i < 10:
            y = y * x
            if y > 20.0:
                break
            i += 1
        return y
    return [_grad(lib, fn(f), lib.constant(v)) for v in (1.5, 3.0, 0.5)]


@case("tape2")
def tape_records_function_with_return_in_loop(lib, fn):
    def f(x):
        for i in lib.range(5):
            x = x * 1.5
            if x > 4.0:
                return x * x
        return -x
    return [_grad(lib, fn(f), lib.constant(v)) for v in (1.0, 0.1)]


@case("tape2")
def third_order_through_loop(lib, fn):
    def f(x):
        y = x
        for i in lib.range(3):
            y = lib.sin(y) * x
        return y
    return fn(lambda x: _third(lib, f, x))(lib.constant(0.7))


@case("tape2")
def third_order_through_cond_in_loop(lib, fn):
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
    return [fn(lambda x: _third(lib, f, x))(lib.constant(v)) for v in (0.7, 1.3)]


@case("tape2")
def custom_gradient_upstream_none(lib, fn):
    @lib.custom_gradient
    def two(x):
        def grad(da, db):
            return da * 2.0 + (0.0 if db is None else db * 100.0)
        return (x * 1.0, x * 2.0), grad

    def body(x):
        with lib.GradientTape() as t:
            t.watch(x)
            a, b = two(x)
            y = a * 3.0
        return t.gradient(y, x)
    return fn(body)(lib.constant(1.0))


@case("tape2")
def custom_gradient_nested_structure_out(lib, fn):
    @lib.custom_gradient
    def f(x, y):
        def grad(dz):
            return dz * y * 10.0, dz * x * 10.0
        return x * y, grad

    def body(x, y):
        with lib.GradientTape() as t:
            t.watch([x, y])
            z = f(x, y) + f(y, x) * f(x, x)
        return t.gradient(z, [x, y])
    return fn(body)(lib.constant(2.0), lib.constant(3.0))


@case("tape2")
def jacobian_pfor_false(lib, fn):
    def body(x):
        with lib.GradientTape(persistent=True) as t:
            t.watch(x)
            y = lib.sin(x) * x[0]
            z = lib.matmul(lib.reshape(x, [1, 3]), lib.reshape(x, [3, 1]))
        return [t.jacobian(y, x, experimental_use_pfor=False), t.jacobian(z, x, experimental_use_pfor=False),
                t.jacobian(y, x)]
    return fn(body)(lib.constant([0.5, 1.0, -2.0]))


@case("tape2")
def batch_jacobian_pfor_false(lib, fn):
    def body(x):
        with lib.GradientTape(persistent=True) as t:
            t.watch(x)
            y = lib.tanh(x) * lib.reduce_sum(x, axis=1, keepdims=True)
        return [t.batch_jacobian(y, x, experimental_use_pfor=False), t.batch_jacobian(y, x)]
    return fn(body)(lib.constant([[0.5, 1.0], [-2.0, 0.3]]))


@case("tape2")
def jacobian_through_while_with_max_iter(lib, fn):
    def body(x):
        with lib.GradientTape() as t:
            t.watch(x)
            y = lib.while_loop(lambda i, v: lib.reduce_sum(v) < 100.0, lambda i, v: (i + 1, v * x + 1.0),
                               [0, x], maximum_iterations=3)[1]
        return t.jacobian(y, x)
    return fn(body)(lib.constant([1.0, 2.0]))


@case("tape2")
def jacobian_of_scalar_and_matrix_sources(lib, fn):
    def body(x, m):
        with lib.GradientTape() as t:
            t.watch([x, m])
            y = lib.matmul(m, m) * x
        return t.jacobian(y, [x, m])
    return fn(body)(lib.constant(2.0), lib.constant([[1.0, 2.0], [3.0, 4.0]]))


@case("tape2")
def gradient_in_function_tape_outside(lib, fn):
    return _first_and_second(lib, fn(lambda x: x * x * x), lib.constant([3.0, -1.0]))


@case("tape2")
def variable_read_in_staged_loop_and_branch(lib, fn):
    v = lib.Variable([1.0, 2.0])

    def f(x):
        y = x
        for i in lib.range(3):
            if lib.reduce_sum(y) > 5.0:
                y = y * v
            else:
                y = y + v * v
        return lib.reduce_sum(y)
    staged = fn(f)
    with lib.GradientTape() as t:
        y = staged(lib.constant([1.0, 0.5]))
    return [y, t.gradient(y, v)]


@case("tape2")
def int_source_is_none(lib, fn):
    def body(x, n):
        with lib.GradientTape() as t:
            t.watch([x, n])
            y = x * lib.cast(n, lib.float32)
        return t.gradient(y, [x, n], unconnected_gradients=lib.UnconnectedGradients.ZERO)
    return fn(body)(lib.constant(2.0), lib.constant(3))


# ---------------------------------------------------------------- a traced function called at several shapes
@case("tape2")
def function_for_unknown_dimensions_at_several_shapes(lib, fn):
    # the gradient graph of a traced function under an eager tape is traced per input shape (it was reused for
    # another batch size: reduce_mean's count wrong, silently)
    mean_rows = fn(lambda x: lib.reduce_mean(x, axis=0) * lib.constant([1.0, 2.0]),
                   input_signature=[lib.TensorSpec([None, 2], lib.float32)])
    doubled = fn(lambda x: lib.reduce_sum(lib.concat([x, x * 2.0], 0) ** 2), reduce_retracing=True)
    out = []
    for rows in (1, 4, 3):
        x = lib.constant(np.arange(2.0 * rows, dtype=np.float32).reshape(rows, 2))
        out.append(_grad(lib, mean_rows, x))
    for n in (2, 3, 4, 1):
        out.append(_grad(lib, doubled, lib.range(1.0, n + 1.0)))
    return out


# ---------------------------------------------------------------- custom_gradient's arguments
@case("tape2")
def custom_gradient_list_argument(lib, fn):
    @lib.custom_gradient
    def product(xs, k):
        def grad(dz):
            return [dz * 7.0, dz * 5.0], None
        return xs[0] * xs[1] * k, grad

    return _both(lib, fn, lambda x, y: product([x, y], 2.0), lib.constant(1.5), lib.constant(2.0))


@case("tape2")
def custom_gradient_python_float_argument(lib, fn):
    @lib.custom_gradient
    def scale(x, k):
        def grad(dy):
            return dy * k * 10.0, None
        return x * k, grad

    return _both(lib, fn, lambda x: scale(x, 3.0) + scale(x * x, 2.0), lib.constant([1.0, 2.0]))


def _wrong_count(returned):
    def program(lib, fn):
        @lib.custom_gradient
        def product(x, y):
            def grad(dz):
                return tuple(dz * float(i) for i in range(returned)) if returned > 1 else dz * 7.0
            return x * y, grad
        return _both(lib, fn, product, lib.constant(1.5), lib.constant(2.0))
    program.__name__ = f"custom_gradient_returns_{returned}_for_2_arguments"
    return program


for _returned in (1, 3):   # TensorFlow raises; the runtime computing would be LAX
    case("tape2", errors=True)(_wrong_count(_returned))
