"""Gradient rules, attached to the ops they differentiate.

A rule is `rule(grad, op_inputs, output, **attrs)` and returns one gradient
per input (a tensor, or None where the input is not differentiable). An op
with several outputs gets a list of gradients, zeros for an output no
gradient reached, or None there if the rule has `takes_missing_gradients`
set (to skip work that a zero would make vanish). Rules
are written with the public ops, so one rule serves eager tapes and tapes
recorded while a function is traced: in a graph the gradient becomes ops of
that graph.

Ops that are piecewise constant or not numeric (comparisons, `argmax`,
`shape`, random numbers, ...) and `stop_gradient` are listed in
`NOT_DIFFERENTIABLE`: they stop gradients, as in TensorFlow. An op with
neither a rule nor that mark raises a clear `LookupError` naming the op and
the user's line when a gradient has to pass through it.

Lists (TensorArrays, and the Python lists a staged loop carries) have list
gradients: a gradient of a `variant` tensor is a list of its elements'
gradients, None standing for zeros (their rules are in list_ops.py).
`Cond` and `While` have their rules in `control_flow_gradients.py`, the
activations, softmax and cross-entropy theirs in `nn_gradients.py`; they are
entries of this table too.
"""
from __future__ import annotations

import math

import numpy as np

from runtime.ops import list_ops as L
from runtime.custom_gradients import custom_gradient_rule
from runtime.ops import array_ops as A
from runtime.ops import complex_ops as C
from runtime.ops import composites as CO
from runtime.ops import control_flow_gradients, einsum_gradients, indexing
from runtime.ops import extra_array_ops as X
from runtime.ops import extra_math as EM
from runtime.ops import math_ops as M
from runtime.ops import linalg_ops as LA
from runtime.ops import nd_ops as ND
from runtime.ops import nn_gradients
from runtime.ops import script_ops
from runtime.ops import sort_ops as S
from runtime.ops import special_math
from runtime.ops import unary_gradients
from runtime.ops.registry import GRADIENTS, Spec, apply, defop

NOT_DIFFERENTIABLE = frozenset({
    "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd", "LogicalOr",
    "LogicalXor", "LogicalNot", "ArgMax", "ArgMin", "Shape", "Size", "Rank", "Floor", "Ceil", "Round",
    "FloorDiv", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "LeftShift", "RightShift", "Invert",
    "OnesLike", "ZerosLike", "Range", "Eye", "Fill", "Const", "Where",
    "RandomUniform", "RandomStandardNormal", "StatelessRandomUniformV2", "StatelessRandomNormalV2", "All", "Any", "OneHot", "PrintV2", "Assert", "Raise",
    "StopGradient", "TensorListNew", "TensorListSize", "TensorListZeros", "StringLength", "StringJoin",
    "ReduceJoin", "StringFormat", "PythonFormat", "Unique", "AsString", "StringToNumber", "StringUpper", "StringLower", "StringSplitV2",
    "BytesSplit", "UnicodeSplit", "UnicodeDecode", "ExactInt32", "PythonFloat", "PyFunc", "PyFuncStateless",
    "Substr", "StaticRegexReplace", "StaticRegexFullMatch", "StringStrip", "UniqueCounts", "ConfusionMatrix",
})


def _static_dims(t, what: str) -> list:
    dims = t.shape.dims
    if dims is None or any(d is None for d in dims):
        raise NotImplementedError(
            f"gradient of {what}: the shape of an input is not fully known ({t.shape}); give the function "
            "an input_signature with full shapes, or compute this gradient eagerly.")
    return list(dims)


def _known(t) -> bool:
    dims = t.shape.dims
    return dims is not None and all(d is not None for d in dims)


# --- ops that only gradients use where shapes are known at run time only --------------------------

def summed_axes(grad_shape: tuple, like_shape: tuple) -> tuple:
    """The axes to sum a broadcast result's gradient over to get back to `like_shape` (also the JAX lowering's)."""
    lead = len(grad_shape) - len(like_shape)
    return tuple(range(lead)) + tuple(lead + i for i, d in enumerate(like_shape)
                                      if d == 1 and grad_shape[lead + i] != 1)


