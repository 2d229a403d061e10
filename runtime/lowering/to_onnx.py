"""A concrete function's graph as an ONNX model (`runtime.onnx.export`), one mapping per op.

`MAPPINGS` is the table, keyed by op name like the gradient and JAX tables: `rule(g, *inputs, **attrs)`
gets the builder `g` of the ONNX graph being written (runtime/lowering/onnx_graph.py: `g.node(...)` adds a
node and returns its output names) and the op's inputs as `Value`s (an ONNX name with the runtime dtype and
shape), and returns the ONNX name of the op's output (a list of names for an op with several outputs; a
`Value` where it knows more of the output's shape than the graph does).

The graph is walked by THE interpreter (`runtime.interpret.interpret`) with `Builder.apply_op` as the
callback, so a value is an ONNX name where the executor has a NumPy array. `Cond` becomes `If` and `While`
`Loop`, their graphs written by the same walk into ONNX subgraphs, which read the tensors they capture from
the enclosing graph by name (ONNX's outer scope). Variables are inputs of the model whose default is their
current value (an initializer of the same name); a Variable the function assigns is also an output
(`<input>_new`), carried through every `If` and `Loop` that assigns it. TensorArrays and staged lists are
ONNX sequences (onnx_lists.py).

An op without a mapping (random draws, asserts, sorting, ...) is a `LoweringError` naming the op and the
user's line that made it, raised before anything is written.
"""
from __future__ import annotations

from typing import Callable, Optional

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from runtime import dtypes
from runtime.errors import LoweringError
from runtime.graph import made_at
from runtime.interpret import interpret, needed_ops
from runtime.lowering import onnx_lists, variable_handles, walk
from runtime.lowering.onnx_indexing import strided_slice
from runtime.lowering.onnx_graph import ELEMENT_TYPES, Builder, Names, Value, drop_unused_nodes, value_info
from runtime.onnx import OPSET
from runtime.ops.array_ops import reshape_target
from runtime.shape import TensorShape

IR_VERSION = 8   # the IR of opset 18 (onnx 1.13): models load in every onnxruntime since 1.14

# --- elementwise and shape rules --------------------------------------------------------------------

def _simple(onnx_type: str, **fixed) -> Callable:
    return lambda g, *inputs: g.node(onnx_type, *inputs, **fixed)


def _not(onnx_type: str) -> Callable:
    return lambda g, x, y: g.node("Not", g.node(onnx_type, x, y))


def _square(g, x):
    return g.node("Mul", x, x)


def _log1p(g, x):
    return g.node("Log", g.node("Add", x, g.scalar(1, x.dtype)))


def _expm1(g, x):
    return g.node("Sub", g.node("Exp", x), g.scalar(1, x.dtype))


def _floating(dtype) -> dtypes.DType:
    """The dtype integer true division gives (the kernel's rule: float32 up to 16 bits, else float64)."""
    return dtype if dtype.is_floating else (dtypes.float32 if np.dtype(dtype.as_numpy_dtype).itemsize <= 2
                                            else dtypes.float64)


def _real_div(g, x, y):
    if x.dtype.is_floating:
        return g.node("Div", x, y)
    wide = _floating(x.dtype)
    return g.node("Div", g.cast(x, wide), g.cast(y, wide))


def _floor_div(g, x, y):
    if x.dtype.is_floating:
        return g.node("Floor", g.node("Div", x, y))
    remainder = g.node("Mod", x, y, fmod=0)   # floored: the divisor's sign, as Python's %
    return g.node("Div", g.node("Sub", x, remainder), y)   # exact, so truncating division is flooring


