"""The graph IR: `Graph`, `FuncGraph` and `Operation`.

A graph is a list of operations in creation order, which is always a
topological order. Each `Operation` names its `OpDef` from the registry, its
input tensors, its static attributes and its `SymbolicTensor` outputs. Ops
are recorded by `registry.apply` while a graph is the current one
(`building(graph)`); their output dtypes and shapes come from the op's
`infer` rule.

A `FuncGraph` is the body of a function, a `cond` branch or a loop: its
`inputs` are Placeholder outputs, and tensors from enclosing graphs that it
uses are *captured* — replaced by a placeholder, with the outer tensor
recorded in `captures` — so each graph only refers to its own tensors.
Eager tensors used while tracing become `Const` ops.

Stateful ops (variable updates, print, asserts, random) are chained with
control inputs in program order, and are never pruned, merged or folded.
"""
from __future__ import annotations

import contextlib
import linecache
from typing import Iterator, Optional

import numpy as np

from runtime import dtypes
from runtime.errors import InvalidArgumentError, LeakedTensorError, user_frame
from runtime.lowering import dot
from runtime.ops import dtype_origins, python_ints, registry
from runtime.ops.registry import OpDef, Spec, defop
from runtime.shape import TensorShape, as_shape
from runtime.tensor import EagerTensor, SymbolicTensor


def _no_kernel(*_args, **_kwargs):
    raise RuntimeError("this op has no kernel of its own; the executor runs it")


PLACEHOLDER = defop("Placeholder", _no_kernel, lambda dtype, shape: Spec(dtype, shape),
                    doc="An input of a function graph.")


def creation_site() -> Optional[tuple[str, int]]:
    """(file, line) of the innermost caller that runs a user's code: where the user made an op."""
    frame = user_frame(2)
    return None if frame is None else (frame.f_code.co_filename, frame.f_lineno)


def made_at(op) -> str:
    """'\n    made at file:line: source' for an op whose creating line is known, or ''."""
    location = getattr(op, "location", None)
    if location is None:
        return ""
    filename, lineno = location
    text = linecache.getline(filename, lineno).strip()
    return f"\n    made at {filename}:{lineno}" + (f": {text}" if text else "")


class Operation:
    """One node of a graph: an op from the registry applied to tensors."""

    __slots__ = ("graph", "name", "opdef", "inputs", "attrs", "outputs", "control_inputs", "stateful", "location")

    def __init__(self, graph: "Graph", name: str, opdef: OpDef, inputs: tuple, attrs: dict):
        self.location: Optional[tuple[str, int]] = None   # the user's (file, line) that made it, if known
        self.graph = graph
        self.name = name
        self.opdef = opdef
        self.inputs = inputs
        self.attrs = attrs
        self.outputs: list[SymbolicTensor] = []
        self.control_inputs: tuple[Operation, ...] = ()
        self.stateful = opdef.stateful or bool(attrs) and any(
            isinstance(v, Graph) and v.is_stateful for v in attrs.values())

    @property
    def type(self) -> str:
        return self.opdef.name

    def __repr__(self) -> str:
        return f"<Operation '{self.name}' type={self.type}>"

    def __str__(self) -> str:
        args = [t.name for t in self.inputs]
        hidden = _SHOWN_ELSEWHERE.get(self.type, _SHOWN_ELSEWHERE[None])
        args += [f"{k}={_attr_repr(v)}" for k, v in sorted(self.attrs.items()) if k not in hidden and v is not None]
        outs = ", ".join(t.name for t in self.outputs) or "()"
        types = ", ".join(f"{t.dtype.name}{t.shape}" for t in self.outputs)
        deps = f"  ^{','.join(op.name for op in self.control_inputs)}" if self.control_inputs else ""
        return f"{outs} = {self.type}({', '.join(args)})  # {types}{deps}"

    def subgraphs(self) -> list[tuple[str, "Graph"]]:
        """(attribute name, graph) for each branch or body graph of this op, by name."""
        return [(k, v) for k, v in self.attrs.items() if isinstance(v, Graph)]


# attributes that str() leaves out, by op type, because the line's comment shows them
_SHOWN_ELSEWHERE = {None: frozenset({"output_specs"}), "Placeholder": frozenset({"dtype", "shape"})}


def _attr_repr(value) -> str:
    if isinstance(value, Graph):
        return value.name
    if isinstance(value, dtypes.DType):
        return value.name
    if isinstance(value, TensorShape):
        return str(value)
    if isinstance(value, (np.ndarray, np.generic)) and np.size(value) <= 8:
        return repr(np.asarray(value).tolist())  # the dtype is in the line's comment
    text = repr(value)
    if "\n" in text or len(text) > 60:
        shape = getattr(value, "shape", None)
        return f"<{type(value).__name__} shape={tuple(shape)}>" if shape is not None else f"<{type(value).__name__}>"
    return text


