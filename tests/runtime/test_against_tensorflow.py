"""The runtime against real TensorFlow: the same code run with `import runtime as tf` and with TensorFlow must
give the same values, dtypes and shapes, and the same gradients. Where the runtime refuses what TensorFlow
does, the refusal must be one listed in REFUSED (with why); everything else that TensorFlow computes, the
runtime computes too. Skipped without TensorFlow (the `tensorflow` extra; CI installs it)."""
import operator
import os
import warnings

import numpy as np
import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
real_tf = pytest.importorskip("tensorflow", reason="TensorFlow is not installed (pip install -e '.[tensorflow]')")

import runtime as rt  # noqa: E402

RNG = np.random.default_rng(0)
DTYPES = ["int32", "int64", "float32", "float64", "bool"]

# What TensorFlow computes and the runtime refuses with an error of its own, and why.
REFUSED = {
    "bool arithmetic": "a Python number with a bool tensor (TensorFlow: `bool_tensor * 2` is a logical and, "
                       "`2 * bool_tensor` a TypeError): the runtime never converts dtypes implicitly (cast it); a "
                       "Python bool with a number tensor is its int, as in TensorFlow",
}


def _array(dtype: str, shape: tuple) -> np.ndarray:
    if dtype == "bool":
        return np.asarray(RNG.random(shape) > 0.5)
    if dtype.startswith("int"):
        return np.asarray(RNG.integers(-6, 7, shape).astype(dtype))
    return np.asarray(RNG.normal(0, 3, shape).astype(dtype))


def _run(lib, fn, args):
    values = [lib.constant(a) if isinstance(a, np.ndarray) else a for a in args]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return True, fn(lib, *values)
        except Exception as e:       # noqa: BLE001 - compared below: which side refused
            return False, e


def _plain(out):
    if isinstance(out, (list, tuple)):
        return [_plain(o) for o in out]
    if hasattr(out, "numpy"):
        return np.asarray(out.numpy()), real_tf.as_dtype(out.dtype.name).name
    return np.asarray(out), type(out).__name__


def _assert_same(expected, got, what):
    if isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), what
        for e, g in zip(expected, got):
            _assert_same(e, g, what)
        return
    (ev, ed), (gv, gd) = expected, got
    assert gd == ed and gv.shape == ev.shape, f"{what}: TensorFlow gives {ed} {ev.shape}, the runtime {gd} {gv.shape}"
    if ev.dtype.kind in "fc":
        np.testing.assert_allclose(gv, ev, rtol=1e-5, atol=1e-6, err_msg=what)
    else:
        np.testing.assert_array_equal(gv, ev, err_msg=what)


def compare(what: str, fn, *args, refused=None, tf_computes: bool = False):
    """`fn(lib, *args)` with lib = TensorFlow and lib = runtime (array arguments become constants of each).
    With `tf_computes`, TensorFlow must compute it (a case built to be compared, which compares nothing
    otherwise)."""
    tf_ok, tf_out = _run(real_tf, fn, args)
    rt_ok, rt_out = _run(rt, fn, args)
    assert tf_ok or not tf_computes, f"{what}: TensorFlow raised {tf_out!r}, so nothing is compared"
    if tf_ok and not rt_ok:
        assert refused in REFUSED, f"{what}: TensorFlow computes it, the runtime raised {rt_out!r}"
        return False
    if not tf_ok:
        return False      # the runtime may do more than TensorFlow (Python's semantics); not compared
    assert refused is None, f"{what}: listed as refused ({refused}), but the runtime computes it: update REFUSED"
    _assert_same(_plain(tf_out), _plain(rt_out), what)
    return True


class Tally:
    """How many of a test's cases compared values (a case TensorFlow refuses, such as sqrt of an int tensor,
    compares nothing): a test whose cases all went uncompared would pass vacuously."""

    def __init__(self):
        self.cases = self.compared = 0

    def __call__(self, *args, **kwargs):
        self.cases += 1
        self.compared += bool(compare(*args, **kwargs))

    def check(self, at_least: int = 3):
        assert self.compared >= at_least, f"only {self.compared} of {self.cases} cases compared"


UNARY = ["abs", "negative", "sign", "square", "sqrt", "exp", "sin", "cos", "tanh", "sigmoid", "round", "identity",
         "zeros_like", "ones_like", "shape", "size", "rank", "logical_not", "math.floor", "math.ceil", "math.log",
         "math.log1p", "math.expm1", "math.erf", "math.rsqrt", "math.reciprocal", "math.softplus", "math.real",
         "math.conj", "math.angle"]


def _op(lib, name):
    for part in name.split("."):
        lib = getattr(lib, part)
    return lib


@pytest.mark.parametrize("name", UNARY)
def test_unary_ops(name):
    tally = Tally()
    for dtype in DTYPES:
        for shape in [(), (3,), (2, 3)]:
            tally(f"{name} {dtype}{shape}", lambda lib, x: _op(lib, name)(x), _array(dtype, shape))
    tally(f"{name} edges", lambda lib, x: _op(lib, name)(x),
            np.array([0.5, 1.5, 2.5, -0.5, -1.5, np.nan, np.inf, -np.inf, -0.0, 1e30], "float32"))
    tally.check()


BINARY = ["add", "subtract", "multiply", "divide", "truediv", "math.floordiv", "math.floormod", "math.mod", "pow",
          "maximum", "minimum", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
          "logical_and", "logical_or", "math.logical_xor"]