def _floor_mod(g, x, y):
    """A float one is C's fmod moved to the divisor's sign, as TensorFlow's (and NumPy's): 3 % inf is 3, -3 % inf
    inf (x - floor(x / y) * y gives NaN)."""
    if x.dtype.is_floating:
        truncated = g.node("Mod", x, y, fmod=1)
        zero = g.scalar(0, x.dtype)
        signs_differ = g.node("Xor", g.node("Less", truncated, zero), g.node("Less", y, zero))
        moved = g.node("And", g.node("Not", g.node("Equal", truncated, zero)), signs_differ)
        return g.node("Where", moved, g.node("Add", truncated, y), truncated)
    return g.node("Mod", x, y, fmod=0)


def _xdivy(g, x, y):
    zero = g.scalar(0, x.dtype)
    return g.node("Where", g.node("Equal", x, zero), zero, g.node("Div", x, y))


def _relu(g, x):
    return g.node("Relu", x) if x.dtype.is_floating else g.node("Max", x, g.scalar(0, x.dtype))


def _relu_grad(g, grad, x, upper=None):
    """`grad` where x > 0 (and x < upper), else 0: the gradient ops of Relu and Relu6."""
    inside = g.node("Greater", x, g.scalar(0, x.dtype))
    if upper is not None:
        inside = g.node("And", inside, g.node("Less", x, g.scalar(upper, x.dtype)))
    return g.node("Where", inside, grad, g.scalar(0, grad.dtype))


def _leaky_relu_grad(g, grad, x, alpha):
    """`grad` where x > 0, else alpha * grad."""
    inside = g.node("Greater", x, g.scalar(0, x.dtype))
    return g.node("Where", inside, grad, g.node("Mul", grad, g.scalar(alpha, grad.dtype)))


def _upstream_grad(scale, power):
    """SqrtGrad, RsqrtGrad, ReciprocalGrad: scale * dy * y**power, and 0 where dy is 0."""
    def lower(g, y, dy):
        found = g.node("Mul", g.node("Mul", g.scalar(scale, dy.dtype), dy), g.node("Pow", y, g.scalar(power, y.dtype)))
        return g.node("Where", g.node("Equal", dy, g.scalar(0, dy.dtype)), g.scalar(0, dy.dtype), found)
    return lower


def _rsqrt(g, x):
    return g.node("Reciprocal", g.node("Sqrt", x))


def _elu(g, x):
    return g.node("Elu", x, alpha=1.0)


def _gelu(g, x, approximate):
    if approximate:
        cube = g.node("Mul", g.scalar(0.044715, x.dtype), g.node("Mul", x, g.node("Mul", x, x)))
        inner = g.node("Mul", g.scalar(np.sqrt(2.0 / np.pi), x.dtype), g.node("Add", x, cube))
        half = g.node("Mul", g.scalar(0.5, x.dtype), g.node("Add", g.scalar(1, x.dtype), g.node("Tanh", inner)))
    else:
        erf = g.node("Erf", g.node("Mul", x, g.scalar(1 / np.sqrt(2.0), x.dtype)))
        half = g.node("Mul", g.scalar(0.5, x.dtype), g.node("Add", g.scalar(1, x.dtype), erf))
    return g.node("Mul", x, half)


def _cast(g, x, dtype):
    return g.cast(x, dtype)


def _clip(g, t, lo, hi):
    return g.node("Max", g.node("Min", t, hi), lo)


def _matmul(g, a, b, transpose_a=False, transpose_b=False):
    return g.node("MatMul", _swap_last(g, a) if transpose_a else a, _swap_last(g, b) if transpose_b else b)


def _swap_last(g, x):
    rank = g.static_rank(x, "MatMul with a transposed operand")
    perm = list(range(rank))
    perm[-2:] = perm[-1], perm[-2]
    return g.node("Transpose", x, perm=perm)


def _axes_input(g, axis):
    """The `axes` input of an ONNX reduction ('' when reducing over every axis)."""
    if axis is None:
        return ""
    return g.ints([axis] if isinstance(axis, int) else list(axis))


def _reduction(onnx_type: str) -> Callable:
    def rule(g, x, axis=None, keepdims=False):
        if axis is not None and not (axis if isinstance(axis, (tuple, list)) else [axis]):
            return x   # reducing over no axis is the identity, as in the kernel
        return g.node(onnx_type, x, _axes_input(g, axis), keepdims=int(keepdims))
    return rule