def _sum_to_shape_kernel(grad, like):
    axes = summed_axes(np.shape(grad), np.shape(like))
    return np.sum(grad, axis=axes).reshape(np.shape(like)) if axes else grad


def _broadcast_like_kernel(value, like, axes):
    if axes is not None:
        value = np.expand_dims(value, tuple(a % np.ndim(like) for a in axes))
    return np.array(np.broadcast_to(value, np.shape(like)))


SUM_TO_SHAPE = defop("SumToShape", _sum_to_shape_kernel, lambda grad, like: Spec(grad.dtype, like.shape),
                     doc="`grad` summed over the axes along which `like` was broadcast")
BROADCAST_LIKE = defop("BroadcastLike", _broadcast_like_kernel,
                       lambda value, like, axes: Spec(value.dtype, like.shape),
                       doc="`value` (with `axes` of `like` put back, if given) broadcast to `like`'s shape")


def _sum_to_shape(grad, inputs, output):
    return apply(BROADCAST_LIKE, grad, inputs[0], axes=None), None


def _broadcast_like(grad, inputs, output, axes):
    value = inputs[0]
    return (apply(SUM_TO_SHAPE, grad, value) if axes is None else M.reduce_sum(grad, axis=list(axes))), None


def unbroadcast(grad, like):
    """Sum `grad` over the axes along which `like` was broadcast, back to `like`'s shape."""
    if not (_known(like) and _known(grad)):
        return apply(SUM_TO_SHAPE, grad, like)
    target = _static_dims(like, "a broadcasting op")
    have = _static_dims(grad, "a broadcasting op")
    if have == target:
        return grad
    lead = len(have) - len(target)
    axes = list(range(lead)) + [lead + i for i, d in enumerate(target) if d == 1 and have[lead + i] != 1]
    summed = M.reduce_sum(grad, axis=axes) if axes else grad
    return A.reshape(summed, target)


def _binary(rule):
    def wrapped(grad, inputs, output, **attrs):
        gx, gy = rule(grad, *inputs, output)
        x, y = inputs
        return (None if gx is None else unbroadcast(gx, x), None if gy is None else unbroadcast(gy, y))
    return wrapped


def _kept_shape(x, axis) -> list:
    """The reduction's output shape with the reduced axes kept as 1s (a dimension unknown while tracing
    is read from `shape(x)`, so the list packs into a tensor)."""
    dims = x.shape.dims
    if dims is None:
        _static_dims(x, "a reduction")  # raises: the rank must be known
    axes = range(len(dims)) if axis is None else [a % len(dims) for a in ([axis] if isinstance(axis, int) else axis)]
    return [1 if i in axes else (d if d is not None else A.shape(x)[i]) for i, d in enumerate(dims)]


def _kept(t, x, axis):
    """`t`, a reduction's result, reshaped to keep the reduced axes of `x` (a scalar for axis=None)."""
    return A.reshape(t, [] if axis is None else _kept_shape(x, axis))


def _count(x, axis):
    if axis is None:
        return A.size(x)
    dims = _static_dims(x, "a reduction")
    kept = _kept_shape(x, axis)
    total = 1
    for d, k in zip(dims, kept):
        total *= d if k == 1 else 1
    return total


def _against(t, x, axis, keepdims: bool):
    """`t`, shaped like `x` reduced over `axis`, made to broadcast against `x`: reshaped when the shape
    of `x` is known, else broadcast to it when the graph runs."""
    if _known(x):
        return _kept(t, x, axis)
    axes = None if axis is None or keepdims else tuple([axis] if isinstance(axis, int) else axis)
    return apply(BROADCAST_LIKE, t, x, axes=axes)


def _spread(grad, x, axis, keepdims: bool = False):
    """`grad` of a reduction, broadcast back over the reduced axes of `x`."""
    return _against(grad, x, axis, keepdims) * A.ones_like(x)


def _sum(grad, inputs, output, axis=None, keepdims=False):
    return (_spread(grad, inputs[0], axis, keepdims),)


