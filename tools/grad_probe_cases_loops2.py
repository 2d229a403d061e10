"""Cases for tools/grad_probe.py (ninth session): gradients through loops not covered before — a While with
maximum_iterations and no trip, TensorArrays carried, written twice, read twice and gathered, loops over a
tensor's rows (with break, with none), a loop in a cond in a loop (first and second order), loops that grow a
tensor, count down, enumerate and zip rows, break in a nested cond, nest While loops, scan/foldl/foldr/map_fn
variants; and gradients of slices with tensor bounds and steps.

`@case(area)` on `program(lib, fn)`, as in grad_probe_cases.py. `case` is injected by tools/grad_probe.py."""
from grad_probe_common import _both, _first_and_second, _grad


# ---------------------------------------------------------------- loops
@case("loops2")
def while_loop_max_iter_zero_trip(lib, fn):
    def f(x, n):
        return lib.while_loop(lambda i, v: i < n, lambda i, v: (i + 1, v * x), [0, x],
                              maximum_iterations=2)[1]
    return [_grad(lib, fn(f), lib.constant(1.5), lib.constant(k)) for k in (0, 1, 5)]


@case("loops2")
def while_loop_max_iter_tensor_zero(lib, fn):
    def f(x, m):
        return lib.while_loop(lambda i, v: i < 10, lambda i, v: (i + 1, v * x), [0, x],
                              maximum_iterations=m)[1]
    return [_grad(lib, fn(f), lib.constant(1.5), lib.constant(k)) for k in (0, 3)]


@case("loops2")
def loop_carries_tensor_array(lib, fn):
    def f(x):
        ta = lib.TensorArray(lib.float32, size=3)
        y = x
        for i in lib.range(3):
            y = y * x + 1.0
            ta = ta.write(i, y * y)
        s = ta.stack()
        return lib.reduce_sum(s * lib.constant([1.0, 2.0, 3.0]))
    return _both(lib, fn, f, lib.constant(0.5))


@case("loops2")
def tensor_array_dynamic_size(lib, fn):
    def f(x, n):
        ta = lib.TensorArray(lib.float32, size=0, dynamic_size=True)
        y = x
        i = 0
        while i < n:
            y = lib.sin(y) + x
            ta = ta.write(i, y)
            i += 1
        return lib.reduce_sum(ta.stack() * lib.cast(lib.range(n) + 1, lib.float32))
    return [_grad(lib, fn(f), lib.constant(0.5), lib.constant(k)) for k in (1, 3)]


@case("loops2")
def tensor_array_read_twice_and_overwrite_shape(lib, fn):
    def f(x):
        ta = lib.TensorArray(lib.float32, size=2)
        ta = ta.write(0, x)
        ta = ta.write(1, x * x)
        a = ta.read(0)
        b = ta.read(0)
        c = ta.read(1)
        return a * b + c * 3.0
    return _both(lib, fn, f, lib.constant([1.0, 2.0]))


@case("loops2")
def tensor_array_gather(lib, fn):
    def f(x):
        ta = lib.TensorArray(lib.float32, size=3)
        for i in lib.range(3):
            ta = ta.write(i, x * lib.cast(i + 1, lib.float32))
        g = ta.gather([2, 0])   # not [2, 0, 2]: TensorFlow's staged gradient counts a repeated index once
        return lib.reduce_sum(g * g)
    return _both(lib, fn, f, lib.constant([1.0, 2.0]))


@case("loops2")
def for_over_rows_gradient(lib, fn):
    def f(m):
        s = lib.constant(0.0)
        for row in m:
            s = s * 0.5 + lib.reduce_sum(row * row)
        return s
    return _both(lib, fn, f, lib.constant([[1.0, 2.0], [3.0, 4.0], [-1.0, 0.5]]))


@case("loops2")
def for_over_rows_with_index_and_break(lib, fn):
    def f(m):
        s = lib.constant(0.0)
        for row in m:
            if s > 10.0:
                break
            s = s + lib.reduce_sum(row * row)
        return s
    return _both(lib, fn, f, lib.constant([[1.0, 2.0], [3.0, 4.0], [-1.0, 0.5]]))