def _mean(g, x, axis=None, keepdims=False):
    if x.dtype.is_floating:
        return _reduction("ReduceMean")(g, x, axis, keepdims)
    total = _reduction("ReduceSum")(g, g.cast(x, dtypes.int64), axis, keepdims)
    count = g.node("Div", g.node("Size", x), g.node("Max", g.node("Size", total), g.ints(1, scalar=True)))
    return g.cast(g.node("Div", total, count), x.dtype)   # ONNX integer Div truncates toward zero, as TF


def _boolean_reduction(onnx_type: str) -> Callable:
    def rule(g, x, axis=None, keepdims=False):
        return g.cast(_reduction(onnx_type)(g, g.cast(x, dtypes.int32), axis, keepdims), dtypes.bool)
    return rule


def _arg(onnx_type: str, nan_as: float) -> Callable:
    """ArgMax or ArgMin passing over NaNs, as the executor's (runtime/ops/math_ops.py `_nan_as`)."""
    def rule(g, x, axis, output_type):
        dtype = g.op.inputs[0].dtype
        if dtype.is_floating:
            x = g.node("Where", g.node("IsNaN", x), g.const(np.asarray(nan_as, dtype.as_numpy_dtype)), x)
        return g.cast(g.node(onnx_type, x, axis=int(axis), keepdims=0), output_type)
    return rule


def _cumsum(g, x, axis=0, exclusive=False, reverse=False):
    return g.node("CumSum", x, g.ints(int(axis), scalar=True), exclusive=int(exclusive), reverse=int(reverse))


def _softmax(onnx_type: str) -> Callable:
    return lambda g, logits, axis=-1: g.node(onnx_type, logits, axis=int(axis))


def _l2_loss(g, t):
    return g.node("Div", g.node("ReduceSum", g.node("Mul", t, t), keepdims=0), g.scalar(2, t.dtype))


def _logsumexp(g, x, axis=None, keepdims=False):
    return _reduction("ReduceLogSumExp")(g, x, axis, keepdims)


def _shape(g, x, out_type):
    return g.cast(g.node("Shape", x), out_type)


def _size(g, x, out_type):
    return g.cast(g.node("Size", x), out_type)


def _rank(g, x):
    return g.cast(g.node("Size", g.node("Shape", x)), dtypes.int32)


def _shape_operand(g, given: tuple, static, what: str):
    """The int64 shape tensor of an op whose shape is a static attribute or its last input."""
    if given:
        return g.cast(given[0], dtypes.int64)
    if static is None or any(d is None for d in static):
        raise LoweringError(f"{what} is only partly known while tracing; ONNX export needs it whole")
    return g.ints(list(static))


def _reshape(g, x, *shape_input, shape):
    source = g.op.inputs[0].shape
    if not shape_input and shape is not None and None not in shape and source.is_fully_defined():
        shape = reshape_target(tuple(source.dims), shape)   # TensorFlow's -1 beside 0s, which ONNX refuses
    target = _shape_operand(g, shape_input, shape, "Reshape's shape")
    literal_zero = not shape_input and 0 in shape and -1 not in shape
    return g.node("Reshape", x, target, allowzero=int(literal_zero))


def _range(g, start, limit, delta):
    """`Range`; an integer one computed in int64 and cast back: onnxruntime (1.32) propagates a bound made
    from `Shape` (int64) and cast to int32 as int64 and then refuses an int32 `Range`."""
    if start.dtype.is_floating or start.dtype is dtypes.int64:
        return g.node("Range", start, limit, delta)
    wide = [g.node("Cast", bound, to=TensorProto.INT64) for bound in (start, limit, delta)]
    return g.node("Cast", g.node("Range", *wide), to=ELEMENT_TYPES[start.dtype])


def _expand_dims(g, x, axis):
    return g.node("Unsqueeze", x, g.ints([int(axis)]))


