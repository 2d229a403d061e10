"""Elementwise arithmetic, comparisons, logic, casts and reductions (`matmul` is in sort_ops.py, with `einsum`).

Each op is one registry entry (name, NumPy kernel, inference rule) and a
one-line public wrapper. TensorFlow's dtype rules: operands must have one
dtype; integer true division gives float64 (float32 for 8/16-bit ints);
`//` and `%` floor like Python; `round` is half-to-even; an integer
`reduce_mean` stays integer; float → int `cast` truncates toward zero.
"""
from __future__ import annotations

import numpy as np

from runtime import dtypes
from runtime.errors import DTypeNotAllowedError, InvalidArgumentError, UnimplementedError
from runtime.ops.convert import binary_operands
from runtime.ops.packing import static_ints
from runtime.ops.registry import (Spec, apply, broadcast_binary, broadcast_predicate, broadcast_shapes, defop,
                                  unary_same)
from runtime.shape import TensorShape
from runtime.tensor import convert_to_tensor

# --- binary arithmetic ----------------------------------------------------------------


def _binary(op, x, y, name):
    return apply(op, *binary_operands(x, y, op.name), name=name)


def _numeric_binary(op, x, y, name):
    """Arithmetic and ordering: not on bool tensors, as in TensorFlow (Python's `True + True` is 2); on
    strings only `+` (concatenation, TensorFlow's AddV2); no ordering on complex numbers."""
    x, y = binary_operands(x, y, op.name)
    check_dtype(op.name, x.dtype)
    return apply(op, x, y, name=name)


# Ops that need ordered values: none of them is defined on complex tensors, as in TensorFlow.
_ORDERED = frozenset({"FloorDiv", "FloorMod", "Maximum", "Minimum", "Less", "LessEqual", "Greater",
                      "GreaterEqual", "Max", "Min", "ArgMax", "ArgMin", "ClipByValue", "Floor", "Ceil", "Round",
                      "Sort", "TopKV2"})


_WRAPS = {"Neg": "; NumPy's would wrap around", "Pow": "; NumPy's would wrap around"}


def check_dtype(op_name: str, dtype: dtypes.DType) -> None:
    """Raise what TensorFlow's kernels would for an arithmetic op on bool, string or complex tensors."""
    if dtype is dtypes.bool:
        raise _bool_not_allowed(op_name)
    if dtype is dtypes.string and op_name != "AddV2":
        raise DTypeNotAllowedError(
            f"{op_name} is not defined on string tensors (TensorFlow has no {op_name} kernel for strings; only + "
            "joins them). Use the runtime.strings functions, or runtime.strings.to_number first.", op_name)
    if dtype.is_unsigned and op_name in ("Neg", "Pow", "Abs"):
        raise DTypeNotAllowedError(
            f"{op_name} is not defined on {dtype.name} tensors (TensorFlow has no such kernel{_WRAPS.get(op_name, '')})"
            f". Cast first: runtime.cast(x, runtime.int32).", op_name)
    if dtype.is_complex and op_name in _ORDERED:
        raise DTypeNotAllowedError(
            f"{op_name} is not defined on complex tensors: complex numbers are not ordered (TensorFlow rejects "
            "it too). Compare runtime.abs(z) or runtime.math.real(z) instead.", op_name)


def _bool_not_allowed(op_name: str) -> DTypeNotAllowedError:
    return DTypeNotAllowedError(
        f"{op_name} is not defined on bool tensors (TensorFlow rejects it too; Python would count True as 1). "
        f"Cast first: runtime.cast(b, runtime.int32).", op_name)


def _true_divide(x, y):
    if x.dtype.kind in "iub":
        wide = np.float32 if x.dtype.itemsize <= 2 else np.float64
        return np.true_divide(x, y, dtype=wide)
    return np.true_divide(x, y)


