"""Cases for tools/grad_probe.py (tenth session), area tape4: persistent tapes asked for several targets and
sources, `watch` of computed tensors, `unconnected_gradients=ZERO` through loops and conds, `stop_gradient` in a
loop's body, while loops reading Variables in their bodies, a cond with one constant branch, integer inputs,
gathers' gradients applied to Variables by optimizers, `clip_by_global_norm` on gradients.

Run alone with `PYTHONPATH=. /tmp/allv/bin/python tools/grad_probe.py -k tape4`. `case` is injected by
tools/grad_probe.py."""
import numpy as np

_X = np.array([0.5, -1.5, 2.0], np.float32)


def _x(lib):
    return lib.constant(_X)


@case("tape4")
def persistent_many_targets_and_sources(lib, fn):
    @fn
    def f(x):
        with lib.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x * x
            h = lib.tanh(y)      # a computed tensor watched too: gradients stop at it
            tape.watch(h)
            z = lib.reduce_sum(h * x)
        return [tape.gradient(z, x), tape.gradient(z, h), tape.gradient(z, [x, y, h]), tape.gradient([z, y], x),
                tape.gradient({"a": z, "b": h}, {"x": x})]
    return f(_x(lib))


@case("tape4")
def watch_of_a_tensor_made_before_the_tape(lib, fn):
    @fn
    def f(x):
        y = lib.exp(x)
        with lib.GradientTape() as tape:
            tape.watch(y)
            z = lib.reduce_sum(y * y * x)
        return tape.gradient(z, [y, x])
    return f(_x(lib))


@case("tape4")
def unconnected_zero_through_loop_and_cond(lib, fn):
    @fn
    def f(x, u):
        with lib.GradientTape(persistent=True) as tape:
            tape.watch([x, u])
            y = lib.cond(x[0] > 0.0, lambda: x * 2.0, lambda: lib.zeros_like(x))
            i, s = lib.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s + lib.stop_gradient(u) * x),
                                  (lib.constant(0), lib.zeros_like(x)))
        return [tape.gradient(y, [x, u], unconnected_gradients=lib.UnconnectedGradients.ZERO),
                tape.gradient(s, [x, u], unconnected_gradients="zero"), tape.gradient(s, u)]
    return f(_x(lib), lib.constant([1.0, 2.0, 3.0]))


@case("tape4")
def stop_gradient_of_the_carry_in_a_loop(lib, fn):
    @fn
    def f(x):
        with lib.GradientTape() as tape:
            tape.watch(x)
            s = x
            for _ in lib.range(3):
                s = lib.stop_gradient(s) * x + s * 0.5
            y = lib.reduce_sum(s)
        return [y, tape.gradient(y, x)]
    return f(_x(lib))


@case("tape4")
def while_loop_reading_variables_in_its_body(lib, fn):
    w = lib.Variable([1.0, 0.5, -1.0])
    b = lib.Variable(0.25)

    @fn
    def f(x):
        with lib.GradientTape() as tape:
            def body(i, s):
                return i + 1, lib.tanh(s * w + b) + x
            _, s = lib.while_loop(lambda i, s: i < 4, body, (lib.constant(0), x))
            y = lib.reduce_sum(s * s)
        return [y, tape.gradient(y, [w, b])]
    return f(_x(lib))


@case("tape4")
def while_loop_with_a_tensor_bound_reading_a_variable(lib, fn):
    w = lib.Variable(1.1)

    @fn
    def f(x, n):
        with lib.GradientTape() as tape:
            tape.watch(x)
            s = x
            i = lib.constant(0)
            while i < n:
                s = s * w + x
                i += 1
            y = lib.reduce_sum(s)
        return [y, tape.gradient(y, [x, w])]
    return f(_x(lib), lib.constant(3))


@case("tape4")
def cond_with_one_constant_branch(lib, fn):
    @fn
    def f(x):
        with lib.GradientTape(persistent=True) as tape:
            tape.watch(x)
            a = lib.cond(lib.reduce_sum(x) > 0.0, lambda: lib.constant([1.0, 2.0, 3.0]), lambda: x * x)
            b = lib.cond(lib.reduce_sum(x) > 0.0, lambda: x * x, lambda: lib.constant([1.0, 2.0, 3.0]))
        return [tape.gradient(a, x), tape.gradient(b, x), tape.gradient(a, x, unconnected_gradients="zero")]
    return [f(_x(lib)), f(-_x(lib))]