def _squeeze(g, x, axis):
    return g.node("Squeeze", x, g.ints(list(axis))) if axis else g.node("Squeeze", x)


def _concat(g, *values, axis):
    return g.node("Concat", *values, axis=int(axis))


def _pack(g, *values, axis):
    return g.node("Concat", *[g.node("Unsqueeze", v, g.ints([int(axis)])) for v in values], axis=int(axis))


def _unpack(g, value, num, axis):
    if num == 1:
        return [g.node("Squeeze", value, g.ints([int(axis)]))]
    parts = g.node("Split", value, axis=int(axis), num_outputs=int(num), outputs=int(num))
    return [g.node("Squeeze", part, g.ints([int(axis)])) for part in parts]


def _tile(g, x, *multiples_input, multiples):
    return g.node("Tile", x, _shape_operand(g, multiples_input, multiples, "Tile's multiples"))


def _pad(g, x, constant_values, *, paddings, mode):
    """ONNX's Pad: its pads are all the befores, then all the afters; it has no SYMMETRIC mode."""
    if mode == "SYMMETRIC":
        raise LoweringError(f"ONNX's Pad has no SYMMETRIC mode ('{g.op.name}').{made_at(g.op)}\nUse REFLECT or "
                            "CONSTANT padding to export.", "Pad")
    pads = g.ints([p[0] for p in paddings] + [p[1] for p in paddings])
    if mode == "REFLECT":
        return g.node("Pad", x, pads, mode="reflect")
    return g.node("Pad", x, pads, constant_values, mode="constant")


def _one_hot(g, indices, *, depth, on_value, off_value, axis, dtype):
    """ONNX's OneHot, but a negative index is all `off_value` (TensorFlow's), not counted from the end."""
    wide = g.cast(indices, dtypes.int64)
    outside = g.node("Less", wide, g.scalar(0, dtypes.int64))
    index = g.node("Where", outside, g.scalar(depth, dtypes.int64), wide)
    # (onnxruntime's OneHot takes few value types: int64 0/1 made a mask, then `on_value`/`off_value` exactly)
    hot = g.cast(g.node("OneHot", index, g.ints([depth], scalar=True), g.ints([0, 1]), axis=int(axis)), dtypes.bool)
    if dtype is dtypes.bool and on_value and not off_value:
        return hot
    return g.node("Where", hot, g.scalar(on_value, dtype), g.scalar(off_value, dtype))


def _fill(g, value, *dims_input, dims):
    return g.node("Expand", value, _shape_operand(g, dims_input, dims, "Fill's dims"))


def _broadcast_to(g, x, *shape_input, shape):
    return g.node("Expand", x, _shape_operand(g, shape_input, shape, "BroadcastTo's shape"))


def _eye(g, num_rows, num_columns, batch_shape, dtype):
    m = np.eye(num_rows, num_columns, dtype=dtype.as_numpy_dtype)
    return g.const(np.broadcast_to(m, (*batch_shape, num_rows, num_columns)).copy())


def _filled_like(fill: int) -> Callable:
    def rule(g, x):
        return g.node("ConstantOfShape", g.node("Shape", x),
                      value=numpy_helper.from_array(np.array([fill], x.dtype.as_numpy_dtype)))
    return rule


def _gather(g, params, indices, axis):
    return g.node("Gather", params, indices, axis=int(axis))


def _gather_nd(g, params, indices):
    return g.node("GatherND", params, g.cast(indices, dtypes.int64))


def _scatter_nd(g, indices, updates, shape):
    zeros = g.node("ConstantOfShape", g.ints(shape),
                   value=numpy_helper.from_array(np.zeros(1, g.op.outputs[0].dtype.as_numpy_dtype)))
    return g.node("ScatterND", zeros, g.cast(indices, dtypes.int64), updates, reduction="add")


def _einsum(g, *operands, equation):
    return g.node("Einsum", *operands, equation=equation)