def _truediv_infer(x, y) -> Spec:
    dtype = x.dtype
    if dtype.is_integer:
        dtype = dtypes.float32 if dtype.as_numpy_dtype(0).itemsize <= 2 else dtypes.float64
    return Spec(dtype, broadcast_shapes(x.shape, y.shape))


def _check_int_divisor(y, op_name):
    # Python operators on NumPy values are NumPy's ufuncs, and much faster on NumPy scalars.
    if y.dtype.kind in "iu" and ((y == 0).any() if y.ndim else y == 0):
        raise InvalidArgumentError(f"{op_name}: integer division by zero.", op_name)


def _floordiv(x, y):
    """TensorFlow's float FloorDiv is floor(x / y), not NumPy's (Python's) divmod quotient: 1 // 0.1 is 10
    (NumPy: 9), -3 // inf is -0 (NumPy: -1), inf // 2 is inf (NumPy: nan)."""
    _check_int_divisor(y, "FloorDiv")
    if np.result_type(x, y).kind in "fc":
        return np.floor(np.true_divide(x, y))
    return x // y


def _floormod(x, y):
    _check_int_divisor(y, "FloorMod")
    return x % y


def _pow(x, y):
    if x.dtype.kind in "iu" and np.any(np.asarray(y) < 0):
        raise InvalidArgumentError("Pow: integers to negative integer powers are not allowed; cast to float.", "Pow")
    if np.ndim(y) == 0 and y == 0.5:   # NumPy's scalar 0.5 is sqrt: NaN at -inf, -0.0 at -0.0, where C's pow
        flat = np.atleast_1d(x)        # (TensorFlow's) gives inf and 0.0; an array exponent is pow
        out = np.power(flat, np.full(flat.shape, y, flat.dtype))
        return out.reshape(np.shape(x)) if np.ndim(x) else out[0]
    return np.power(x, y)


ADD = defop("AddV2", np.add, broadcast_binary)
SUB = defop("Sub", np.subtract, broadcast_binary)
MUL = defop("Mul", np.multiply, broadcast_binary)
TRUEDIV = defop("RealDiv", _true_divide, _truediv_infer)
FLOORDIV = defop("FloorDiv", _floordiv, broadcast_binary)
FLOORMOD = defop("FloorMod", _floormod, broadcast_binary)
POW = defop("Pow", _pow, broadcast_binary)
MAXIMUM = defop("Maximum", np.maximum, broadcast_binary)
MINIMUM = defop("Minimum", np.minimum, broadcast_binary)


def add(x, y, name=None):
    return _numeric_binary(ADD, x, y, name)


def subtract(x, y, name=None):
    return _numeric_binary(SUB, x, y, name)


def multiply(x, y, name=None):
    x, y = binary_operands(x, y, MUL.name)
    if x.dtype is dtypes.bool:         # TensorFlow's product of bools: their logical and
        return apply(LOGICAL_AND, x, y, name=name)
    check_dtype(MUL.name, x.dtype)
    return apply(MUL, x, y, name=name)


def truediv(x, y, name=None):
    return _numeric_binary(TRUEDIV, x, y, name)


def divide(x, y, name=None):
    return _numeric_binary(TRUEDIV, x, y, name)


def floordiv(x, y, name=None):
    return _numeric_binary(FLOORDIV, x, y, name)


def floormod(x, y, name=None):
    return _numeric_binary(FLOORMOD, x, y, name)


mod = floormod


def pow(x, y, name=None):  # noqa: A001 - TensorFlow's name
    return _numeric_binary(POW, x, y, name)


def maximum(x, y, name=None):
    return _numeric_binary(MAXIMUM, x, y, name)


def minimum(x, y, name=None):
    return _numeric_binary(MINIMUM, x, y, name)


# --- comparisons and logic --------------------------------------------------------------

