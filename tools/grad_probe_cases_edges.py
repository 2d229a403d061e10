"""Cases for tools/grad_probe.py: forward values at the edges (division and modulo of negatives and by zero,
overflow, casts of NaN/inf, NaN in reductions and sorts, empty tensors, bad axes and indices, broadcasting
errors, slicing, dtype promotion, tensor protocols), where NumPy's answer may leak through.

Run alone with `PYTHONPATH=. /tmp/allv/bin/python tools/grad_probe.py -k edge`. Each case is one op on
inputs passed as arguments of the staged function (so the executor's and JAX's kernels run, not constant
folding). Cases are registered with `errors=True`: where TensorFlow raises and the runtime computes, the
case counts as LAX (TensorFlow users expect the error). `case` is injected by tools/grad_probe.py."""
import numpy as np

NAN, INF = float("nan"), float("inf")
I32 = np.int32
F32 = np.float32


def _inputs(lib, values):
    return [lib.constant(v) if isinstance(v, np.ndarray) else v for v in values]


def _register(area, name, body, *values, modes=("eager", "function", "jit"), xla=""):
    """One case: `body(lib, *tensors)` eagerly and staged, `values` (NumPy arrays) passed as tensors; `xla`
    as tools/grad_probe.py's `case`."""
    def program(lib, fn):
        return fn(lambda *a: body(lib, *a))(*_inputs(lib, values))
    program.__name__ = name
    case(area, modes=modes, errors=True, xla=xla)(program)


_NAN_ORDER = "NaN above every number, docs/runtime.md#differences-from-tensorflow"
_NAN_SOFTMAX = "a row whose sum is NaN is NaN, docs/runtime.md#differences-from-tensorflow"


def _a(*v, dtype=F32):
    return np.array(v, dtype)


NEG_I = np.array([7, -7, 7, -7, 0, -1], I32)
DIV_I = np.array([2, 2, -2, -2, 3, 3], I32)
NEG_F = np.array([7, -7, 7, -7, 0, -1, 5.5, -5.5], F32)
DIV_F = np.array([2, 2, -2, -2, 3, 0, 0, -0.0], F32)

# ---------------------------------------------------------------- division and modulo
for _name, _op in {"floordiv": lambda lib: lib.math.floordiv, "floormod": lambda lib: lib.math.floormod,
                   "mod": lambda lib: lib.math.mod, "slash": lambda lib: lambda a, b: a // b,
                   "percent": lambda lib: lambda a, b: a % b, "truediv": lambda lib: lib.math.truediv,
                   "divide": lambda lib: lib.divide}.items():
    _register("edge-div", f"{_name}_int_signs", lambda lib, a, b, op=_op: op(lib)(a, b), NEG_I, DIV_I)
    _register("edge-div", f"{_name}_float_signs", lambda lib, a, b, op=_op: op(lib)(a, b), NEG_F, DIV_F)
    _register("edge-div", f"{_name}_int64", lambda lib, a, b, op=_op: op(lib)(a, b),
              NEG_I.astype(np.int64), DIV_I.astype(np.int64))
    _register("edge-div", f"{_name}_int_by_zero", lambda lib, a, b, op=_op: op(lib)(a, b),
              np.array([7, -7], I32), np.array([0, 0], I32))
_register("edge-div", "floordiv_int_min_by_minus_one", lambda lib, a, b: lib.math.floordiv(a, b),
          np.array([-2 ** 31], I32), np.array([-1], I32))
_register("edge-div", "floormod_int_min_by_minus_one", lambda lib, a, b: lib.math.floormod(a, b),
          np.array([-2 ** 31], I32), np.array([-1], I32))