def _mean(grad, inputs, output, axis=None, keepdims=False):
    x = inputs[0]
    count = M.cast(_count(x, axis), x.dtype) if _known(x) else M.cast(A.size(x), x.dtype) / M.cast(
        A.size(output), x.dtype)
    return (_spread(grad, x, axis, keepdims) / count,)


def _extremum(grad, inputs, output, axis=None, keepdims=False):
    x = inputs[0]
    hits = M.cast(M.equal(x, _against(output, x, axis, keepdims)), x.dtype)
    ties = _against(M.reduce_sum(hits, axis=axis), x, axis, False)
    return (_spread(grad, x, axis, keepdims) * hits / ties,)


def _matmul(grad, inputs, output, transpose_a=False, transpose_b=False):
    """The adjoints, each summed over the batch axes along which its operand was broadcast."""
    ga, gb = _matmul_adjoints(grad, *inputs, transpose_a, transpose_b)
    return unbroadcast(ga, inputs[0]), unbroadcast(gb, inputs[1])


def _matmul_adjoints(grad, a, b, transpose_a, transpose_b):
    a, b = C.conj_if_complex(a), C.conj_if_complex(b)   # TensorFlow's adjoints, for complex operands
    mm = S.matmul
    if not transpose_a and not transpose_b:
        return mm(grad, b, transpose_b=True), mm(a, grad, transpose_a=True)
    if not transpose_a:
        return mm(grad, b), mm(grad, a, transpose_a=True)
    if not transpose_b:
        return mm(b, grad, transpose_b=True), mm(a, grad)
    return mm(b, grad, transpose_a=True, transpose_b=True), mm(grad, a, transpose_a=True, transpose_b=True)


def _pow(grad, x, y, out):
    gx = grad * y * M.pow(x, y - M.cast(1, y.dtype))
    safe_log = M.log(A.where(x > 0, x, A.ones_like(x)))
    gy = grad * out * A.where(x > 0, safe_log, A.zeros_like(x))
    return gx, gy


def _select(pick_first: bool):
    def rule(grad, x, y, out):
        mask = M.greater_equal(x, y) if pick_first else M.less_equal(x, y)
        zeros = A.zeros_like(grad)
        return A.where(mask, grad, zeros), A.where(mask, zeros, grad)
    return rule


def _where(grad, inputs, output):
    c, x, y = inputs
    zeros = A.zeros_like(grad)
    return None, unbroadcast(A.where(c, grad, zeros), x), unbroadcast(A.where(c, zeros, grad), y)


def _clip(grad, inputs, output):
    """TensorFlow's clip is maximum(minimum(t, hi), lo), and so is its gradient: `minimum` and `maximum`
    give ties (the bounds themselves) to their first operand, and NaN to their second."""
    t, lo, hi = inputs
    zeros = A.zeros_like(grad)
    kept_by_min = M.less_equal(t, hi)
    kept_by_max = M.greater_equal(M.minimum(t, hi), lo)
    through_min = A.where(kept_by_max, grad, zeros)
    return (unbroadcast(A.where(kept_by_min, through_min, zeros), t),
            unbroadcast(A.where(kept_by_max, zeros, grad), lo),
            unbroadcast(A.where(kept_by_min, zeros, through_min), hi))


def _cast(grad, inputs, output, dtype):
    """TensorFlow's: the gradient cast back, between float and complex types (complex to float took the real
    part: the gradient is real), and none through an integer or bool type."""
    x = inputs[0]
    passes = all(t.is_floating or t.is_complex for t in (x.dtype, output.dtype))
    return (M.cast(grad, x.dtype) if passes else None,)


RESHAPE_LIKE = defop("ReshapeLike", lambda grad, like: np.reshape(grad, np.shape(like)),
                     lambda grad, like: Spec(grad.dtype, like.shape), doc="`grad` reshaped to `like`'s shape")


def _reshape_back(grad, inputs, output, **attrs):
    x = inputs[0]
    if not _known(x):   # the shape is known when the graph runs
        return (apply(RESHAPE_LIKE, grad, x),) + (None,) * (len(inputs) - 1)
    return (A.reshape(grad, _static_dims(x, "a reshape")),)