@case("loops2")
def loop_in_cond_in_loop(lib, fn):
    def f(x):
        y = x
        for i in lib.range(3):
            if lib.reduce_sum(y) > 2.0:
                j = 0
                while j < 2:
                    y = y * 0.9 + x
                    j += 1
            else:
                y = y * x + 1.0
        return lib.reduce_sum(y)
    return [_both(lib, fn, f, lib.constant(v)) for v in ([0.3, 0.2], [2.0, 1.0])]


@case("loops2")
def loop_in_cond_in_loop_second(lib, fn):
    def f(x):
        y = x
        for i in lib.range(3):
            if lib.reduce_sum(y) > 2.0:
                j = 0
                while j < 2:
                    y = y * x
                    j += 1
            else:
                y = y * x + 1.0
        return y
    return [_first_and_second(lib, fn(f), lib.constant(v)) for v in ([0.3, 0.2], [2.0, 1.0])]


@case("loops2")
def zero_trip_for_range(lib, fn):
    def f(x, n):
        y = x * 2.0
        for i in lib.range(n):
            y = y * x
        return y
    return [_grad(lib, fn(f), lib.constant(3.0), lib.constant(k)) for k in (0, 2)]


@case("loops2")
def zero_trip_for_rows(lib, fn):
    def f(x, m):
        y = x * 2.0
        for row in m:
            y = y * x + lib.reduce_sum(row)
        return y
    return [_grad(lib, fn(f), lib.constant(3.0), lib.zeros([0, 2])),
            _grad(lib, fn(f), lib.constant(3.0), lib.ones([2, 2]))]


@case("loops2")
def loop_grad_wrt_loop_invariant_captured(lib, fn):
    def f(x, w):
        y = x
        i = lib.constant(0)
        while i < 4:
            y = lib.tanh(y * w) + w
            i += 1
        return y
    return _grad(lib, fn(f), lib.constant(0.5), lib.constant(1.3))


@case("loops2")
def while_loop_two_outputs_one_used(lib, fn):
    def f(x):
        a, b, _ = lib.while_loop(lambda a, b, i: i < 3, lambda a, b, i: (a * x, b + a, i + 1), [x, x * 0.0, 0])
        return b
    return _grad(lib, fn(f), lib.constant(1.5))


@case("loops2")
def while_loop_swap_vars(lib, fn):
    def f(x, y):
        a, b, _ = lib.while_loop(lambda a, b, i: i < 3, lambda a, b, i: (b * 2.0, a + 1.0, i + 1), [x, y, 0])
        return a * 10.0 + b
    return _grad(lib, fn(f), lib.constant(1.5), lib.constant(-1.0))


@case("loops2")
def nested_while_inner_depends_outer_counter(lib, fn):
    def f(x):
        y = x
        i = 0
        while i < 3:
            j = 0
            while j < i:
                y = y * x
                j += 1
            i += 1
        return y
    return [_grad(lib, fn(f), lib.constant(1.2)), _first_and_second(lib, fn(f), lib.constant(1.2))]


@case("loops2")
def loop_stop_gradient_in_branch(lib, fn):
    def f(x):
        y = x
        for i in lib.range(4):
            if i % 2 == 0:
                y = lib.stop_gradient(y) * x
            else:
                y = y * x
        return y
    return _both(lib, fn, f, lib.constant(1.3))


@case("loops2")
def map_fn_over_loop(lib, fn):
    def f(x):
        def row(r):   # a Python loop: the runtime's map_fn does not convert fn, TensorFlow's does
            s = r
            for i in range(2):
                s = s * r
            return s
        return lib.reduce_sum(lib.map_fn(row, x))
    return _both(lib, fn, f, lib.constant([[1.0, 2.0], [0.5, -1.0]]))


@case("loops2")
def scan_with_cond(lib, fn):
    def f(x):
        def step(acc, e):
            return lib.cond(e > 0.0, lambda: acc * e, lambda: acc - e)
        return lib.reduce_sum(lib.scan(step, x, initializer=lib.constant(1.0)))
    return _both(lib, fn, f, lib.constant([2.0, -1.0, 0.5]))


@case("loops2")
def while_loop_int_and_float_grad_wrt_init(lib, fn):
    def f(x):
        i, y = lib.while_loop(lambda i, y: y < 50.0, lambda i, y: (i + 1, y * y + 1.0), [0, x])
        return y * lib.cast(i, lib.float32)
    return [_grad(lib, fn(f), lib.constant(v)) for v in (1.0, 3.0, 60.0)]