@pytest.mark.parametrize("name", BINARY)
def test_binary_ops(name):
    tally = Tally()
    for dtype in DTYPES:
        for a, b in [((), ()), ((3,), (3,)), ((2, 3), (3,)), ((2, 1), (1, 3))]:
            tally(f"{name} {dtype}{a}{b}", lambda lib, x, y: _op(lib, name)(x, y), _array(dtype, a), _array(dtype, b))
        for scalar in [2, -3, 0, 2.5, True]:
            why = None   # (a Python bool beside a number tensor is its int, as in TensorFlow)
            x = _array(dtype, (3,))
            tally(f"{name} {dtype} {scalar!r}", lambda lib, x, s: _op(lib, name)(x, s), x, scalar, refused=why)
    for dtype in ["int32", "int64", "float32", "float64"]:
        x, y = np.array([7, -7, 7, -7, 0, 5], dtype), np.array([2, 2, -2, -2, 3, 1], dtype)
        tally(f"{name} signs {dtype}", lambda lib, a, b: _op(lib, name)(a, b), x, y)
    tally.check()


OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
             "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "<": operator.lt, "<=": operator.le,
             ">": operator.gt, ">=": operator.ge, "==": operator.eq, "!=": operator.ne, "&": operator.and_,
             "|": operator.or_, "^": operator.xor}


@pytest.mark.parametrize("symbol", sorted(OPERATORS))
def test_python_operators_on_tensors(symbol):
    tally = Tally()
    op = OPERATORS[symbol]
    for dtype in DTYPES:
        why = None
        x, y = _array(dtype, (4,)), _array(dtype, (4,))
        tally(f"{dtype} {symbol} {dtype}", lambda lib, a, b: op(a, b), x, y, refused=why)
        for scalar in [2, -3, 0, 2.5, True]:
            scalar_why = why or ("bool arithmetic" if scalar is not True and dtype == "bool" else None)
            tally(f"{dtype} {symbol} {scalar!r}", lambda lib, a, s: op(a, s), x, scalar, refused=scalar_why)
            tally(f"{scalar!r} {symbol} {dtype}", lambda lib, a, s: op(s, a), x, scalar, refused=scalar_why)
    if symbol == "&":
        for dtype in DTYPES:
            tally(f"-{dtype}", lambda lib, a: -a, _array(dtype, (4,)))
            tally(f"abs {dtype}", lambda lib, a: abs(a), _array(dtype, (4,)))
            tally(f"~{dtype}", lambda lib, a: ~a, _array(dtype, (4,)))
    tally.check()


REDUCTIONS = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_any", "reduce_all",
              "reduce_logsumexp"]


@pytest.mark.parametrize("name", REDUCTIONS + ["argmax", "argmin", "cumsum"])
def test_reductions(name):
    tally = Tally()
    for dtype in DTYPES:
        for shape in [(4,), (2, 3), (2, 3, 2)]:
            x = _array(dtype, shape)
            for axis in [None, 0, -1, [0, 1], (0, -1)]:
                if name in REDUCTIONS:
                    for keepdims in (False, True):
                        tally(f"{name} {dtype}{shape} axis={axis} keepdims={keepdims}",
                                lambda lib, t: _op(lib, name)(t, axis=axis, keepdims=keepdims), x)
                elif name == "cumsum" and isinstance(axis, int):
                    for exclusive in (False, True):
                        for reverse in (False, True):
                            tally(f"cumsum {dtype}{shape} {axis} {exclusive} {reverse}",
                                    lambda lib, t: lib.cumsum(t, axis=axis, exclusive=exclusive, reverse=reverse), x)
                elif name != "cumsum" and not isinstance(axis, (list, tuple)):
                    tally(f"{name} {dtype}{shape} axis={axis}", lambda lib, t: _op(lib, name)(t, axis=axis), x)
    tally.check()


X3 = np.arange(24).reshape(2, 3, 4).astype("float32")
M2 = np.arange(6).reshape(2, 3).astype("float32")
SHAPED = {
    "slices": lambda lib, t: [t[0], t[-1], t[:, 1], t[..., 2], t[:, ::-1], t[::-1, ::2, 1:3], t[:, None, 1], t[..., None],
                              t[1, -2:, ::-3], t[:, 5:], t[:, -10:2], t[0, 1, 2], t[1:, ..., -1], t[::-2],
                              t[-1:-3:-1, 0], t[:, 3:0:-1]],
    "gather": lambda lib, t: [lib.gather(t, [2, 0, 1], axis=1), lib.gather(t, [3, 0, 0], axis=-1)],
    "where": lambda lib, t: [lib.where(t > 10, t, -t), lib.where(t[0] > 5)],
    "boolean_mask": lambda lib, t: [lib.boolean_mask(t, [True, False]),
                                    lib.boolean_mask(t, [[True, False, True], [False, False, True]]),
                                    lib.boolean_mask(t, [True, False, True], axis=1)],
    "one_hot": lambda lib, t: [lib.one_hot([0, 2, -1, 4], 3), lib.one_hot([0, 2, -1], 4, 5.0, -1.0, axis=0),
                               lib.one_hot([[0, 2], [1, 1]], 3, 5, -1, dtype=lib.int32)],
    "pad": lambda lib, t: [lib.pad(t, [[1, 1], [2, 0], [0, 1]], mode=m) for m in ("CONSTANT", "REFLECT", "SYMMETRIC")]
    + [lib.pad(t, [[1, 0], [0, 0], [1, 2]], constant_values=7)],
    "tile, split, stack": lambda lib, t: [lib.tile(t, [2, 1, 3]), *lib.split(t, 2, axis=2), *lib.split(t, [1, -1, 2], axis=2),
                                          *lib.unstack(t, axis=1), lib.stack([t, t * 2], axis=-1), lib.concat([t, t], -2)],
    "reshape": lambda lib, t: [lib.reshape(t, [-1, 4]), lib.transpose(t), lib.transpose(t, [2, 0, 1]),
                               lib.expand_dims(t, -1), lib.expand_dims(t, -4), lib.squeeze(lib.reshape(t, [2, 1, 12, 1])),
                               lib.squeeze(lib.reshape(t, [2, 1, 12, 1]), axis=[1]), lib.broadcast_to(t[0, 0], [2, 3, 4])],
    "clip": lambda lib, t: [lib.clip_by_value(t, 3, 10), lib.clip_by_norm(t, 5.0), lib.clip_by_norm(t, 5.0, axes=[2]),
                            *lib.clip_by_global_norm([t, t * 2], 10.0)[0]],
    "matmul, einsum": lambda lib, t: [lib.matmul(t, lib.ones([4, 2])), lib.matmul(t[0], t[1], transpose_b=True),
                                      lib.matmul(t[0], t[1], transpose_a=True), t[0] @ lib.transpose(t[1]),
                                      lib.einsum("bij,bkj->bik", t, t), lib.einsum("ijk->kji", t),
                                      lib.einsum("ij,ij->i", t[0], t[1]), lib.einsum("...j,j->...", t, t[0, 0])],
    "sort": lambda lib, t: [lib.sort(t, direction="DESCENDING"), lib.argsort(t % 5, stable=True),
                            lib.argsort(t % 5, axis=0, direction="DESCENDING", stable=True),
                            *lib.math.top_k(t % 7, k=2)],
    "nn": lambda lib, t: [lib.nn.softmax(t / 10), lib.nn.softmax(t / 10, axis=1), lib.nn.log_softmax(t / 10),
                          lib.nn.relu(t - 10), lib.nn.relu6(t - 10), lib.nn.elu(t - 10), lib.nn.selu(t - 10),
                          lib.nn.gelu(t / 10 - 1), lib.nn.softplus(t - 10), lib.nn.l2_loss(t)],
    "making": lambda lib, t: [lib.range(5), lib.range(2, 9, 3), lib.range(9, 2, -2), lib.range(0.5, 3.0, 0.7),
                              lib.range(5, dtype=lib.float32), lib.linspace(0.0, 1.0, 5), lib.linspace(1.0, -1.0, 3),
                              lib.fill([2, 3], 7), lib.fill([2], 7.5), lib.eye(3, 4), lib.eye(2, batch_shape=[3]),
                              lib.zeros([2, 2], lib.int32), lib.ones([2])],
    "cast": lambda lib, t: [lib.cast(t / 7 - 1.5, d) for d in (lib.int32, lib.int64, lib.uint8, lib.bool, lib.float16)],
}