def _transpose(grad, inputs, output, perm):
    if perm is None:
        return (A.transpose(grad),)
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return (A.transpose(grad, inverse),)


def _concat(grad, inputs, output, axis):
    """Each input's part of `grad` along `axis`: its size there read from `shape(x)` where tracing does not
    know it (a loop that grows a tensor)."""
    rank = output.shape.rank
    if rank is None:
        _static_dims(output, "concat")   # raises: the rank must be known
    axis %= rank
    pieces, start = [], 0
    for x in inputs:
        size = x.shape.dims[axis] if x.shape.dims is not None and x.shape.dims[axis] is not None \
            else A.shape(x)[axis]
        index = (slice(None),) * axis + (slice(start, start + size),)
        pieces.append(grad[index])
        start += size
    return tuple(pieces)


def _stack(grad, inputs, output, axis):
    return tuple(A.unstack(grad, axis=axis))


# --- ops that only gradients use: scatter an upstream gradient back into the input's shape ----------

def _slice_grad_kernel(grad, like, *index_values, spec):
    out = np.zeros_like(like)
    out[indexing._build(spec, index_values)] = grad
    return out


def _gather_grad_kernel(grad, like, indices, axis):
    out = np.zeros_like(like)
    np.add.at(np.moveaxis(out, axis, 0), indices, _gather_rows(grad, indices, axis))   # a view of out
    return out


def _gather_rows(grad, indices, axis):
    """`grad` (shaped like the gather's output) with the gathered axes first, as np.add.at wants them."""
    lead = indices.ndim
    return np.moveaxis(grad, list(range(axis, axis + lead)), list(range(lead)))


def _like_second(grad, like, *rest, **attrs) -> Spec:
    return Spec(grad.dtype, like.shape)


SLICE_GRAD = defop("StridedSliceGrad", _slice_grad_kernel, _like_second,
                   doc="zeros shaped like the sliced input, with the upstream gradient at the slice")
GATHER_GRAD = defop("GatherV2Grad", _gather_grad_kernel, _like_second,
                    doc="zeros shaped like params, with the upstream gradient added at the gathered rows")


def _strided_slice(grad, inputs, output, spec):
    x, *index_inputs = inputs
    return (apply(SLICE_GRAD, grad, x, *index_inputs, spec=spec), *(None for _ in index_inputs))


def _gather(grad, inputs, output, axis):
    params, indices = inputs
    return apply(GATHER_GRAD, grad, params, indices, axis=axis), None


def _slice_grad(grad, inputs, output, spec):
    """StridedSliceGrad is linear in the upstream gradient: its own gradient slices again."""
    _, _, *index_inputs = inputs
    return (apply(indexing.STRIDED_SLICE, grad, *index_inputs, spec=spec), None, *(None for _ in index_inputs))


def _gather_grad(grad, inputs, output, axis):
    _, _, indices = inputs
    return A.gather(grad, indices, axis=axis), None, None


def _tile(grad, inputs, output, multiples):
    if len(inputs) > 1:
        raise NotImplementedError("gradient of tile: multiples known only when the graph runs are not "
                                  "supported; pass them as a Python list.")
    x = inputs[0]
    if x.shape.dims is None:
        _static_dims(x, "tile")   # raises: the rank must be known
    dims = [d if d is not None else A.shape(x)[i] for i, d in enumerate(x.shape.dims)]   # packed by reshape
    interleaved = [n for pair in zip(multiples, dims) for n in pair]
    return (M.reduce_sum(A.reshape(grad, interleaved), axis=list(range(0, 2 * len(dims), 2))),)


def _cumsum(grad, inputs, output, axis, exclusive, reverse):
    return (M.cumsum(grad, axis=axis, exclusive=exclusive, reverse=not reverse),)


def _cumprod(grad, inputs, output, axis, exclusive, reverse):
    """TensorFlow's rule: the products times the gradient, summed the other way, over x, and 0 where x is 0 (its
    `div_no_nan`: not the derivative there, which is the product of the other factors, but TensorFlow's number)."""
    x = inputs[0]
    summed = M.cumsum(M.multiply(output, grad), axis=axis, exclusive=exclusive, reverse=not reverse)
    return (CO.divide_no_nan(summed, x),)