@case("loops2")
def variable_in_loop_cond_tape_outside(lib, fn):
    v = lib.Variable(1.1)

    @fn
    def f(x):
        y = x
        while y < 5.0:
            y = y * v + x
        return y
    with lib.GradientTape() as t:
        t.watch(v)
        y = f(lib.constant(1.0))
    return [y, t.gradient(y, v)]


@case("loops2")
def loop_growing_state_gradient(lib, fn):
    def f(x):
        y = x[:1]
        for i in lib.range(3):
            y = lib.concat([y, y[-1:] * x[1:2]], 0)
        return lib.reduce_sum(y * lib.range(1.0, 5.0))
    return _both(lib, fn, f, lib.constant([1.5, 2.0]))


@case("loops2")
def loop_gather_by_int_counter(lib, fn):
    def f(x):
        y = lib.constant(0.0)
        i = lib.constant(0)
        while i < 3:
            y = y * lib.gather(x, i) + lib.gather(x, 2 - i)
            i += 1
        return y
    return _both(lib, fn, f, lib.constant([1.5, 2.0, -1.0]))


@case("loops2")
def loop_negative_range(lib, fn):
    def f(x):
        y = x
        for i in lib.range(5, 0, -2):
            y = y * x + lib.cast(i, lib.float32)
        return y
    return _both(lib, fn, f, lib.constant(0.7))


@case("loops2")
def loop_enumerate_zip_rows(lib, fn):
    def f(a, b):
        s = lib.constant(0.0)
        for i, (r, q) in enumerate(zip(a, b)):
            s = s + lib.reduce_sum(r * q) * float(i + 1)
        return s
    return _both(lib, fn, f, lib.constant([[1.0, 2.0], [3.0, 4.0]]), lib.constant([[0.5, 1.0], [-1.0, 2.0]]))


@case("loops2")
def loop_break_in_nested_cond(lib, fn):
    def f(x):
        y = x
        for i in lib.range(10):
            if y > 2.0:
                if y > 4.0:
                    break
                y = y * 1.5
            else:
                y = y * x
        return y
    return [_both(lib, fn, f, lib.constant(v)) for v in (1.2, 3.0, 0.9)]


@case("loops2")
def loop_continue_skips_update(lib, fn):
    def f(x):
        y = x
        for i in lib.range(6):
            if i % 3 == 0:
                continue
            y = lib.sin(y) * x
        return y
    return _both(lib, fn, f, lib.constant(1.1))


@case("loops2")
def while_loop_nested_functional(lib, fn):
    def f(x):
        def outer_body(i, y):
            inner = lib.while_loop(lambda j, z: j < i, lambda j, z: (j + 1, z * x), [0, y])[1]
            return i + 1, inner + 1.0
        return lib.while_loop(lambda i, y: i < 3, outer_body, [0, x])[1]
    return [_grad(lib, fn(f), lib.constant(1.3)), _first_and_second(lib, fn(f), lib.constant(1.3))]


@case("loops2")
def cond_with_loop_in_both_branches(lib, fn):
    def f(x):
        if x > 0.0:
            y = x
            for i in lib.range(3):
                y = y * x
        else:
            y = x
            i = 0
            while i < 2:
                y = y + x * x
                i += 1
        return y
    return [_both(lib, fn, f, lib.constant(v)) for v in (1.1, -1.1)]


@case("loops2")
def loop_accumulates_python_list_of_tensors_then_stack(lib, fn):
    def f(x):
        out = []
        y = x
        for i in range(3):
            y = y * x
            out.append(y)
        return lib.reduce_sum(lib.stack(out) * lib.constant([1.0, 2.0, 3.0]))
    return _both(lib, fn, f, lib.constant(1.1))


@case("loops2")
def while_loop_returns_unchanged_input(lib, fn):
    def f(x, y):
        a, b, i = lib.while_loop(lambda a, b, i: i < 3, lambda a, b, i: (a * 2.0, b, i + 1), [x, y, 0])
        return a * b
    return _grad(lib, fn(f), lib.constant(1.5), lib.constant(2.0))