class Graph:
    """Operations in creation (= topological) order."""

    def __init__(self, name: str = "graph"):
        self.name = name
        self.operations: list[Operation] = []
        self._name_counts: dict[str, int] = {}
        self._names: set[str] = set()   # every op name given, so that `unique_name` never repeats one
        self._last_stateful: Optional[Operation] = None
        self._eager_captures: dict[int, tuple[EagerTensor, SymbolicTensor]] = {}
        self.outer_graph: Optional[Graph] = None
        self.scalar_constants: dict = {}  # (dtype, value) -> Const output, shared within this graph
        self.python_ints: dict = {}  # id -> (int32 tensor, variable name): Python ints (runtime/ops/python_ints.py)
        self.dtype_origins: dict = {}  # id -> (tensor, loop variable, why its dtype): runtime/ops/dtype_origins.py

    def get_operations(self) -> list[Operation]:
        return list(self.operations)

    def get_operation_by_name(self, name: str) -> Operation:
        for op in self.operations:
            if op.name == name:
                return op
        raise KeyError(f"No operation named {name!r} in graph {self.name!r}.")

    @property
    def is_stateful(self) -> bool:
        return any(op.stateful for op in self.operations)

    def unique_name(self, base: str) -> str:
        """`base`, or `base_N` for the next N that no op of this graph has: an op named `capture_while_1`
        (capturing `while_1`) and the second `capture_while` would otherwise share a name, and the graph's
        savers (save_function, ONNX, GraphDef) find tensors by name."""
        count = self._name_counts.get(base, 0)
        name = base if count == 0 else f"{base}_{count}"
        while name in self._names:
            count += 1
            name = f"{base}_{count}"
        self._name_counts[base] = count + 1
        self._names.add(name)
        return name

    # -- recording ---------------------------------------------------------

    def add_op(self, op: OpDef, inputs, attrs: dict, name: Optional[str] = None):
        """Record `op` (called by `registry.apply` while this graph is current)."""
        inputs = tuple([t if t.__class__ is SymbolicTensor and t.op.graph is self else self.capture(t)
                        for t in inputs])
        if self.python_ints:
            op, attrs = python_ints.exact(self, op, inputs, attrs)
        try:
            spec = op.infer(*inputs, **attrs)
        except InvalidArgumentError as e:
            message = e.message if e.message.startswith(op.name) else f"{op.name}: {e.message}"
            raise InvalidArgumentError(message, op.name) from None
        outputs = self.create_op(op, inputs, attrs, spec if op.multi_output else [spec], name)
        if registry.context.weak is not None:
            registry.context.weak.propagate(inputs, outputs)
        if self.python_ints or op.name == "Cond":
            python_ints.propagate(self, op, inputs, outputs, attrs)
        return outputs if op.multi_output else outputs[0]

    def create_op(self, op: OpDef, inputs: tuple, attrs: dict, specs, name: Optional[str] = None) -> list:
        operation = Operation(self, self.unique_name(name or _default_name(op.name)), op, inputs, attrs)
        operation.location = creation_site()
        operation.outputs = [SymbolicTensor(operation, i, s.dtype, s.shape) for i, s in enumerate(specs)]
        if operation.stateful:
            if self._last_stateful is not None:
                operation.control_inputs = (self._last_stateful,)
            self._last_stateful = operation
            if "handle" in attrs and op.name != "ReadVariableOp":
                registry.context.assignments += 1
        self.operations.append(operation)
        return operation.outputs

    def stateful_since(self, op: Optional[Operation]) -> Iterator[Operation]:
        """The stateful ops recorded after `op` (all of them if None), latest first: they are chained with
        control inputs in program order."""
        current = self._last_stateful
        while current is not None and current is not op:
            yield current
            current = current.control_inputs[0] if current.control_inputs else None

    def insert_before(self, anchor: Operation, op: OpDef, attrs: dict) -> list:
        """Record the stateful op `op` (no inputs) just before the stateful op `anchor`, in program order
        too: a tape asked for a gradient after a Cond or While reads a Variable's value before it."""
        assert anchor.stateful and anchor.graph is self, f"{anchor.name} is not a stateful op of {self.name}"
        spec = op.infer(**attrs)
        operation = Operation(self, self.unique_name(_default_name(op.name)), op, (), attrs)
        operation.location = anchor.location
        operation.outputs = [SymbolicTensor(operation, i, s.dtype, s.shape)
                             for i, s in enumerate(spec if op.multi_output else [spec])]
        operation.control_inputs, anchor.control_inputs = anchor.control_inputs, (operation,)
        self.operations.insert(self.operations.index(anchor), operation)
        return operation.outputs

    def capture(self, t):
        """This graph's view of tensor `t` (a Const for an eager tensor)."""
        if isinstance(t, SymbolicTensor):
            if t.op.graph is self:
                return t
            return self._capture_symbolic(t)
        if isinstance(t, EagerTensor):
            found = self._eager_captures.get(id(t))
            if found is None:
                const = self.create_op(registry.OPS["Const"], (), {"value": t._value},
                                       [Spec(t.dtype, t.shape)])[0]
                found = self._eager_captures[id(t)] = (t, const)  # keeps t alive, so ids stay unique
            return found[1]
        raise TypeError(f"Expected a tensor, got {type(t).__name__}: {t!r}")

    def _capture_symbolic(self, t: SymbolicTensor):
        raise LeakedTensorError(
            f"The tensor {t.name} belongs to another graph ({t.op.graph.name}) and can't be used in "
            f"{self.name}. A tensor made while tracing one function can't be used by another one; "
            "pass it as an argument or return it instead.")

    # -- checking and printing -----------------------------------------------

    def as_graph_def(self):
        """This graph as TensorFlow's GraphDef describes one: `node` (name, op, input, attr) and the graphs
        of Cond/While ops as `library.function` (`runtime/graph_def.py`)."""
        from runtime.graph_def import as_graph_def  # graph_def reads graphs; graph.py need not import it
        return as_graph_def(self)

    def to_dot(self) -> str:
        """This graph as Graphviz DOT text: ops with names and types, edges with dtypes and shapes, the
        graphs of `Cond`/`While` as nested clusters (`runtime/lowering/dot.py`)."""
        return dot.to_dot(self)

    def render(self, path: str) -> str:
        """Draw this graph to `path`: DOT text for `.dot`, else the format of the suffix (`.svg`, `.png`,
        `.pdf`) drawn by Graphviz's `dot` (`runtime.errors.GraphvizNotFoundError` when it isn't installed)."""
        return dot.render(self, path)

    def lint(self) -> None:
        """Check the graph's invariants; raise AssertionError naming the first broken one."""
        seen_ops: set[int] = set()
        names: set[str] = set()
        for op in self.operations:
            assert op.graph is self, f"{op.name} is listed in {self.name} but belongs to {op.graph.name}"
            assert op.name not in names, f"duplicate op name {op.name}"
            names.add(op.name)
            for t in op.inputs:
                assert t.op.graph is self, f"{op.name} uses {t.name} from graph {t.op.graph.name}"
                assert id(t.op) in seen_ops, f"{op.name} uses {t.name} before it is defined"
            for dep in op.control_inputs:
                assert id(dep) in seen_ops, f"{op.name} depends on {dep.name} defined later"
            for i, out in enumerate(op.outputs):
                assert out.op is op and out.value_index == i, f"output {i} of {op.name} is mislabelled"
            for value in op.attrs.values():
                if isinstance(value, Graph):
                    value.lint()
            _lint_control_flow(op)
            seen_ops.add(id(op))
        for label, tensors in (("input", getattr(self, "inputs", ())), ("output", getattr(self, "outputs", ()))):
            for t in tensors:
                assert t.op.graph is self, f"{label} {t.name} of {self.name} belongs to {t.op.graph.name}"

    def __str__(self) -> str:
        """One op per line; the graphs of Cond/While ops follow their op, indented."""
        return "\n".join(self._lines(""))

    def _lines(self, indent: str) -> list[str]:
        lines = [f"{indent}graph {self._header()}:"]
        for op in self.operations:
            lines.append(f"{indent}  {op}")
            for _, sub in op.subgraphs():
                lines += sub._lines(indent + "    ")
        return lines

    def _header(self) -> str:
        return self.name