@case("tape4")
def integer_inputs_have_no_gradient(lib, fn):
    @fn
    def f(n, x):
        with lib.GradientTape(persistent=True) as tape:
            tape.watch([n, x])
            y = lib.cast(n, lib.float32) * x
            k = n * 2
        return [tape.gradient(y, [n, x]), tape.gradient(k, n), tape.gradient(y, n, unconnected_gradients="zero")]
    return f(lib.constant([1, 2, 3]), _x(lib))


def _gather_step(lib, fn, opt, first=(0, 2, 0), second=(1, 1), dense=True):
    """Two optimizer steps on the gradient of a gather. TensorFlow's gradient is IndexedSlices, which its
    optimizers apply slice by slice; with a repeated index that differs from the dense gradient (Adam's
    moments, momentum), which the runtime gives (docs/runtime.md, "Differences from TensorFlow"): the cases
    with repeated indices convert it to dense, the others keep it as TensorFlow gives it."""
    table = lib.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])

    @fn
    def step(ids):
        with lib.GradientTape() as tape:
            loss = lib.reduce_sum(lib.gather(table, ids) ** 2)
        grads = tape.gradient(loss, [table])
        opt.apply_gradients(zip([lib.convert_to_tensor(g) for g in grads] if dense else grads, [table]))
        return loss
    return [step(lib.constant(list(first))), step(lib.constant(list(second))), table.read_value()]


@case("tape4")
def gather_gradient_applied_by_sgd(lib, fn):
    return _gather_step(lib, fn, lib.keras.optimizers.SGD(learning_rate=0.1))


@case("tape4")
def gather_gradient_applied_by_sgd_with_momentum(lib, fn):
    return _gather_step(lib, fn, lib.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9))


@case("tape4")
def gather_gradient_applied_by_adam(lib, fn):
    return _gather_step(lib, fn, lib.keras.optimizers.Adam(learning_rate=0.1))


@case("tape4")
def gather_gradient_applied_by_adam_unique_indices_sparse(lib, fn):
    return _gather_step(lib, fn, lib.keras.optimizers.Adam(learning_rate=0.1), (0, 2), (1,), dense=False)


@case("tape4")
def gather_gradient_applied_by_sgd_sparse(lib, fn):
    return _gather_step(lib, fn, lib.keras.optimizers.SGD(learning_rate=0.1, momentum=0.5), dense=False)


@case("tape4")
def gather_gradient_assigned_sub(lib, fn):
    table = lib.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])

    @fn
    def step(ids):
        with lib.GradientTape() as tape:
            loss = lib.reduce_sum(lib.gather(table, ids) * lib.constant([[1.0, -1.0]]))
        g = tape.gradient(loss, table)
        table.assign_sub(0.5 * lib.convert_to_tensor(g))
        return lib.convert_to_tensor(g)
    return [step(lib.constant([2, 2, 0])), table.read_value()]


@case("tape4")
def clip_by_global_norm_of_gradients(lib, fn):
    w = lib.Variable([3.0, 4.0])
    v = lib.Variable([[1.0, 2.0]])

    @fn
    def f(x):
        with lib.GradientTape() as tape:
            loss = lib.reduce_sum(w * x[:2]) ** 2 + lib.reduce_sum(lib.gather(v, [0, 0]))
        grads = [lib.convert_to_tensor(g) for g in tape.gradient(loss, [w, v])]   # dense: see _gather_step
        clipped, norm = lib.clip_by_global_norm(grads, 1.0)
        same, _ = lib.clip_by_global_norm(grads, 1e6)
        with_none, _ = lib.clip_by_global_norm([grads[0], None], 2.0)
        return [clipped, norm, same, with_none[0], with_none[1] is None]
    return f(_x(lib))


@case("tape4")
def clip_by_global_norm_gradient(lib, fn):
    @fn
    def f(x):
        with lib.GradientTape() as tape:
            tape.watch(x)
            clipped, norm = lib.clip_by_global_norm([x * 3.0, x[:2]], 2.0)
            y = lib.reduce_sum(clipped[0] * lib.constant([1.0, 2.0, 3.0])) + lib.reduce_sum(clipped[1]) + norm
        return [y, tape.gradient(y, x)]
    return f(_x(lib))


@case("tape4")
def gradient_of_variable_read_twice_and_assigned_between(lib, fn):
    v = lib.Variable([1.0, 2.0])

    @fn
    def f(x):
        with lib.GradientTape() as tape:
            a = v * x[:2]
            v.assign_add([1.0, 1.0])
            b = v * v
            y = lib.reduce_sum(a + b)
        return [y, tape.gradient(y, v)]
    return f(_x(lib))