def _custom_gradient(g, *values, num_inputs, num_outputs, grad_graph, has_gradient):
    return [v.name for v in values[num_inputs:num_inputs + num_outputs]]


# --- state and control flow ------------------------------------------------------------------------

def _read(g, handle):
    return g.state[handle]


def _assigner(combine: Optional[str]) -> Callable:
    def rule(g, value, handle):
        value = g.cast(value, handle.dtype)
        new = value if combine is None else g.node(combine, g.state[handle], value)
        g.state[handle] = new
        return new
    return rule


def _print(g, *values, **attrs):
    return g.scalar(0, dtypes.int32)   # only when prints are dropped (see `check_exportable`)


def _cond(g, pred, *inputs, then_graph, else_graph, then_inputs, else_inputs, output_specs):
    written = _written_handles(then_graph, else_graph)
    if not output_specs and not written:
        return []   # branches that only printed (prints dropped): nothing to export
    known = g.names.known.get(pred.name)
    if known is not None and known.size == 1:
        # a predicate computed from constants: the branch it takes, written here. onnxruntime's constant
        # folding of such an `If` crashed (a segmentation fault) on models with several nested ones
        graph, positions = (then_graph, then_inputs) if known.item() else (else_graph, else_inputs)
        return interpret(graph, [inputs[i - 1] for i in positions], graph.outputs, g.apply_op)
    branches, elements = {}, []
    for key, graph, positions in (("then_branch", then_graph, then_inputs), ("else_branch", else_graph, else_inputs)):
        branch = g.child()
        outputs = interpret(graph, [inputs[i - 1] for i in positions], graph.outputs, branch.apply_op)
        elements = [out.element for out in outputs]
        declared = [Value(out.name, spec.dtype, spec.shape, out.element) for out, spec in zip(outputs, output_specs)]
        branches[key] = branch.subgraph(graph.name, [], [*declared, *_state_outputs(branch, written)])
    results = g.node("If", pred, outputs=len(output_specs) + len(written), **branches)
    _sequences(g, results, elements)   # as the else branch leaves them
    return _restate(g, written, results, len(output_specs))


def _while(g, *inputs, cond_graph, body_graph, num_loop_vars, cond_inputs, body_inputs, output_specs,
           max_iterations_input):
    """`Loop`: the test runs once before the loop (in the enclosing graph) and at the end of every
    iteration (in the body), as ONNX's Loop takes it; `maximum_iterations` is its trip count."""
    n = num_loop_vars
    cond_ext = [inputs[i] for i in cond_inputs]
    body_ext = [inputs[i] for i in body_inputs]
    written = _written_handles(cond_graph, body_graph)
    first_test = interpret(cond_graph, [*inputs[:n], *cond_ext], cond_graph.outputs, g.apply_op)[0]
    trip_count = "" if max_iterations_input is None else g.cast(inputs[max_iterations_input], dtypes.int64)

    body = g.child()
    count = Value(body.fresh("iteration"), dtypes.int64, TensorShape(()))
    running = Value(body.fresh("running"), dtypes.bool, TensorShape(()))
    elements = [v.element for v in inputs[:n]]
    carried = [Value(body.sequence(body.fresh(body_graph.inputs[i].op.name), element) if element else
                     body.fresh(body_graph.inputs[i].op.name), spec.dtype, spec.shape, element)
               for i, (spec, element) in enumerate(zip(output_specs, elements))]
    state = [Value(body.fresh(_variable_name(h)), h.dtype, h.shape) for h in written]
    body.state.update({h: v.name for h, v in zip(written, state)})
    new_vars = interpret(body_graph, [*carried, *body_ext], body_graph.outputs, body.apply_op)
    test = interpret(cond_graph, [*new_vars, *cond_ext], cond_graph.outputs, body.apply_op)[0]
    declared = [Value(new.name, v.dtype, v.shape, v.element) for new, v in zip(new_vars, carried)]
    graph = body.subgraph(body_graph.name, [count, running, *carried, *state],
                          [Value(test.name, dtypes.bool, TensorShape(())), *declared, *_state_outputs(body, written)])
    initial = [*inputs[:n], *(g.state[h] for h in written)]
    results = g.node("Loop", trip_count, first_test, *initial, outputs=n + len(written), body=graph)
    _sequences(g, results, [v.element for v in new_vars])   # as an iteration leaves them
    return _restate(g, written, results, n)