def assignments_recorded() -> int:
    """How many assignments to Variables this thread has recorded into graphs: a tape that finds the count
    unchanged since it recorded an op knows that no graph being built here assigned a Variable since."""
    return registry.context.assignments


def _lint_control_flow(op: Operation) -> None:
    """A Cond/While feeds each of its graphs exactly the inputs that graph declares."""
    fed = {"Cond": (("then_graph", "then_inputs"), ("else_graph", "else_inputs")),
           "While": (("cond_graph", "cond_inputs"), ("body_graph", "body_inputs"))}
    for graph_key, inputs_key in fed.get(op.type, ()):
        graph = op.attrs[graph_key]
        loop_vars = op.attrs.get("num_loop_vars", 0)
        expected = loop_vars + len(op.attrs[inputs_key])
        assert len(graph.inputs) == expected, (
            f"{op.name}: {graph.name} has {len(graph.inputs)} inputs but the op feeds it {expected}")
        assert all(0 <= i < len(op.inputs) for i in op.attrs[inputs_key]), f"{op.name}: {inputs_key} out of range"


def _default_name(op_type: str) -> str:
    return op_type


class FuncGraph(Graph):
    """The graph of a function, a branch or a loop body, with inputs and outputs."""

    def __init__(self, name: str, outer_graph: Optional[Graph] = None):
        super().__init__(name)
        self.outer_graph = outer_graph
        self.inputs: list[SymbolicTensor] = []
        self.outputs: list[SymbolicTensor] = []
        self.structured_outputs = None
        self.captures: dict[int, tuple[object, SymbolicTensor]] = {}
        # (tensor in the outer graph, placeholder here), in capture order
        self.capture_pairs: list[tuple[SymbolicTensor, SymbolicTensor]] = []
        # set by runtime.function.trace on a function's own graph: whether Variables may be created
        # ("allowed" on the first trace, "again" on the trace that follows a first trace that created some,
        # "second trace" after), whether the trace created some, and the eager tensors of the call that
        # caused the trace, from which a Variable created now gets its initial value
        self.variable_creation: Optional[str] = None
        self.created_variables = False
        self.feeds: Optional[list] = None

    def _header(self) -> str:
        inputs = ", ".join(t.name for t in self.inputs)
        outputs = ", ".join(t.name for t in self.outputs)
        return f"{self.name}({inputs}) -> ({outputs})"

    def placeholder(self, dtype: dtypes.DType, shape, name: str = "input") -> SymbolicTensor:
        t = self.create_op(PLACEHOLDER, (), {"dtype": dtype, "shape": as_shape(shape)},
                           [Spec(dtype, as_shape(shape))], name)[0]
        self.inputs.append(t)
        return t

    def capture(self, t):
        """As `Graph.capture`, but in a branch or loop body an eager float tensor becomes an input of the `Cond`
        or `While` (the tensor itself outside it), not a Const: a tape watching it then sees it go in (its
        gradient was None inside a function)."""
        if isinstance(t, EagerTensor) and self.outer_graph is not None and (t.dtype.is_floating or t.dtype.is_complex):
            return self._capture_symbolic(t)
        return super().capture(t)

    def _capture_symbolic(self, t):
        found = self.captures.get(id(t))
        if found is not None:
            return found[1]
        if self.outer_graph is None:
            return super()._capture_symbolic(t)
        eager = isinstance(t, EagerTensor)
        external = t if eager else self.outer_graph.capture(t)
        ph = self.placeholder(t.dtype, t.shape, name=f"capture_{'eager' if eager else t.op.name}")
        self.captures[id(t)] = (t, ph)
        self.capture_pairs.append((external, ph))
        if registry.context.weak is not None:
            registry.context.weak.alias(t, ph)
        python_ints.copy_mark(self, t, ph)
        if (origin := dtype_origins.of(t)) is not None:
            dtype_origins.record(self, ph, *origin)
        return ph

    @property
    def variables(self) -> list:
        """The Variables this graph reads or writes (through `handle` attributes)."""
        handles = {}
        for op in self.operations:
            handle = op.attrs.get("handle")
            if handle is not None:
                handles[id(handle)] = handle
        return list(handles.values())


@contextlib.contextmanager
def building(graph: Graph) -> Iterator[Graph]:
    """Make `graph` the one ops are recorded into, on this thread, with no tape recording yet."""
    context = registry.context
    previous = context.graph, context.tapes
    context.graph, context.tapes = graph, ()
    try:
        yield graph
    finally:
        context.graph, context.tapes = previous


@contextlib.contextmanager
def conversion_status(converted: bool) -> Iterator[None]:
    """While a function converted by autograph (`converted`) or one that isn't is traced on this thread: the
    functions it hands to `cond`, `while_loop`, `map_fn`... are converted in the first case only, as
    TensorFlow's control status decides (`control_flow.converted`)."""
    context = registry.context
    previous, context.autograph = context.autograph, converted
    try:
        yield
    finally:
        context.autograph = previous


def current_graph() -> Optional[Graph]:
    return registry.context.graph


def unknown_shape() -> TensorShape:
    return TensorShape(None)