def _unstack(grads, inputs, output, num, axis):
    return (A.stack(grads, axis=axis),)


def _prod(grad, inputs, output, axis=None, keepdims=False):
    """TensorFlow's rule: each element's gradient is the product of the elements before it times the product of
    those after it (exclusive cumulative products both ways over the reduced axes flattened into one). No
    division: an inf or a NaN among them reaches only the others' gradients ([inf, 1, 2] gives 2 to the inf)."""
    x = inputs[0]
    if x.shape.rank is None:
        _static_dims(x, "reduce_prod")   # raises: the rank must be known
    shape = None if _known(x) else A.shape(x)
    dims = [d if d is not None else shape[i] for i, d in enumerate(x.shape.dims)]   # packed by reshape
    rank = len(dims)
    axes = sorted({a % rank for a in (range(rank) if axis is None else [axis] if isinstance(axis, int) else axis)})
    perm = axes + [a for a in range(rank) if a not in axes]
    permuted = A.transpose(x, perm)
    rows = A.reshape(permuted, [_product(dims, shape, group) for group in (axes, perm[len(axes):])])
    others = M.cumprod(rows, axis=0, exclusive=True) * M.cumprod(rows, axis=0, exclusive=True, reverse=True)
    back = A.transpose(A.reshape(others, [dims[a] for a in perm]), [int(i) for i in np.argsort(perm)])
    return (_spread(grad, x, axis, keepdims) * back,)


def _product(dims: list, shape, group: list):
    """The number of elements of the axes `group` of a tensor of `dims` (its `shape` tensor where one is unknown)."""
    if all(isinstance(dims[a], int) for a in group):
        return int(np.prod([dims[a] for a in group]))
    return M.reduce_prod(A.gather(shape, group))


def _floormod(grad, x, y, out):
    return grad, -grad * M.floor(x / y)


def _unary(rule):
    def wrapped(grad, inputs, output, **attrs):
        return (rule(grad, inputs[0], output),)
    return wrapped


# --- rules of the ops in extra_array_ops, sort_ops, extra_math and nn_ops ----------------------

def _broadcast_to(grad, inputs, output, shape):
    return (unbroadcast(grad, inputs[0]), *(None for _ in inputs[1:]))


def _linspace(grad, inputs, output, num, axis):
    if num < 2:
        return (unbroadcast(M.reduce_sum(grad, axis=axis), inputs[0]) if num == 1 else None), None
    rank = len(_static_dims(output, "linspace"))
    steps = A.reshape(A.range(num, dtype=grad.dtype) / M.cast(num - 1, grad.dtype),
                      [num if i == axis % rank else 1 for i in range(rank)])
    return (unbroadcast(M.reduce_sum(grad * (M.cast(1, grad.dtype) - steps), axis=axis), inputs[0]),
            unbroadcast(M.reduce_sum(grad * steps, axis=axis), inputs[1]))


def _pad(grad, inputs, output, paddings, mode):
    dims = _static_dims(inputs[0], "pad")
    if mode != "CONSTANT":
        return _mirror_pad_grad(grad, paddings, dims, mode), None
    return grad[tuple(slice(a, a + n) for (a, _), n in zip(paddings, dims))], None


def _mirror_pad_grad(grad, paddings, dims, mode):
    """The gradient of a REFLECT or SYMMETRIC pad, axis by axis: each mirrored region's gradient, reversed,
    added to the elements it copied (REFLECT leaves out the edge element, SYMMETRIC repeats it)."""
    edge = 1 if mode == "REFLECT" else 0
    for axis, ((before, after), n) in enumerate(zip(paddings, dims)):
        def along(start, stop, step=1):
            return grad[(slice(None),) * axis + (slice(start, stop, step),)]

        def placed(part, before_it, after_it):
            return X.pad(part, [(0, 0)] * axis + [(before_it, after_it)] + [(0, 0)] * (len(dims) - axis - 1))
        total = before + n + after
        folded = along(before, before + n)
        if before:
            folded = folded + placed(along(before - 1, None, -1), edge, n - edge - before)
        if after:
            folded = folded + placed(along(total - 1, before + n - 1, -1), n - edge - after, edge)
        grad = folded
    return grad


