"""A concrete function's graph as an ONNX model (`runtime.onnx.export`), one mapping per op.

`MAPPINGS` is the table, keyed by op name like the gradient and JAX tables: `rule(g, *inputs, **attrs)`
gets the builder `g` of the ONNX graph being written (`g.node(...)` adds a node and returns its output
names) and the op's inputs as `Value`s (an ONNX name with the runtime dtype and shape), and returns the
ONNX name of the op's output (a list of names for an op with several outputs).

The graph is walked by THE interpreter (`runtime.interpret.interpret`) with `Builder.apply_op` as the
callback, so a value is an ONNX name where the executor has a NumPy array. `Cond` becomes `If` and `While`
`Loop`, their graphs written by the same walk into ONNX subgraphs, which read the tensors they capture from
the enclosing graph by name (ONNX's outer scope). Variables are inputs of the model whose default is their
current value (an initializer of the same name); a Variable the function assigns is also an output
(`<input>_new`), carried through every `If` and `Loop` that assigns it.

An op without a mapping (a TensorArray's list ops, random draws, asserts, ...) is a `LoweringError` naming
the op and the user's line that made it, raised before anything is written.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from runtime import dtypes
from runtime.errors import LoweringError
from runtime.graph import made_at
from runtime.interpret import interpret
from runtime.lowering import variable_handles, walk
from runtime.ops.registry import Spec
from runtime.shape import TensorShape

OPSET = 18
IR_VERSION = 8   # the IR of opset 18 (onnx 1.13): models load in every onnxruntime since 1.14

ELEMENT_TYPES = {dtypes.bool: TensorProto.BOOL, dtypes.float16: TensorProto.FLOAT16,
                 dtypes.float32: TensorProto.FLOAT, dtypes.float64: TensorProto.DOUBLE,
                 dtypes.int8: TensorProto.INT8, dtypes.int16: TensorProto.INT16, dtypes.int32: TensorProto.INT32,
                 dtypes.int64: TensorProto.INT64, dtypes.uint8: TensorProto.UINT8}
INT64_MAX = np.iinfo(np.int64).max
INT64_MIN = np.iinfo(np.int64).min


@dataclass(frozen=True)
class Value:
    """An ONNX value a rule reads: its name, and the dtype and shape the runtime's graph gives it."""

    name: str
    dtype: dtypes.DType
    shape: object   # TensorShape

    @property
    def rank(self) -> Optional[int]:
        return self.shape.rank

    def __str__(self) -> str:
        return self.name


# --- elementwise and shape rules --------------------------------------------------------------------

def _simple(onnx_type: str, **fixed) -> Callable:
    return lambda g, *inputs: g.node(onnx_type, *inputs, **fixed)


def _not(onnx_type: str) -> Callable:
    return lambda g, x, y: g.node("Not", g.node(onnx_type, x, y))


def _square(g, x):
    return g.node("Mul", x, x)


def _plus_one(onnx_type: str, sign: int) -> Callable:
    """log1p (`Log(x + 1)`) and expm1 (`Exp(x) - 1`)."""
    if sign > 0:
        return lambda g, x: g.node("Log", g.node("Add", x, g.scalar(1, x.dtype)))
    return lambda g, x: g.node("Sub", g.node("Exp", x), g.scalar(1, x.dtype))


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
    if x.dtype.is_floating:
        return g.node("Sub", x, g.node("Mul", g.node("Floor", g.node("Div", x, y)), y))
    return g.node("Mod", x, y, fmod=0)


def _relu(g, x):
    return g.node("Relu", x) if x.dtype.is_floating else g.node("Max", x, g.scalar(0, x.dtype))


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
    return g.node("Min", g.node("Max", t, lo), hi)


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


def _arg(onnx_type: str) -> Callable:
    def rule(g, x, axis, output_type):
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
    target = _shape_operand(g, shape_input, shape, "Reshape's shape")
    literal_zero = not shape_input and 0 in shape and -1 not in shape
    return g.node("Reshape", x, target, allowzero=int(literal_zero))


def _range(g, start, limit, delta):
    """`Range`; an integer one computed in int64 and cast back: onnxruntime (1.32) propagates a bound made
    from `Shape` (int64) and cast to int32 as int64 and then refuses an int32 `Range`."""
    if start.dtype.is_floating:
        return g.node("Range", start, limit, delta)
    wide = [g.node("Cast", bound, to=TensorProto.INT64) for bound in (start, limit, delta)]
    return g.cast(g.node("Range", *wide), start.dtype) if start.dtype is not dtypes.int64 else g.node("Range", *wide)


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


def _einsum(g, *operands, equation):
    return g.node("Einsum", *operands, equation=equation)


def _custom_gradient(g, *values, num_inputs, num_outputs, grad_graph, has_gradient):
    return [v.name for v in values[num_inputs:num_inputs + num_outputs]]