@pytest.mark.parametrize("name", sorted(SHAPED))
def test_shape_ops_indexing_and_makers(name):
    compare(name, SHAPED[name], X3, tf_computes=True)
    compare(name + " in a function", lambda lib, t: lib.function(lambda u: SHAPED[name](lib, u))(t), X3,
            tf_computes=True)


COMPOSED = {          # runtime/ops/composites.py: TensorFlow functions written with other ops
    "math": lambda lib, t: [lib.math.squared_difference(t, 3.0), lib.math.is_nan(t / (t - 5)),
                            lib.math.is_inf(t / (t - 5)), lib.math.is_finite(t / (t - 5)),
                            lib.math.reduce_variance(t, axis=1), lib.math.reduce_std(t, axis=[0, 2], keepdims=True),
                            lib.math.count_nonzero(t % 3), lib.math.count_nonzero(t > 4, axis=1),
                            lib.math.count_nonzero(t, axis=0, keepdims=True, dtype=lib.int32),
                            lib.math.reduce_euclidean_norm(t, axis=-1), lib.math.reduce_euclidean_norm(lib.cast(t, lib.int32)),
                            lib.math.l2_normalize(t, axis=-1), lib.math.l2_normalize(t * 0),
                            lib.math.log_sigmoid(t - 10), lib.math.softsign(t - 10),
                            lib.math.divide_no_nan(t, t % 3), lib.math.tan(t / 20), lib.math.sinh(t / 5),
                            lib.math.cosh(t / 5), lib.math.add_n([t, t * 2, t]), lib.add_n([t[0], t[1]]),
                            lib.math.softmax(t / 10), lib.math.log_softmax(t / 10)],
    "nn": lambda lib, t: [lib.nn.leaky_relu(t - 10), lib.nn.leaky_relu(t - 10, alpha=0.5), lib.nn.silu(t / 5 - 2),
                          lib.nn.swish(t / 5 - 2), *lib.nn.moments(t, axes=[0, 1]),
                          *lib.nn.moments(t, axes=[2], keepdims=True), lib.nn.bias_add(t, lib.constant([1., 2., 3., 4.])),
                          lib.nn.bias_add(t, lib.constant([1., 2., 3.]), data_format="NCW"),
                          lib.nn.embedding_lookup(t[0], [2, 0, 2]), lib.nn.l2_normalize(t, axis=0),
                          lib.nn.softsign(t - 5)],
    "top level": lambda lib, t: [lib.reverse(t, [0, 2]), lib.reverse(t, [-1]), lib.roll(t, 1, 2),
                                 lib.roll(t, [1, -2], [0, 2]), lib.roll(t, [2, 3], [2, 2]),
                                 *lib.meshgrid(lib.range(2), lib.range(3)), *lib.meshgrid([1, 2], [3, 4, 5], indexing="ij"),
                                 *lib.meshgrid([1., 2.], [3., 4., 5.], [6., 7., 8., 9.]),
                                 lib.repeat(t, 2, axis=1), lib.repeat(t[0], [1, 0, 2], axis=0), lib.repeat([1, 2], 3),
                                 lib.norm(t), lib.norm(t, axis=1), lib.norm(t, ord=1, axis=-1, keepdims=True),
                                 lib.norm(t, ord=np.inf), lib.sequence_mask([1, 3, 0], 4),
                                 lib.sequence_mask([[1, 2], [3, 0]]), lib.sequence_mask([2, 1], 3, dtype=lib.float32),
                                 lib.tensordot(t, t, [[1, 2], [1, 2]]), lib.tensordot(t[0], lib.transpose(t[1]), 1),
                                 lib.tensordot(t[0], t[1], [[0], [0]]), lib.tensordot(t[0, 0], t[1, 1], 0),
                                 *lib.identity_n([t, t[0]]), lib.ensure_shape(t, [2, None, 4]),
                                 int(lib.is_tensor(t)) + 2 * int(lib.is_tensor(3)), lib.get_static_value(t[0]),
                                 *[f(lib.cast(t, d), lib.constant(k, d)) for d in (lib.int32, lib.int64) for k in (3, -6)
                                   for f in (lib.bitwise.bitwise_and, lib.bitwise.bitwise_or, lib.bitwise.bitwise_xor,
                                             lambda a, b: lib.bitwise.left_shift(a, b % 5),
                                             lambda a, b: lib.bitwise.right_shift(a, b % 5))],
                                 lib.bitwise.invert(lib.cast(t, lib.int32))],
}