EQUAL = defop("Equal", np.equal, broadcast_predicate)
NOT_EQUAL = defop("NotEqual", np.not_equal, broadcast_predicate)
LESS = defop("Less", np.less, broadcast_predicate)
LESS_EQUAL = defop("LessEqual", np.less_equal, broadcast_predicate)
GREATER = defop("Greater", np.greater, broadcast_predicate)
GREATER_EQUAL = defop("GreaterEqual", np.greater_equal, broadcast_predicate)
LOGICAL_AND = defop("LogicalAnd", np.logical_and, broadcast_binary)
LOGICAL_OR = defop("LogicalOr", np.logical_or, broadcast_binary)
LOGICAL_XOR = defop("LogicalXor", np.logical_xor, broadcast_binary)
LOGICAL_NOT = defop("LogicalNot", np.logical_not, unary_same)


def equal(x, y, name=None):
    return _binary(EQUAL, x, y, name)


def not_equal(x, y, name=None):
    return _binary(NOT_EQUAL, x, y, name)


def less(x, y, name=None):
    return _numeric_binary(LESS, x, y, name)


def less_equal(x, y, name=None):
    return _numeric_binary(LESS_EQUAL, x, y, name)


def greater(x, y, name=None):
    return _numeric_binary(GREATER, x, y, name)


def greater_equal(x, y, name=None):
    return _numeric_binary(GREATER_EQUAL, x, y, name)


def _bool_operands(op, x, y):
    x, y = binary_operands(x, y, op.name)
    if x.dtype is not dtypes.bool:
        raise InvalidArgumentError(f"{op.name}: expects bool tensors, got {x.dtype.name}; compare first "
                                   "(e.g. x > 0) to get bools.", op.name)
    return x, y


def logical_and(x, y, name=None):
    return apply(LOGICAL_AND, *_bool_operands(LOGICAL_AND, x, y), name=name)


def logical_or(x, y, name=None):
    return apply(LOGICAL_OR, *_bool_operands(LOGICAL_OR, x, y), name=name)


def logical_xor(x, y, name=None):
    return apply(LOGICAL_XOR, *_bool_operands(LOGICAL_XOR, x, y), name=name)


def logical_not(x, name=None):
    x = convert_to_tensor(x, dtype_hint=dtypes.bool)
    if x.dtype is not dtypes.bool:
        raise InvalidArgumentError(f"LogicalNot: expects a bool tensor, got {x.dtype.name}.", "LogicalNot")
    return apply(LOGICAL_NOT, x, name=name)


# --- unary -------------------------------------------------------------------------------------


def _float_only(op, x):
    x = convert_to_tensor(x, dtype_hint=dtypes.float32)
    if not x.dtype.is_floating:
        raise InvalidArgumentError(f"{op.name}: expects a floating-point tensor, got {x.dtype.name}; use "
                                   f"runtime.cast(x, runtime.float32) first.", op.name)
    return x


def _numeric(op, x):
    x = convert_to_tensor(x)
    check_dtype(op.name, x.dtype)
    return x


def _sigmoid(x):
    with np.errstate(over="ignore"):
        return (1 / (1 + np.exp(-x))).astype(x.dtype)


NEG = defop("Neg", np.negative, unary_same)
ABS = defop("Abs", np.abs, unary_same)
SIGN = defop("Sign", np.sign, unary_same)
SQUARE = defop("Square", np.square, unary_same)
SQRT = defop("Sqrt", np.sqrt, unary_same)
EXP = defop("Exp", np.exp, unary_same)
LOG = defop("Log", np.log, unary_same)
SIN = defop("Sin", np.sin, unary_same)
COS = defop("Cos", np.cos, unary_same)
TANH = defop("Tanh", np.tanh, unary_same)
SIGMOID = defop("Sigmoid", _sigmoid, unary_same)
FLOOR = defop("Floor", np.floor, unary_same)
CEIL = defop("Ceil", np.ceil, unary_same)
ROUND = defop("Round", np.round, unary_same)  # half to even, as TensorFlow


def negative(x, name=None):
    return apply(NEG, _numeric(NEG, x), name=name)


