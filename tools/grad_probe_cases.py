"""Cases for tools/grad_probe.py: control flow (tensor if/while/for, break, continue, return) and higher-order
functions.

`@case(area)` on `program(lib, fn)`, which returns what to compare (tensors, Python values, None, nested
lists); `fn` stages a function (identity in eager mode). `case` is injected by tools/grad_probe.py."""
import numpy as np

from grad_probe_common import _both, _grad  # noqa: F401 - not every file uses both


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