COMPOSED["nd"] = lambda lib, t: [
    lib.gather_nd(t, [[1, 2, 3], [0, 0, 1]]), lib.gather_nd(t, [[1], [0]]), lib.gather_nd(t, [[[0, 2]], [[1, 1]]]),
    lib.scatter_nd([[0], [2], [0]], [1.0, 2.0, 3.0], [4]), lib.scatter_nd([[1, 0]], [[5.0, 6.0]], [2, 2, 2]),
    lib.tensor_scatter_nd_update(t, [[0, 1], [1, 2]], t[0, :2] * 10), lib.tensor_scatter_nd_add(t, [[1]], t[:1]),
    lib.tensor_scatter_nd_sub(t, [[0, 0, 0], [1, 2, 3]], [100.0, 200.0]),
    lib.tensor_scatter_nd_update(lib.cast(t, lib.int32), [[1, 1, 1]], [-7])]
COMPOSED["higher-order"] = lambda lib, t: [
    lib.map_fn(lambda r: r * 2 + 1, t), lib.map_fn(lambda r: lib.reduce_sum(r), t, fn_output_signature=lib.float32),
    *lib.map_fn(lambda p: (p[0] + 1, p[1] * 2), (t, lib.range(2))), lib.map_fn(lambda r: r[0], lib.cast(t, lib.int32)),
    lib.scan(lambda a, r: a + r, t), lib.scan(lambda a, r: a * r + 1, t, reverse=True),
    lib.scan(lambda a, r: a + lib.reduce_sum(r), t, initializer=lib.constant(1.0)),
    *lib.scan(lambda a, r: (a[0] + r, a[1] - r), t, initializer=(t[0] * 0, t[0])),
    lib.foldl(lambda a, r: a + r, t), lib.foldr(lambda a, r: a * 0.5 + r, t),
    lib.foldl(lambda a, r: a - lib.reduce_max(r), t, initializer=lib.constant(0.0)),
    *[lib.switch_case(lib.constant(k), [lambda: t[0], lambda: t[1] * 2, lambda: t[0] - 1]) for k in (0, 1, 2, 5, -1)],
    *[lib.switch_case(lib.constant(k), {0: lambda: t[0], 1: lambda: t[1]}, default=lambda: t[0] * 0) for k in (1, 3)],
]


NAN = float("nan")
COMPOSED["this session's"] = lambda lib, t: [
    lib.math.xlogy(t % 3, t - 4), lib.math.xdivy(t % 3, t - 4), lib.math.rint(t / 4 - 2.5),
    lib.math.cumprod(t / 10, axis=1), lib.math.cumprod(t, axis=-1, exclusive=True, reverse=True),
    lib.math.cumprod(lib.cast(t[0], lib.int32), exclusive=True),
    lib.math.unsorted_segment_sum(t, [1, -1], 3), lib.math.unsorted_segment_sum(t[0], [0, 2, 0], 4),
    lib.math.unsorted_segment_sum(lib.cast(t[1, 0], lib.int32), [3, 3, -2, 0], 4),
    *[lib.case([(t[0, 0, 0] > k, lambda: t[0]), (t[1, 0, 0] > k, lambda: t[1])], default=lambda: t[0] * 0)
      for k in (-1, 5, 20)],
    lib.case([(t[0, 0, 0] > 5, lambda: t[0]), (t[1, 0, 0] > 5, lambda: t[1])]),
    *[f(lib.constant(v)) for v in ([NAN, 1.0], [1.0, NAN, 3.0], [NAN, NAN], [3.0, NAN, 1.0], [NAN, -np.inf])
      for f in (lib.argmax, lib.argmin)],
    lib.strings.format("{} {} {} {}", (t[0, 0], lib.sqrt(t[0]), lib.constant([True, False]), lib.constant(["a\nb", "q"]))),
    lib.strings.format("{}", lib.sqrt(lib.constant(np.arange(60.0).reshape(3, 4, 5))), summarize=2),
]


@pytest.mark.parametrize("name", sorted(COMPOSED))
def test_composed_functions(name):
    compare(name, COMPOSED[name], X3, tf_computes=True)
    compare(name + " in a function", lambda lib, t: lib.function(
        lambda u: [v for v in COMPOSED[name](lib, u) if lib.is_tensor(v)])(t), X3, tf_computes=True)