# --- indexing ----------------------------------------------------------------------------------------

def _strided_slice(g, x, *index_values, spec):
    """`x[key]` one entry at a time: `Gather` for an index (it drops the axis), `Slice` for a slice,
    `Unsqueeze` for a newaxis; `...` stands for the axes no entry names (the rank must be known)."""
    key = spec if isinstance(spec, tuple) and not (spec and spec[0] in ("slice", "$")) else (spec,)
    if "..." in key:
        consumed = sum(1 for k in key if k is not None and k != "...")
        fill = g.static_rank(x, "Indexing with ...") - consumed
        at = key.index("...")
        key = key[:at] + (("slice", None, None, None),) * fill + key[at + 1:]
    out, axis = x.name, 0
    for entry in key:
        if entry is None:
            out = g.node("Unsqueeze", out, g.ints([axis]))
            axis += 1
        elif isinstance(entry, tuple) and entry[0] == "slice":
            out = _slice(g, out, axis, entry[1:], index_values)
            axis += 1
        else:
            out = g.node("Gather", out, _index(g, entry, index_values, scalar=True), axis=axis)
    return out


def _slice(g, x, axis: int, bounds: tuple, index_values):
    start, stop, step = bounds
    step_value = 1 if step is None else step
    if not isinstance(step_value, int):
        raise LoweringError("a slice step given as a tensor can't be exported to ONNX; use a Python int")
    default_start, default_stop = (0, INT64_MAX) if step_value > 0 else (-1, INT64_MIN)
    starts = _index(g, default_start if start is None else start, index_values)
    ends = _index(g, default_stop if stop is None else stop, index_values)
    return g.node("Slice", x, starts, ends, g.ints([axis]), g.ints([step_value]))


def _index(g, entry, index_values, scalar: bool = False):
    """An index of a key as an int64 tensor: a scalar, or of shape [1] for `Slice`."""
    if isinstance(entry, tuple) and entry[0] == "$":
        value = g.cast(index_values[entry[1]], dtypes.int64)
        return value if scalar else g.node("Reshape", value, g.ints([1]))
    return g.ints(int(entry), scalar=True) if scalar else g.ints([int(entry)])


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
    branches = {}
    for key, graph, positions in (("then_branch", then_graph, then_inputs), ("else_branch", else_graph, else_inputs)):
        branch = g.child()
        outputs = interpret(graph, [inputs[i - 1] for i in positions], graph.outputs, branch.apply_op)
        branches[key] = branch.subgraph(graph.name, [], [*zip(outputs, output_specs),
                                                         *_state_outputs(branch, written)])
    results = g.node("If", pred, outputs=len(output_specs) + len(written), **branches)
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
    carried = [Value(body.fresh(f"{body_graph.inputs[i].op.name}"), spec.dtype, spec.shape)
               for i, spec in enumerate(output_specs)]
    state = [Value(body.fresh(_variable_name(h)), h.dtype, h.shape) for h in written]
    body.state.update({h: v.name for h, v in zip(written, state)})
    new_vars = interpret(body_graph, [*carried, *body_ext], body_graph.outputs, body.apply_op)
    test = interpret(cond_graph, [*new_vars, *cond_ext], cond_graph.outputs, body.apply_op)[0]
    graph = body.subgraph(body_graph.name, [count, running, *carried, *state],
                          [(test, _spec(dtypes.bool, ())), *zip(new_vars, output_specs),
                           *_state_outputs(body, written)])
    initial = [*inputs[:n], *(g.state[h] for h in written)]
    results = g.node("Loop", trip_count, first_test, *initial, outputs=n + len(written), body=graph)
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
    return [(builder.state[h], _spec(h.dtype, h.shape.dims)) for h in written]


def _restate(g, written: list, results: list, n: int) -> list:
    g.state.update(zip(written, results[n:]))
    return results[:n]