@case("tape4")
def nested_tapes_watching_different_things(lib, fn):
    w = lib.Variable(2.0)

    @fn
    def f(x):
        with lib.GradientTape() as outer:
            with lib.GradientTape(watch_accessed_variables=False) as inner:
                inner.watch(x)
                y = lib.reduce_sum(lib.sin(x) * w)
            g = inner.gradient(y, x)
            z = lib.reduce_sum(g * g)
        return [g, outer.gradient(z, w), inner.watched_variables() == ()]
    return f(_x(lib))


@case("tape4")
def clip_by_global_norm_of_a_sparse_gradient_without_repeats(lib, fn):
    v = lib.Variable([[1.0, 2.0], [3.0, 4.0]])

    @fn
    def f(x):
        with lib.GradientTape() as tape:
            loss = lib.reduce_sum(lib.gather(v, [1, 0]) * x[:2])
        clipped, norm = lib.clip_by_global_norm(tape.gradient(loss, [v]), 1.0)
        return [lib.convert_to_tensor(clipped[0]), norm]
    return f(_x(lib))


@case("tape4")
def non_trainable_and_int_variables_are_not_watched(lib, fn):
    frozen = lib.Variable([1.0, 2.0, 3.0], trainable=False)
    counter = lib.Variable(2)
    w = lib.Variable([0.5, 0.5, 0.5])

    @fn
    def f(x):
        with lib.GradientTape(persistent=True) as tape:
            y = lib.reduce_sum(x * frozen * w * lib.cast(counter, lib.float32))
        with lib.GradientTape() as explicit:
            explicit.watch(frozen)
            z = lib.reduce_sum(frozen * x)
        return [tape.gradient(y, [frozen, w, counter]), explicit.gradient(z, frozen), len(tape.watched_variables())]
    return f(_x(lib))


@case("tape4")
def gradient_with_respect_to_a_variable_target(lib, fn):
    w = lib.Variable([1.0, -2.0])

    @fn
    def f(x):
        with lib.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = w * x[:2]
        return [tape.gradient(w, w), tape.gradient(y, w, output_gradients=lib.constant([2.0, 3.0])),
                tape.gradient(y, x)]
    return f(_x(lib))


@case("tape4")
def cond_returning_a_python_number_in_one_branch(lib, fn):
    @fn
    def f(x):
        with lib.GradientTape() as tape:
            tape.watch(x)
            y = lib.cond(x[0] > 1.0, lambda: 0.0, lambda: lib.reduce_sum(x * x))
        return [y, tape.gradient(y, x, unconnected_gradients="zero")]
    return [f(_x(lib)), f(_x(lib) + 1.0)]


@case("tape4")
def custom_gradient_inside_a_loop_with_stop_gradient(lib, fn):
    @lib.custom_gradient
    def clip_grad(t):
        return t * 1.0, lambda dy: lib.clip_by_value(dy, -0.5, 0.5)

    @fn
    def f(x):
        with lib.GradientTape() as tape:
            tape.watch(x)
            s = x
            for i in lib.range(3):
                s = clip_grad(s * s) + lib.stop_gradient(s)
            y = lib.reduce_sum(s)
        return [y, tape.gradient(y, x)]
    return f(_x(lib) * 0.5)


@case("tape4")
def watch_of_an_int_and_a_bool_tensor(lib, fn):
    @fn
    def f(x):
        n = lib.constant([1, 2, 3])
        b = x > 0.0
        with lib.GradientTape() as tape:
            tape.watch([x, n, b])
            y = lib.reduce_sum(lib.where(b, x, -x) * lib.cast(n, lib.float32))
        return tape.gradient(y, [x, n, b])
    return f(_x(lib))


@case("tape4")
def gradient_through_variable_slices_and_scatter(lib, fn):
    v = lib.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])

    @fn
    def f(x):
        with lib.GradientTape() as tape:
            y = lib.reduce_sum(v[1, ::2] * x[:2]) + lib.reduce_sum(
                lib.tensor_scatter_nd_update(v, [[0, 1]], [x[2]]) ** 2)
        return tape.gradient(y, v)
    return f(_x(lib))


@case("tape4")
def second_order_through_a_persistent_tape_and_a_loop(lib, fn):
    @fn
    def f(x):
        with lib.GradientTape(persistent=True) as tape:
            tape.watch(x)
            s = lib.zeros_like(x)
            for i in lib.range(3):
                s = s + lib.sin(x * lib.cast(i + 1, lib.float32))
            g = tape.gradient(s, x)
        return [g, tape.gradient(g, x)]
    return f(_x(lib))
