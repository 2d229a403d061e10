"""The pure ops of a concrete function's graph lowered to JAX for `function(jit_compile=True)`.

Every op goes through its entry in one of three tables, keyed by op name like the gradient table:

- `LOWERINGS` (here): pure ops, `rule(*inputs, **attrs)` on JAX values (the op's attributes as its kernel gets
  them), the gradients' list ops among them (jax_lists.py);
- `jax_effects.EFFECTS`: ops that read or write the function's state or run graphs (Variables, prints, random
  draws, `Cond` and `While`, a TensorArray's creation), `rule(lowering, *inputs, **attrs)`;
- `jax_checks.CHECKS`: ops that raise the program's error (`CheckDefined`, `Raise`, `Assert`, an index out of
  range, a TensorArray's read or write, ...), lowered through the graph's `Checks`.

An op without an entry is a `LoweringError` naming the op and the user's line that made it, raised before
anything is compiled (on the function's first call). The compiled function itself is `jax_executable.py`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from runtime.errors import InvalidArgumentError, LoweringError
from runtime.lowering import jax_lists, jax_texts
from runtime.ops.array_ops import RANGE, reshape_target
from runtime.ops.bitwise_ops import clamped_shift


# --- pure ops -------------------------------------------------------------------------------------

def jax_dtype(dtype):
    """The NumPy dtype JAX computes a runtime dtype in (64-bit ones are 32-bit unless jax_enable_x64 is on;
    the results are converted back to the graph's dtypes)."""
    return jax.dtypes.canonicalize_dtype(dtype.as_numpy_dtype)


def _axis(axis):
    return axis if axis is None or isinstance(axis, int) else tuple(axis)


def _mean(x, axis=None, keepdims=False):
    if not jnp.issubdtype(x.dtype, jnp.integer):
        return jnp.mean(x, axis=_axis(axis), keepdims=keepdims)
    total = jnp.sum(x, axis=_axis(axis), keepdims=keepdims)
    count = max(x.size, 1) // max(total.size, 1)
    return (jnp.abs(total) // count * jnp.sign(total)).astype(x.dtype)   # toward zero, as the kernel


def _matmul(a, b, transpose_a=False, transpose_b=False):
    return jnp.matmul(jnp.swapaxes(a, -1, -2) if transpose_a else a, jnp.swapaxes(b, -1, -2) if transpose_b else b)


def _true_divide(x, y):
    if jnp.issubdtype(x.dtype, jnp.integer):
        return jnp.true_divide(x.astype(jnp.float32), y.astype(jnp.float32))
    return jnp.true_divide(x, y)


def static_argument(values: tuple, static, what: str):
    if values:
        raise LoweringError(f"{what} given as a tensor can't be lowered to JAX (shapes must be static); "
                            "pass a Python list")
    return static


def _key(spec, values):
    """The index of a StridedSlice, its tensor slots filled with JAX values."""
    if isinstance(spec, tuple) and len(spec) == 2 and spec[0] == "$":
        return values[spec[1]]
    if isinstance(spec, tuple) and spec and spec[0] == "slice":
        return slice(*(_key(s, values) for s in spec[1:]))
    if isinstance(spec, tuple):
        return tuple(_key(s, values) for s in spec)
    return Ellipsis if spec == "..." else spec


@dataclass
class LazyRange:
    """`Range` with traced bounds: XLA can't make an array of a traced length, but a `for` over
    `runtime.range` only asks its length (`Shape`) and its i-th item (`StridedSlice`), which are
    arithmetic. Any other use materialises it, which needs static bounds."""

    start: object
    limit: object
    delta: object
    size: object = None   # computed once where the range is made, not in every iteration that indexes it

    def __post_init__(self):   # ceil((limit - start) / delta), as the kernel's np.arange (exactly, in integers)
        if jnp.issubdtype(jnp.result_type(self.delta), jnp.integer):
            size = -((self.start - self.limit) // self.delta)
        else:
            size = jnp.ceil((self.limit - self.start) / self.delta).astype(jnp.int32)
        self.size = jnp.maximum(size, 0)

    def length(self):
        return self.size

    def item(self, i):
        return self.start + jnp.where(i < 0, i + self.size, i) * self.delta

    def materialise(self):
        try:
            bounds = [np.asarray(v) for v in (self.start, self.limit, self.delta)]
        except (jax.errors.ConcretizationTypeError, jax.errors.TracerArrayConversionError):
            raise LoweringError("a runtime.range with bounds computed in the function can only be iterated "
                                "over or indexed under jit_compile=True (XLA needs static array sizes)") from None
        return jnp.asarray(RANGE.kernel(*bounds))   # the executor's kernel, on the static bounds


def materialised(x):
    return x.materialise() if isinstance(x, LazyRange) else x


def _range(start, limit, delta):
    return LazyRange(start, limit, delta)


def _shape(x, out_type):
    if isinstance(x, LazyRange):
        return jnp.reshape(x.length(), (1,)).astype(jax_dtype(out_type))
    return jnp.asarray(jnp.shape(x), jax_dtype(out_type))


def strided_slice(x, *index_values, spec):
    key = _key(spec, index_values)
    if isinstance(x, LazyRange):
        if not isinstance(key, slice) and jnp.ndim(key) == 0:
            return x.item(key)
        x = x.materialise()
    if 0 in jnp.shape(x):
        return _item_of_empty(x, key)
    return x[key]


def _item_of_empty(x, key):
    """`x[key]` where `x` has an empty axis: JAX refuses a traced index into one while tracing, which a loop
    over an empty tensor does in a body that never runs. Zeros of the item's shape: each axis an index takes
    counted as 1 long (XLA clamps an index; where the executor would raise, the index check does,
    runtime/lowering/jax_checks.py)."""
    items = list(key) if isinstance(key, tuple) else [key]
    shape, axis = list(jnp.shape(x)), 0
    for i, item in enumerate(items):
        if item is Ellipsis:
            axis = len(shape) - sum(1 for later in items[i + 1:] if later is not None and later is not Ellipsis)
        elif item is not None:
            if not isinstance(item, slice):
                shape[axis] = max(shape[axis], 1)
            axis += 1
    return jnp.zeros(shape, x.dtype)[key]


def _cast(x, dtype):
    x = jnp.asarray(x)
    if jnp.issubdtype(x.dtype, jnp.floating) and dtype.is_integer:
        return _float_to_int(x, dtype)
    if x.dtype == jnp.bool_ and (dtype.is_floating or dtype.is_complex):
        return _bool_to_number(x, jax_dtype(dtype))
    return x.astype(jax_dtype(dtype))


def _bool_to_number(x, dtype):
    """1 and 0 as a select, not XLA's convert: its simplifier rewrites `convert(p) * y` as `select(p, y, 0)`
    and `convert(p) / t` as `select(p, 1 / t, 0)`, which drop the NaN of `0 * inf` and `0 / 0` (the
    gradient of `reduce_max` of a row holding a NaN divides its hits, all 0, by their count, 0)."""
    return jnp.where(x, jnp.ones((), dtype), jnp.zeros((), dtype))


def _float_to_int(x, dtype):
    """The executor's (and TensorFlow's, on x86) conversion, where XLA's saturates: NaN and a value out of
    the range of int32 (of int64, for int64) give its minimum, and a narrower type takes the int32's low
    bits (`cast(300.7, uint8)` is 44, `cast(-2.5, uint8)` 254). The upper half of uint32's and uint64's range
    goes through the signed type shifted down by half the range and back, so that all their values convert."""
    target = jax_dtype(dtype)
    through = np.int64 if target in (np.int64, np.uint64) else np.int32
    info = np.iinfo(through)
    upper = (x >= -float(info.min)) & (x < -2.0 * float(info.min)) if target in (np.uint32, np.uint64) else None
    if upper is not None:
        x = jnp.where(upper, x + float(info.min), x)
    out_of_range = jnp.isnan(x) | (x >= -float(info.min)) | (x < float(info.min))
    whole = jnp.where(out_of_range, info.min, jnp.where(out_of_range, 0, x).astype(through)).astype(target)
    return whole if upper is None else jnp.where(upper, whole + target.type(-info.min), whole)


def _cumsum(x, axis=0, exclusive=False, reverse=False):
    x = jnp.flip(x, axis) if reverse else x
    out = jnp.cumsum(x, axis=axis, dtype=x.dtype)
    if exclusive:   # not out - x: an inf or NaN in x would stay in it
        out = _shifted(out, axis, 0)
    return jnp.flip(out, axis) if reverse else out


def _shifted(out, axis, first):
    """An inclusive scan made exclusive: shifted one place along `axis`, starting from `first`."""
    if out.shape[axis] == 0:
        return out
    start = jnp.full_like(lax.slice_in_dim(out, 0, 1, axis=axis), first)
    return jnp.concatenate([start, lax.slice_in_dim(out, 0, out.shape[axis] - 1, axis=axis)], axis=axis)


def _reshape(x, *shape_input, shape):
    x = materialised(x)
    return jnp.reshape(x, reshape_target(x.shape, static_argument(shape_input, shape, "Reshape's shape")))


def _extremum(reduce, x, axis, keepdims, lowest: bool):
    """jnp.max or jnp.min, which of an empty axis gives TensorFlow's identity (the dtype's lowest value, -inf, for
    max; its highest for min) where JAX raises."""
    if x.size:
        return reduce(x, axis=_axis(axis), keepdims=keepdims)
    info = jnp.finfo(x.dtype) if jnp.issubdtype(x.dtype, jnp.inexact) else jnp.iinfo(x.dtype)
    identity = (-jnp.inf if lowest else jnp.inf) if jnp.issubdtype(x.dtype, jnp.inexact) else (
        info.min if lowest else info.max)
    return reduce(x, axis=_axis(axis), keepdims=keepdims, initial=identity)


def _cumprod(x, axis=0, exclusive=False, reverse=False):
    x = jnp.flip(x, axis) if reverse else x
    out = jnp.cumprod(x, axis=axis, dtype=x.dtype)
    if exclusive:   # no division: x may hold zeros
        out = _shifted(out, axis, 1)
    return jnp.flip(out, axis) if reverse else out


def _unary(fn: Callable) -> Callable:
    return lambda x: fn(materialised(x))


def _binary(fn: Callable) -> Callable:
    return lambda x, y: fn(materialised(x), materialised(y))


def _floor_divide(x, y):
    """TensorFlow's float FloorDiv, floor(x / y) (runtime/ops/math_ops.py), not jnp.floor_divide's divmod quotient."""
    if jnp.issubdtype(jnp.result_type(x, y), jnp.inexact):
        return jnp.floor(x / y)
    return jnp.floor_divide(x, y)


def _remainder(x, y):
    """NumPy's `%` (the executor's kernel): a zero result of floats has the divisor's sign (`-1.0 % 1.0` is 0.0),
    where jnp.remainder gives -0.0."""
    r = jnp.remainder(x, y)
    if jnp.issubdtype(r.dtype, jnp.inexact):
        return jnp.where(r == 0, jnp.copysign(jnp.zeros_like(r), y), r)
    return r


def _where_negative_expm1(x):
    return jnp.expm1(jnp.minimum(x, 0))


def _leaky(value, x, alpha):
    """`value` where x > 0, else alpha * value: LeakyRelu (value = x) and its gradient op."""
    return jnp.where(x > 0, value, value * np.asarray(alpha, value.dtype)).astype(value.dtype)


def _gelu(x, approximate):
    if approximate:
        c = np.sqrt(2.0 / np.pi).astype(x.dtype)
        return (0.5 * x * (1 + jnp.tanh(c * (x + 0.044715 * x ** 3)))).astype(x.dtype)
    return (0.5 * x * (1 + jax.scipy.special.erf(x / np.sqrt(2.0).astype(x.dtype)))).astype(x.dtype)


def _logsumexp(x, axis=None, keepdims=False):
    if x.size == 0:
        return jnp.full(jnp.sum(x, axis=_axis(axis), keepdims=keepdims).shape, -jnp.inf, x.dtype)
    return jax.scipy.special.logsumexp(x, axis=_axis(axis), keepdims=keepdims).astype(x.dtype)


def _cumulative_logsumexp(x, axis, exclusive, reverse):
    out = lax.cumlogsumexp(x, axis=axis, reverse=reverse)
    if not exclusive:
        return out
    first = jnp.full_like(lax.slice_in_dim(out, 0, 1, axis=axis), -jnp.inf)
    n = out.shape[axis]
    shifted = lax.slice_in_dim(out, 1, n, axis=axis) if reverse else lax.slice_in_dim(out, 0, n - 1, axis=axis)
    return jnp.concatenate([shifted, first] if reverse else [first, shifted], axis=axis)


def _pad(x, constant_values, paddings, mode):
    if not paddings:
        return x
    if mode == "CONSTANT":
        return jnp.pad(x, paddings, mode="constant", constant_values=constant_values)
    for (before, after), n in zip(paddings, x.shape):   # the kernel's error, while JAX traces (shapes are static)
        limit = n - 1 if mode == "REFLECT" else n
        if before > limit or after > limit:
            raise InvalidArgumentError(f"Pad: paddings {list(paddings)} are too large for shape {x.shape} in "
                                       f"{mode} mode.", "Pad")
    return jnp.pad(x, paddings, mode=mode.lower())


def _one_hot(indices, depth, on_value, off_value, axis, dtype):
    rank = jnp.ndim(indices) + 1
    hot = jnp.expand_dims(indices, axis) == jnp.expand_dims(jnp.arange(depth), tuple(
        i for i in range(rank) if i != axis % rank))
    return jnp.where(hot, on_value, off_value).astype(jax_dtype(dtype))


def _stable_order(x, axis, descending):
    """The executor's order (sort_ops._stable_order): stable, and descending with ties in their first order."""
    if not descending:
        return jnp.argsort(x, axis=axis, stable=True)
    n = x.shape[axis]
    return n - 1 - jnp.flip(jnp.argsort(jnp.flip(x, axis), axis=axis, stable=True), axis)


def _sort(x, axis, descending):
    order = _stable_order(x, axis, descending)
    return [jnp.take_along_axis(x, order, axis), order.astype(jnp.int32)]


def _top_k(x, k, sorted):  # noqa: A002 - TensorFlow's name
    if k > x.shape[-1]:
        raise InvalidArgumentError(f"TopKV2: input must have at least k={k} columns, got shape {x.shape}.", "TopKV2")
    order = _stable_order(x, -1, True)[..., :k]
    return [jnp.take_along_axis(x, order, -1), order.astype(jnp.int32)]


def _where_upstream(dy, found):
    """The kernels of SqrtGrad, RsqrtGrad and ReciprocalGrad: 0 where the upstream gradient is 0."""
    return jnp.where(dy == 0, jnp.zeros((), dy.dtype), found.astype(dy.dtype))


def _svd(x):
    u, s, vh = jnp.linalg.svd(materialised(x), full_matrices=False)
    return [s, u, jnp.swapaxes(vh, -1, -2)]


def _take_along_axis_grad(grad, like, indices, axis):
    out = jnp.zeros_like(like)
    axis = axis % out.ndim
    grids = jnp.meshgrid(*[jnp.arange(n) for n in indices.shape], indexing="ij")
    grids[axis] = indices
    return out.at[tuple(grids)].set(grad)


def _gather_grad(grad, like, indices, axis):
    moved = jnp.moveaxis(jnp.zeros_like(like), axis, 0)
    lead = jnp.ndim(indices)
    rows = jnp.moveaxis(grad, list(range(axis, axis + lead)), list(range(lead)))
    return jnp.moveaxis(moved.at[indices].add(rows), 0, axis)


def _sum_to_shape(grad, like):
    from runtime.ops.gradients import summed_axes
    axes = summed_axes(jnp.shape(grad), jnp.shape(like))
    return jnp.sum(grad, axis=axes).reshape(jnp.shape(like)) if axes else grad


def _strided_slice_grad(grad, like, values, spec):
    """Zeros like `like` with `grad` where the slice read. Of a tensor with an empty axis, zeros: JAX refuses a
    traced index into one, as in the gradient of a loop over no rows, whose body never runs (an index that
    runs is checked where the slice is taken)."""
    if 0 in jnp.shape(like):
        return jnp.zeros_like(like)
    return jnp.zeros_like(like).at[_key(spec, values)].set(grad)


def _broadcast_like(value, like, axes):
    if axes is not None:
        value = jnp.expand_dims(value, tuple(a % jnp.ndim(like) for a in axes))
    return jnp.broadcast_to(value, jnp.shape(like))


def _arg(find: Callable, nan_as) -> Callable:
    """ArgMax or ArgMin passing over NaNs, as the executor's (runtime/ops/math_ops.py `_nan_as`)."""
    def rule(x, axis, output_type):
        x = materialised(x)
        if jnp.issubdtype(x.dtype, jnp.floating):
            x = jnp.where(jnp.isnan(x), nan_as, x)
        return find(x, axis=axis).astype(jax_dtype(output_type))
    return rule


def _linspace(start, stop, num, axis):
    return jnp.linspace(start, stop, num, axis=axis).astype(jnp.result_type(start))


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772, 1.0507009873554805


LOWERINGS: dict[str, Callable] = {
    "Const": lambda value: value,
    "PythonFormat": jax_texts.lower_format,   # only where a check reads it (jax_executable.check_lowerable)
    "Identity": materialised,
    "StopGradient": lambda x: lax.stop_gradient(materialised(x)),
    "HeldVariableRead": lambda value, handle: materialised(value),
    "AddV2": _binary(jnp.add), "Sub": _binary(jnp.subtract), "Mul": _binary(jnp.multiply),
    "RealDiv": _binary(_true_divide), "FloorDiv": _binary(_floor_divide), "FloorMod": _binary(_remainder),
    "Pow": _binary(jnp.power), "Maximum": _binary(jnp.maximum), "Minimum": _binary(jnp.minimum),
    "Equal": _binary(jnp.equal), "NotEqual": _binary(jnp.not_equal), "Less": _binary(jnp.less),
    "LessEqual": _binary(jnp.less_equal), "Greater": _binary(jnp.greater),
    "GreaterEqual": _binary(jnp.greater_equal), "LogicalAnd": _binary(jnp.logical_and),
    "LogicalOr": _binary(jnp.logical_or), "LogicalXor": _binary(jnp.logical_xor),
    "LogicalNot": _unary(jnp.logical_not),
    "BitwiseAnd": _binary(jnp.bitwise_and), "BitwiseOr": _binary(jnp.bitwise_or),
    "BitwiseXor": _binary(jnp.bitwise_xor), "Invert": _unary(jnp.invert),
    "LeftShift": _binary(clamped_shift(jnp.left_shift, jnp.clip)),
    "RightShift": _binary(clamped_shift(jnp.right_shift, jnp.clip)),
    "Neg": _unary(jnp.negative), "Abs": _unary(jnp.abs), "Sign": _unary(jnp.sign), "Square": _unary(jnp.square),
    "Sqrt": _unary(jnp.sqrt), "Rsqrt": _unary(lax.rsqrt), "Reciprocal": _unary(jnp.reciprocal),
    "Exp": _unary(jnp.exp), "Expm1": _unary(jnp.expm1), "Log": _unary(jnp.log), "Log1p": _unary(jnp.log1p),
    "Asin": _unary(jnp.arcsin), "Acos": _unary(jnp.arccos), "Atan": _unary(jnp.arctan), "Atan2": _binary(jnp.arctan2),
    "Xdivy": _binary(lambda x, y: jnp.where(x == 0, jnp.zeros((), x.dtype), x / y)),
    "Asinh": _unary(jnp.arcsinh), "Acosh": _unary(jnp.arccosh), "Atanh": _unary(jnp.arctanh),
    "Sin": _unary(jnp.sin), "Cos": _unary(jnp.cos), "Tanh": _unary(jnp.tanh), "Sigmoid": _unary(jax.nn.sigmoid),
    "Floor": _unary(jnp.floor), "Ceil": _unary(jnp.ceil), "Round": _unary(jnp.round),
    "Relu": _unary(jax.nn.relu), "Softplus": _unary(jax.nn.softplus),
    "Softsign": _unary(jax.nn.soft_sign),
    "Softmax": lambda x, axis: jax.nn.softmax(materialised(x), axis=axis),
    "LogSoftmax": lambda x, axis: jax.nn.log_softmax(materialised(x), axis=axis),
    "Cast": lambda x, dtype: _cast(materialised(x), dtype),
    "ClipByValue": lambda t, lo, hi: jnp.maximum(jnp.minimum(t, hi), lo),
    "SelectV2": lambda c, x, y: jnp.where(c, x, y),
    "MatMul": _matmul,
    "Sum": lambda x, axis=None, keepdims=False: jnp.sum(materialised(x), axis=_axis(axis), keepdims=keepdims, dtype=x.dtype),
    "Mean": lambda x, axis=None, keepdims=False: _mean(materialised(x), axis, keepdims),
    "Max": lambda x, axis=None, keepdims=False: _extremum(jnp.max, materialised(x), axis, keepdims, lowest=True),
    "Min": lambda x, axis=None, keepdims=False: _extremum(jnp.min, materialised(x), axis, keepdims, lowest=False),
    "Prod": lambda x, axis=None, keepdims=False: jnp.prod(materialised(x), axis=_axis(axis), keepdims=keepdims,
                                                          dtype=x.dtype),   # jnp.prod widens int8 to int32
    "Any": lambda x, axis=None, keepdims=False: jnp.any(x, axis=_axis(axis), keepdims=keepdims),
    "All": lambda x, axis=None, keepdims=False: jnp.all(x, axis=_axis(axis), keepdims=keepdims),
    "ArgMax": _arg(jnp.argmax, -jnp.inf), "ArgMin": _arg(jnp.argmin, jnp.inf),
    "Cumsum": _cumsum, "Cumprod": _cumprod,
    "Shape": _shape,
    "Size": lambda x, out_type: jnp.asarray(jnp.size(materialised(x)), jax_dtype(out_type)),
    "Rank": lambda x: jnp.int32(jnp.ndim(materialised(x))),
    "Range": _range,
    "StridedSlice": strided_slice,
    "Reshape": _reshape,
    "Transpose": lambda x, perm: jnp.transpose(x, perm),
    "ExpandDims": lambda x, axis: jnp.expand_dims(x, axis),
    "Squeeze": lambda x, axis: jnp.squeeze(x, axis=tuple(axis) if axis else None),
    "ConcatV2": lambda *values, axis: jnp.concatenate([materialised(v) for v in values], axis=axis),
    "Pack": lambda *values, axis: jnp.stack(values, axis=axis),
    "Unpack": lambda value, num, axis: list(jnp.moveaxis(value, axis, 0)),
    "Tile": lambda x, *m, multiples: jnp.tile(x, static_argument(m, multiples, "Tile's multiples")),
    "Fill": lambda value, *d, dims: jnp.full(static_argument(d, dims, "Fill's dims"), value, dtype=jnp.asarray(value).dtype),
    "Eye": lambda num_rows, num_columns, batch_shape, dtype: jnp.broadcast_to(
        jnp.eye(num_rows, num_columns, dtype=jax_dtype(dtype)), (*batch_shape, num_rows, num_columns)),
    "ZerosLike": jnp.zeros_like, "OnesLike": jnp.ones_like,
    "CustomGradient": lambda *values, num_inputs, num_outputs, grad_graph, has_gradient: list(
        values[num_inputs:num_inputs + num_outputs]),
    "Complex": _binary(lambda x, y: lax.complex(*jnp.broadcast_arrays(x, y))),
    "Real": _unary(jnp.real), "Imag": _unary(jnp.imag), "Conj": _unary(jnp.conj),
    "ComplexAbs": _unary(jnp.abs), "Angle": _unary(jnp.angle),
    "Einsum": lambda *operands, equation: jnp.einsum(equation, *[materialised(o) for o in operands]),
    "Elu": _unary(lambda x: jnp.where(x > 0, x, _where_negative_expm1(x)).astype(x.dtype)),
    "Selu": _unary(lambda x: (_SELU_SCALE * jnp.where(x > 0, x, _SELU_ALPHA * _where_negative_expm1(x)))
                   .astype(x.dtype)),
    "Gelu": lambda x, approximate: _gelu(materialised(x), approximate),
    "Relu6": _unary(lambda x: jnp.clip(x, 0, 6).astype(x.dtype)),
    "Erf": _unary(lambda x: jax.scipy.special.erf(x).astype(x.dtype)),
    "Erfc": _unary(lambda x: jax.scipy.special.erfc(x).astype(x.dtype)),
    "CumulativeLogsumexp": lambda x, axis, exclusive, reverse: _cumulative_logsumexp(materialised(x), axis, exclusive,
                                                                                    reverse),
    "Erfinv": _unary(lambda x: jax.scipy.special.erfinv(x).astype(x.dtype)),
    "Ndtri": _unary(lambda x: jax.scipy.special.ndtri(x).astype(x.dtype)),
    "Lgamma": _unary(lambda x: jax.scipy.special.gammaln(x).astype(x.dtype)),
    "Digamma": _unary(lambda x: jnp.where((x <= 0) & (x == jnp.floor(x)), jnp.nan,
                                          jax.scipy.special.digamma(x)).astype(x.dtype)),
    "Trigamma": _unary(lambda x: jnp.where((x <= 0) & (x == jnp.floor(x)), jnp.inf,
                                           jax.scipy.special.polygamma(1, x)).astype(x.dtype)),
    "L2Loss": _unary(lambda t: (jnp.sum(jnp.square(t)) / 2).astype(t.dtype)),
    "ReduceLogSumExp": lambda x, axis=None, keepdims=False: _logsumexp(materialised(x), axis, keepdims),
    "Pad": lambda x, constant_values, paddings, mode: _pad(materialised(x), constant_values, paddings, mode),
    "OneHot": lambda indices, depth, on_value, off_value, axis, dtype: _one_hot(
        materialised(indices), depth, on_value, off_value, axis, dtype),
    "BroadcastTo": lambda x, *s, shape: jnp.broadcast_to(materialised(x), static_argument(s, shape, "BroadcastTo's shape")),
    "LinSpace": _linspace,
    "SplitV": lambda x, sizes, axis: jnp.split(materialised(x), np.cumsum(sizes)[:-1].tolist(), axis=axis),
    "Sort": lambda x, axis, descending: _sort(materialised(x), axis, descending),
    "TopKV2": lambda x, k, sorted: _top_k(materialised(x), k, sorted),
    "TakeAlongAxis": lambda x, indices, axis: jnp.take_along_axis(materialised(x), indices, axis),
    "TakeAlongAxisGrad": _take_along_axis_grad,
    "Svd": _svd,
    "GatherV2Grad": _gather_grad,
    "StridedSliceGrad": lambda grad, like, *values, spec: _strided_slice_grad(grad, like, values, spec),
    "SumToShape": _sum_to_shape,
    "SqrtGrad": _binary(lambda y, dy: _where_upstream(dy, dy * 0.5 / y)),
    "RsqrtGrad": _binary(lambda y, dy: _where_upstream(dy, -0.5 * dy * y * y * y)),
    "ReciprocalGrad": _binary(lambda y, dy: _where_upstream(dy, -dy * y * y)),
    "ReluGrad": _binary(lambda g, x: jnp.where(x > 0, g, jnp.zeros((), g.dtype))),
    "Relu6Grad": _binary(lambda g, x: jnp.where((x > 0) & (x < 6), g, jnp.zeros((), g.dtype))),
    "LeakyRelu": lambda x, alpha: _leaky(materialised(x), materialised(x), alpha),
    "LeakyReluGrad": lambda g, x, alpha: _leaky(materialised(g), materialised(x), alpha),
    "BroadcastLike": _broadcast_like,
    "ReshapeLike": lambda grad, like: jnp.reshape(grad, jnp.shape(like)),
    **jax_lists.LOWERINGS,
}