MAPPINGS: dict[str, Callable] = {
    "Const": lambda g, value: g.const(np.asarray(value, g.op.outputs[0].dtype.as_numpy_dtype)),
    "Identity": lambda g, x: x.name, "StopGradient": lambda g, x: x.name,
    "AddV2": _simple("Add"), "Sub": _simple("Sub"), "Mul": _simple("Mul"), "RealDiv": _real_div,
    "FloorDiv": _floor_div, "FloorMod": _floor_mod, "Pow": _simple("Pow"),
    "Maximum": _simple("Max"), "Minimum": _simple("Min"),
    "Equal": _simple("Equal"), "NotEqual": _not("Equal"), "Less": _simple("Less"),
    "LessEqual": _simple("LessOrEqual"), "Greater": _simple("Greater"), "GreaterEqual": _simple("GreaterOrEqual"),
    "LogicalAnd": _simple("And"), "LogicalOr": _simple("Or"), "LogicalXor": _simple("Xor"),
    "LogicalNot": _simple("Not"),
    "Neg": _simple("Neg"), "Abs": _simple("Abs"), "Sign": _simple("Sign"), "Square": _square,
    "Sqrt": _simple("Sqrt"), "Rsqrt": _rsqrt, "Reciprocal": _simple("Reciprocal"), "Exp": _simple("Exp"),
    "Expm1": _plus_one("Exp", -1), "Log": _simple("Log"), "Log1p": _plus_one("Log", 1), "Erf": _simple("Erf"),
    "Sin": _simple("Sin"), "Cos": _simple("Cos"), "Tanh": _simple("Tanh"), "Sigmoid": _simple("Sigmoid"),
    "Floor": _simple("Floor"), "Ceil": _simple("Ceil"), "Round": _simple("Round"),   # both half to even
    "Relu": _relu, "Relu6": lambda g, x: _clip(g, x, g.scalar(0, x.dtype), g.scalar(6, x.dtype)),
    "Elu": _elu, "Selu": _simple("Selu", alpha=1.6732632423543772, gamma=1.0507009873554805), "Gelu": _gelu,
    "Softplus": _simple("Softplus"), "Softmax": _softmax("Softmax"), "LogSoftmax": _softmax("LogSoftmax"),
    "L2Loss": _l2_loss,
    "Cast": _cast, "ClipByValue": _clip, "SelectV2": _simple("Where"), "MatMul": _matmul, "Einsum": _einsum,
    "Sum": _reduction("ReduceSum"), "Mean": _mean, "Max": _reduction("ReduceMax"), "Min": _reduction("ReduceMin"),
    "Prod": _reduction("ReduceProd"), "ReduceLogSumExp": _logsumexp,
    "Any": _boolean_reduction("ReduceMax"), "All": _boolean_reduction("ReduceMin"),
    "ArgMax": _arg("ArgMax"), "ArgMin": _arg("ArgMin"), "Cumsum": _cumsum,
    "Shape": _shape, "Size": _size, "Rank": _rank,
    "Range": _range, "StridedSlice": _strided_slice, "GatherV2": _gather,
    "Reshape": _reshape, "Transpose": lambda g, x, perm: g.node("Transpose", x, perm=list(perm)),
    "ExpandDims": _expand_dims, "Squeeze": _squeeze, "ConcatV2": _concat, "Pack": _pack, "Unpack": _unpack,
    "Tile": _tile, "Fill": _fill, "BroadcastTo": _broadcast_to, "Eye": _eye,
    "ZerosLike": _filled_like(0), "OnesLike": _filled_like(1),
    "CustomGradient": _custom_gradient,
    "ReadVariableOp": _read, "AssignVariableOp": _assigner(None),
    "AssignAddVariableOp": _assigner("Add"), "AssignSubVariableOp": _assigner("Sub"),
    "PrintV2": _print,
    "Cond": _cond, "While": _while,
}


# --- the builder ------------------------------------------------------------------------------------

def _spec(dtype, dims) -> Spec:
    return Spec(dtype, TensorShape(dims))


class Names:
    """Unique ONNX names across the model and its subgraphs, readable: the op's name, then `_1`, `_2`."""

    def __init__(self):
        self.counts: dict[str, int] = {}
        self.used: set[str] = set()

    def fresh(self, base: str) -> str:
        base = base.replace(":", "_") or "v"
        name = base
        while name in self.used:   # `Const_1` may be an op's own name as well as the second `Const`
            self.counts[base] = self.counts.get(base, 0) + 1
            name = f"{base}_{self.counts[base]}"
        self.used.add(name)
        return name