# Edges where NumPy's answer leaked through (tools/grad_probe_cases_edges.py; TF-free: test_tensorflow_edges.py)
INF = float("inf")
EDGES = {
    "float floordiv": lambda lib: [lib.constant([1.0, -3.0, INF, 3.0, 5.5]) // lib.constant([0.1, INF, 2.0, 0.0, -0.0]),
                                   lib.math.floordiv(lib.constant([1.0, 7.0], lib.float64), lib.constant([0.1, 0.7], lib.float64))],
    "one_hot dtypes": lambda lib: [lib.one_hot([0, 3, -1], 3, on_value=2, off_value=-1), lib.one_hot([1], 2, off_value=2),
                                   lib.one_hot([0], 2, on_value=True, off_value=False)],
    "linspace of ints": lambda lib: [lib.linspace(0, 7, 4), lib.linspace(lib.constant(0, lib.int64), lib.constant(7, lib.int64), 3)],
    "== across shapes": lambda lib: [lib.constant([1.0, 2.0]) == lib.constant([1.0, 2.0, 3.0]),
                                     lib.constant([1.0, 2.0]) != lib.constant([1.0, 2.0, 3.0]), lib.constant([1, 2]) == [1, 2, 3]],
    "reshape 0 elements": lambda lib: [lib.reshape(lib.zeros([0, 3]), [0, -1, 3]), lib.reshape(lib.zeros([0, 3]), [-1, 0]),
                                       lib.reshape(lib.zeros([0, 3]), [-1, 3])],
    "empty max and min": lambda lib: [lib.reduce_max(lib.zeros([2, 0]), axis=1), lib.reduce_min(lib.zeros([2, 0], lib.int32), axis=1)],
    "shifts past the width": lambda lib: [
        f(lib.constant(a, d), lib.constant(b, d)) for f in (lib.bitwise.left_shift, lib.bitwise.right_shift)
        for a, b, d in (([1, -8, 1, 5, -1, -8], [31, 1, 32, -1, 40, -3], lib.int32), ([1, 200], [9, 9], lib.uint8),
                        ([1, -8], [9, 9], lib.int8), ([3, -3], [63, 64], lib.int64))],
    "NumPy operands": lambda lib: [lib.constant([1.0, 4.0]) * np.sqrt(2.0), np.array([2.0, 3.0]) - lib.constant([1.0, 4.0]),
                                   lib.maximum(lib.constant([1.0]), np.float64(2.5)), lib.constant([1.5]) + np.arange(1),
                                   lib.constant([2]) * np.int64(3), lib.constant([2.5]) == np.float64(2.5)],
    "exclusive cumsum": lambda lib: [lib.cumsum(lib.constant([1.0, NAN, 2.0, INF]), exclusive=True),
                                     lib.cumsum(lib.constant([1.0, NAN, 2.0, INF]), exclusive=True, reverse=True)],
}
EDGE_ERRORS = {
    "int // 0": lambda lib: lib.constant([7]) // lib.constant([0]), "int % 0": lambda lib: lib.constant([7]) % lib.constant([0]),
    "range(5, 2)": lambda lib: lib.range(5, 2), "range(2, 5, -1)": lambda lib: lib.range(2, 5, -1),
    "range(-3)": lambda lib: lib.range(-3), "reshape to -2": lambda lib: lib.reshape(lib.ones([2, 3]), [-2, 3]),
    "gather axis 2 of a matrix": lambda lib: lib.gather(lib.ones([2, 2]), [0], axis=2),
    "one_hot of floats": lambda lib: lib.one_hot(lib.constant([0.0]), 2), "one_hot depth -1": lambda lib: lib.one_hot([0], -1),
    "one_hot on/off dtypes": lambda lib: lib.one_hot([0], 2, on_value=1.0, off_value=0),
    "assign_add a scalar": lambda lib: lib.Variable([1.0, 2.0]).assign_add(1.0),
    "assign_sub a wider": lambda lib: lib.Variable([1.0, 2.0]).assign_sub([[1.0, 1.0]]),
    "sort bools": lambda lib: lib.sort(lib.constant([True, False])), "top_k bools": lambda lib: lib.math.top_k([True, False], 1),
    "abs of uint8": lambda lib: lib.abs(lib.constant([1], lib.uint8)),
    "clip bounds that widen t": lambda lib: lib.clip_by_value(lib.constant([1.0, 2.0]), lib.zeros([3, 2]), 10.0),
    "tile multiples too short": lambda lib: lib.tile(lib.ones([2, 3]), [2]),
    "where of a scalar": lambda lib: lib.where(lib.constant(True)),
}


@pytest.mark.parametrize("name", sorted(EDGES))
def test_edges_where_numpy_leaked(name):
    compare(name, lambda lib: EDGES[name](lib), tf_computes=True)
    compare(name + " in a function", lambda lib: lib.function(lambda: EDGES[name](lib))(), tf_computes=True)


@pytest.mark.parametrize("name", sorted(EDGE_ERRORS))
def test_edges_where_tensorflow_raises_the_runtime_raises(name):
    tf_ok, tf_out = _run(real_tf, lambda lib: EDGE_ERRORS[name](lib), [])
    rt_ok, rt_out = _run(rt, lambda lib: EDGE_ERRORS[name](lib), [])
    assert not tf_ok, f"{name}: TensorFlow computes {tf_out!r}"
    assert not rt_ok, f"{name}: TensorFlow raises {tf_out!r}, the runtime computes {rt_out!r}"