def _variable_name(handle) -> str:
    return "var_" + handle.name.split(":")[0]


def _written_handles(*graphs) -> list:
    """The Variables that `graphs` (or graphs nested in them) assign, in first-use order."""
    found: dict = {}
    for graph in graphs:
        for op in walk(graph):
            if op.type.startswith("Assign"):
                found.setdefault(id(op.attrs["handle"]), op.attrs["handle"])
    return list(found.values())


def _state_outputs(builder, written: list) -> list:
    return [Value(builder.state[h], h.dtype, h.shape) for h in written]


def _sequences(g, results: list, elements: list) -> None:
    """Record the element Spec of each of an If's or Loop's results that is a sequence (a list)."""
    for name, element in zip(results, elements):
        if element is not None:
            g.sequence(name, element)


def _restate(g, written: list, results: list, n: int) -> list:
    g.state.update(zip(written, results[n:]))
    return results[:n]


def _check_defined(g, value, defined, *, error, message):
    """`int()` of a float tensor (runtime/ops/python_operands.py): ONNX has no run-time error, so the cast wraps
    there, as a Python int's checked arithmetic does. A read of a variable a staged statement may leave unassigned
    can't be exported without its check."""
    if error != "InvalidArgumentError":
        raise LoweringError(
            f"ONNX has no run-time error, so the check of a variable a staged statement may leave unassigned "
            f"('{g.op.name}') can't be exported.{made_at(g.op)}\nAssign the variable on every path.", "CheckDefined")
    return value.name