def abs(x, name=None):  # noqa: A001
    x = _numeric(ABS, x)
    if x.dtype.is_complex:
        from runtime.ops import complex_ops  # import cycle: complex_ops builds on this module
        return complex_ops.complex_abs(x, name=name)
    return apply(ABS, x, name=name)


def sign(x, name=None):
    return apply(SIGN, _numeric(SIGN, x), name=name)


def square(x, name=None):
    return apply(SQUARE, _numeric(SQUARE, x), name=name)


def sqrt(x, name=None):
    return apply(SQRT, _float_only(SQRT, x), name=name)


def exp(x, name=None):
    return apply(EXP, _float_only(EXP, x), name=name)


def log(x, name=None):
    return apply(LOG, _float_only(LOG, x), name=name)


def sin(x, name=None):
    return apply(SIN, _float_only(SIN, x), name=name)


def cos(x, name=None):
    return apply(COS, _float_only(COS, x), name=name)


def tanh(x, name=None):
    return apply(TANH, _float_only(TANH, x), name=name)


def sigmoid(x, name=None):
    return apply(SIGMOID, _float_only(SIGMOID, x), name=name)


def floor(x, name=None):
    return apply(FLOOR, _float_only(FLOOR, x), name=name)


def ceil(x, name=None):
    return apply(CEIL, _float_only(CEIL, x), name=name)


def round(x, name=None):  # noqa: A001
    x = _numeric(ROUND, x)
    return x if x.dtype.is_integer else apply(ROUND, x, name=name)


# --- cast and clip ---------------------------------------------------------------------------

def _cast(x, dtype):
    if np.iscomplexobj(x) and not dtype.is_complex:
        x = np.real(x)  # TensorFlow keeps the real part
    return np.asarray(x).astype(dtype.as_numpy_dtype) if np.ndim(x) else dtype.as_numpy_dtype(x)


CAST = defop("Cast", _cast, lambda x, dtype: Spec(dtype, x.shape))


def cast(x, dtype, name=None):
    x, dtype = convert_to_tensor(x), dtypes.as_dtype(dtype)
    if x.dtype is not dtype and dtypes.string in (x.dtype, dtype):
        raise UnimplementedError(f"Cast {x.dtype.name} to {dtype.name} is not supported (nor in TensorFlow); use "
                                 "runtime.strings.as_string or runtime.strings.to_number.", "Cast")
    return x if x.dtype is dtype else apply(CAST, x, dtype=dtype, name=name)


def _clip(t, lo, hi):
    """TensorFlow's order: `minimum` with `hi`, then `maximum` with `lo` (so `lo` wins where lo > hi)."""
    return np.maximum(np.minimum(t, hi), lo)


CLIP = defop("ClipByValue", _clip,
             lambda t, lo, hi: Spec(t.dtype, broadcast_shapes(broadcast_shapes(t.shape, lo.shape), hi.shape)))


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    t = convert_to_tensor(t)
    lo = convert_to_tensor(clip_value_min, dtype_hint=t.dtype)
    hi = convert_to_tensor(clip_value_max, dtype_hint=t.dtype)
    from runtime.ops.registry import same_dtype
    same_dtype("ClipByValue", t, lo, hi)
    check_dtype("ClipByValue", t.dtype)
    shape = broadcast_shapes(broadcast_shapes(t.shape, lo.shape, "ClipByValue"), hi.shape, "ClipByValue")
    if not shape.is_compatible_with(t.shape):   # TensorFlow: the clipped tensor keeps t's shape
        raise InvalidArgumentError(f"ClipByValue: bounds of shapes {lo.shape} and {hi.shape} would broadcast t's "
                                   f"shape {t.shape} to {shape}; the result must keep t's shape.", "ClipByValue")
    return apply(CLIP, t, lo, hi, name=name)


# --- reductions ------------------------------------------------------------------------------

def _axes(axis, rank):
    if axis is None:
        return None if rank is None else tuple(range(rank))
    axes = (axis,) if isinstance(axis, int) else tuple(int(a) for a in axis)
    if rank is None:
        return axes
    for a in axes:
        if not -rank <= a < rank:
            raise InvalidArgumentError(f"axis {a} is out of range for a tensor of rank {rank}.")
    return tuple(sorted({a % rank for a in axes}))