class Builder:
    """The nodes of one ONNX graph (the model's, or an If branch or Loop body) as rules add them; `state`
    maps each Variable's storage to the ONNX name of its current value."""

    def __init__(self, names: Names, state: dict, prefix: str = ""):
        self.names = names
        self.state = state
        self.prefix = prefix
        self.nodes: list = []
        self.op = None   # the op whose rule is running, for names and messages

    def child(self) -> "Builder":
        return Builder(self.names, dict(self.state), self.prefix)

    def fresh(self, base: str) -> str:
        return self.names.fresh(base)

    # -- what rules call ----------------------------------------------------------------

    def node(self, op_type: str, *inputs, outputs: Optional[int] = None, **attrs):
        """Add a node; the name of its output, or a list of `outputs` names when that is given."""
        base = f"{self.op.name}/{op_type}" if self.op is not None else op_type
        names = [self.fresh(base) for _ in range(1 if outputs is None else outputs)]
        self.nodes.append(helper.make_node(op_type, [str(i) for i in inputs], names, name=names[0], **attrs))
        return names[0] if outputs is None else names

    def const(self, value) -> str:
        return self.node("Constant", value=numpy_helper.from_array(np.asarray(value)))

    def scalar(self, value, dtype) -> str:
        return self.const(np.asarray(value, dtype.as_numpy_dtype))

    def ints(self, values, scalar: bool = False) -> str:
        return self.const(np.asarray(values, np.int64).reshape(() if scalar else (-1,)))

    def cast(self, x, dtype) -> str:
        if isinstance(x, Value) and x.dtype is dtype:
            return x.name
        return self.node("Cast", x, to=ELEMENT_TYPES[dtype])

    def static_rank(self, x: Value, what: str) -> int:
        if x.rank is None:
            raise LoweringError(f"{what} needs the tensor's rank while exporting to ONNX, and it is unknown")
        return x.rank

    # -- the interpreter's callback -------------------------------------------------------

    def apply_op(self, op, inputs: list) -> list:
        previous, self.op = self.op, op
        try:
            out = MAPPINGS[op.type](self, *inputs, **op.attrs)
        except LoweringError as e:
            raise LoweringError(f"ONNX export of op {op.type} ('{op.name}' in graph '{op.graph.name}'): "
                                f"{e}{made_at(op)}", op.type) from None
        finally:
            self.op = previous
        names = out if op.opdef.multi_output else [out]
        return [Value(name, t.dtype, t.shape) for name, t in zip(names, op.outputs)]

    # -- finishing a graph ----------------------------------------------------------------

    def subgraph(self, name: str, inputs: list, outputs: list) -> onnx.GraphProto:
        """This builder's nodes as a graph; each output (a (value, spec) pair) through an Identity of its
        own, so that an output may be an outer-scope value or repeat another one."""
        self.op = None
        names = [self.node("Identity", value) for value, _ in outputs]
        return helper.make_graph(self.nodes, name, [value_info(v.name, v.dtype, v.shape.dims) for v in inputs],
                                 [value_info(n, spec.dtype, spec.shape.dims) for n, (_, spec) in zip(names, outputs)])


def value_info(name: str, dtype, dims, dim_prefix: str = "") -> onnx.ValueInfoProto:
    """A typed ONNX value; unknown dimensions are named `<dim_prefix><i>` in the model's inputs and
    outputs, and left unnamed inside subgraphs."""
    if dtype not in ELEMENT_TYPES:
        raise LoweringError(f"the dtype {dtype.name} of '{name}' has no ONNX element type")
    shape = None if dims is None else [d if d is not None else (f"{dim_prefix}{i}" if dim_prefix else None)
                                      for i, d in enumerate(dims)]
    return helper.make_tensor_value_info(name, ELEMENT_TYPES[dtype], shape)


# --- the model --------------------------------------------------------------------------------------

_HINTS = {"TensorList": "it comes from a TensorArray or a Python list appended to in a loop, which ONNX export "
                        "does not map yet; return a tensor built with runtime.stack or runtime.concat instead",
          "Random": "random draws are not exported; draw outside the function and pass the values in"}


def check_exportable(graph, function_name: str, drop_prints: bool) -> None:
    for op in walk(graph):
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
    g = Builder(names, {})
    inputs = [Value(names.fresh(t.op.name), t.dtype, t.shape) for t in graph.inputs]
    handles = variable_handles(graph)
    variables = [Value(names.fresh(_variable_name(h)), h.dtype, h.shape) for h in handles]
    g.state.update({h: v.name for h, v in zip(handles, variables)})
    outputs = interpret(graph, inputs, graph.outputs, g.apply_op)
    written = _written_handles(graph)
    result_names = [names.fresh(f"output_{i}") for i in range(len(outputs))]
    new_names = [names.fresh(f"{variables[handles.index(h)].name}_new") for h in written]
    for out, value in zip(result_names, outputs):
        g.nodes.append(helper.make_node("Identity", [str(value)], [out], name=names.fresh(f"{out}/Identity")))
    for out, h in zip(new_names, written):
        g.nodes.append(helper.make_node("Identity", [g.state[h]], [out], name=names.fresh(f"{out}/Identity")))
    model_inputs = [value_info(v.name, v.dtype, v.shape.dims, f"{v.name}_dim") for v in [*inputs, *variables]]
    model_outputs = [value_info(n, t.dtype, t.shape.dims, f"{n}_dim") for n, t in zip(result_names, graph.outputs)]
    model_outputs += [value_info(n, h.dtype, h.shape.dims) for n, h in zip(new_names, written)]
    initializers = [numpy_helper.from_array(np.asarray(h.value), v.name) for h, v in zip(handles, variables)]
    onnx_graph = helper.make_graph(g.nodes, name, model_inputs, model_outputs, initializers)
    model = helper.make_model(onnx_graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="autograph-runtime", producer_version=producer_version)
    model.ir_version = IR_VERSION
    onnx.checker.check_model(model, full_check=True)
    return model