W = np.array([[1., 2., 3.], [4., 5., 6.]], "float32")
GRADIENTS = {
    "unary": lambda lib, a, b: sum(lib.reduce_sum(f(a) * W) for f in (
        lib.abs, lib.sign, lib.sin, lib.cos, lib.exp, lib.tanh, lib.sigmoid, lib.square, lib.negative, lib.round,
        lib.math.floor, lib.math.erf, lambda v: lib.sqrt(lib.abs(v) + 0.1), lambda v: lib.math.log(lib.abs(v) + 0.1),
        lib.math.expm1, lib.math.softplus, lambda v: lib.math.reciprocal(v + 5))),
    "binary": lambda lib, a, b: sum(lib.reduce_sum(f(lib.abs(a) + 0.5, b) * W) for f in (
        lib.add, lib.subtract, lib.multiply, lib.divide, lib.maximum, lib.minimum, lib.pow, lib.math.floormod)),
    "ties": lambda lib, a, b: lib.reduce_sum(lib.maximum(a, a)) + lib.reduce_max(lib.round(a)) + lib.reduce_min(a * 0),
    "reductions": lambda lib, a, b: (lib.reduce_sum(lib.reduce_mean(a * a, axis=0)) + lib.reduce_sum(lib.reduce_prod(a, 1))
                                     + lib.reduce_sum(lib.reduce_logsumexp(a, axis=1)) + lib.reduce_prod(a * 0 + b)),
    "nn": lambda lib, a, b: sum(lib.reduce_sum(f(a) * W) for f in (
        lib.nn.softmax, lib.nn.log_softmax, lib.nn.relu, lambda v: lib.nn.relu6(v * 4), lib.nn.elu, lib.nn.selu,
        lib.nn.gelu, lambda v: lib.nn.gelu(v, approximate=True), lib.nn.softplus, lib.nn.l2_loss)),
    "losses": lambda lib, a, b: (
        lib.reduce_sum(lib.nn.softmax_cross_entropy_with_logits(labels=lib.nn.softmax(b), logits=a))
        + lib.reduce_sum(lib.nn.sigmoid_cross_entropy_with_logits(labels=lib.sigmoid(b), logits=a))
        + lib.reduce_sum(lib.nn.sparse_softmax_cross_entropy_with_logits(labels=lib.constant([2, 0]), logits=a))),
    "shapes": lambda lib, a, b: (
        lib.reduce_sum(lib.gather(a, [0, 2, 2], axis=1) * lib.constant([1., 2., 3.])) + lib.reduce_sum(a[:, ::-2] * 3)
        + lib.reduce_sum(lib.concat([a, b * 2], 0) ** 2) + lib.reduce_sum(lib.stack([a, b]) ** 2)
        + lib.reduce_sum(lib.transpose(a) * lib.transpose(W)) + lib.reduce_sum(lib.reshape(a, [3, 2]) ** 3)
        + lib.reduce_sum(lib.where(a > 0, a * b, b)) + lib.reduce_sum(lib.boolean_mask(a, a > 0) ** 2)
        + lib.reduce_sum(lib.pad(a, [[1, 0], [0, 2]]) ** 2) + lib.reduce_sum(lib.split(a, [1, 2], axis=1)[1] * 2)),
    "linear algebra": lambda lib, a, b: (
        lib.reduce_sum(lib.matmul(a, b, transpose_b=True)) + lib.reduce_sum(lib.einsum("ij,kj->ik", a, b) ** 2)
        + lib.reduce_sum(lib.cumsum(a, axis=1, exclusive=True, reverse=True) * W)
        + lib.reduce_sum(lib.clip_by_norm(a, 1.0) * W) + lib.reduce_sum(lib.clip_by_value(a, -1.0, 1.0))),
    "composed": lambda lib, a, b: sum(lib.reduce_sum(v * lib.cast(lib.ones_like(v), v.dtype)) for v in (
        lib.math.squared_difference(a, b), lib.math.reduce_variance(a, axis=1), lib.math.reduce_std(a * b),
        lib.math.l2_normalize(a, axis=1), lib.math.log_sigmoid(a), lib.math.softsign(a) * W,
        lib.math.divide_no_nan(a, lib.round(b)), lib.math.tan(a / 4), lib.math.sinh(a), lib.math.cosh(b),
        lib.math.add_n([a, b * a]), lib.nn.leaky_relu(a) * W, lib.nn.silu(a) * W, *lib.nn.moments(a * b, axes=[1]),
        lib.nn.bias_add(a, b[0]), lib.reverse(a, [1]) * W, lib.roll(a, 1, 1) * W, lib.repeat(a, 2, axis=0),
        lib.norm(a), lib.norm(b, ord=1, axis=1), lib.tensordot(a, b, [[1], [1]]),
        lib.math.reduce_euclidean_norm(a, axis=0))),
    "higher-order": lambda lib, a, b: (
        lib.reduce_sum(lib.map_fn(lambda r: r * r * b[0], a) * W) + lib.reduce_sum(lib.scan(lambda c, r: c * r + b[1], a))
        + lib.reduce_sum(lib.foldr(lambda c, r: c * 0.5 + r * r, a))
        + lib.reduce_sum(lib.switch_case(lib.constant(1), [lambda: a[0], lambda: a[1] * b[1]]))),
    "nd": lambda lib, a, b: (
        lib.reduce_sum(lib.gather_nd(a, [[1, 2], [0, 0], [1, 2]]) * lib.constant([1.0, 2.0, 3.0]))
        + lib.reduce_sum(lib.tensor_scatter_nd_update(a, [[0, 1], [1, 0]], b[0, :2]) * a)
        + lib.reduce_sum(lib.tensor_scatter_nd_add(a, [[1]], b[:1] * b[:1]) ** 2)
        + lib.reduce_sum(lib.scatter_nd([[2], [0]], b[1, :2], [3]) * lib.constant([1.0, 2.0, 3.0]))),
    # batch axes broadcast in matmul (b's gradient was left [2, 3, 2]); clip bounds (their gradients were None,
    # and lo > hi picked hi); the branch tf.where does not pick, through sqrt, rsqrt and reciprocal (NaN, not 0)
    "broadcast matmul, clip bounds": lambda lib, a, b: (
        lib.reduce_sum(lib.matmul(lib.stack([a, a * 2]), lib.transpose(b)) ** 2)
        + lib.reduce_sum(lib.matmul(lib.transpose(b), lib.stack([a, -a])[:, None]) * 0.5)
        + lib.reduce_sum(lib.clip_by_value(a, b[0], b[1]) * W) + lib.reduce_sum(lib.clip_by_value(a, -0.5, b[1]))),
    "where's other branch": lambda lib, a, b: sum(
        lib.reduce_sum(lib.where(a > 0, f(a), b) * W) for f in (lib.sqrt, lib.math.rsqrt, lib.math.reciprocal)),
    "xlogy, xdivy, segments, cumprod": lambda lib, a, b: (
        lib.reduce_sum(lib.math.xlogy(lib.round(a), lib.abs(b)) * W) + lib.reduce_sum(lib.math.xdivy(lib.round(b), a) * W)
        + lib.reduce_sum(lib.math.unsorted_segment_sum(a * b, [1, 0], 3) ** 2)
        + lib.reduce_sum(lib.math.cumprod(a + 2.0, axis=1, exclusive=True) * W)
        + lib.reduce_sum(lib.math.cumprod(b, reverse=True) * W)),
    "cumprod through a zero": lambda lib, a, b: (      # TensorFlow's div_no_nan: 0 where x is 0
        lib.reduce_sum(lib.math.cumprod(a - a[:, :1], axis=1) * W)
        + lib.reduce_sum(lib.math.cumprod(b * lib.constant([1.0, 0.0, 1.0]), axis=1, exclusive=True) * W)),
    "mirror pads": lambda lib, a, b: (     # a NotImplementedError before
        lib.reduce_sum(lib.pad(a * b, [[1, 1], [2, 1]], mode="REFLECT") ** 2)
        + lib.reduce_sum(lib.pad(a, [[2, 0], [1, 3]], mode="SYMMETRIC") * lib.reshape(lib.range(28.0), [4, 7]))),
    "abs of a complex zero": lambda lib, a, b: lib.reduce_sum(lib.abs(lib.complex(a, b * 0.0)) * W),
    "sorting": lambda lib, a, b: (lib.reduce_sum(lib.math.top_k(a, 2).values * lib.constant([[1., 2.], [3., 4.]]))
                                  + lib.reduce_sum(lib.sort(a) * W)),
}