def _reduce_infer(x, axis=None, keepdims=False, out_dtype=None) -> Spec:
    dtype = out_dtype or x.dtype
    rank = x.shape.rank
    if rank is None:
        return Spec(dtype, TensorShape(None))
    axes = _axes(axis, rank)
    if keepdims:
        return Spec(dtype, TensorShape([1 if i in axes else d for i, d in enumerate(x.shape.dims)]))
    return Spec(dtype, TensorShape([d for i, d in enumerate(x.shape.dims) if i not in axes]))


def _np_axis(axis):
    return axis if axis is None or isinstance(axis, int) else tuple(axis)


def _sum(x, axis=None, keepdims=False):
    return np.add.reduce(x, axis=_np_axis(axis), keepdims=keepdims, dtype=x.dtype)


def _mean(x, axis=None, keepdims=False):
    if x.dtype.kind in "iu":
        total = np.sum(x, axis=_np_axis(axis), keepdims=keepdims, dtype=np.int64)
        count = max(x.size, 1) // max(np.size(total), 1)
        if count == 0:
            raise InvalidArgumentError("Mean: cannot average an empty integer tensor.", "Mean")
        quotient = np.abs(total) // count * np.sign(total)  # truncates toward zero, as TensorFlow
        return quotient.astype(x.dtype)
    total = np.add.reduce(x, axis=_np_axis(axis), keepdims=keepdims, dtype=x.dtype)
    with np.errstate(invalid="ignore"):       # an empty slice's mean is NaN without a word, as TensorFlow's
        return total / x.dtype.type(x.size // total.size if total.size else 1)


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else (False if dtype.kind == "b" else np.iinfo(dtype).min)


def _highest(dtype):
    return np.inf if dtype.kind == "f" else (True if dtype.kind == "b" else np.iinfo(dtype).max)


def _max(x, axis=None, keepdims=False):
    return np.max(x, axis=_np_axis(axis), keepdims=keepdims, initial=_lowest(x.dtype))


def _min(x, axis=None, keepdims=False):
    return np.min(x, axis=_np_axis(axis), keepdims=keepdims, initial=_highest(x.dtype))


def _prod(x, axis=None, keepdims=False):
    return np.prod(x, axis=_np_axis(axis), keepdims=keepdims, dtype=x.dtype)


SUM = defop("Sum", _sum, _reduce_infer)
MEAN = defop("Mean", _mean, _reduce_infer)
MAX = defop("Max", _max, _reduce_infer)
MIN = defop("Min", _min, _reduce_infer)
PROD = defop("Prod", _prod, _reduce_infer)
ANY = defop("Any", lambda x, axis=None, keepdims=False: np.any(x, axis=_np_axis(axis), keepdims=keepdims),
            _reduce_infer)
ALL = defop("All", lambda x, axis=None, keepdims=False: np.all(x, axis=_np_axis(axis), keepdims=keepdims),
            _reduce_infer)


def _reduce(op, x, axis, keepdims, name, want_bool=False):
    x = convert_to_tensor(x)
    if want_bool != (x.dtype is dtypes.bool) or x.dtype is dtypes.string:
        kind = "bool" if want_bool else "numeric"
        raise InvalidArgumentError(f"{op.name}: expects a {kind} tensor, got {x.dtype.name}.", op.name)
    if not want_bool:
        check_dtype(op.name, x.dtype)
    if axis is not None:
        axis = _static_axis(axis)
        _axes(axis, x.shape.rank)
    return apply(op, x, axis=axis, keepdims=bool(keepdims), name=name)


def _static_axis(axis):
    """`axis` as Python ints: also a tensor whose value tracing knows (a constant made in the function)."""
    return None if axis is None else static_ints(axis, "an axis", "axis")


def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(SUM, input_tensor, axis, keepdims, name)


def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(MEAN, input_tensor, axis, keepdims, name)


def reduce_max(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(MAX, input_tensor, axis, keepdims, name)


def reduce_min(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(MIN, input_tensor, axis, keepdims, name)


def reduce_prod(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(PROD, input_tensor, axis, keepdims, name)


def reduce_any(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(ANY, input_tensor, axis, keepdims, name, want_bool=True)


def reduce_all(input_tensor, axis=None, keepdims=False, name=None):
    return _reduce(ALL, input_tensor, axis, keepdims, name, want_bool=True)


def _arg_infer(x, axis, output_type) -> Spec:
    return _reduce_infer(x, axis, False, out_dtype=output_type)


def _argmax(x, axis, output_type):
    if x.shape[axis] == 0:
        raise InvalidArgumentError(f"ArgMax: reduction dimension {axis} is empty.", "ArgMax")
    return np.asarray(np.argmax(_nan_as(x, -np.inf), axis=axis)).astype(output_type.as_numpy_dtype)


def _argmin(x, axis, output_type):
    if x.shape[axis] == 0:
        raise InvalidArgumentError(f"ArgMin: reduction dimension {axis} is empty.", "ArgMin")
    return np.asarray(np.argmin(_nan_as(x, np.inf), axis=axis)).astype(output_type.as_numpy_dtype)


def _nan_as(x, value):
    """`x` with NaNs as `value`: TensorFlow's argmax and argmin pass over NaNs (the first item when all are),
    where NumPy's pick the first NaN."""
    if x.dtype.kind != "f" or not np.isnan(x).any():
        return x
    return np.where(np.isnan(x), value, x)


ARGMAX = defop("ArgMax", _argmax, _arg_infer)
ARGMIN = defop("ArgMin", _argmin, _arg_infer)


def _arg_operand(op, value):
    """argmax/argmin's operand: a bool tensor as int8 (TensorFlow's: the first True for argmax)."""
    x = convert_to_tensor(value)
    return cast(x, dtypes.int8) if x.dtype is dtypes.bool else _numeric(op, x)


def argmax(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002
    x = _arg_operand(ARGMAX, input)
    axis = 0 if axis is None else _static_axis(axis)
    _axes(axis, x.shape.rank)
    return apply(ARGMAX, x, axis=axis, output_type=dtypes.as_dtype(output_type), name=name)


def argmin(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002
    x = _arg_operand(ARGMIN, input)
    axis = 0 if axis is None else _static_axis(axis)
    _axes(axis, x.shape.rank)
    return apply(ARGMIN, x, axis=axis, output_type=dtypes.as_dtype(output_type), name=name)


def _scan(accumulate, first):
    """A cumulative kernel: `accumulate` along `axis`, from the end with `reverse`; with `exclusive` each item is
    the accumulation of those before it (`first` for the first)."""
    def kernel(x, axis=0, exclusive=False, reverse=False):
        if reverse:
            x = np.flip(x, axis)
        out = accumulate(x, axis=axis, dtype=x.dtype)
        if exclusive and out.shape[axis]:   # (of an empty axis: empty, as TensorFlow's)
            start = np.full_like(np.take(out, [0], axis=axis), first)
            out = np.concatenate([start, np.delete(out, -1, axis=axis)], axis)
        return np.flip(out, axis) if reverse else out
    return kernel


CUMSUM = defop("Cumsum", _scan(np.cumsum, 0), unary_same)
CUMPROD = defop("Cumprod", _scan(np.cumprod, 1), unary_same)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    return _cumulative(CUMSUM, x, axis, exclusive, reverse, name)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    return _cumulative(CUMPROD, x, axis, exclusive, reverse, name)


def _cumulative(op, x, axis, exclusive, reverse, name):
    x = _numeric(op, x)
    axis = _static_axis(axis)
    _axes(axis, x.shape.rank)
    return apply(op, x, axis=axis, exclusive=bool(exclusive), reverse=bool(reverse), name=name)
