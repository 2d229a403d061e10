"""A concrete function's graph lowered to one JAX function, compiled once with `jax.jit`.

Every op goes through its entry in one of three tables, keyed by op name like the gradient table:

- `LOWERINGS`: pure ops, `rule(*inputs, **attrs)` on JAX values (the op's attributes as its kernel gets them);
- `EFFECTS`: ops that read or write the function's state or run graphs, `rule(lowering, *inputs, **attrs)`;
- `CHECKS`: ops that raise the program's error (`CheckDefined`, `Raise`, `Assert`), `rule(lowering, op, *inputs)`.

Variables are functional state: the jitted function takes the current value of every Variable the graph
(and its nested graphs) touches and returns their new values, which `JaxExecutable.run` stores after the
call. `Cond` is `lax.cond` and `While` is `lax.while_loop`, their graphs lowered by the same interpreter
(`runtime.interpret.interpret` with `lower_op` as the callback), the Variables' values carried through.
XLA has no run-time error, so a check is state too (`Checks`): the number of the first check that failed on
the path taken, and the values it reports; after it no effect happens and loops stop, and `run` raises the
check's error (its op's kernel, on the reported values) after the call, as the executor would have.

An op without an entry is a `LoweringError` naming the op and the user's line that made it, raised before
anything is compiled (on the function's first call). The compiled function itself is `jax_executable.py`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from runtime.errors import InvalidArgumentError, LoweringError, OpError
from runtime.executor.codegen import kernel_error_made_at
from runtime.graph import made_at
from runtime.interpret import interpret
from runtime.lowering import walk
from runtime.ops import registry


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


def _static(values: tuple, static, what: str):
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

    def __post_init__(self):
        self.size = jnp.maximum((self.limit - self.start + self.delta - jnp.sign(self.delta)) // self.delta, 0)

    def length(self):
        return self.size

    def item(self, i):
        return self.start + jnp.where(i < 0, i + self.size, i) * self.delta

    def materialise(self):
        try:
            return jnp.arange(int(self.start), int(self.limit), int(self.delta), dtype=jnp.asarray(self.start).dtype)
        except jax.errors.ConcretizationTypeError:
            raise LoweringError("a runtime.range with bounds computed in the function can only be iterated "
                                "over or indexed under jit_compile=True (XLA needs static array sizes)") from None


def materialised(x):
    return x.materialise() if isinstance(x, LazyRange) else x


def _range(start, limit, delta):
    return LazyRange(start, limit, delta)


def _shape(x, out_type):
    if isinstance(x, LazyRange):
        return jnp.reshape(x.length(), (1,)).astype(jax_dtype(out_type))
    return jnp.asarray(jnp.shape(x), jax_dtype(out_type))


def _strided_slice(x, *index_values, spec):
    key = _key(spec, index_values)
    if isinstance(x, LazyRange):
        if not isinstance(key, slice) and jnp.ndim(key) == 0:
            return x.item(key)
        x = x.materialise()
    return x[key]


def _cast(x, dtype):
    x = jnp.asarray(x)
    if jnp.issubdtype(x.dtype, jnp.floating) and dtype.is_integer:
        return _float_to_int(x, dtype)
    return x.astype(jax_dtype(dtype))


def _float_to_int(x, dtype):
    """The executor's (and TensorFlow's, on x86) conversion, where XLA's saturates: NaN and a value out of
    the range of int32 (of int64, for int64) give its minimum, and a narrower type takes the int32's low
    bits (`cast(300.7, uint8)` is 44, `cast(-2.5, uint8)` 254)."""
    wide = jax_dtype(dtype) == np.int64
    through = np.int64 if wide else np.int32
    info = np.iinfo(through)
    out_of_range = jnp.isnan(x) | (x >= -float(info.min)) | (x < float(info.min))
    whole = jnp.where(out_of_range, info.min, jnp.where(out_of_range, 0, x).astype(through))
    return whole.astype(jax_dtype(dtype))


def _cumsum(x, axis=0, exclusive=False, reverse=False):
    x = jnp.flip(x, axis) if reverse else x
    out = jnp.cumsum(x, axis=axis, dtype=x.dtype)
    if exclusive:
        out = out - x
    return jnp.flip(out, axis) if reverse else out


def _unary(fn: Callable) -> Callable:
    return lambda x: fn(materialised(x))


def _binary(fn: Callable) -> Callable:
    return lambda x, y: fn(materialised(x), materialised(y))


def _where_negative_expm1(x):
    return jnp.expm1(jnp.minimum(x, 0))


def _gelu(x, approximate):
    if approximate:
        c = np.sqrt(2.0 / np.pi).astype(x.dtype)
        return (0.5 * x * (1 + jnp.tanh(c * (x + 0.044715 * x ** 3)))).astype(x.dtype)
    return (0.5 * x * (1 + jax.scipy.special.erf(x / np.sqrt(2.0).astype(x.dtype)))).astype(x.dtype)


def _logsumexp(x, axis=None, keepdims=False):
    if x.size == 0:
        return jnp.full(jnp.sum(x, axis=_axis(axis), keepdims=keepdims).shape, -jnp.inf, x.dtype)
    return jax.scipy.special.logsumexp(x, axis=_axis(axis), keepdims=keepdims).astype(x.dtype)


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


def _broadcast_like(value, like, axes):
    if axes is not None:
        value = jnp.expand_dims(value, tuple(a % jnp.ndim(like) for a in axes))
    return jnp.broadcast_to(value, jnp.shape(like))


def _linspace(start, stop, num, axis):
    return jnp.linspace(start, stop, num, axis=axis).astype(jnp.result_type(start))


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772, 1.0507009873554805


LOWERINGS: dict[str, Callable] = {
    "Const": lambda value: value,
    "Identity": materialised,
    "StopGradient": lambda x: lax.stop_gradient(materialised(x)),
    "HeldVariableRead": lambda value, handle: materialised(value),
    "AddV2": _binary(jnp.add), "Sub": _binary(jnp.subtract), "Mul": _binary(jnp.multiply),
    "RealDiv": _binary(_true_divide), "FloorDiv": _binary(jnp.floor_divide), "FloorMod": _binary(jnp.remainder),
    "Pow": _binary(jnp.power), "Maximum": _binary(jnp.maximum), "Minimum": _binary(jnp.minimum),
    "Equal": _binary(jnp.equal), "NotEqual": _binary(jnp.not_equal), "Less": _binary(jnp.less),
    "LessEqual": _binary(jnp.less_equal), "Greater": _binary(jnp.greater),
    "GreaterEqual": _binary(jnp.greater_equal), "LogicalAnd": _binary(jnp.logical_and),
    "LogicalOr": _binary(jnp.logical_or), "LogicalXor": _binary(jnp.logical_xor),
    "LogicalNot": _unary(jnp.logical_not),
    "BitwiseAnd": _binary(jnp.bitwise_and), "BitwiseOr": _binary(jnp.bitwise_or),
    "BitwiseXor": _binary(jnp.bitwise_xor), "Invert": _unary(jnp.invert),
    "LeftShift": _binary(jnp.left_shift), "RightShift": _binary(jnp.right_shift),
    "Neg": _unary(jnp.negative), "Abs": _unary(jnp.abs), "Sign": _unary(jnp.sign), "Square": _unary(jnp.square),
    "Sqrt": _unary(jnp.sqrt), "Rsqrt": _unary(lax.rsqrt), "Reciprocal": _unary(jnp.reciprocal),
    "Exp": _unary(jnp.exp), "Expm1": _unary(jnp.expm1), "Log": _unary(jnp.log), "Log1p": _unary(jnp.log1p),
    "Sin": _unary(jnp.sin), "Cos": _unary(jnp.cos), "Tanh": _unary(jnp.tanh), "Sigmoid": _unary(jax.nn.sigmoid),
    "Floor": _unary(jnp.floor), "Ceil": _unary(jnp.ceil), "Round": _unary(jnp.round),
    "Relu": _unary(jax.nn.relu), "Softplus": _unary(jax.nn.softplus),
    "Softmax": lambda x, axis: jax.nn.softmax(materialised(x), axis=axis),
    "LogSoftmax": lambda x, axis: jax.nn.log_softmax(materialised(x), axis=axis),
    "Cast": lambda x, dtype: _cast(materialised(x), dtype),
    "ClipByValue": lambda t, lo, hi: jnp.maximum(jnp.minimum(t, hi), lo),
    "SelectV2": lambda c, x, y: jnp.where(c, x, y),
    "MatMul": _matmul,
    "Sum": lambda x, axis=None, keepdims=False: jnp.sum(materialised(x), axis=_axis(axis), keepdims=keepdims, dtype=x.dtype),
    "Mean": lambda x, axis=None, keepdims=False: _mean(materialised(x), axis, keepdims),
    "Max": lambda x, axis=None, keepdims=False: jnp.max(materialised(x), axis=_axis(axis), keepdims=keepdims),
    "Min": lambda x, axis=None, keepdims=False: jnp.min(materialised(x), axis=_axis(axis), keepdims=keepdims),
    "Prod": lambda x, axis=None, keepdims=False: jnp.prod(materialised(x), axis=_axis(axis), keepdims=keepdims),
    "Any": lambda x, axis=None, keepdims=False: jnp.any(x, axis=_axis(axis), keepdims=keepdims),
    "All": lambda x, axis=None, keepdims=False: jnp.all(x, axis=_axis(axis), keepdims=keepdims),
    "ArgMax": lambda x, axis, output_type: jnp.argmax(x, axis=axis).astype(jax_dtype(output_type)),
    "ArgMin": lambda x, axis, output_type: jnp.argmin(x, axis=axis).astype(jax_dtype(output_type)),
    "Cumsum": _cumsum,
    "Shape": _shape,
    "Size": lambda x, out_type: jnp.asarray(jnp.size(materialised(x)), jax_dtype(out_type)),
    "Rank": lambda x: jnp.int32(jnp.ndim(materialised(x))),
    "Range": _range,
    "StridedSlice": _strided_slice,
    "Reshape": lambda x, *shape_input, shape: jnp.reshape(materialised(x), _static(shape_input, shape, "Reshape's shape")),
    "Transpose": lambda x, perm: jnp.transpose(x, perm),
    "ExpandDims": lambda x, axis: jnp.expand_dims(x, axis),
    "Squeeze": lambda x, axis: jnp.squeeze(x, axis=tuple(axis) if axis else None),
    "ConcatV2": lambda *values, axis: jnp.concatenate([materialised(v) for v in values], axis=axis),
    "Pack": lambda *values, axis: jnp.stack(values, axis=axis),
    "Unpack": lambda value, num, axis: list(jnp.moveaxis(value, axis, 0)),
    "Tile": lambda x, *m, multiples: jnp.tile(x, _static(m, multiples, "Tile's multiples")),
    "Fill": lambda value, *d, dims: jnp.full(_static(d, dims, "Fill's dims"), value, dtype=jnp.asarray(value).dtype),
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
    "L2Loss": _unary(lambda t: (jnp.sum(jnp.square(t)) / 2).astype(t.dtype)),
    "ReduceLogSumExp": lambda x, axis=None, keepdims=False: _logsumexp(materialised(x), axis, keepdims),
    "Pad": lambda x, constant_values, paddings, mode: _pad(materialised(x), constant_values, paddings, mode),
    "OneHot": lambda indices, depth, on_value, off_value, axis, dtype: _one_hot(
        materialised(indices), depth, on_value, off_value, axis, dtype),
    "BroadcastTo": lambda x, *s, shape: jnp.broadcast_to(materialised(x), _static(s, shape, "BroadcastTo's shape")),
    "LinSpace": _linspace,
    "SplitV": lambda x, sizes, axis: jnp.split(materialised(x), np.cumsum(sizes)[:-1].tolist(), axis=axis),
    "Sort": lambda x, axis, descending: _sort(materialised(x), axis, descending),
    "TopKV2": lambda x, k, sorted: _top_k(materialised(x), k, sorted),
    "TakeAlongAxis": lambda x, indices, axis: jnp.take_along_axis(materialised(x), indices, axis),
    "TakeAlongAxisGrad": _take_along_axis_grad,
    "GatherV2Grad": _gather_grad,
    "StridedSliceGrad": lambda grad, like, *values, spec: jnp.zeros_like(like).at[_key(spec, values)].set(grad),
    "SumToShape": _sum_to_shape,
    "ReluGrad": _binary(lambda g, x: jnp.where(x > 0, g, jnp.zeros((), g.dtype))),
    "Relu6Grad": _binary(lambda g, x: jnp.where((x > 0) & (x < 6), g, jnp.zeros((), g.dtype))),
    "BroadcastLike": _broadcast_like,
    "ReshapeLike": lambda grad, like: jnp.reshape(grad, jnp.shape(like)),
}


# --- state and graphs -----------------------------------------------------------------------------

class Lowering:
    """The functional state while one graph is lowered: `handles` in a fixed order (the Variables', then
    the checks' slots), `state` their values."""

    def __init__(self, handles: list, checks: "Checks | None" = None):
        self.handles = handles
        self.checks = checks
        self.state: dict = {}
        self.op = None

    def values(self) -> tuple:
        return tuple(self.state[h] for h in self.handles)

    def run(self, graph, feeds: list, state: tuple) -> tuple[list, tuple]:
        """`graph`'s outputs and the state after it, from `feeds` and the state before."""
        saved = self.state
        self.state = dict(zip(self.handles, state))
        try:
            outputs = interpret(graph, feeds, graph.outputs, self.lower_op)
            return outputs, self.values()
        finally:
            self.state = saved

    def lower_op(self, op, inputs: list) -> list:
        self.op = op   # the op being lowered, for a rule's error message
        check = CHECKS.get(op.type)
        if check is not None and checked(op):
            out = check(self, op, *inputs)
            return out if op.opdef.multi_output else [out]
        effect = EFFECTS.get(op.type)
        if effect is not None:
            out = effect(self, *inputs, **op.attrs)
        else:
            out = _pure(op, inputs)
        return out if op.opdef.multi_output else [out]

    def running(self, state: "tuple | None" = None):
        """Whether no check has failed so far on this path (None when the graph has no checks), in the current
        state or in `state`: an effect after a failed check does not happen, as the executor stops at the error."""
        if self.checks is None:
            return None
        code = self.state[self.checks.code] if state is None else state[self.handles.index(self.checks.code)]
        return code == 0


def _pure(op, inputs: list):
    """A pure op's rule; where JAX refuses the values while tracing (a reshape to a size that does not fit, an
    index out of range), the error names the op and the line that made it, as the executor's does."""
    try:
        return LOWERINGS[op.type](*inputs, **op.attrs)
    except OpError:
        raise
    except (TypeError, ValueError, IndexError) as error:
        message = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise InvalidArgumentError(f"{op.type}: {message} (op '{op.name}' in graph '{op.graph.name}', while "
                                   f"jit_compile=True lowered it to JAX){made_at(op)}", op.type) from None


def _typed(values, specs) -> list:
    return [jnp.asarray(materialised(v)).astype(jax_dtype(s.dtype)) for v, s in zip(values, specs)]


def _cond(lowering: Lowering, pred, *inputs, then_graph, else_graph, then_inputs, else_inputs, output_specs):
    def branch(graph, positions):
        def run(operands):
            values, state = operands
            outputs, state = lowering.run(graph, [values[i - 1] for i in positions], state)
            return _typed(outputs, output_specs), state
        return run

    operands = ([materialised(v) for v in inputs], lowering.values())
    op = lowering.op
    outputs, lowering.state = _restate(lowering, _fixed_shapes(op, "its branches' outputs", lambda: lax.cond(
        _scalar_predicate(pred), branch(then_graph, then_inputs), branch(else_graph, else_inputs), operands)))
    return outputs


def _fixed_shapes(op, what: str, trace: Callable):
    """`trace()` (a lax.cond or lax.while_loop), or a LoweringError naming `op` if the values it carries change
    shape (XLA needs one shape; the executor relaxes it)."""
    try:
        return trace()
    except TypeError as error:
        if "shape" not in str(error):
            raise
        raise LoweringError(
            f"jit_compile=True can't lower {op.type} '{op.name}': {what} change shape, and XLA needs each to keep "
            f"one shape.{made_at(op)}\nUse jit_compile=None for this function, or keep the shapes fixed "
            f"(pad to a fixed size).\n(JAX: {str(error).splitlines()[0]})", op.type) from None


def _scalar_predicate(pred):
    return pred if jnp.ndim(pred) == 0 else jnp.reshape(pred, ())


def _restate(lowering: Lowering, result):
    outputs, state = result
    return outputs, dict(zip(lowering.handles, state))


def _while(lowering: Lowering, *inputs, cond_graph, body_graph, num_loop_vars, cond_inputs, body_inputs,
           output_specs, max_iterations_input):
    """`lax.while_loop` carrying the loop variables and the state (Variables' values, checks), and an iteration
    count only where `maximum_iterations` needs one. A condition with effects (a Variable's read or assignment,
    a check) is evaluated before the first iteration and at the end of each one and carried, so that its
    effects flow on as the executor's do."""
    cond_ext = [materialised(inputs[i]) for i in cond_inputs]
    body_ext = [inputs[i] for i in body_inputs]
    limit = None if max_iterations_input is None else inputs[max_iterations_input]
    effects = any(op.stateful or op.type in CHECKS for op in walk(cond_graph))   # ExactInt32 is pure but checks

    def test(count, loop_vars, state):
        def evaluate(state):
            outputs, state = lowering.run(cond_graph, list(loop_vars) + cond_ext, state)
            return _scalar_predicate(outputs[0]), state

        if limit is None:
            holds, state = evaluate(state)
        elif effects:   # not evaluated once the count reaches the limit, as the executor does
            holds, state = lax.cond(count < limit, evaluate, lambda state: (jnp.asarray(False), state), state)
        else:
            holds, state = evaluate(state)
            holds = jnp.logical_and(count < limit, holds)
        running = lowering.running(state)
        return (holds if running is None else jnp.logical_and(holds, running)), state

    def body(carry):
        count, _, loop_vars, state = carry
        outputs, state = lowering.run(body_graph, list(loop_vars) + body_ext, state)
        count = None if count is None else count + 1
        loop_vars = _typed(outputs, output_specs)
        holds, state = test(count, loop_vars, state)
        return count, holds, loop_vars, state

    def plain_body(carry):   # a condition without effects: evaluated by the loop, as hand-written JAX does
        count, loop_vars, state = carry
        outputs, state = lowering.run(body_graph, list(loop_vars) + body_ext, state)
        return None if count is None else count + 1, _typed(outputs, output_specs), state

    count = None if limit is None else jnp.int32(0)
    loop_vars = _typed(inputs[:num_loop_vars], output_specs)
    op = lowering.op
    if effects:   # the condition's state after it flows into the body: the condition is carried
        holds, state = test(count, loop_vars, lowering.values())
        _, _, outputs, state = _fixed_shapes(op, "its loop variables", lambda: lax.while_loop(
            lambda carry: carry[1], body, (count, holds, loop_vars, state)))
    else:   # 25-30% faster on a scalar loop of 10,000 iterations than carrying it (tools/bench/jit_compile.py)
        _, outputs, state = _fixed_shapes(op, "its loop variables", lambda: lax.while_loop(
            lambda carry: test(*carry)[0], plain_body, (count, loop_vars, lowering.values())))
    lowering.state = dict(zip(lowering.handles, state))
    return outputs


def _read(lowering: Lowering, handle):
    return lowering.state[handle]


def _assigner(combine: Callable) -> Callable:
    def assign(lowering: Lowering, value, handle):
        old = lowering.state[handle]
        new = jnp.asarray(combine(old, materialised(value))).astype(jax_dtype(handle.dtype))
        new = jnp.broadcast_to(new, handle.value.shape)
        running = lowering.running()
        lowering.state[handle] = new if running is None else jnp.where(running, new, old)
        return new
    return assign


def _print(lowering: Lowering, *values, **attrs):
    print_kernel = registry.OPS["PrintV2"].kernel   # the kernel itself, called back on the host
    running = lowering.running()
    if running is None:
        jax.debug.callback(lambda *v: print_kernel(*v, **attrs), *[materialised(v) for v in values], ordered=True)
    else:   # not after a failed check
        jax.debug.callback(lambda running, *v: print_kernel(*v, **attrs) if running else None,
                           running, *[materialised(v) for v in values], ordered=True)
    return jnp.int32(0)


EFFECTS: dict[str, Callable] = {
    "Cond": _cond,
    "While": _while,
    "ReadVariableOp": _read,
    "AssignVariableOp": _assigner(lambda old, new: new),
    "AssignAddVariableOp": _assigner(lambda old, delta: old + delta),
    "AssignSubVariableOp": _assigner(lambda old, delta: old - delta),
    "PrintV2": _print,
}


# --- checks: CheckDefined, Raise, Assert ---------------------------------------------------------

class Slot:
    """Functional state that is not a Variable's: the number of the check that failed (0: none yet), or a
    value a check reports when it fails (a raised exception's tensor argument, an assertion's data)."""

    def __init__(self, dtype, shape: tuple, what: str):
        self.dtype, self.shape, self.what = dtype, shape, what

    def initial(self):
        return jnp.zeros(self.shape, self.dtype)

    def __repr__(self) -> str:
        return f"<Slot {self.what}>"


@dataclass
class Checks:
    """The graph's checks, numbered from 1 in `ops`; `code` holds the number of the first that failed, and
    `values[id(op)]` the values it reports. XLA has no run-time error: a failed check sets `code`, every later
    effect on that path is skipped and loops stop, and the Python error is raised after the call (`fail`)."""

    ops: list
    code: Slot
    values: dict
    shapes: dict = field(default_factory=dict)   # id(op) -> the static shape an index check indexes (lowering)

    @classmethod
    def of(cls, graph) -> "Checks | None":
        ops = [op for op in walk(graph) if op.type in CHECKS and checked(op)]
        if not ops:
            return None
        looped = _loop_graphs(graph)
        values = {id(op): [] if op.graph in looped and op.type in _INDEX_CHECKS else
                  [_value_slot(op, t) for t in _reported(op, op.inputs)] for op in ops}
        return cls(ops, Slot(np.int32, (), "failed check"), values)

    def slots(self) -> list:
        return [self.code, *[slot for op in self.ops for slot in self.values[id(op)]]]

    def fail(self, code: int, values: list):
        """Raise the error of check number `code` as the executor does: its op's kernel, on the values it reported
        (`values`: every check's value slots, in `slots()` order)."""
        op = self.ops[code - 1]
        if op.type in _INDEX_CHECKS and not self.values[id(op)]:
            raise _index_error_in_loop(op, self.shapes.get(id(op)))
        reported = iter(values[sum(len(self.values[id(other)]) for other in self.ops[:code - 1]):])
        args = [_as_executor_value(next(reported), t) for t in _reported(op, op.inputs)]
        kernel_inputs = {"CheckDefined": lambda: [None, False], "Raise": lambda: args,
                         "Assert": lambda: [False, *args], "ExactInt32": lambda: args,
                         "StridedSlice": lambda: _slice_inputs(op, args, self.shapes.get(id(op)) or
                                                               (int(args[-1]),)),
                         "GatherV2": lambda: [np.zeros(self.shapes[id(op)]), args[0]],
                         "SparseSoftmaxCrossEntropyWithLogits": lambda: [args[0], np.zeros(self.shapes[id(op)])],
                         "GatherNd": lambda: [np.zeros(self.shapes[id(op)]), args[0]],
                         "ScatterNd": lambda: [args[0], np.zeros(args[0].shape[:-1]), list(self.shapes[id(op)])],
                         "Pow": lambda: [np.ones(1, op.inputs[0].dtype.as_numpy_dtype),
                                         -np.ones(1, op.inputs[1].dtype.as_numpy_dtype)],
                         }[op.type]()
        try:
            op.opdef.kernel(*kernel_inputs, **op.attrs)
        except OpError as error:   # as the executor shows an assertion: where the op was made
            raise kernel_error_made_at(error, op) or error from None
        raise AssertionError(f"the kernel of {op.type} did not raise")   # pragma: no cover - kernels raise


def _reported(op, inputs: list) -> list:
    """The tensors a failed check reports: a Raise's tensor arguments, an Assert's data, ExactInt32's operands;
    an index check's indices (the shape they index is static, recorded while lowering: `Checks.shapes`)."""
    if op.type == "StridedSlice":
        ranged = [_Length()] if _indexes_a_range(op) else []
        return [inputs[1 + k] for k in _int_slots(op)] + ranged
    if op.type in ("GatherV2", "GatherNd"):
        return [inputs[1]]
    if op.type in ("SparseSoftmaxCrossEntropyWithLogits", "ScatterNd"):
        return [inputs[0]]
    return {"CheckDefined": [], "Raise": list(inputs), "Assert": list(inputs[1:]), "ExactInt32": list(inputs),
            "Pow": []}[op.type]


# Index checks inside a loop report no values: a value carried through every iteration of an XLA loop costs
# about as much as a small loop body (the RNN of tools/bench/jit_compile.py: 1.8x slower with it, 1.25x without),
# so the error says the index is out of range without its value
_INDEX_CHECKS = frozenset({"StridedSlice", "GatherV2", "GatherNd", "ScatterNd", "SparseSoftmaxCrossEntropyWithLogits"})


def _loop_graphs(graph) -> set:
    """The graphs that run once per iteration of a `While` (its condition and body, and what they nest)."""
    found: set = set()
    for op in walk(graph):
        if op.type == "While":
            for _, sub in op.subgraphs():
                found.add(sub)
                found.update(o.graph for o in walk(sub))
    return found


def _index_error_in_loop(op, shape) -> InvalidArgumentError:
    what = {"SparseSoftmaxCrossEntropyWithLogits": "a label"}.get(op.type, "an index")
    error = InvalidArgumentError(
        f"{op.type}: {what} is out of range{f' for shape {list(shape)}' if shape is not None else ''} (inside a loop "
        f"under jit_compile=True, which does not report its value; jit_compile=None names it)", op.type)
    return kernel_error_made_at(error, op) or error


class _Length:
    """A reported value that is no tensor of the graph: the length of a `runtime.range` with traced bounds."""

    @property
    def dtype(self):
        from runtime import dtypes
        return dtypes.int32

    @property
    def shape(self):
        from runtime.shape import TensorShape
        return TensorShape([])


def _indexes_a_range(op) -> bool:
    """Is `op` a StridedSlice of a `Range`'s output (lowered as a LazyRange, whose length is traced)?"""
    source = op.inputs[0].op
    return source is not None and source.type == "Range"


def _key_items(op) -> list:
    spec = op.attrs["spec"]
    return list(spec) if isinstance(spec, tuple) and not (spec and spec[0] in ("slice", "$")) else [spec]


def _int_slots(op) -> list:
    """The slot numbers of the scalar tensor indices in a StridedSlice's key that are checked to be in range, as
    the executor's kernel checks them (not a slice's bounds, which clamp as Python's do, nor an index known to be
    in range: `_in_range`)."""
    return [k for k, _ in _int_slot_axes(op, op.inputs[0].shape.rank)]


def _int_slot_axes(op, rank) -> list:
    """(slot number, the axis it indexes) of each checked index, for a tensor of `rank` (None: unknown)."""
    key, found, axis = _key_items(op), [], 0
    for i, k in enumerate(key):
        if k == "...":
            axis = None if rank is None else rank - sum(1 for later in key[i + 1:] if later is not None)
        elif k is not None:
            if _is_int_slot(k) and not _in_range(op, k[1], axis):
                found.append((k[1], axis))
            axis = None if axis is None else axis + 1
    return found


def _in_range(op, slot: int, axis) -> bool:
    """Is the index in `slot` known to be in range: one of the values of a `range` (a `for` over `tf.range` reads
    them, runtime/backend.py) whose bounds tracing knows, all inside the indexed axis's static length?"""
    from runtime.backend import range_of
    from runtime.control_flow import static_value
    source = range_of(op.inputs[1 + slot])
    dims = op.inputs[0].shape.dims
    if source is None or axis is None or dims is None or dims[axis] is None:
        return False
    bounds = [static_value(t) for t in source.op.inputs]
    if any(b is None or np.ndim(b) != 0 for b in bounds):
        return False
    start, limit, delta = (int(b) for b in bounds)
    values = range(start, limit, delta)
    return len(values) == 0 or -dims[axis] <= min(values[0], values[-1]) and max(values[0], values[-1]) < dims[axis]


def _is_int_slot(k) -> bool:
    return isinstance(k, tuple) and len(k) == 2 and k[0] == "$"


def checked(op) -> bool:
    """Whether `op`, of a type CHECKS has a rule for, needs its check (a StridedSlice only with a tensor index)."""
    if op.type == "Pow":
        return op.inputs[0].dtype.is_integer
    return op.type != "StridedSlice" or bool(_int_slots(op))


def _slice_inputs(op, args: list, shape: tuple) -> list:
    """The executor kernel's inputs that raise its error: zeros of the indexed shape, the reported indices in
    their slots (0 for a slice's bounds, which never raise)."""
    values = [0] * (len(op.inputs) - 1)
    for k, value in zip(_int_slots(op), args):
        values[k] = value
    return [np.zeros(shape), *values]


def _value_slot(op, tensor) -> Slot:
    if not tensor.shape.is_fully_defined:
        raise LoweringError(
            f"jit_compile=True can't lower {op.type} '{op.name}': the value it reports ({tensor.dtype.name}, shape "
            f"{tensor.shape}) has no static shape.{made_at(op)}\nUse jit_compile=None for this function.", op.type)
    return Slot(jax_dtype(tensor.dtype), tuple(tensor.shape.as_list()), f"{op.name} value")


def _as_executor_value(value, tensor):
    array = np.asarray(value).astype(tensor.dtype.as_numpy_dtype)
    return array[()] if array.ndim == 0 else array


def _failing(lowering: Lowering, op, fails, values: list) -> None:
    """Record that check `op` fails where `fails` holds, if no check failed before it on this path."""
    checks, state = lowering.checks, lowering.state
    fails = jnp.logical_and(state[checks.code] == 0, fails)
    state[checks.code] = jnp.where(fails, jnp.int32(checks.ops.index(op) + 1), state[checks.code])
    for slot, value in zip(checks.values[id(op)], values):
        state[slot] = jnp.where(fails, jnp.asarray(materialised(value)).astype(slot.dtype), state[slot])


def _check_defined(lowering: Lowering, op, value, defined):
    _failing(lowering, op, jnp.logical_not(jnp.reshape(defined, ())), [])
    return value


def _raise(lowering: Lowering, op, *values):
    _failing(lowering, op, jnp.asarray(True), values)   # reached: its branch is the path taken
    return jnp.asarray(True)


def _assert(lowering: Lowering, op, condition, *data):
    _failing(lowering, op, jnp.logical_not(jnp.all(condition)), data)
    return jnp.asarray(True)


_INT32_MIN = np.int32(-2 ** 31)


def _mul_overflows(a, b):
    """Whether int32 `a * b` wraps (XLA has no wider int without jax_enable_x64): dividing back fails to give `b`."""
    wrapped = a * b
    divisor = jnp.where(a == 0, 1, a)
    return (a != 0) & ((lax.div(wrapped, divisor) != b) | ((a == -1) & (b == _INT32_MIN)))


def _pow_overflows(x, y):
    """Whether int32 `x ** y` (y >= 0) wraps: exponentiation by squaring, checking each product it needs."""
    x, y = jnp.broadcast_arrays(x, jnp.maximum(y, 0))

    def step(_, carry):
        result, base, exponent, over = carry
        bit = (exponent & 1) == 1
        over = over | (bit & _mul_overflows(result, base))
        result = jnp.where(bit, result * base, result)
        exponent = exponent >> 1
        over = over | ((exponent != 0) & _mul_overflows(base, base))
        return result, base * base, exponent, over

    start = (jnp.ones_like(x), x, y, jnp.zeros(x.shape, bool))
    return lax.fori_loop(0, 31, step, start)[3]


_INT32_FAILS = {   # op -> where the int32 result is not Python's (or the int32 kernel raises): ExactInt32's check
    "AddV2": lambda x, y, r: ((x ^ r) & (y ^ r)) < 0,
    "Sub": lambda x, y, r: ((x ^ y) & (x ^ r)) < 0,
    "Mul": lambda x, y, r: _mul_overflows(x, y),
    "Square": lambda x, y, r: _mul_overflows(x, x),
    "Neg": lambda x, y, r: x == _INT32_MIN,
    "Abs": lambda x, y, r: x == _INT32_MIN,
    "FloorDiv": lambda x, y, r: (y == 0) | ((x == _INT32_MIN) & (y == -1)),
    "Pow": lambda x, y, r: (y < 0) | _pow_overflows(x, y),
}


def _exact_int32(lowering: Lowering, op, *values):
    """A Python int's arithmetic (runtime/ops/python_ints.py): the int32 result, and a failed check where it
    wrapped, which raises the executor's error (naming the variable) after the call."""
    x, y = (jnp.asarray(materialised(v), jnp.int32) for v in (*values, values[0])[:2])
    arithmetic = op.attrs["arithmetic"]
    operands = (x, jnp.maximum(y, 0)) if arithmetic == "Pow" else values   # a negative power fails the check
    result = LOWERINGS[arithmetic](*operands)
    _failing(lowering, op, jnp.any(_INT32_FAILS[arithmetic](x, y, result)), values)
    return result


def _checked_slice(lowering: Lowering, op, x, *index_values):
    """A StridedSlice with tensor indices: XLA clamps an index out of range, the executor raises, so each one is
    checked (`-n <= i < n`), reporting the indices and the shape."""
    lazy = isinstance(x, LazyRange)            # a range with traced bounds: its length is traced
    shape = (x.length(),) if lazy and _key_items(op) == [("$", 0)] else materialised(x).shape
    if not lazy:
        lowering.checks.shapes[id(op)] = shape
    fails = jnp.asarray(False)
    slots = _int_slot_axes(op, len(shape))
    for k, axis in slots:
        i, n = index_values[k], shape[axis]
        fails = fails | (i < -n) | (i >= n)
    reported = [index_values[k] for k, _ in slots] + ([shape[0] if lazy else len(x)] if _indexes_a_range(op) else [])
    _failing(lowering, op, fails, reported)
    return _strided_slice(x, *index_values, spec=op.attrs["spec"])


def _checked_pow(lowering: Lowering, op, x, y):
    """An integer `x ** y`: XLA computes a negative power (as 0, or ±1), where the executor raises."""
    _failing(lowering, op, jnp.any(materialised(y) < 0), [])
    return LOWERINGS["Pow"](x, y)


def _checked_gather(lowering: Lowering, op, params, indices):
    params = materialised(params)
    axis = op.attrs["axis"]
    n = params.shape[axis]
    lowering.checks.shapes[id(op)] = params.shape
    _failing(lowering, op, jnp.any((indices < 0) | (indices >= n)), [indices])
    return jnp.take(params, indices, axis=axis)


def _checked_sparse_xent(lowering: Lowering, op, labels, logits):
    n = logits.shape[-1]
    lowering.checks.shapes[id(op)] = logits.shape
    _failing(lowering, op, jnp.any((labels < 0) | (labels >= n)), [labels])
    log_p = jax.nn.log_softmax(logits, axis=-1)
    index = jnp.clip(labels, 0, n - 1)[..., None]
    loss = -jnp.take_along_axis(log_p, index, -1)[..., 0]
    backprop = jnp.exp(log_p)
    backprop = jnp.where(jnp.arange(n) == index, backprop - 1, backprop)
    return [loss.astype(logits.dtype), backprop.astype(logits.dtype)]


def _nd_fails(indices, shape):
    return jnp.any((indices < 0) | (indices >= jnp.asarray(shape[:indices.shape[-1]])))


def _checked_gather_nd(lowering: Lowering, op, params, indices):
    params = materialised(params)
    lowering.checks.shapes[id(op)] = params.shape
    _failing(lowering, op, _nd_fails(indices, params.shape), [indices])
    return params[tuple(jnp.moveaxis(indices, -1, 0))]


def _checked_scatter_nd(lowering: Lowering, op, indices, updates):
    shape = tuple(op.attrs["shape"])
    lowering.checks.shapes[id(op)] = shape
    _failing(lowering, op, _nd_fails(indices, shape), [indices])
    return jnp.zeros(shape, updates.dtype).at[tuple(jnp.moveaxis(indices, -1, 0))].add(updates)


CHECKS: dict[str, Callable] = {   # rule(lowering, op, *inputs): they number themselves by their op
    "CheckDefined": _check_defined,
    "Raise": _raise,
    "Assert": _assert,
    "ExactInt32": _exact_int32,
    "StridedSlice": _checked_slice,     # with a tensor index: range-checked (`checked`)
    "GatherV2": _checked_gather,
    "SparseSoftmaxCrossEntropyWithLogits": _checked_sparse_xent,
    "GatherNd": _checked_gather_nd,
    "ScatterNd": _checked_scatter_nd,
    "Pow": _checked_pow,                # of integers: a negative exponent is the executor's error
}