def _split(grads, inputs, output, sizes, axis):
    return (A.concat(grads, axis=axis),)


def _boolean_mask(grad, inputs, output, axis):
    x, mask = inputs
    return apply(X.BOOLEAN_MASK_GRAD, grad, x, mask, axis=axis), None


def _boolean_mask_grad(grad, inputs, output, axis):
    return X.boolean_mask(grad, inputs[2], axis=axis), None, None


def _take_along_axis(grad, inputs, output, axis):
    x, indices = inputs
    return apply(S.TAKE_ALONG_AXIS_GRAD, grad, x, indices, axis=axis), None


def _take_along_axis_grad(grad, inputs, output, axis):
    return apply(S.TAKE_ALONG_AXIS, grad, inputs[2], axis=axis), None, None


def _sort(grads, inputs, outputs, axis, descending):
    return (apply(S.TAKE_ALONG_AXIS_GRAD, grads[0], inputs[0], outputs[1], axis=axis),)


def _top_k(grads, inputs, outputs, k, sorted):  # noqa: A002
    return (apply(S.TAKE_ALONG_AXIS_GRAD, grads[0], inputs[0], outputs[1], axis=-1),)


def _logsumexp(grad, inputs, output, axis=None, keepdims=False):
    """TensorFlow's: exp(x - max) / sum(exp(x - max)), an infinite max taken as 0 (exp(x - output) gave [1, 1] for
    [0.5, 0.5] where the output rounds away log(n): logsumexp([1e30, 1e30]) is 1e30 in float32)."""
    x = inputs[0]
    top = A.stop_gradient(M.reduce_max(x, axis=axis, keepdims=True))
    shifted = M.exp(x - A.where(CO.is_finite(top), top, A.zeros_like(top)))
    return (_spread(grad, x, axis) * shifted / M.reduce_sum(shifted, axis=axis, keepdims=True),)


def _atan2(g, y, x, out):
    scaled = g / (M.square(x) + M.square(y))
    return x * scaled, -y * scaled