@pytest.mark.parametrize("name", sorted(GRADIENTS))
@pytest.mark.parametrize("where", ["eager", "function"])
def test_gradients(name, where):
    a = np.array([[0.5, -1.2, 2.0], [3.0, 0.0, -0.7]], "float32")       # a 0: the kinks
    b = np.array([[1.5, 2.2, -2.0], [1.0, 0.3, -0.1]], "float32")

    def gradients(lib, x, y):
        def run(x, y):
            with lib.GradientTape(persistent=True) as tape:
                tape.watch([x, y])
                out = GRADIENTS[name](lib, x, y)
            return [tape.gradient(out, x), tape.gradient(out, y)]
        found = run(x, y) if where == "eager" else lib.function(run)(x, y)
        return [lib.zeros_like(x) if g is None else g for g in found]
    compare(f"gradients of {name} ({where})", gradients, a, b, tf_computes=True)


OPTIMIZERS = {
    "SGD": lambda lib: lib.keras.optimizers.SGD(0.1),
    "SGD momentum": lambda lib: lib.keras.optimizers.SGD(0.1, momentum=0.9),
    "SGD nesterov": lambda lib: lib.keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True),
    "Adam": lambda lib: lib.keras.optimizers.Adam(0.1),
    "Adam betas": lambda lib: lib.keras.optimizers.Adam(learning_rate=0.05, beta_1=0.5, beta_2=0.9, epsilon=1e-3),
    "Adam amsgrad, weight decay, global clipnorm": lambda lib: lib.keras.optimizers.Adam(
        0.1, amsgrad=True, weight_decay=0.2, global_clipnorm=1.0),
    "SGD momentum, clipnorm, weight decay": lambda lib: lib.keras.optimizers.SGD(
        0.1, momentum=0.8, clipnorm=0.3, weight_decay=0.1),
    "SGD clipvalue": lambda lib: lib.keras.optimizers.SGD(0.1, clipvalue=0.5),
    "RMSprop": lambda lib: lib.keras.optimizers.RMSprop(0.1),
    "RMSprop momentum": lambda lib: lib.keras.optimizers.RMSprop(0.05, momentum=0.5),
    "RMSprop centered": lambda lib: lib.keras.optimizers.RMSprop(0.05, centered=True, rho=0.8),
    "RMSprop all": lambda lib: lib.keras.optimizers.RMSprop(0.05, centered=True, momentum=0.3, epsilon=1e-3,
                                                            clipvalue=0.7, weight_decay=0.05),
    "Adagrad": lambda lib: lib.keras.optimizers.Adagrad(0.1),
    "Adagrad initial": lambda lib: lib.keras.optimizers.Adagrad(0.2, initial_accumulator_value=1.0, epsilon=1e-3),
}


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
@pytest.mark.parametrize("where", ["eager", "function"])
def test_optimizer_steps(name, where):
    def train(lib):
        v, w = lib.Variable([1.0, -2.0, 3.0], name="v"), lib.Variable([[0.5], [0.1], [-0.3]], name="bias")
        optimizer = OPTIMIZERS[name](lib)
        if optimizer.weight_decay:
            optimizer.exclude_from_weight_decay(var_names=["bias"])

        def step():
            with lib.GradientTape() as tape:
                loss = lib.reduce_sum(lib.square(v * lib.constant([1.0, 2.0, 3.0]) - 1.0)) + lib.reduce_sum(w * w)
            optimizer.apply_gradients(zip(tape.gradient(loss, [v, w]), [v, w]))
        step = step if where == "eager" else lib.function(step)
        for _ in range(5):
            step()
        return [v.read_value(), w.read_value()]
    compare(f"{name} ({where})", train, tf_computes=True)