@case("loops2")
def while_loop_float_counter_grad(lib, fn):
    def f(x):
        c, y = lib.while_loop(lambda c, y: c < 3.0, lambda c, y: (c + x, y * 2.0 + c), [lib.constant(0.0), x])
        return y
    return [_grad(lib, fn(f), lib.constant(v)) for v in (1.0, 0.7)]


@case("loops2")
def scan_reverse_second(lib, fn):
    def f(x):
        return lib.reduce_sum(lib.scan(lambda a, e: a * e + 1.0, x, initializer=lib.constant(0.5), reverse=True))
    return [_grad(lib, fn(f), lib.constant([1.0, 2.0, -0.5])), _first_and_second(lib, fn(f), lib.constant([1.0, 2.0, -0.5]))]


@case("loops2")
def foldr_and_foldl_grad(lib, fn):
    def f(x):
        return lib.foldl(lambda a, e: a * e + 1.0, x) + lib.foldr(lambda a, e: a * e - 1.0, x, initializer=lib.constant(2.0))
    return [_grad(lib, fn(f), lib.constant([1.0, 2.0, -0.5]))]


@case("loops2")
def map_fn_tuple_and_captured(lib, fn):
    def f(x, w):
        a, b = lib.map_fn(lambda r: (r * w, lib.reduce_sum(r) * w), x, fn_output_signature=(lib.float32, lib.float32))
        return lib.reduce_sum(a) + lib.reduce_sum(b * b)
    return _grad(lib, fn(f), lib.constant([[1.0, 2.0], [3.0, 4.0]]), lib.constant(0.5))


@case("loops2")
def tensor_array_unstack_then_loop_read(lib, fn):
    def f(x):
        ta = lib.TensorArray(lib.float32, size=3).unstack(x)
        acc = lib.constant(0.0)
        for i in lib.range(3):
            acc = acc * 0.5 + ta.read(i) * ta.read(2 - i)
        return acc
    return _both(lib, fn, f, lib.constant([1.0, 2.0, 3.0]))


@case("loops2")
def tensor_array_write_same_values_two_arrays(lib, fn):
    def f(x):
        a = lib.TensorArray(lib.float32, size=3)
        b = lib.TensorArray(lib.float32, size=3)
        y = x
        for i in lib.range(3):
            y = y * x
            a = a.write(i, y)
            b = b.write(2 - i, y * y)
        return lib.reduce_sum(a.stack() * b.stack())
    return _both(lib, fn, f, lib.constant(1.1))


# ---------------------------------------------------------------- slices with tensor bounds
_SLICES = {
    "neg_index_tensor": lambda lib, x, i: x[i - 3] * x[-1],
    "reverse_step_tensor": lambda lib, x, i: lib.reduce_sum(x[::-i] * lib.range(4.0)),
    "start_stop_tensor_neg": lambda lib, x, i: lib.reduce_sum(x[-i:i + 2] ** 2),
    "ellipsis_newaxis": lambda lib, x, i: lib.reduce_sum(lib.reshape(x, [2, 2])[..., None, i - 1] ** 2),
    "step2_from_end": lambda lib, x, i: lib.reduce_sum(x[-1::-2] * lib.constant([1.0, 2.0])),
    "out_of_range_stop": lambda lib, x, i: lib.reduce_sum(x[1:100] ** 2),
    "empty_slice": lambda lib, x, i: lib.reduce_sum(x[3:1] ** 2) + x[0],
    "2d_mixed": lambda lib, x, i: lib.reduce_sum(lib.reshape(x, [2, 2])[i - 1, ::-1] * lib.constant([3.0, 5.0])),
    "shrink_then_slice": lambda lib, x, i: lib.reduce_sum(lib.reshape(x, [2, 2])[:, i - 2][::-1] * lib.constant([3.0, 5.0])),
    "stop_beyond_neg": lambda lib, x, i: lib.reduce_sum(x[:-10] ** 2) + lib.reduce_sum(x[-10:] ** 2),
    "step_tensor_neg_start": lambda lib, x, i: lib.reduce_sum(x[-2::-i] * lib.constant([1.0, 10.0, 100.0])),
}

for _name, _f in _SLICES.items():
    def _program(lib, fn, f=_f):
        return _both(lib, fn, lambda x, i: f(lib, x, i), lib.constant([1.0, 2.0, -3.0, 4.0]), lib.constant(1))
    _program.__name__ = _name
    case("slices")(_program)