RULES = {
    "AddV2": _binary(lambda g, x, y, out: (g, g)),
    "Sub": _binary(lambda g, x, y, out: (g, -g)),
    "Mul": _binary(lambda g, x, y, out: (g * C.conj_if_complex(y), g * C.conj_if_complex(x))),
    "RealDiv": _binary(lambda g, x, y, out: (g / C.conj_if_complex(y),     # (-x / y) / y as TensorFlow: y * y
                                             g * C.conj_if_complex(-x / y / y))),   # under- or overflows sooner
    "Pow": _binary(_pow),
    "Maximum": _binary(_select(True)),
    "Minimum": _binary(_select(False)),
    "Neg": _unary(lambda g, x, out: -g),
    "Identity": _unary(lambda g, x, out: g),
    "CheckDefined": lambda grad, inputs, output, **attrs: (grad, None),
    "Abs": _unary(lambda g, x, out: g * M.sign(x)),
    "Square": _unary(lambda g, x, out: g * M.cast(2, x.dtype) * C.conj_if_complex(x)),
    "Exp": _unary(lambda g, x, out: g * out),
    "Log": _unary(lambda g, x, out: g * EM.reciprocal(x)),   # TensorFlow's: a 0 gradient through 1 / 0 is 0
    "Sin": _unary(lambda g, x, out: g * M.cos(x)),
    "Cos": _unary(lambda g, x, out: -g * M.sin(x)),
    "Tanh": _unary(lambda g, x, out: g * (M.cast(1, x.dtype) - out * out)),
    "Sigmoid": _unary(lambda g, x, out: g * out * (M.cast(1, x.dtype) - out)),
    "MatMul": _matmul,
    "Sum": _sum,
    "Mean": _mean,
    "Max": _extremum,
    "Min": _extremum,
    "SelectV2": _where,
    "ClipByValue": _clip,
    "Cast": _cast,
    "Reshape": _reshape_back,
    "ExpandDims": _reshape_back,
    "Squeeze": _reshape_back,
    "Transpose": _transpose,
    "ConcatV2": _concat,
    "Pack": _stack,
    "StridedSlice": _strided_slice,
    "GatherV2": _gather,
    "GatherNd": lambda grad, inputs, output: (
        apply(ND.SCATTER_ND, inputs[1], grad, shape=_static_dims(inputs[0], "the gradient of gather_nd")), None),
    "ScatterNd": lambda grad, inputs, output, shape: (None, apply(ND.GATHER_ND, grad, inputs[0])),
    "Tile": _tile,
    "Cumsum": _cumsum,
    "Cumprod": _cumprod,
    "Unpack": _unstack,
    "ReshapeLike": lambda grad, inputs, output: (apply(RESHAPE_LIKE, grad, inputs[0]), None),
    "SumToShape": _sum_to_shape,
    "BroadcastLike": _broadcast_like,
    "StridedSliceGrad": _slice_grad,
    "GatherV2Grad": _gather_grad,
    "Prod": _prod,
    "FloorMod": _binary(_floormod),
    **L.GRADIENT_RULES,   # a list's gradient is a list
    "CustomGradient": custom_gradient_rule,
    "Call": control_flow_gradients.call_gradient,
    "Cond": control_flow_gradients.cond_gradient,
    "While": control_flow_gradients.while_gradient,
    "BroadcastTo": _broadcast_to,
    "LinSpace": _linspace,
    "Pad": _pad,
    "SplitV": _split,
    "BooleanMask": _boolean_mask,
    "Sort": _sort,
    "TopKV2": _top_k,
    "Einsum": einsum_gradients.einsum,
    "Svd": LA.svd_gradient,
    "BooleanMaskGrad": _boolean_mask_grad,
    "TakeAlongAxis": _take_along_axis,
    "TakeAlongAxisGrad": _take_along_axis_grad,
    "Log1p": _unary(lambda g, x, out: g * EM.reciprocal(1.0 + x)),
    "Expm1": _unary(lambda g, x, out: g * (out + 1.0)),
    "Erf": _unary(lambda g, x, out: g * (2 / math.sqrt(math.pi)) * M.exp(-x * x)),
    # the inverse functions, as TensorFlow writes them: inf at asin's and acos's ends (1 / sqrt(0))
    "Asin": _unary(lambda g, x, out: g * EM.reciprocal(M.sqrt(1.0 - M.square(x)))),
    "Acos": _unary(lambda g, x, out: -g * EM.reciprocal(M.sqrt(1.0 - M.square(x)))),
    "Atan": _unary(lambda g, x, out: g * EM.reciprocal(1.0 + M.square(x))),
    "Asinh": _unary(lambda g, x, out: g / CO.cosh(out)),
    "Acosh": _unary(lambda g, x, out: g / CO.sinh(out)),
    "Atanh": _unary(lambda g, x, out: g * EM.reciprocal(1.0 - M.square(x))),
    "Atan2": _binary(_atan2),
    "Xdivy": _binary(EM.xdivy_gradient),
    "ReduceLogSumExp": _logsumexp,
    "Sign": _unary(lambda g, x, out: A.zeros_like(g)),   # TensorFlow's: zeros, not None
    "EagerPyFunc": script_ops.gradient,
    "Complex": _binary(lambda g, re, im, out: (C.real(g), C.imag(g))),
    **{name: _unary(rule) for name, rule in C.UNARY_GRADIENTS.items()},
    **nn_gradients.RULES,   # relu and the other activations, softmax, cross-entropy
    **unary_gradients.RULES,   # sqrt, rsqrt and reciprocal, by ops of their own as TensorFlow's
    **special_math.RULES,   # lgamma, digamma, erfc, erfinv, ndtri
}


def _stops(grad, inputs, output, **attrs):
    """The rule of a NOT_DIFFERENTIABLE op: no gradient reaches its inputs."""
    return ()


def install() -> None:
    """Fill the registry's gradient table: every rule, and `_stops` for the ops that stop gradients."""
    GRADIENTS.update(RULES)
    GRADIENTS.update({name: _stops for name in NOT_DIFFERENTIABLE})


install()