MAPPINGS: dict[str, Callable] = {
    "Const": lambda g, value: g.const(np.asarray(value, g.op.outputs[0].dtype.as_numpy_dtype)),
    "Identity": lambda g, x: x.name, "StopGradient": lambda g, x: x.name,
    "HeldVariableRead": lambda g, value, handle: value.name,
    "AddV2": _simple("Add"), "Sub": _simple("Sub"), "Mul": _simple("Mul"), "RealDiv": _real_div,
    "FloorDiv": _floor_div, "FloorMod": _floor_mod, "Pow": _simple("Pow"),
    # a Python int's checked arithmetic (runtime/ops/python_ints.py): ONNX has no run-time error, so it wraps
    "ExactInt32": lambda g, *values, arithmetic, variable, where: MAPPINGS[arithmetic](g, *values),
    "PythonFloat": lambda g, *values, arithmetic, variable, where: MAPPINGS[arithmetic](g, *values),   # inf, nan
    "CheckDefined": _check_defined,
    "Maximum": _simple("Max"), "Minimum": _simple("Min"),
    "Equal": _simple("Equal"), "NotEqual": _not("Equal"), "Less": _simple("Less"),
    "LessEqual": _simple("LessOrEqual"), "Greater": _simple("Greater"), "GreaterEqual": _simple("GreaterOrEqual"),
    "LogicalAnd": _simple("And"), "LogicalOr": _simple("Or"), "LogicalXor": _simple("Xor"),
    "BitwiseAnd": _simple("BitwiseAnd"), "BitwiseOr": _simple("BitwiseOr"), "BitwiseXor": _simple("BitwiseXor"),
    "Invert": _simple("BitwiseNot"),
    "LogicalNot": _simple("Not"),
    "Neg": _simple("Neg"), "Abs": _simple("Abs"), "Sign": _simple("Sign"), "Square": _square,
    "Sqrt": _simple("Sqrt"), "Rsqrt": _rsqrt, "Reciprocal": _simple("Reciprocal"), "Exp": _simple("Exp"),
    "Expm1": _expm1, "Log": _simple("Log"), "Log1p": _log1p, "Erf": _simple("Erf"),
    **{name: _simple(name) for name in ("Asin", "Acos", "Atan", "Asinh", "Acosh", "Atanh")},
    "Sin": _simple("Sin"), "Cos": _simple("Cos"), "Tanh": _simple("Tanh"), "Sigmoid": _simple("Sigmoid"),
    "Floor": _simple("Floor"), "Ceil": _simple("Ceil"), "Round": _simple("Round"),   # both half to even
    "Relu": _relu, "Relu6": lambda g, x: _clip(g, x, g.scalar(0, x.dtype), g.scalar(6, x.dtype)),
    "SqrtGrad": _upstream_grad(0.5, -1), "RsqrtGrad": _upstream_grad(-0.5, 3), "ReciprocalGrad": _upstream_grad(-1, 2),
    "ReluGrad": _relu_grad, "Relu6Grad": lambda g, grad, x: _relu_grad(g, grad, x, upper=6),
    "LeakyRelu": lambda g, x, alpha: g.node("LeakyRelu", x, alpha=float(alpha)), "LeakyReluGrad": _leaky_relu_grad,
    "Elu": _elu, "Selu": _simple("Selu", alpha=1.6732632423543772, gamma=1.0507009873554805), "Gelu": _gelu,
    "Softplus": _simple("Softplus"), "Softsign": _simple("Softsign"), "Xdivy": _xdivy, "Softmax": _softmax("Softmax"), "LogSoftmax": _softmax("LogSoftmax"),
    "L2Loss": _l2_loss,
    "Cast": _cast, "ClipByValue": _clip, "SelectV2": _simple("Where"), "MatMul": _matmul, "Einsum": _einsum,
    "Sum": _reduction("ReduceSum"), "Mean": _mean, "Max": _reduction("ReduceMax"), "Min": _reduction("ReduceMin"),
    "Prod": _reduction("ReduceProd"), "ReduceLogSumExp": _logsumexp,
    "Any": _boolean_reduction("ReduceMax"), "All": _boolean_reduction("ReduceMin"),
    "ArgMax": _arg("ArgMax", -np.inf), "ArgMin": _arg("ArgMin", np.inf), "Cumsum": _cumsum,
    "Shape": _shape, "Size": _size, "Rank": _rank,
    "Range": _range, "StridedSlice": strided_slice, "GatherV2": _gather, "GatherNd": _gather_nd, "ScatterNd": _scatter_nd,
    "Reshape": _reshape, "Transpose": lambda g, x, perm: g.node("Transpose", x, perm=list(perm)),
    "ExpandDims": _expand_dims, "Squeeze": _squeeze, "ConcatV2": _concat, "Pack": _pack, "Unpack": _unpack,
    "Tile": _tile, "Pad": _pad, "OneHot": _one_hot, "Fill": _fill, "BroadcastTo": _broadcast_to, "Eye": _eye,
    "ZerosLike": _filled_like(0), "OnesLike": _filled_like(1),
    "CustomGradient": _custom_gradient,
    "ReadVariableOp": _read, "AssignVariableOp": _assigner(None),
    "AssignAddVariableOp": _assigner("Add"), "AssignSubVariableOp": _assigner("Sub"),
    "PrintV2": _print,
    "Cond": _cond, "While": _while,
    **onnx_lists.MAPPINGS,   # TensorArrays and staged lists: ONNX sequences
}


# --- the model --------------------------------------------------------------------------------------

_HINTS = {"TensorList": "it is a gradient of a TensorArray or a staged list, which ONNX export does not map",
          "Random": "random draws are not exported; draw outside the function and pass the values in"}


def exported_ops(graph):
    """The ops export writes: those the outputs need and every stateful one (as the executor prunes), and
    the same of the graphs nested in them, depth first."""
    for op in needed_ops(graph, graph.outputs):
        yield op
        for _, sub in op.subgraphs():
            yield from exported_ops(sub)