def test_keras_losses_and_metrics():
    labels = np.array([1, 0, 2], "int32")
    logits = np.array([[1., 2., 0.5], [0.1, -1., 2.], [0., 0., 0.]], "float32")
    probabilities = (np.exp(logits) / np.exp(logits).sum(1, keepdims=True)).astype("float32")
    weights = np.array([1., 0., 2.], "float32")
    compare("losses", lambda lib, t, p, q, sw: [
        lib.keras.losses.sparse_categorical_crossentropy(t, p, from_logits=True),
        lib.keras.losses.sparse_categorical_crossentropy(t, q),
        lib.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(t, p),
        lib.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(t, p, sample_weight=sw),
        lib.keras.losses.MeanSquaredError()(p, q), lib.keras.losses.MeanSquaredError()(p, q, sample_weight=sw)],
        labels, logits, probabilities, weights, tf_computes=True)

    binary = np.array([[1., 0., 1.], [0., 0., 1.]], "float32")
    probs2 = np.array([[0.9, 0.2, 0.4], [0.3, 1.0, 0.7]], "float32")
    onehot = np.array([[0., 1., 0.], [1., 0., 0.], [0., 0., 1.]], "float32")
    compare("more losses", lambda lib, yb, pb, oh, lg, pr, sw: [
        lib.keras.losses.BinaryCrossentropy()(yb, pb), lib.keras.losses.BinaryCrossentropy(from_logits=True)(yb, pb * 4 - 2),
        lib.keras.losses.BinaryCrossentropy(label_smoothing=0.2)(yb, pb),
        lib.keras.losses.BinaryCrossentropy(from_logits=True, label_smoothing=0.1)(yb, pb - 0.5, sample_weight=sw[:2]),
        lib.keras.losses.binary_crossentropy(yb, pb), lib.keras.losses.categorical_crossentropy(oh, pr),
        lib.keras.losses.CategoricalCrossentropy()(oh, pr), lib.keras.losses.CategoricalCrossentropy(from_logits=True)(oh, lg),
        lib.keras.losses.CategoricalCrossentropy(from_logits=True, label_smoothing=0.3)(oh, lg, sample_weight=sw),
        lib.keras.losses.MeanAbsoluteError()(pr, oh), lib.keras.losses.Huber()(oh, lg),
        lib.keras.losses.Huber(delta=0.5)(oh, lg, sample_weight=sw)],
        binary, probs2, onehot, logits, probabilities, weights, tf_computes=True)

    def accuracies(lib):
        found = []
        for m, args in ((lib.keras.metrics.Accuracy(), ([1, 2, 3], [1, 2, 0])),
                        (lib.keras.metrics.BinaryAccuracy(), (binary[:, 0], probs2[:, 0])),
                        (lib.keras.metrics.BinaryAccuracy(threshold=0.8), (binary, probs2)),
                        (lib.keras.metrics.CategoricalAccuracy(), (onehot, probabilities)),
                        (lib.keras.metrics.SparseCategoricalAccuracy(), (labels, logits)),
                        (lib.keras.metrics.SparseCategoricalAccuracy(), (labels[:, None], logits))):
            m.update_state(*args)
            m.update_state(*args, sample_weight=weights[:len(args[0])])
            found.append(m.result())
        total = lib.keras.metrics.Sum()
        total.update_state([1.0, 2.5])
        total.update_state([4.0], sample_weight=[0.5])
        return found + [total.result()]
    compare("accuracies", accuracies, tf_computes=True)

    def mean(lib):
        m = lib.keras.metrics.Mean()
        m.update_state(lib.constant([1., 2., 3.]))
        m.update_state(lib.constant([10.]), sample_weight=lib.constant([2.]))
        return m.result()
    compare("metrics.Mean", mean, tf_computes=True)


def test_debugging_assertions_pass_and_fail_where_tensorflows_do():
    def outcomes(lib):
        d = lib.debugging
        x, y, z = lib.constant([1.0, 2.0]), lib.constant([1.0, 2.5]), lib.constant([0.0, float("nan")])
        checks = [
            lambda: d.assert_equal(x, x), lambda: d.assert_equal(x, y), lambda: d.assert_greater(y, x),
            lambda: d.assert_greater_equal(y, x), lambda: d.assert_greater_equal(x, y), lambda: d.assert_less_equal(x, y),
            lambda: d.assert_less_equal(y, x), lambda: d.assert_none_equal(x, y * 3), lambda: d.assert_none_equal(x, y),
            lambda: d.assert_positive(x), lambda: d.assert_positive(x - 1), lambda: d.assert_negative(-x),
            lambda: d.assert_non_negative(x - 1), lambda: d.assert_non_positive(x), lambda: d.assert_near(x, x + 1e-7),
            lambda: d.assert_near(x, y), lambda: d.assert_near(x, y, atol=0.6), lambda: d.check_numerics(x, "m"),
            lambda: d.check_numerics(z, "m"), lambda: d.assert_all_finite(x / 0.0, "m"),
            lambda: d.assert_rank(x, 1), lambda: d.assert_rank(x, 2), lambda: d.assert_rank_at_least(x, 1),
            lambda: d.assert_rank_at_least(x, 2), lambda: d.assert_rank_in(x, [0, 1]), lambda: d.assert_rank_in(x, [2]),
            lambda: d.assert_scalar(x), lambda: d.assert_type(x, lib.float32), lambda: d.assert_type(x, lib.int32),
            lambda: d.assert_integer(x), lambda: d.assert_integer(lib.constant([1])),
            lambda: None if d.is_numeric_tensor(x) and not d.is_numeric_tensor(x > 0) else 1 / 0,
        ]
        found = []
        for check in checks:
            try:
                check()
                found.append("ok")
            except Exception as e:        # noqa: BLE001 - which family TensorFlow raises, compared
                found.append("InvalidArgumentError" if "InvalidArgument" in type(e).__name__ else
                             "ValueError" if isinstance(e, ValueError) else type(e).__name__)
        return found
    compare("tf.debugging outcomes", lambda lib: [np.asarray(outcomes(lib))], tf_computes=True)