_register("edge-div", "float_mod_inf", lambda lib, a, b: [a % b, a // b], _a(3, -3, INF, NAN), _a(INF, INF, 2, 2))
_register("edge-div", "uint8_div", lambda lib, a, b: [a // b, a % b, a / b],
          np.array([200, 7], np.uint8), np.array([3, 2], np.uint8))
_register("edge-div", "python_int_floordiv", lambda lib, a: [a // -2, -7 // a, a % -3, -7 % a], NEG_I[:4])

# ---------------------------------------------------------------- overflow and casts
_register("edge-cast", "int32_add_overflow", lambda lib, a: [a + a, a * 2, a * a, -a], np.array([2 ** 31 - 1], I32))
_register("edge-cast", "int32_min_abs_neg", lambda lib, a: [lib.abs(a), -a, lib.negative(a)], np.array([-2 ** 31], I32))
_register("edge-cast", "uint8_ops", lambda lib, a: [a + a, a - 200, a * 3, a - a - 1], np.array([0, 1, 200], np.uint8))
_register("edge-cast", "uint8_negate", lambda lib, a: -a, np.array([0, 1, 200], np.uint8))
_register("edge-cast", "uint8_abs", lambda lib, a: lib.abs(a), np.array([0, 1, 200], np.uint8))
_register("edge-cast", "int8_wrap", lambda lib, a: [a + a, -a, a * a], np.array([-128, 100], np.int8))
_register("edge-cast", "cast_big_int", lambda lib, a: [lib.cast(a, lib.int32), lib.cast(a, lib.uint8),
                                                        lib.cast(a, lib.int8), lib.cast(a, lib.int16)],
          np.array([2 ** 31 + 5, -1, 300, -129], np.int64))
for _dt in ("int32", "int64", "uint8", "int8", "int16"):
    _register("edge-cast", f"cast_nan_inf_to_{_dt}", lambda lib, a, d=_dt: lib.cast(a, getattr(lib, d)),
              _a(NAN, INF, -INF, 3e9, -3e9, 2.7, -2.7, 255.9, -0.5))
_register("edge-cast", "cast_to_bool", lambda lib, a, b: [lib.cast(a, lib.bool), lib.cast(b, lib.bool)],
          _a(0, -0.0, NAN, 0.1, INF), np.array([0, -1, 2], I32))
_register("edge-cast", "cast_bool_to", lambda lib, a: [lib.cast(a, d) for d in (lib.float32, lib.int32, lib.uint8)],
          np.array([True, False]))
_register("edge-cast", "cast_f64_to_f32_overflow", lambda lib, a: [lib.cast(a, lib.float32), lib.cast(a, lib.float16)],
          np.array([1e300, -1e300, 1e-300, 70000.0], np.float64))
_register("edge-cast", "constant_of_big_python_float", lambda lib: [lib.constant(1e300), lib.constant(1e300, lib.float64)])
_register("edge-cast", "constant_of_big_python_int", lambda lib: lib.constant(2 ** 31))
_register("edge-cast", "constant_int_overflow_dtype", lambda lib: lib.constant(2 ** 31, lib.int32))
_register("edge-cast", "constant_float_to_int_dtype", lambda lib: lib.constant(2.5, lib.int32))
_register("edge-cast", "constant_negative_to_uint8", lambda lib: lib.constant(-1, lib.uint8))
_register("edge-cast", "constant_mixed_list", lambda lib: lib.constant([1, 2.5]))
_register("edge-cast", "round_half_even", lambda lib, a: [lib.round(a), lib.math.rint(a)],
          _a(0.5, 1.5, 2.5, -0.5, -1.5, -2.5, NAN, INF, 1e20))
_register("edge-cast", "round_int", lambda lib, a: lib.round(a), NEG_I)

# ---------------------------------------------------------------- reductions with NaN/inf, empty
_NANS = _a(1, NAN, -INF, 3)
for _r in ("reduce_max", "reduce_min", "reduce_mean", "reduce_sum", "reduce_prod", "reduce_logsumexp"):
    _register("edge-reduce", f"{_r}_nan", lambda lib, a, r=_r: getattr(lib, r)(a), _NANS)
    _register("edge-reduce", f"{_r}_infs", lambda lib, a, r=_r: getattr(lib, r)(a), _a(INF, -INF, 1))
    _register("edge-reduce", f"{_r}_empty", lambda lib, a, r=_r: [getattr(lib, r)(a), getattr(lib, r)(a, axis=0)],
              np.zeros((0, 3), F32))
    _register("edge-reduce", f"{_r}_empty_int", lambda lib, a, r=_r: getattr(lib, r)(a, axis=1),
              np.zeros((2, 0), I32), modes=("eager", "function", "jit") if _r != "reduce_logsumexp" else ("eager",))
    _register("edge-reduce", f"{_r}_axis_out_of_range", lambda lib, a, r=_r: getattr(lib, r)(a, axis=2),
              np.ones((2, 3), F32))
    _register("edge-reduce", f"{_r}_axis_minus3", lambda lib, a, r=_r: getattr(lib, r)(a, axis=-3),
              np.ones((2, 3), F32))
    _register("edge-reduce", f"{_r}_repeated_axis", lambda lib, a, r=_r: getattr(lib, r)(a, axis=[1, -1]),
              np.ones((2, 3), F32))
_register("edge-reduce", "reduce_any_all_empty", lambda lib, a: [lib.reduce_any(a), lib.reduce_all(a),
                                                                 lib.reduce_any(a, axis=1, keepdims=True)],
          np.zeros((2, 0), bool))
_register("edge-reduce", "reduce_max_bool", lambda lib, a: lib.reduce_max(a), np.array([True, False]))
_register("edge-reduce", "reduce_sum_bool", lambda lib, a: lib.reduce_sum(a), np.array([True, False]))
_register("edge-reduce", "reduce_mean_int", lambda lib, a: [lib.reduce_mean(a), lib.reduce_mean(a, axis=0)],
          np.array([[1, 2], [-4, 4]], I32))
_register("edge-reduce", "reduce_sum_int_overflow", lambda lib, a: [lib.reduce_sum(a), lib.reduce_prod(a)],
          np.array([2 ** 30, 2 ** 30, 2 ** 30], I32))
_register("edge-reduce", "reduce_std_var", lambda lib, a: [lib.math.reduce_std(a), lib.math.reduce_variance(a, axis=1),
                                                           lib.math.reduce_variance(a[:, :1], axis=1)],
          _a([1, 2, 3], [1e10, 1e10 + 1, NAN]))
_register("edge-reduce", "reduce_var_int", lambda lib, a: lib.math.reduce_variance(a), np.array([1, 2], I32))
_register("edge-reduce", "reduce_var_empty", lambda lib, a: lib.math.reduce_variance(a, axis=0), np.zeros((0, 2), F32))
_register("edge-reduce", "count_nonzero_nan", lambda lib, a: lib.math.count_nonzero(a), _a(0, NAN, -0.0, 1))
for _f in ("argmax", "argmin"):
    _register("edge-reduce", f"{_f}_empty", lambda lib, a, f=_f: getattr(lib, f)(a), np.zeros((0,), F32))
    _register("edge-reduce", f"{_f}_empty_axis1", lambda lib, a, f=_f: getattr(lib, f)(a, axis=1), np.zeros((2, 0), F32))
    _register("edge-reduce", f"{_f}_inf_ties", lambda lib, a, f=_f: [getattr(lib, f)(a), getattr(lib, f)(a, axis=0)],
              _a([INF, INF, -INF], [-INF, 2, -INF]))
    _register("edge-reduce", f"{_f}_bool_int", lambda lib, a, b, f=_f: [getattr(lib, f)(a), getattr(lib, f)(b)],
              np.array([False, True, True]), np.array([3, 9, 9, -1], I32))
    _register("edge-reduce", f"{_f}_output_type", lambda lib, a, f=_f: getattr(lib, f)(a, output_type=lib.int32),
              _a(1, 5, 2))
    _register("edge-reduce", f"{_f}_axis_out_of_range", lambda lib, a, f=_f: getattr(lib, f)(a, axis=1), _a(1, 2))
_register("edge-reduce", "cumsum_cumprod_flags", lambda lib, a: [
    lib.cumsum(a, exclusive=True), lib.cumsum(a, reverse=True), lib.cumsum(a, exclusive=True, reverse=True),
    lib.math.cumprod(a, exclusive=True, reverse=True), lib.cumsum(a, axis=-1)], _a(1, NAN, 2, INF))
_register("edge-reduce", "cumsum_empty", lambda lib, a: [lib.cumsum(a, axis=1), lib.math.cumprod(a, axis=0),
                                                          lib.cumsum(a, axis=1, exclusive=True),
                                                          lib.math.cumprod(a, axis=1, exclusive=True)],
          np.zeros((2, 0), F32))
_register("edge-reduce", "cumsum_axis_out_of_range", lambda lib, a: lib.cumsum(a, axis=1), _a(1, 2))
_register("edge-reduce", "cumsum_int_overflow", lambda lib, a: lib.cumsum(a), np.array([2 ** 31 - 1, 1], I32))
_register("edge-reduce", "cumsum_bool", lambda lib, a: lib.cumsum(a), np.array([True, True]))
_register("edge-reduce", "unsorted_segment_sum_edges", lambda lib, a: [
    lib.math.unsorted_segment_sum(a, [0, 0, -1, 2], 3), lib.math.unsorted_segment_sum(a, [0, 1, 1, 1], 2)],
    _a(1, NAN, 3, 4))
_register("edge-reduce", "unsorted_segment_sum_out_of_range", lambda lib, a: lib.math.unsorted_segment_sum(a, [0, 5], 3),
          _a(1, 2))

# ---------------------------------------------------------------- empty tensors and shapes
_E = np.zeros((0, 3), F32)
_register("edge-shape", "concat_stack_empty", lambda lib, a, b: [lib.concat([a, b], 0), lib.concat([a, a], 0),
                                                                  lib.stack([a, a]), lib.stack([a, a], axis=-1)],
          _E, np.ones((2, 3), F32))
_register("edge-shape", "concat_mismatch", lambda lib, a, b: lib.concat([a, b], 0), np.ones((1, 2), F32), np.ones((1, 3), F32))
_register("edge-shape", "concat_axis_out_of_range", lambda lib, a: lib.concat([a, a], 2), np.ones((1, 2), F32))
_register("edge-shape", "concat_dtype_mismatch", lambda lib, a, b: lib.concat([a, b], 0), np.ones((1,), F32), np.ones((1,), I32))
_register("edge-shape", "stack_mismatch", lambda lib, a, b: lib.stack([a, b]), np.ones((2,), F32), np.ones((3,), F32))
_register("edge-shape", "reshape_minus1_empty", lambda lib, a: [lib.reshape(a, [-1]), lib.reshape(a, [0, -1, 3]),
                                                                lib.reshape(a, [3, 0])], _E)
_register("edge-shape", "reshape_minus1_ambiguous_empty", lambda lib, a: lib.reshape(a, [-1, 0]), _E)
_register("edge-shape", "reshape_two_minus1", lambda lib, a: lib.reshape(a, [-1, -1]), np.ones((2, 3), F32))
_register("edge-shape", "reshape_bad_size", lambda lib, a: lib.reshape(a, [4, -1]), np.ones((2, 3), F32))
_register("edge-shape", "reshape_minus2", lambda lib, a: lib.reshape(a, [-2, 3]), np.ones((2, 3), F32))
_register("edge-shape", "squeeze_non_1", lambda lib, a: lib.squeeze(a, axis=1), np.ones((2, 3), F32))
_register("edge-shape", "squeeze_out_of_range", lambda lib, a: lib.squeeze(a, axis=3), np.ones((2, 1), F32))
_register("edge-shape", "squeeze_empty", lambda lib, a: [lib.squeeze(a), lib.squeeze(a, -1)], np.zeros((0, 1), F32))
_register("edge-shape", "expand_dims_out_of_range", lambda lib, a: lib.expand_dims(a, 3), np.ones((2,), F32))
_register("edge-shape", "expand_dims_edges", lambda lib, a: [lib.expand_dims(a, 2), lib.expand_dims(a, -3)],
          np.ones((2, 3), F32))
_register("edge-shape", "transpose_bad_perm", lambda lib, a: lib.transpose(a, [0, 0]), np.ones((2, 3), F32))
_register("edge-shape", "tile_empty_and_zero", lambda lib, a: [lib.tile(a, [0, 2]), lib.tile(a[:0], [3, 1])],
          np.ones((2, 3), F32))
_register("edge-shape", "split_uneven", lambda lib, a: lib.split(a, 2, axis=1), np.ones((2, 3), F32))
_register("edge-shape", "split_sizes_bad", lambda lib, a: lib.split(a, [1, 1], axis=1), np.ones((2, 3), F32))
_register("edge-shape", "unstack_empty", lambda lib, a: lib.unstack(a, axis=1), np.zeros((0, 2), F32))
_register("edge-shape", "where_empty", lambda lib, a: lib.where(a > 0), np.zeros((0, 2), F32))
_register("edge-shape", "broadcast_error_add", lambda lib, a, b: a + b, np.ones((2, 3), F32), np.ones((2,), F32))
_register("edge-shape", "broadcast_error_maximum", lambda lib, a, b: lib.maximum(a, b), np.ones((3,), F32), np.ones((2,), F32))
_register("edge-shape", "broadcast_error_where", lambda lib, c, a, b: lib.where(c, a, b), np.ones((3,), bool),
          np.ones((3,), F32), np.ones((2,), F32))
_register("edge-shape", "broadcast_to_bad", lambda lib, a: lib.broadcast_to(a, [2, 2]), np.ones((3,), F32))
_register("edge-shape", "broadcast_to_empty", lambda lib, a: lib.broadcast_to(a, [0, 3]), np.ones((3,), F32))
_register("edge-shape", "matmul_mismatch", lambda lib, a, b: lib.matmul(a, b), np.ones((2, 3), F32), np.ones((2, 3), F32))
_register("edge-shape", "matmul_empty", lambda lib, a, b: lib.matmul(a, b), np.ones((2, 0), F32), np.ones((0, 3), F32))
_register("edge-shape", "matmul_int", lambda lib, a, b: lib.matmul(a, b), np.ones((2, 2), I32), np.ones((2, 2), I32))
_register("edge-shape", "matmul_1d", lambda lib, a: lib.matmul(a, a), np.ones((3,), F32))
_register("edge-shape", "pad_negative", lambda lib, a: lib.pad(a, [[-1, 0], [0, 0]]), np.ones((2, 3), F32))
_register("edge-shape", "pad_reflect_too_big", lambda lib, a: lib.pad(a, [[2, 0], [0, 0]], mode="REFLECT"),
          np.ones((2, 3), F32))

# ---------------------------------------------------------------- indices: gather, one_hot, slicing
_register("edge-index", "gather_out_of_range", lambda lib, a: lib.gather(a, [0, 3]), _a(1, 2, 3))
_register("edge-index", "gather_negative", lambda lib, a: lib.gather(a, [-1]), _a(1, 2, 3))
_register("edge-index", "gather_axis_out_of_range", lambda lib, a: lib.gather(a, [0], axis=2), np.ones((2, 2), F32))
_register("edge-index", "gather_empty_indices", lambda lib, a: [lib.gather(a, lib.zeros([0], lib.int32)),
                                                                lib.gather(a, lib.zeros([2, 0], lib.int32), axis=1)],
          np.ones((2, 3), F32))
_register("edge-index", "gather_batch_dims", lambda lib, a: lib.gather(a, [[1, 0], [2, 2]], batch_dims=1),
          np.arange(6, dtype=F32).reshape(2, 3))
_register("edge-index", "gather_float_indices", lambda lib, a: lib.gather(a, lib.constant([0.0])), _a(1, 2))
_register("edge-index", "gather_nd_out_of_range", lambda lib, a: lib.gather_nd(a, [[2, 0]]), np.ones((2, 2), F32))
_register("edge-index", "scatter_nd_out_of_range", lambda lib: lib.scatter_nd([[4]], [1.0], [3]))
_register("edge-index", "tensor_scatter_out_of_range", lambda lib, a: lib.tensor_scatter_nd_update(a, [[3]], [1.0]),
          _a(1, 2, 3))
_register("edge-index", "tensor_scatter_negative", lambda lib, a: lib.tensor_scatter_nd_add(a, [[-1]], [1.0]),
          _a(1, 2, 3))
_register("edge-index", "embedding_lookup_out_of_range", lambda lib, a: lib.nn.embedding_lookup(a, [5]), np.ones((2, 2), F32))
_register("edge-index", "one_hot_edges", lambda lib, i: [lib.one_hot(i, 3), lib.one_hot(i, 3, axis=0),
                                                         lib.one_hot(i, 0), lib.one_hot(i, 3, on_value=2, off_value=-1)],
          np.array([-1, 0, 2, 3, -5], I32))
_register("edge-index", "one_hot_float_indices", lambda lib: lib.one_hot(lib.constant([0.0, 1.0]), 2))
_register("edge-index", "one_hot_mismatched_values", lambda lib: lib.one_hot([0], 2, on_value=1.0, off_value=0))
_register("edge-index", "one_hot_uint8", lambda lib, i: lib.one_hot(i, 3), np.array([0, 2], np.uint8))
_register("edge-index", "one_hot_negative_depth", lambda lib: lib.one_hot([0], -1))
_T = np.arange(24, dtype=F32).reshape(2, 3, 4)
_register("edge-index", "slice_edges", lambda lib, t: [
    t[::-1], t[:, ::-2], t[..., ::-3], t[5:], t[-10:], t[:, 1:-1:2], t[1:0], t[::-1, 10:-10:-1], t[:, -1:-5:-1],
    t[lib.newaxis, ..., lib.newaxis], t[..., 0, None], t[None, 0], t[:, :, 100:], t[-2], t[0][-1][-1]], _T)
_register("edge-index", "slice_index_out_of_range", lambda lib, t: t[2], _T)
_register("edge-index", "slice_negative_out_of_range", lambda lib, t: t[-3], _T)
_register("edge-index", "slice_step_zero", lambda lib, t: t[::0], _T)
_register("edge-index", "slice_two_ellipses", lambda lib, t: t[..., 0, ...], _T)
_register("edge-index", "slice_too_many", lambda lib, t: t[0, 0, 0, 0], _T)
_register("edge-index", "slice_tensor_index", lambda lib, t, i: [t[i], t[:, i], t[i:]], _T, np.array(1, I32))
_register("edge-index", "slice_tensor_index_oob", lambda lib, t, i: t[i], _T, np.array(5, I32))
_register("edge-index", "slice_scalar", lambda lib, t: t[0], np.array(3.0, F32))
_register("edge-index", "slice_bool_list", lambda lib, t: t[[True, False]], _T)
_register("edge-index", "slice_list_index", lambda lib, t: t[[0, 1]], _T)

# ---------------------------------------------------------------- sort, top_k, ranges
_register("edge-sort", "sort_nan", lambda lib, a: [lib.sort(a), lib.sort(a, direction="DESCENDING")],
          _a(3, NAN, -INF, 1, NAN, INF, -0.0, 0), xla=_NAN_ORDER)
_register("edge-sort", "argsort_nan", lambda lib, a: [lib.argsort(a, stable=True),
                                                      lib.argsort(a, direction="DESCENDING", stable=True)],
          _a(3, NAN, -INF, 1, NAN, INF, 1), xla=_NAN_ORDER)
_register("edge-sort", "argsort_ties", lambda lib, a: [lib.argsort(a, stable=True),
                                                       lib.argsort(a, direction="DESCENDING", stable=True)],
          np.array([2, 1, 2, 1, 2, 0], I32))
_register("edge-sort", "argsort_ties_default", lambda lib, a: [lib.argsort(a), lib.argsort(a, direction="DESCENDING")],
          np.array([2, 1, 2, 1, 2, 0], I32))
_register("edge-sort", "sort_int_extremes", lambda lib, a: [lib.sort(a), lib.sort(a, direction="DESCENDING")],
          np.array([0, -2 ** 31, 2 ** 31 - 1, -1], I32))
_register("edge-sort", "sort_uint8", lambda lib, a: [lib.sort(a, direction="DESCENDING"),
                                                     lib.argsort(a, direction="DESCENDING", stable=True)],
          np.array([0, 255, 3, 0], np.uint8))
_register("edge-sort", "sort_bool", lambda lib, a: lib.sort(a), np.array([True, False]))
_register("edge-sort", "sort_empty", lambda lib, a: [lib.sort(a), lib.argsort(a)], np.zeros((2, 0), F32))
_register("edge-sort", "sort_axis0", lambda lib, a: [lib.sort(a, axis=0), lib.argsort(a, axis=-2)],
          _a([3, NAN], [1, 2], [NAN, 0]), xla=_NAN_ORDER)
_register("edge-sort", "sort_bad_direction", lambda lib, a: lib.sort(a, direction="UP"), _a(1, 2))
_register("edge-sort", "top_k_ties", lambda lib, a: [*lib.math.top_k(a, 3), *lib.math.top_k(a, 3, sorted=True)],
          _a(1, 3, 3, 2, 3))
_register("edge-sort", "top_k_nan", lambda lib, a: list(lib.math.top_k(a, 3)), _a(1, NAN, 3, 2),
          xla=_NAN_ORDER)
_register("edge-sort", "top_k_too_many", lambda lib, a: lib.math.top_k(a, 5), _a(1, 2))
_register("edge-sort", "top_k_zero", lambda lib, a: list(lib.math.top_k(a, 0)), _a(1, 2))
_register("edge-sort", "top_k_int", lambda lib, a: list(lib.math.top_k(a, 2)), np.array([[1, 5, 5], [-1, -1, -3]], I32))
_register("edge-make", "range_wrong_way", lambda lib: lib.range(5, 2))
_register("edge-make", "range_wrong_way_negative_delta", lambda lib: lib.range(2, 5, -1))
_register("edge-make", "range_negative_limit", lambda lib: lib.range(-3))
_register("edge-make", "range_wrong_way_float", lambda lib: lib.range(1.0, 0.0, 0.5))
_register("edge-make", "range_tensor_wrong_way", lambda lib, a: lib.range(a), np.array(-2, I32))
_register("edge-make", "range_edges", lambda lib: [lib.range(0), lib.range(2, 2), lib.range(3, 3, -1),
                                                   lib.range(0.0, 1.0, 0.3), lib.range(1.0, 0.0, -0.25),
                                                   lib.range(0, 1, 0.1), lib.range(3, dtype=lib.float64),
                                                   lib.range(5.0), lib.range(1, 10, 4)])
_register("edge-make", "range_zero_delta", lambda lib: lib.range(0, 5, 0))
_register("edge-make", "range_tensor_args", lambda lib, a, b, c: [lib.range(a, b, c), lib.range(b)],
          np.array(1, I32), np.array(7, I32), np.array(2, I32))
_register("edge-make", "range_int64", lambda lib, a: lib.range(a), np.array(3, np.int64))
_register("edge-make", "linspace_edges", lambda lib: [lib.linspace(0.0, 1.0, 1), lib.linspace(0.0, 1.0, 2),
                                                      lib.linspace(5.0, -5.0, 4), lib.linspace(0.0, 1.0, 0)])
_register("edge-make", "linspace_int", lambda lib: lib.linspace(0, 10, 3))
_register("edge-make", "linspace_negative_num", lambda lib: lib.linspace(0.0, 1.0, -1))
_register("edge-make", "linspace_tensors", lambda lib, a, b: lib.linspace(a, b, 3), _a(0, 10), _a(1, 20))
_register("edge-make", "fill_eye_edges", lambda lib: [lib.fill([0, 2], 1.0), lib.eye(0), lib.eye(2, 0),
                                                      lib.zeros([0]), lib.ones([2, 0], lib.int32)])
_register("edge-make", "fill_negative", lambda lib: lib.fill([-1, 2], 1.0))
_register("edge-make", "zeros_negative", lambda lib: lib.zeros([-1]))
_register("edge-make", "sequence_mask_edges", lambda lib: [lib.sequence_mask([0, 5, -1], 3), lib.sequence_mask([], 2)])

# ---------------------------------------------------------------- clip, nn at extremes
_register("edge-nn", "clip_lo_gt_hi", lambda lib, a: [lib.clip_by_value(a, 3.0, 1.0), lib.clip_by_value(a, NAN, 2.0)],
          _a(0, 2, 5, NAN))
_register("edge-nn", "clip_int", lambda lib, a: lib.clip_by_value(a, -1, 1), np.array([-5, 0, 5], I32))
_register("edge-nn", "clip_by_norm_zero", lambda lib, a: [lib.clip_by_norm(a, 1.0), lib.clip_by_norm(a * INF, 1.0)],
          _a(0, 0))
_register("edge-nn", "softmax_inf_rows", lambda lib, a: [lib.nn.softmax(a), lib.nn.log_softmax(a)],
          _a([-INF, -INF, -INF], [-INF, 0, 1], [INF, 0, 1], [1e30, 1e30, -1e30], [NAN, 0, 1]), xla=_NAN_SOFTMAX)
_register("edge-nn", "softmax_empty", lambda lib, a: [lib.nn.softmax(a), lib.nn.log_softmax(a)], np.zeros((0, 3), F32))
_register("edge-nn", "softmax_int", lambda lib, a: lib.nn.softmax(a), np.array([1, 2], I32))
_register("edge-nn", "softmax_axis", lambda lib, a: [lib.nn.softmax(a, axis=0), lib.nn.log_softmax(a, axis=-2)],
          _a([1, 2], [3, 4]))
_BIG = _a(-1e4, -100, -30, -20, 0, 20, 30, 100, 1e4, INF, -INF, NAN)
for _nn in ("sigmoid", "softplus", "log_sigmoid", "tanh", "relu", "relu6", "elu", "selu", "gelu", "silu", "softsign",
            "leaky_relu", "log1p", "expm1", "exp", "sqrt", "rsqrt", "reciprocal", "erf", "sign", "square",
            "log", "abs", "floor", "ceil", "sin", "tan", "sinh", "cosh"):
    _where = "nn" if _nn in ("relu", "relu6", "elu", "selu", "gelu", "silu", "leaky_relu") else "math"
    _register("edge-nn", f"{_nn}_extremes", lambda lib, a, w=_where, n=_nn: getattr(getattr(lib, w), n)(a), _BIG)
_register("edge-nn", "sigmoid_f64", lambda lib, a: [lib.sigmoid(a), lib.math.softplus(a), lib.math.log_sigmoid(a)],
          _BIG.astype(np.float64))
_register("edge-nn", "sigmoid_f16", lambda lib, a: [lib.sigmoid(a), lib.math.softplus(a)],
          np.array([-20, -5, 0, 5, 20, 60000], np.float16))
_register("edge-nn", "l2_normalize_zeros", lambda lib, a: [lib.math.l2_normalize(a), lib.math.l2_normalize(a, axis=1),
                                                           lib.math.l2_normalize(a, epsilon=0.0)], np.zeros((2, 2), F32))
_register("edge-nn", "pow_edges", lambda lib, a, b: [lib.pow(a, b), a ** 0.5, a ** -1],
          _a(0, 0, -8, -1, INF, NAN, 1), _a(0, -1, 1 / 3, INF, 0, 0, NAN))
_register("edge-nn", "pow_int_negative", lambda lib, a, b: lib.pow(a, b), np.array([2, 1, -1, 0], I32),
          np.array([-1, -2, -3, -1], I32))
_register("edge-nn", "pow_int_overflow", lambda lib, a, b: lib.pow(a, b), np.array([2, 3], I32), np.array([40, 25], I32))
_register("edge-nn", "maximum_nan", lambda lib, a, b: [lib.maximum(a, b), lib.minimum(a, b), lib.maximum(b, a)],
          _a(NAN, 1, NAN, -0.0), _a(1, NAN, NAN, 0.0))
_register("edge-nn", "squared_difference_int", lambda lib, a, b: lib.math.squared_difference(a, b),
          np.array([2 ** 16, -3], I32), np.array([-(2 ** 16), 4], I32))
_register("edge-nn", "divide_no_nan_edges", lambda lib, a, b: lib.math.divide_no_nan(a, b), _a(1, NAN, INF, 0),
          _a(0, 0, 0, 0))
_register("edge-nn", "xlogy_edges", lambda lib, a, b: [lib.math.xlogy(a, b), lib.math.xdivy(a, b)],
          _a(0, 0, 1, NAN, 0), _a(0, NAN, 0, 1, INF))
_register("edge-nn", "sign_int_zero", lambda lib, a: [lib.sign(a), lib.sign(lib.cast(a, lib.float32) * 0.0)],
          np.array([-3, 0, 3], I32))
_register("edge-nn", "is_nan_int", lambda lib, a: lib.math.is_nan(a), np.array([1], I32))
_register("edge-nn", "sqrt_int", lambda lib, a: lib.sqrt(a), np.array([4], I32))
_register("edge-nn", "sparse_xent_bad_label", lambda lib, l, z: lib.nn.sparse_softmax_cross_entropy_with_logits(
    labels=l, logits=z), np.array([3], I32), np.ones((1, 3), F32))
_register("edge-nn", "sparse_xent_inf_logits", lambda lib, l, z: lib.nn.sparse_softmax_cross_entropy_with_logits(
    labels=l, logits=z), np.array([0, 1], I32), _a([-INF, 0, 1], [0, 1e30, 1]))

# ---------------------------------------------------------------- comparisons and dtype promotion
_register("edge-dtype", "equal_across_dtypes", lambda lib, a, b: [lib.equal(a, b), lib.not_equal(a, b)],
          _a(1, 2), np.array([1, 2], I32))
_register("edge-dtype", "eq_operator_across_dtypes", lambda lib, a, b: [a == b, a != b], _a(1, 2), np.array([1, 2], I32))
_register("edge-dtype", "equal_nan", lambda lib, a: [lib.equal(a, a), a == a, a != a, lib.not_equal(a, a)], _a(NAN, 1))
_register("edge-dtype", "equal_shape_mismatch", lambda lib, a, b: lib.equal(a, b), _a(1, 2), _a(1, 2, 3))
_register("edge-dtype", "eq_operator_shape_mismatch", lambda lib, a, b: a == b, _a(1, 2), _a(1, 2, 3))
_register("edge-dtype", "equal_python_list", lambda lib, a: [lib.equal(a, [1.0, 3.0]), a == 1, a == 1.5], _a(1, 2))
_register("edge-dtype", "int32_plus_float32", lambda lib, a, b: a + b, np.array([1], I32), _a(1.5))
_register("edge-dtype", "add_fn_int32_float32", lambda lib, a, b: lib.add(a, b), np.array([1], I32), _a(1.5))
_register("edge-dtype", "int32_plus_int64", lambda lib, a, b: a + b, np.array([1], I32), np.array([1], np.int64))
_register("edge-dtype", "float32_plus_float64", lambda lib, a, b: a * b, _a(1), np.array([1], np.float64))
_register("edge-dtype", "int_tensor_plus_python_float", lambda lib, a: a + 1.5, np.array([1], I32))
_register("edge-dtype", "int_tensor_plus_python_float_whole", lambda lib, a: a * 1.0, np.array([1], I32))
_register("edge-dtype", "python_float_times_int_tensor", lambda lib, a: 2.0 * a, np.array([1], I32))
_register("edge-dtype", "int_tensor_truediv", lambda lib, a, b: [a / b, a / 2, lib.math.truediv(a, b)],
          np.array([7, -7], I32), np.array([2, 2], I32))
_register("edge-dtype", "int64_truediv", lambda lib, a: a / a, np.array([3], np.int64))
_register("edge-dtype", "uint8_truediv", lambda lib, a: a / a, np.array([3], np.uint8))
_register("edge-dtype", "float16_plus_python", lambda lib, a: [a + 1, a * 2.5, 1e5 + a], np.array([1], np.float16))
_register("edge-dtype", "uint8_plus_python_int", lambda lib, a: [a + 1, a + 255, a * 2], np.array([200], np.uint8))
_register("edge-dtype", "uint8_plus_python_too_big", lambda lib, a: a + 256, np.array([200], np.uint8))
_register("edge-dtype", "int32_plus_python_too_big", lambda lib, a: a + 2 ** 31, np.array([1], I32))
_register("edge-dtype", "int32_plus_python_neg", lambda lib, a: a - 2 ** 31, np.array([1], I32))
_register("edge-dtype", "bool_plus_bool", lambda lib, a: a + a, np.array([True]))
_register("edge-dtype", "bool_invert_and", lambda lib, a: [~a, a & a, a | ~a, a ^ a], np.array([True, False]))
_register("edge-dtype", "float_invert", lambda lib, a: ~a, _a(1))
_register("edge-dtype", "float_and", lambda lib, a: a & a, _a(1))
_register("edge-dtype", "int_bitwise_operators", lambda lib, a, b: [a & b, a | b, a ^ b, ~a],
          np.array([6, -3], I32), np.array([3, 5], I32))
_register("edge-dtype", "compare_int_float_python", lambda lib, a: [a < 1.5, a >= 2.0, a > -1], np.array([1, 2], I32))
_register("edge-dtype", "maximum_mixed", lambda lib, a, b: lib.maximum(a, b), np.array([1], I32), _a(1))
_register("edge-dtype", "where_mixed", lambda lib, c, a, b: lib.where(c, a, b), np.array([True]), np.array([1], I32), _a(1))
_register("edge-dtype", "where_python_scalars", lambda lib, c: [lib.where(c, 1, 0), lib.where(c, 1.0, 0.0)],
          np.array([True, False]))
_register("edge-dtype", "logical_on_ints", lambda lib, a: lib.logical_and(a, a), np.array([1], I32))

# ---------------------------------------------------------------- strings
_S = np.array([b"Ab", b"", b"x,y", "é".encode()], object)
_register("edge-string", "strings_basic", lambda lib, s: [lib.strings.length(s), lib.strings.upper(s),
                                                          lib.strings.lower(s), lib.strings.length(s, unit="UTF8_CHAR"),
                                                          lib.strings.reduce_join(s, separator="|"),
                                                          lib.strings.join([s, s], separator="-")], _S, modes=("eager",
                                                                                                               "function"))
_register("edge-string", "strings_to_number", lambda lib, s: [lib.strings.to_number(s), lib.strings.to_number(s, lib.int32)],
          np.array([b"1.5", b"-2", b" 3", b"1e3", b"inf"], object), modes=("eager", "function"))
_register("edge-string", "strings_to_number_bad", lambda lib, s: lib.strings.to_number(s), np.array([b"abc"], object),
          modes=("eager", "function"))
_register("edge-string", "strings_as_string", lambda lib, a, b: [lib.strings.as_string(a), lib.strings.as_string(b),
                                                                 lib.strings.as_string(a, precision=2)],
          _a(1.5, NAN, -INF, 1e-7, 123456789.0), np.array([True, False]), modes=("eager", "function"))
_register("edge-string", "strings_as_string_int", lambda lib, a: lib.strings.as_string(a), np.array([-3, 0], I32),
          modes=("eager", "function"))
_register("edge-string", "strings_split", lambda lib, s: lib.strings.split(s, ",").to_list() if hasattr(
    lib.strings.split(s, ","), "to_list") else lib.strings.split(s, ","), np.array(b"a,,b", object),
    modes=("eager",))
_register("edge-string", "strings_equal", lambda lib, s: [s == s, lib.equal(s, b"Ab")], _S, modes=("eager", "function"))
_register("edge-string", "string_plus", lambda lib, s: s + s, _S, modes=("eager", "function"))
_register("edge-string", "string_numeric_equal", lambda lib, s: lib.equal(s, lib.constant(1)), _S,
          modes=("eager", "function"))

# ---------------------------------------------------------------- Python protocols, numpy(), Variables
_EAGER = ("eager",)
_register("edge-protocol", "bool_of_tensors", lambda lib: [bool(lib.constant(0.0)), bool(lib.constant([5])),
                                                           bool(lib.constant(NAN)), bool(lib.constant(""))], modes=_EAGER)
_register("edge-protocol", "bool_of_vector", lambda lib: bool(lib.constant([1, 2])), modes=_EAGER)
_register("edge-protocol", "bool_of_empty", lambda lib: bool(lib.constant([])), modes=_EAGER)
_register("edge-protocol", "index_of_tensors", lambda lib: [[0, 1, 2][lib.constant(1)], [0, 1, 2][lib.constant(-1)],
                                                            range(5)[lib.constant(2, lib.int64)]], modes=_EAGER)
_register("edge-protocol", "index_of_float", lambda lib: [0, 1][lib.constant(1.0)], modes=_EAGER)
_register("edge-protocol", "index_of_bool", lambda lib: [0, 1][lib.constant(True)], modes=_EAGER)
_register("edge-protocol", "index_of_vector", lambda lib: [0, 1][lib.constant([1])], modes=_EAGER)
_register("edge-protocol", "len_of_tensors", lambda lib: [len(lib.constant([[1, 2]] * 3)), len(lib.zeros([0, 2]))],
          modes=_EAGER)
_register("edge-protocol", "len_of_scalar", lambda lib: len(lib.constant(1)), modes=_EAGER)
_register("edge-protocol", "int_float_of_tensors", lambda lib: [int(lib.constant(2.7)), float(lib.constant(3)),
                                                                int(lib.constant(-2.7))], modes=_EAGER)
_register("edge-protocol", "float_of_1x1", lambda lib: float(lib.constant([[1.5]])), modes=_EAGER)
_register("edge-protocol", "int_of_vector", lambda lib: int(lib.constant([4, 5])), modes=_EAGER)
_register("edge-protocol", "int_of_nan", lambda lib: int(lib.constant(NAN)), modes=_EAGER)
_register("edge-protocol", "numpy_of_scalars", lambda lib: [
    type(lib.constant(1).numpy()).__name__, type(lib.constant(1.5).numpy()).__name__,
    type(lib.constant(True).numpy()).__name__, type(lib.constant("s").numpy()).__name__,
    lib.constant(1).numpy().shape, lib.constant([1]).numpy().shape, type(lib.constant([1.0]).numpy()[0]).__name__],
    modes=_EAGER)
_register("edge-protocol", "iterate_tensor", lambda lib: [list(lib.constant([[1, 2], [3, 4]])), list(lib.zeros([0]))],
          modes=_EAGER)
_register("edge-protocol", "iterate_scalar", lambda lib: list(lib.constant(1)), modes=_EAGER)
_register("edge-protocol", "shape_and_dtype", lambda lib: [str(lib.constant([[1.0]]).shape), lib.constant(1).dtype.name,
                                                           lib.constant(1.0).dtype.name, lib.constant(2 ** 40).dtype.name,
                                                           lib.constant(True).dtype.name, lib.constant([]).dtype.name,
                                                           lib.constant(np.float64(1)).dtype.name,
                                                           lib.constant(np.int16(1)).dtype.name,
                                                           lib.constant([[]]).shape.as_list()], modes=_EAGER)
_register("edge-protocol", "tensor_in_list", lambda lib: [lib.constant(2) in [1, 2], 3 in lib.constant([1, 3])],
          modes=_EAGER)
_register("edge-protocol", "hash_tensor", lambda lib: hash(lib.constant(1)), modes=_EAGER)
_register("edge-protocol", "round_builtin", lambda lib: round(lib.constant(2.5)), modes=_EAGER)
_register("edge-protocol", "abs_builtin", lambda lib: [abs(lib.constant(-3)), abs(lib.constant([-2.5]))], modes=_EAGER)


def _assign_case(name, value, method="assign"):
    def program(lib, fn):
        v = lib.Variable([1.0, 2.0])
        fn(lambda: getattr(v, method)(value(lib)))()
        return v.read_value()
    program.__name__ = name
    case("edge-variable", modes=("eager", "function", "jit"), errors=True)(program)


_assign_case("assign_wrong_shape", lambda lib: [1.0, 2.0, 3.0])
_assign_case("assign_scalar_broadcast", lambda lib: 5.0)
_assign_case("assign_wrong_dtype", lambda lib: lib.constant([1, 2]))
_assign_case("assign_python_ints", lambda lib: [3, 4])
_assign_case("assign_float64", lambda lib: lib.constant([1.0, 2.0], lib.float64))
_assign_case("assign_add_wrong_shape", lambda lib: [1.0], method="assign_add")
_assign_case("assign_add_scalar", lambda lib: 1.0, method="assign_add")
_assign_case("assign_sub_wrong_dtype", lambda lib: lib.constant([1, 1]), method="assign_sub")
_assign_case("assign_sub_f64", lambda lib: lib.constant([1.0, 1.0], lib.float64), method="assign_sub")
_register("edge-variable", "variable_int_from_float", lambda lib: lib.Variable(1.5, dtype=lib.int32).read_value(),
          modes=_EAGER)
_register("edge-variable", "variable_dtype_cast", lambda lib: lib.Variable(lib.constant(1), dtype=lib.float32).read_value(),
          modes=_EAGER)
_register("edge-variable", "variable_plus_int", lambda lib: lib.Variable([1.0]) + 1, modes=_EAGER)

# ---------------------------------------------------------------- more shapes and values
_M = np.arange(6, dtype=F32).reshape(2, 3)
_register("edge-extra", "logsumexp_all_minus_inf", lambda lib, a: [lib.reduce_logsumexp(a, axis=1),
                                                                   lib.reduce_logsumexp(a, axis=1, keepdims=True)],
          _a([-INF, -INF], [INF, 1], [NAN, 1]))
_register("edge-extra", "softmax_f16", lambda lib, a: [lib.nn.softmax(a), lib.nn.log_softmax(a)],
          np.array([[1, 2, 60000], [-60000, 0, 0]], np.float16))
_register("edge-extra", "round_f16_f64", lambda lib, a, b: [lib.round(a), lib.round(b)],
          np.array([0.5, 1.5, 2.5, -2.5], np.float16), np.array([0.5, 1.5, 2.5, -2.5, 4503599627370497.0]))
_register("edge-extra", "clip_int_float_bounds", lambda lib, a: lib.clip_by_value(a, 0.5, 2.5), np.array([1, 5], I32))
_register("edge-extra", "clip_tensor_bounds", lambda lib, a, lo, hi: lib.clip_by_value(a, lo, hi), _M,
          _a(1, 2, 3), _a([2], [4]))
_register("edge-extra", "clip_bounds_wider_shape", lambda lib, a, lo: lib.clip_by_value(a, lo, 10.0), _a(1, 2),
          np.zeros((3, 2), F32))
_register("edge-extra", "concat_empty_list", lambda lib: lib.concat([], 0))
_register("edge-extra", "stack_empty_list", lambda lib: lib.stack([]))
_register("edge-extra", "concat_one", lambda lib, a: lib.concat([a], -1), _M)
_register("edge-extra", "concat_scalars", lambda lib, a: lib.concat([a, a], 0), np.array(1.0, F32))
_register("edge-extra", "boolean_mask_bad_shape", lambda lib, a: lib.boolean_mask(a, [True, False, True]), _M)
_register("edge-extra", "boolean_mask_empty", lambda lib, a: lib.boolean_mask(a, [False, False]), _M)
_register("edge-extra", "where_scalar", lambda lib, a: lib.where(a > 0), np.array(1.0, F32))
_register("edge-extra", "tile_negative", lambda lib, a: lib.tile(a, [-1, 1]), _M)
_register("edge-extra", "tile_wrong_length", lambda lib, a: lib.tile(a, [2]), _M)
_register("edge-extra", "squeeze_negative_axis", lambda lib, a: [lib.squeeze(a, -1), lib.squeeze(a, [0, -1])],
          np.ones((1, 2, 1), F32))
_register("edge-extra", "reverse_duplicate_axes", lambda lib, a: lib.reverse(a, [0, 0]), _M)
_register("edge-extra", "reverse_axis_out_of_range", lambda lib, a: lib.reverse(a, [2]), _M)
_register("edge-extra", "roll_edges", lambda lib, a: [lib.roll(a, 7, 1), lib.roll(a, -8, -1), lib.roll(a[:0], 1, 0)], _M)
_register("edge-extra", "transpose_perm_out_of_range", lambda lib, a: lib.transpose(a, [0, 2]), _M)
_register("edge-extra", "segment_sum_zero_segments", lambda lib, a: lib.math.unsorted_segment_sum(a, [0, 0], 0), _a(1, 2))
_register("edge-extra", "segment_sum_int", lambda lib, a: lib.math.unsorted_segment_sum(a, [1, 1, 0], 3),
          np.array([2 ** 31 - 1, 1, 5], I32))
_register("edge-extra", "gather_nd_batch_and_empty", lambda lib, a: [lib.gather_nd(a, [[[0, 1]], [[1, 2]]]),
                                                                     lib.gather_nd(a, lib.zeros([0, 2], lib.int32))], _M)
_register("edge-extra", "scatter_nd_duplicates_add", lambda lib: lib.scatter_nd([[1], [1], [0]], [1.0, 2.0, 3.0], [3]))
_register("edge-extra", "count_nonzero_axis", lambda lib, a: [lib.math.count_nonzero(a, axis=0),
                                                              lib.math.count_nonzero(a, axis=-1, keepdims=True)], _M)
_register("edge-extra", "moments_empty", lambda lib, a: list(lib.nn.moments(a, axes=[0])), np.zeros((0, 2), F32))
_register("edge-extra", "einsum_mismatch", lambda lib, a: lib.einsum("ij,ij->i", a, lib.transpose(a)), _M)
_register("edge-extra", "matmul_batch_broadcast", lambda lib, a, b: lib.matmul(a, b), np.ones((2, 1, 2, 3), F32),
          np.ones((3, 3, 2), F32))
_register("edge-extra", "norm_edges", lambda lib, a: [lib.norm(a * 0), lib.norm(a, ord=1), lib.norm(a, ord=INF, axis=0),
                                                      lib.norm(lib.zeros([0]))], _M)
_register("edge-extra", "squared_difference_inf", lambda lib, a: lib.math.squared_difference(a, a), _a(INF, -INF, NAN))
_register("edge-extra", "bitwise_shift_edges", lambda lib, a, b: [lib.bitwise.left_shift(a, b), lib.bitwise.right_shift(a, b)],
          np.array([1, -8, 1, 5], I32), np.array([31, 1, 32, -1], I32))
_register("edge-extra", "int8_cast_arith", lambda lib, a: [a // 3, a % 3, a * a, lib.cast(a, lib.uint8)],
          np.array([-128, 127, -7], np.int8))
_register("edge-extra", "float_mod_zero_and_signs", lambda lib, a, b: [a % b, lib.math.floormod(a, b)],
          _a(5, -5, 5, -5, 0, -0.0, 5.5), _a(0, 0, -0.0, -3, -3, 3, 2))
_register("edge-extra", "strings_format_edges", lambda lib, a: [lib.strings.format("{}", a), lib.strings.format("{} {}", (a, a[0]))],
          _a(1.5, NAN, -INF, 1e-7, 123456789.0), modes=("eager", "function"))
_register("edge-extra", "strings_format_int_bool", lambda lib, a, b: lib.strings.format("{}/{}", (a, b)),
          np.array([[1, -2], [3, 4]], I32), np.array(True), modes=("eager", "function"))
_register("edge-extra", "numpy_operands", lambda lib, a: [a * np.sqrt(2.0), np.array([2.0, 3.0]) - a, a + np.arange(2),
                                                          lib.maximum(a, np.float64(2.5)), a == np.float64(4.0)], _a(1, 4))
_register("edge-extra", "numpy_float_beside_int_tensor", lambda lib, a: a + np.float64(2.5), np.array([1], I32))
_register("edge-extra", "numpy_int_past_int32", lambda lib, a: a + np.int64(2 ** 40), np.array([1], I32))
_register("edge-extra", "signed_zeros", lambda lib, a, b: [lib.maximum(a, b), lib.minimum(a, b), lib.abs(a), -b],
          _a(-0.0, 0.0), _a(0.0, -0.0))
_register("edge-extra", "strings_to_number_hex", lambda lib, s: lib.strings.to_number(s), np.array([b"0x10"], object),
          modes=("eager", "function"))