def check_exportable(graph, function_name: str, drop_prints: bool) -> None:
    for op in exported_ops(graph):
        if op.type == "PrintV2" and not drop_prints:
            raise LoweringError(
                f"{function_name}: ONNX has no print, so the op PrintV2 ('{op.name}' in graph '{op.graph.name}') "
                f"can't be exported.{made_at(op)}\nPass drop_prints=True to export the function without its "
                "runtime.print calls.", op.type)
        if op.type != "Placeholder" and op.type not in MAPPINGS:
            hint = next((text for prefix, text in _HINTS.items() if op.type.startswith(prefix)), "")
            raise LoweringError(
                f"{function_name}: ONNX export has no mapping for the op {op.type} ('{op.name}' in graph "
                f"'{op.graph.name}'){'; ' + hint if hint else ''}.{made_at(op)}\n"
                f"Add a rule for '{op.type}' to MAPPINGS in runtime/lowering/to_onnx.py to export it.", op.type)


def build_model(graph, name: str, drop_prints: bool = False, producer_version: str = "") -> onnx.ModelProto:
    """`graph` (a concrete function's) as an ONNX model: its inputs, then one input per Variable it reads
    or writes (default: the current value); its outputs `output_0`, ..., then `<variable input>_new` per
    Variable it assigns."""
    check_exportable(graph, name, drop_prints)
    names = Names()
    g = Builder(MAPPINGS, names, {})
    inputs = [Value(names.fresh(t.op.name), t.dtype, t.shape) for t in graph.inputs]
    handles = variable_handles(graph)
    variables = [Value(names.fresh(_variable_name(h)), h.dtype, h.shape) for h in handles]
    g.state.update({h: v.name for h, v in zip(handles, variables)})
    outputs = interpret(graph, inputs, graph.outputs, g.apply_op)
    written = _written_handles(graph)
    results = [Value(names.fresh(f"output_{i}"), out.dtype, out.shape, out.element) for i, out in enumerate(outputs)]
    new_values = [Value(names.fresh(f"{variables[handles.index(h)].name}_new"), h.dtype, h.shape) for h in written]
    for result, source in [*zip(results, outputs), *zip(new_values, [g.state[h] for h in written])]:
        g.nodes.append(helper.make_node("Identity", [str(source)], [result.name], name=f"{result.name}/Identity"))
    onnx_graph = helper.make_graph(
        g.nodes, name, [value_info(v, f"{v.name}_dim") for v in [*inputs, *variables]],
        [*(value_info(v, f"{v.name}_dim") for v in results), *(value_info(v) for v in new_values)],
        [numpy_helper.from_array(np.asarray(h.value), v.name) for h, v in zip(handles, variables)])
    model = helper.make_model(onnx_graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="autograph-runtime", producer_version=producer_version)
    model.ir_version = IR_VERSION
    drop_unused_nodes(model.graph)
    _fill_unknown_ranks(model)
    onnx.checker.check_model(model, full_check=True)
    return model


def _fill_unknown_ranks(model: onnx.ModelProto) -> None:
    """The checker wants a shape on every output of the model; an output whose rank the runtime's graph
    does not know (a TensorArray stacked) gets the shape ONNX's own inference finds."""
    unknown = [out for out in model.graph.output
               if out.type.HasField("tensor_type") and not out.type.tensor_type.HasField("shape")]
    if not unknown:
        return
    inferred = {out.name: out for out in onnx.shape_inference.infer_shapes(model).graph.output}
    for out in unknown:
        found = inferred[out.name].type.tensor_type
        if not found.HasField("shape"):
            raise LoweringError(f"the rank of the model's output {out.name} is unknown (to the runtime's graph and "
                                "to ONNX's shape inference); give the tensor a static rank, e.g. with "
                                "runtime.reshape or a TensorArray's element_shape")
        out.type.tensor_type.shape.CopyFrom(found.shape)
